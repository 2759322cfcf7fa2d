"""The pool lab's fleet: the router and the hit rate's source beside the knob, routers compared."""

from __future__ import annotations

from html import escape

import panel as pn

from core import Scenario
from core.studies.fleet import affinity_ceiling, compare_routers
from labs.page import format as fmt
from labs.page.layout import section
from labs.page.text import LiveHTML
from labs.widgets import knobs as ui

ROUTER_LABELS = {"round-robin": "round-robin", "least busy": "least-outstanding",
                 "affinity": "prefix-affinity"}  # fmt: skip
SOURCE_LABELS = {"hit rate: the knob": "knob", "derived from the fleet": "derived"}


def fleet_controls(scenario: Scenario) -> tuple[list, LiveHTML]:
    """The rows beside the hit-rate knob, and the line that shows the derived rate."""
    derived = LiveHTML("", sizing_mode="stretch_width", margin=(0, 10))
    return [
        ui.choice_buttons(scenario, "prefix_source", SOURCE_LABELS),
        ui.choice_buttons(scenario, "router", ROUTER_LABELS),
        derived,
    ], derived


def fleet_section(view) -> pn.Column:
    """The results column's section around the routers' table, shown for a fleet."""
    return section(
        "The fleet: routers side by side",
        view,
        note="Where the router sends a session decides whether its prefix is still cached.",
        margin=(8, 0, 0, 0),
        visible=False,
    )


def derived_line(scenario: Scenario, result) -> str:
    """What the hit-rate knob now means, and the rate the fleet finds."""
    if scenario.prefix_source != "derived":
        return ""
    knob = (
        f"the sessions' turns decide (the knob's {fmt.percent(scenario.prefix_hit_rate)} is not read)"
        if scenario.session_turns is not None
        else f"the knob's {fmt.percent(scenario.prefix_hit_rate)} is the reusable share of a prompt"
    )
    return (
        f'<div class="lab small" data-derived-hit>Derived: <b>{fmt.percent(result.hit_rate, 1)}</b> '
        f"of prompt tokens found, {escape(scenario.router)} over "
        f"{fmt.plural(result.nodes, 'replica')}; {knob}.</div>"
    )


def fleet_html(scenario: Scenario) -> str:
    """The routers side by side on the scenario's fleet."""
    rows = compare_routers(scenario)
    body = "".join(
        f'<tr data-router="{escape(row.router)}"><td>'
        f"{'▸ ' if row.router == scenario.router else ''}{escape(row.router)}</td><td>{fmt.percent(row.hit_rate, 1)}</td>"
        f"<td>{fmt.duration(row.prefill_s)}</td><td>{fmt.duration(row.ttft_p95_s)}</td>"
        f"<td>{fmt.percent(row.goodput, 1)}</td></tr>"
        for row in rows
    )
    nodes = rows[0].nodes
    return (
        '<div class="lab" data-fleet>'
        "<style>.fleet-table td, .fleet-table th {padding: 2px 18px 2px 0; text-align: left}</style>"
        '<table class="fleet-table"><tr><th>router</th><th>derived hit rate</th>'
        "<th>prefill</th><th>TTFT p95, closed form</th><th>goodput, closed form</th></tr>"
        f"{body}</table>"
        f'<p class="small muted">{fmt.plural(nodes, "replica")}, each keeping in its spare KV room '
        "the prefixes of the sessions it served last (LRU); sessions of five turns, so no router "
        f"finds more than {fmt.percent(affinity_ceiling(scenario), 1)}. Round-robin and least-busy "
        "routing spread every session over every replica, so each replica must cache every "
        "session; affinity keeps a session on one, and each cache holds only its own share.</p>"
        "</div>"
    )
