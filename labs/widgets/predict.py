"""Predict first: a lab's headline cards keep their figure covered until the student guesses it.

While any card waits for its guess, every part of the lab that shows or implies a covered
figure (its "giveaways": checks, notes, ledger, derivations, chart markers, the other
workload's chips) is covered too, and comes back once the last card is guessed. The
comparison and the running score come from :mod:`core.practice.calibration`; this widget
only covers, reads the guesses and writes what core found.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from html import escape

import panel as pn
import param

from core.evidence.cases import METRIC_NAMES
from core.practice.calibration import GUESS_UNITS, WITHIN, Calibration, Reveal, reveal
from core.practice.reading import examples
from labs.page import format as fmt
from labs.page.cards import CardRow
from labs.page.text import LiveHTML

# What a guessable figure is called and how it is written (as the labs' cards write it): the
# report, the tour and its record all name and write a guess this way.
GUESSED = {
    "seats_granted": ("live seats", fmt.count),
    "ttft_p95_s": ("p95 first token", fmt.duration),
    "prefill_s": ("prefill", fmt.duration),
    "decode_tokens_per_s": ("decode rate", fmt.rate),
    "monthly_usd": ("monthly bill", fmt.dollars),
    "kv_bytes_per_token": ("KV bytes per token", lambda n: f"{fmt.count(n)} bytes"),
    "seat_kv_bytes": ("KV bytes per seat", fmt.memory),
}
GAP_WORDS = {
    "guess": "your guess vs the whiteboard",
    "whiteboard": "whiteboard vs engine level",
    "measured": "engine level vs the measurement",
}
HEAD = (
    "<tr><th>card</th><th>your guess</th><th class=num>whiteboard</th>"
    "<th class=num>engine level</th><th>published measurement</th><th>largest gap, and why</th></tr>"
)


# A covered part is taken out of the page by its style, so a lab's own ``visible`` (a section
# shown only on some traffic, a preset's story) keeps its meaning underneath. Uncovering
# writes the empty value: the browser drops a style only when told to, not when it is left out.
COVERED_STYLE = {"display": "none"}
UNCOVERED_STYLE = {"display": ""}


def cover(parts: Sequence, covered: bool) -> None:
    """Take ``parts`` (panes, layouts or viewers) out of the page, or put them back."""
    for part in parts:
        shown = part.__panel__() if isinstance(part, pn.viewable.Viewer) else part
        shown.styles = {**shown.styles, **(COVERED_STYLE if covered else UNCOVERED_STYLE)}


def is_covered(part) -> bool:
    """Whether :func:`cover` has taken ``part`` out of the page."""
    shown = part.__panel__() if isinstance(part, pn.viewable.Viewer) else part
    return shown.styles.get("display") == COVERED_STYLE["display"]


def reveal_html(label: str, found: Reveal, show: Callable[[float], str]) -> str:
    """One card's reveal as a table row: the guess beside each level, a measurement, the gap."""
    name = f"<td><b>{escape(label)}</b></td>"
    if not found.ok:
        return f'<tr data-reveal="{escape(label)}">{name}<td colspan=5>{escape(found.reading.message)}</td></tr>'
    verdict = (
        f'<span class="better">within {fmt.percent(WITHIN)}</span>'
        if found.within
        else f'<span class="worse">off by {fmt.percent(found.miss)}</span>'
    )
    measured = "none on this node"
    if found.case is not None:
        case = found.case
        measured = (
            f"<b>{escape(show(found.measured))}</b> ({escape(case.key)}, {escape(case.engine)}, "
            f"{escape(METRIC_NAMES[case.metric])}, {escape(case.load_text)}, "
            f"{fmt.count(case.prompt_tokens)}-token prompts; engine level there "
            f"{escape(show(found.case_engine))})"
        )
    why = escape(GAP_WORDS[found.largest_gap])
    if found.effect is not None:
        why += (
            f'. <span class="muted">Between the levels, mostly: {escape(found.effect.label)} '
            f"(\u00d7{found.effect.factor:.2f})</span>"
        )
    else:
        why += '. <span class="muted">No engine-level term moves it by more than 10 %.</span>'
    return (
        f'<tr data-reveal="{escape(label)}">{name}<td>{escape(show(found.reading.value))} {verdict}</td>'
        f"<td class=num>{escape(show(found.whiteboard))}</td><td class=num>{escape(show(found.engine))}</td>"
        f'<td class="small">{measured}</td><td class="small">{why}</td></tr>'
    )


def score_html(calibration: Calibration) -> str:
    """The session's running calibration score in one line."""
    if not calibration.guesses:
        return '<p class="small muted" data-calibration>No guesses yet this session.</p>'
    return (
        f'<p class="small" data-calibration>Your calibration this session: '
        f"<b>{fmt.percent(calibration.share_within)}</b> of {fmt.count(calibration.guesses)} "
        f"{'guess' if calibration.guesses == 1 else 'guesses'} within {fmt.percent(WITHIN)}; median miss <b>{fmt.percent(calibration.median_miss)}</b>.</p>"
    )


class PredictCards(pn.viewable.Viewer):
    """A lab's :class:`CardRow` with "predict first": figures covered after a change until guessed.

    ``giveaways`` returns the lab's parts that show or imply a covered figure: they are covered
    while any card is, as are the notes of the cards labelled in ``implied`` (an uncovered card
    whose note follows from a covered figure).
    """

    enabled = param.Boolean(default=False, doc="Cover the figures after a change until guessed.")
    calibration = param.ClassSelector(class_=Calibration, doc="The session's running score.")

    def __init__(self, row: CardRow, fields: dict[str, str], formats: dict[str, Callable],
                 scenario, overrides: Callable[[], dict] = dict, owner=None,
                 owner_names=(), giveaways: Callable[[], Sequence] = tuple,
                 implied: Sequence[str] = (), **params):  # fmt: skip
        super().__init__(calibration=params.pop("calibration", None) or Calibration(), **params)
        self.row, self.fields, self.formats = row, fields, formats
        self.scenario, self.overrides, self.giveaways = scenario, overrides, giveaways
        self.implied = frozenset(implied)
        self.reveals: dict[str, str] = {}
        # The boxes are built when predict first is first switched on: most sessions never do.
        self.inputs: dict[str, pn.widgets.TextInput] = {}
        self.text = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.guesses = pn.Column(
            sizing_mode="stretch_width",
            margin=(0, 0, 6, 0),
            visible=False,
            styles={"border-left": "4px solid #f5a623", "padding-left": "10px"},
        )
        scenario.param.watch(self._changed, list(scenario.knobs()))
        if owner is not None and owner_names:
            owner.param.watch(self._changed, list(owner_names))
        self._layout = pn.Column(self.row, self.guesses, sizing_mode="stretch_width", margin=0)

    def _build_guesses(self) -> None:
        """The guess boxes, the Reveal button and the reveals' table, built once."""
        self.inputs = {
            label: pn.widgets.TextInput(
                label=label,
                placeholder=examples(*GUESS_UNITS[field]).split(";")[0],
                width=180,
                margin=(0, 8, 4, 0),
            )
            for label, field in self.fields.items()
        }
        for label, box in self.inputs.items():
            box.param.watch(lambda event, label=label: self._guess(label, event.new), "value")
        self.button = pn.widgets.Button(label="Reveal", color="primary", margin=(0, 0, 4, 0))
        self.button.on_click(lambda _event: self._reveal_typed())
        self.guesses.objects = [
            LiveHTML(
                '<div class="lab small"><b>Predict first.</b> Type a guess for each covered '
                "card, in any unit; Enter reveals it. The checks, notes and charts below come "
                "back once every card is guessed.</div>",
                sizing_mode="stretch_width",
                margin=0,
            ),
            # The boxes wrap onto a second line where presenter type makes them wide.
            pn.FlexBox(
                *self.inputs.values(),
                self.button,
                flex_wrap="wrap",
                align_items="flex-end",
                sizing_mode="stretch_width",
                margin=0,
            ),
            self.text,
        ]

    @param.depends("enabled", watch=True)
    def _toggled(self) -> None:
        if self.enabled and not self.inputs:
            self._build_guesses()
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
            self._cover_giveaways()
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
            self.row.hide([name for name in self.row.hidden if name != label])
            self._cover_giveaways()
        self._write()

    def _cover_giveaways(self) -> None:
        """The parts that would give a covered card away: covered while any card is."""
        waiting = self.enabled and bool(self.row.hidden)
        cover(self.giveaways(), waiting)
        self.row.quiet = self.implied if waiting else frozenset()
        self.row.update(self.row.cards)

    def _write(self) -> None:
        rows = "".join(self.reveals.values())
        table = f'<table class="grid reveals">{HEAD}{rows}</table>' if rows else ""
        self.text.object = f'<div class="lab">{table}{score_html(self.calibration)}</div>'

    def __panel__(self):
        return self._layout
