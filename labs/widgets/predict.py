"""Predict first: a lab's headline cards keep their figure covered until the student guesses it.

The comparison and the running score come from :mod:`core.practice.calibration`; this
widget only covers the cards, reads the guesses and writes what core found.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import panel as pn
import param

from core.evidence.cases import METRIC_NAMES
from core.practice.calibration import GUESS_UNITS, WITHIN, Calibration, Reveal, reveal
from core.practice.reading import examples
from labs.page import format as fmt
from labs.page.cards import CardRow
from labs.page.text import LiveHTML

GAP_WORDS = {
    "guess": "your guess against the whiteboard",
    "whiteboard": "the whiteboard against the engine level",
    "measured": "the engine level against the published measurement",
}


def reveal_html(label: str, found: Reveal, show: Callable[[float], str]) -> str:
    """One card's reveal: the guess beside each level, the measurement, and the largest gap."""
    if not found.ok:
        return f'<div class="reveal" data-reveal="{escape(label)}"><b>{escape(label)}</b>: {escape(found.reading.message)}</div>'
    verdict = (
        f'<span class="better">within {fmt.percent(WITHIN)}</span>'
        if found.within
        else f'<span class="worse">off by {fmt.percent(found.miss)}</span>'
    )
    rows = [
        f"your guess <b>{escape(show(found.reading.value))}</b> ({verdict})",
        f"whiteboard <b>{escape(show(found.whiteboard))}</b>",
        f"engine level <b>{escape(show(found.engine))}</b>",
    ]
    if found.case is not None:
        case = found.case
        rows.append(
            f"published case {escape(case.key)} ({escape(case.engine)}, {escape(case.load_text)}, "
            f"{fmt.count(case.prompt_tokens)}-token prompts; {escape(METRIC_NAMES[case.metric])}): "
            f"measured <b>{escape(show(found.measured))}</b>, the engine level says "
            f"{escape(show(found.case_engine))} for that set-up"
        )
    gap = f"Largest gap: {escape(GAP_WORDS[found.largest_gap])}."
    if found.effect is not None:
        gap += (
            f" Between the levels the term that moves it most: {escape(found.effect.label)} "
            f"(\u00d7{found.effect.factor:.2f})."
        )
    else:
        gap += " No engine-level term moves this figure by more than 10 %."
    items = "".join(f"<li>{row}</li>" for row in rows)
    return (
        f'<div class="reveal" data-reveal="{escape(label)}"><b>{escape(label)}</b>'
        f'<ul class="facts">{items}</ul><p class="small">{gap}</p></div>'
    )


def score_html(calibration: Calibration) -> str:
    """The session's running calibration score in one line."""
    if not calibration.guesses:
        return '<p class="small muted" data-calibration>No guesses yet this session.</p>'
    return (
        f'<p class="small" data-calibration>Your calibration this session: '
        f"<b>{fmt.percent(calibration.share_within)}</b> of {fmt.count(calibration.guesses)} "
        f"guesses within {fmt.percent(WITHIN)}; median miss <b>{fmt.percent(calibration.median_miss)}</b>.</p>"
    )


class PredictCards(pn.viewable.Viewer):
    """A lab's :class:`CardRow` with "predict first": figures covered after a change until guessed."""

    enabled = param.Boolean(default=False, doc="Cover the figures after a change until guessed.")
    calibration = param.ClassSelector(class_=Calibration, doc="The session's running score.")

    def __init__(self, row: CardRow, fields: dict[str, str], formats: dict[str, Callable],
                 scenario, overrides: Callable[[], dict] = dict, owner=None,
                 owner_names=(), **params):  # fmt: skip
        super().__init__(calibration=params.pop("calibration", None) or Calibration(), **params)
        self.row, self.fields, self.formats = row, fields, formats
        self.scenario, self.overrides = scenario, overrides
        self.inputs = {
            label: pn.widgets.TextInput(
                name=f"your guess: {label}",
                placeholder=examples(*GUESS_UNITS[field]).split(";")[0],
                sizing_mode="stretch_width",
                margin=(0, 8, 0, 0),
            )
            for label, field in fields.items()
        }
        for label, box in self.inputs.items():
            box.param.watch(lambda event, label=label: self._guess(label, event.new), "value")
        self.button = pn.widgets.Button(label="Reveal", color="primary", margin=(18, 0, 0, 0))
        self.button.on_click(lambda _event: self._reveal_typed())
        self.reveals: dict[str, str] = {}
        self.text = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.guesses = pn.Column(
            pn.Row(*self.inputs.values(), self.button, sizing_mode="stretch_width", margin=0),
            self.text,
            sizing_mode="stretch_width",
            margin=(0, 0, 6, 0),
            visible=False,
            styles={"border-left": "4px solid #f5a623", "padding-left": "10px"},
        )
        scenario.param.watch(self._changed, list(scenario.knobs()))
        if owner is not None and owner_names:
            owner.param.watch(self._changed, list(owner_names))
        self._layout = pn.Column(self.row, self.guesses, sizing_mode="stretch_width", margin=0)

    @param.depends("enabled", watch=True)
    def _toggled(self) -> None:
        self.guesses.visible = self.enabled
        self._cover()

    def _changed(self, *_events) -> None:
        if self.enabled:
            self._cover()

    def _cover(self) -> None:
        """Cover every guessable figure and forget the last configuration's guesses."""
        self.reveals = {}
        with pn.io.hold():
            for box in self.inputs.values():
                box.param.update(value="", disabled=False)
            self.row.hide(self.fields if self.enabled else ())
            self._write()

    def _reveal_typed(self) -> None:
        for label, box in self.inputs.items():
            typed = box.value_input or box.value
            if typed and label not in self.reveals:
                self._guess(label, typed)

    def _guess(self, label: str, text: str) -> None:
        if not self.enabled or not text or self.inputs[label].disabled:
            return
        found = reveal(self.scenario, self.fields[label], text, **self.overrides())
        self.reveals[label] = reveal_html(label, found, self.formats[self.fields[label]])
        if found.ok:
            self.calibration.record(found)
            self.inputs[label].disabled = True
            self.row.hide(set(self.row.hidden) - {label})
        self._write()

    def _write(self) -> None:
        body = "".join(self.reveals.values())
        self.text.object = f'<div class="lab">{body}{score_html(self.calibration)}</div>'

    def __panel__(self):
        return self._layout
