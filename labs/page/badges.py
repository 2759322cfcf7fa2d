"""Pass/fail badges for the service level checks, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import panel as pn

from core import BUDGET_USD_PER_MONTH, TTFT_SLO_S
from labs.page import format as fmt
from labs.page.text import LiveHTML


@dataclass(frozen=True)
class Verdict:
    """One check: its name, whether it passes and a sentence saying why."""

    name: str
    ok: bool
    reason: str


def verdicts(result) -> list[Verdict]:
    """The three checks of a pool result, each with the figure behind it."""
    ttft = fmt.duration(result.ttft_p95_s, result.queue_unbounded)
    serves = result.seats_granted >= 1
    if not serves:
        latency_why = "no seat fits in memory, so no request ever gets a first token"
    elif result.queue_unbounded:
        latency_why = "the queue never drains: no seat can be granted or load exceeds the seats"
    elif result.latency_ok:
        latency_why = f"p95 first token {ttft}, under {fmt.count(TTFT_SLO_S * 1000)} ms"
    else:
        wait = fmt.duration(result.queue_wait_p95_s)
        prefill = fmt.duration(result.prompt_s)
        latency_why = f"p95 first token {ttft} ({prefill} prefill + {wait} queue), over {fmt.count(TTFT_SLO_S * 1000)} ms"
    granted, asked = result.seats_granted, result.seats_requested
    if result.capacity_ok:
        capacity_why = (
            "memory grants the one requested seat"
            if asked == 1
            else f"memory grants all {fmt.count(asked)} requested seats"
        )
    elif not result.weights_fit:
        capacity_why = f"the weights alone overflow the node; the model needs {fmt.plural(result.cards_needed, 'card')}"
    elif not serves:
        capacity_why = (
            f"memory grants none of the {fmt.plural(asked, 'requested seat')}: "
            "one request's cache is larger than all the room"
        )
    else:
        capacity_why = f"memory grants {fmt.count(granted)} of {fmt.count(asked)} seats; the rest queue silently"
    bill = fmt.dollars(result.monthly_usd)
    budget = fmt.dollars(BUDGET_USD_PER_MONTH)
    nodes = fmt.plural(result.nodes, "node")
    if serves:
        cost_why = f"{nodes}, {bill} a month, {'within' if result.cost_ok else 'over'} the {budget} ceiling"
    else:
        cost_why = f"nothing is served, so {bill} a month for {nodes} would buy no answers"
    return [
        Verdict("latency", bool(result.latency_ok), latency_why),
        Verdict("capacity", bool(result.capacity_ok), capacity_why),
        Verdict("cost", bool(result.cost_ok), cost_why),
    ]


def badges_html(items: list[Verdict]) -> str:
    """The badges as HTML."""
    parts = []
    for item in items:
        state = "pass" if item.ok else "fail"
        icon = "\u2713" if item.ok else "\u2717"
        parts.append(
            f'<div class="badge {state}" data-badge="{item.name}" data-state="{state}">'
            f'<div class="head"><span class="icon">{icon}</span>{escape(item.name)}: {state}</div>'
            f'<div class="why">{escape(item.reason)}</div></div>'
        )
    return f'<div class="lab"><div class="badges">{"".join(parts)}</div></div>'


def chips_html(items: list[Verdict]) -> str:
    """Compact pass/fail chips, for a one-line verdict."""
    chips = "".join(
        f'<span class="chip {"pass" if item.ok else "fail"}" data-chip="{item.name}">'
        f"{escape(item.name)}: {'pass' if item.ok else 'fail'}</span>"
        for item in items
    )
    return f'<span class="verdicts">{chips}</span>'


class BadgeRow(pn.viewable.Viewer):
    """The three SLO badges, updated in place."""

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.items: list[Verdict] = []

    def update(self, items: list[Verdict]) -> None:
        """Show ``items``."""
        self.items = items
        self._pane.object = badges_html(items)

    def __panel__(self):
        return self._pane
