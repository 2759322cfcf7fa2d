"""Pinned configurations: up to three snapshots of the shared knobs, kept in the link.

A pin holds the knobs that differ from the defaults, written ``key:value`` and joined with
commas; pins are joined with ``|`` (``pins=seats:64,tier:large|kv_dtype:fp8``). A link's
pins are read as every other link value is: a bad entry is dropped with a notice.
"""

from __future__ import annotations

from html import escape

import panel as pn
import param

from core import KNOBS, Scenario
from labs.knobs import UI_RANGES, knob_label, knob_value
from labs.text import LiveHTML
from labs.url import _IGNORE, Binding, parse, serialise

MAX_PINS = 3
LETTERS = "ABC"
# Three pins of every knob fit comfortably; anything longer is not a link this page wrote.
MAX_PINS_LENGTH = 1200
# A pasted config.json is full of commas and colons and too long for a pin: pins leave it out.
UNPINNED = frozenset({"model_config"})


def encode(configurations: list[dict]) -> str:
    """Pins as they appear in a link: each pin's non-default knobs, in the Scenario's order."""
    return "|".join(
        ",".join(
            f"{knob}:{serialise(knobs[knob])}"
            for knob in KNOBS
            if knob in knobs and knob not in UNPINNED
        )
        or "defaults"
        for knobs in configurations
    )


def decode(text: str) -> tuple[list[dict], list[str]]:
    """``(configurations, notices)`` for a link's pins; bad entries are dropped and reported."""
    configurations, notices = [], []
    scratch = Scenario()
    for part in [p for p in text.split("|") if p][:MAX_PINS]:
        knobs = {}
        for entry in part.split(","):
            if entry in ("", "defaults"):
                continue
            knob, _, value = entry.partition(":")
            if knob not in KNOBS:
                notices.append(f"pins: {knob[:24]!r} is not a knob: ignored")
                continue
            parsed, notice = parse(Binding(knob, scratch, knob, UI_RANGES.get(knob)), value)
            if notice:
                notices.append(f"pins: {notice}")
            if parsed is not _IGNORE and parsed != Scenario.param[knob].default:
                knobs[knob] = parsed
        configurations.append(knobs)
    if len([p for p in text.split("|") if p]) > MAX_PINS:
        notices.append(f"pins: only the first {MAX_PINS} are kept")
    return configurations, notices


def describe(knobs: dict) -> str:
    """A pin in words: its knobs that differ from the defaults."""
    if not knobs:
        return "the defaults"
    return " \u00b7 ".join(f"{knob_label(k)} {knob_value(k, v)}" for k, v in knobs.items())


class PinBoard(param.Parameterized):
    """The session's pins: what the link holds, and the configurations it stands for."""

    pins = param.String(default="", doc="Pinned configurations as the link writes them.")

    def __init__(self, **params):
        super().__init__(**params)
        self.configurations: list[dict] = []
        self.notices: list[str] = []
        self._read()

    @param.depends("pins", watch=True)
    def _read(self) -> None:
        self.configurations, self.notices = decode(self.pins)

    def pin(self, scenario: Scenario) -> None:
        """Pin ``scenario``'s knobs (those that differ from the defaults); at most three."""
        if len(self.configurations) >= MAX_PINS:
            return
        knobs = {
            knob: value
            for knob, value in scenario.knobs().items()
            if value != Scenario.param[knob].default
        }
        self.pins = encode([*self.configurations, knobs])

    def unpin(self, index: int) -> None:
        """Forget pin ``index``; the later pins move up a letter."""
        kept = [c for i, c in enumerate(self.configurations) if i != index]
        self.pins = encode(kept)

    def binding(self) -> Binding:
        """Where the pins live in the link."""
        return Binding("pins", self, "pins", max_length=MAX_PINS_LENGTH)


class PinBar(pn.viewable.Viewer):
    """The pin button and one chip per pin, above every lab."""

    def __init__(self, board: PinBoard, scenario: Scenario, **params):
        super().__init__(**params)
        self.board, self.scenario = board, scenario
        self.pin_button = pn.widgets.Button(label="Pin as A", color="primary", margin=(0, 8, 0, 0))
        self.pin_button.on_click(lambda _event: board.pin(scenario))
        self.chips = LiveHTML("", margin=(0, 4), sizing_mode="stretch_width")
        self.unpin_buttons = []
        for index in range(MAX_PINS):
            button = pn.widgets.Button(
                label=f"Unpin {LETTERS[index]}", visible=False, margin=(0, 4), width=90
            )
            button.on_click(lambda _event, i=index: board.unpin(i))
            self.unpin_buttons.append(button)
        board.param.watch(self._show, "pins")
        self._layout = pn.Row(
            self.pin_button,
            self.chips,
            *self.unpin_buttons,
            sizing_mode="stretch_width",
            margin=(0, 0, 8, 0),
            styles={"align-items": "center"},
        )
        self._show()

    def _show(self, *_events) -> None:
        count = len(self.board.configurations)
        full = count >= MAX_PINS
        with pn.io.hold():
            self.pin_button.label = "Three pins: unpin one" if full else f"Pin as {LETTERS[count]}"
            self.pin_button.disabled = full
            for index, button in enumerate(self.unpin_buttons):
                button.visible = index < count
            self.chips.object = _chips_html(self.board.configurations)

    def __panel__(self):
        return self._layout


def _chips_html(configurations: list[dict]) -> str:
    if not configurations:
        return (
            '<div class="lab small muted">Pin this configuration, change knobs in any lab, '
            "and compare them side by side.</div>"
        )
    chips = "".join(
        f'<span class="chip neutral" data-pin="{LETTERS[i]}"><b>{LETTERS[i]}</b>: '
        f"{escape(describe(knobs))}</span> "
        for i, knobs in enumerate(configurations)
    )
    return f'<div class="lab small">{chips}</div>'
