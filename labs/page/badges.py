"""Pass/fail badges for the service level checks, each with its reason."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import panel as pn

from core import BUDGET_USD_PER_MONTH, TTFT_SLO_S
from core.traffic.replay import latency_check
from labs.page import format as fmt
from labs.page.text import LiveHTML


@dataclass(frozen=True)
class Verdict:
    """One check: its name, whether it passes and a sentence saying why."""

    name: str
    ok: bool
    reason: str
    judged: str = ""  # the figures it judged where not the level on screen: "replayed hour"


def verdicts(result, hour=None, replays: bool = False) -> list[Verdict]:
    """The three checks of a pool result, each with the figure behind it.

    ``replays``: the traffic's hour is replayed; then the latency check is core's on
    ``hour`` (:func:`core.traffic.replay.latency_check`: the replay once it is in, the
    closed form while it runs or when it was refused) and its reason names which it judged.
    """
    granted, asked = result.seats_granted, result.seats_requested
    serves = granted >= 1
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
        _latency_verdict(result, hour, replays),
        Verdict("capacity", bool(result.capacity_ok), capacity_why),
        Verdict("cost", bool(result.cost_ok), cost_why),
    ]


def _latency_verdict(result, hour, replays: bool) -> Verdict:
    """The latency badge: core's check on the replayed hour or the closed form, saying which."""
    check = latency_check(result, hour)
    if not replays:
        return Verdict("latency", check.ok, _latency_why(result))
    if check.judged == "replayed hour":
        closed = fmt.duration(result.ttft_p95_s, result.queue_unbounded)
        return Verdict(
            "latency",
            check.ok,
            f"the replayed hour: p95 first token {fmt.duration(check.ttft_p95_s)}, "
            f"{'under' if check.ok else 'over'} {fmt.count(TTFT_SLO_S * 1000)} ms "
            f"(the closed form, at one steady rate: {closed})",
            check.judged,
        )
    why_not = "the hour is replaying" if hour is None else "the hour was not replayed"
    return Verdict("latency", check.ok, f"closed form ({why_not}): {_latency_why(result)}")


def _latency_why(result) -> str:
    """Why the closed form's latency check passes or fails, with its figures."""
    ttft = fmt.duration(result.ttft_p95_s, result.queue_unbounded)
    if result.seats_granted < 1:
        return "no seat fits in memory, so no request ever gets a first token"
    if result.queue_unbounded:
        return "the queue never drains: no seat can be granted or load exceeds the seats"
    if result.latency_ok:
        return f"p95 first token {ttft}, under {fmt.count(TTFT_SLO_S * 1000)} ms"
    wait = fmt.duration(result.queue_wait_p95_s)
    prefill = fmt.duration(result.prompt_s)
    return f"p95 first token {ttft} ({prefill} prefill + {wait} queue), over {fmt.count(TTFT_SLO_S * 1000)} ms"


def badges_html(items: list[Verdict], judged: str = "") -> str:
    """The badges as HTML, under ``judged`` (which figures they judge) when given."""
    parts = []
    for item in items:
        state = "pass" if item.ok else "fail"
        icon = "\u2713" if item.ok else "\u2717"
        parts.append(
            f'<div class="badge {state}" data-badge="{item.name}" data-state="{state}">'
            f'<div class="head"><span class="icon" aria-hidden="true">{icon}</span>{escape(item.name)}: {state}</div>'
            f'<div class="why">{escape(item.reason)}</div></div>'
        )
    head = f'<p class="judged small muted" data-judged>{escape(judged)}</p>' if judged else ""
    return f'<div class="lab">{head}<div class="badges">{"".join(parts)}</div></div>'


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

    def update(self, items: list[Verdict], judged: str = "") -> None:
        """Show ``items``, under ``judged`` (which figures they judge) when given."""
        self.items = items
        self._pane.object = badges_html(items, judged)

    def __panel__(self):
        return self._pane
