"""Multi-turn sessions beside the hit-rate knob: the hit rate the pool's caches would give.

The knobs are the scenario's (turns per session, think time, growth per turn); the hit rate
they derive is shown, not imposed: the hit-rate knob stays what the evaluation reads, and a
button copies the derived rate into it.
"""

from __future__ import annotations

from html import escape

import panel as pn

from core.cache.session_table import MISS, SessionCache, scenario_sessions
from labs.page import format as fmt
from labs.page.text import LiveHTML


def derived_sentence(cache: SessionCache | None) -> str:
    """One line: the ideal and the derived hit rate, and the tiers that serve it."""
    if cache is None:
        return "Set turns per session to derive the hit rate from the caches instead."
    served = ", ".join(
        f"{escape(name)} {fmt.percent(share)}" for name, share in cache.tier_shares.items() if share
    )
    where = f" ({served})" if served else ": every turn's prefix was evicted before it came back"
    return (
        f"Sessions would reuse <b>{fmt.percent(cache.ideal_hit_rate)}</b> of their tokens with "
        f"an endless cache; this pool's caches keep <b>{fmt.percent(cache.hit_rate)}</b>{where}. "
        f"{fmt.memory(cache.write_bytes_per_s)}/s of other sessions' context passes through a "
        f"node's cache in the {fmt.duration(cache.interval_s)} between turns."
    )


def turns_table(cache: SessionCache | None) -> str:
    """A session's turns: context, reused prefix, and the tier each prefix came from."""
    if cache is None:
        return ""
    rows = "".join(
        f'<tr data-turn="{turn.turn}" class="{"miss" if turn.tier == MISS else ""}">'
        f'<td class="num">{turn.turn}</td><td class="num">{fmt.count(turn.context_tokens)}</td>'
        f'<td class="num">{fmt.count(turn.prefix_tokens)}</td>'
        f"<td>{escape(turn.tier or 'first turn: nothing to reuse')}</td></tr>"
        for turn in cache.turns
    )
    return (
        '<table class="grid" data-session-turns><thead><tr><th class="num">turn</th>'
        '<th class="num">context</th><th class="num">reused prefix</th><th>came from</th>'
        f"</tr></thead><tbody>{rows}</tbody></table>"
    )


class SessionKnobs(pn.viewable.Viewer):
    """The session knobs, the derived hit rate, and a button that copies it to the hit-rate knob."""

    def __init__(self, scenario, **params):
        super().__init__(**params)
        self.scenario = scenario
        box = {"width": 82, "margin": (2, 4)}
        self.turns = pn.widgets.IntInput.from_param(
            scenario.param.session_turns, name="Turns", start=1, end=10_000, **box
        )
        self.think = pn.widgets.FloatInput.from_param(
            scenario.param.think_time_s, name="Think (s)", start=0.0, end=86_400.0, **box
        )
        self.growth = pn.widgets.IntInput.from_param(
            scenario.param.turn_growth_tokens, name="Growth", start=0, end=1_000_000, **box
        )
        self.sentence = LiveHTML("", sizing_mode="stretch_width", margin=(0, 10))
        self.use = pn.widgets.Button(
            label="Use the derived hit rate", color="light", visible=False, margin=(2, 10)
        )
        self.use.on_click(self._use)
        self._derived = None
        self.toggle = pn.widgets.Toggle(
            label="Multi-turn sessions", color="primary", variant="outline",
            value=scenario.session_turns is not None, sizing_mode="stretch_width",
            margin=(6, 10, 2, 10),
        )  # fmt: skip
        self.body = pn.Column(
            LiveHTML(
                '<div class="lab small muted">Turns each, seconds between turns, tokens each '
                "turn adds (growth): the hit rate the caches would give.</div>",
                sizing_mode="stretch_width", margin=(0, 10),
            ),
            pn.Row(self.turns, self.think, self.growth, sizing_mode="stretch_width", margin=0),
            self.sentence,
            self.use,
            sizing_mode="stretch_width", margin=0,
        )  # fmt: skip
        self.toggle.param.watch(self._toggled, "value")
        scenario.param.watch(self._sessions_set, "session_turns")
        shown = [self.toggle, self.body] if self.toggle.value else [self.toggle]
        self._layout = pn.Column(*shown, sizing_mode="stretch_width", margin=0)

    def _sessions_set(self, event) -> None:
        if event.new is not None:  # a link or a preset set sessions: show their knobs
            self.toggle.value = True

    def _toggled(self, event) -> None:
        # swapping the column's children redraws reliably; flipping a nested column's
        # ``visible`` from a later update did not always reach the browser
        self._layout.objects = [self.toggle, self.body] if event.new else [self.toggle]

    def update(self, result) -> SessionCache | None:
        """Derive the sessions' hit rate for ``result``; returns it for a turns table."""
        cache = scenario_sessions(self.scenario, result)
        self._derived = None if cache is None else cache.hit_rate
        self.sentence.object = (
            f'<div class="lab small" data-derived-hit>{derived_sentence(cache)}</div>'
        )
        self.use.visible = cache is not None
        if cache is not None and not self.toggle.value:  # sessions set elsewhere (a link)
            self.toggle.value = True
        return cache

    def _use(self, _event) -> None:
        if self._derived is not None:
            self.scenario.prefix_hit_rate = round(min(max(self._derived, 0.0), 1.0), 2)

    def __panel__(self):
        return self._layout
