"""Pinned configurations: up to three snapshots of the shared knobs, kept in the link.

A pin holds the knobs that differ from the defaults, written ``key:value`` and joined with
commas; pins are joined with ``|`` (``pins=seats:64,tier:large|kv_dtype:fp8``). A pasted
model's config.json rides along compressed, in URL-safe base64 (it is full of commas and
colons). A link's pins are read as every other link value is: a bad entry is dropped with
a notice.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from html import escape

import panel as pn
import param

from core import KNOBS, Scenario
from core.catalog.config_json import parse_config
from core.catalog.custom import CUSTOM
from labs.page.links import _IGNORE, MAX_CONFIG_LENGTH, Binding, parse, serialise
from labs.page.text import LiveHTML
from labs.widgets.knobs import UI_RANGES, knob_label, knob_value

MAX_PINS = 3
LETTERS = "ABC"
# Three pins of every knob fit in 1,200 characters; each pasted model adds its compressed
# config. Anything longer is not a link this page wrote.
MAX_PINS_LENGTH = 1200 + MAX_PINS * MAX_CONFIG_LENGTH
CONFIG = "model_config"


def pack_config(text: str) -> str:
    """A compact config.json as a pin writes it: zlib-compressed, URL-safe base64, no padding."""
    return base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")


def unpack_config(packed: str) -> str:
    """The config.json a pin holds; ``ValueError`` when it is not one this page wrote."""
    try:
        data = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
        inflater = zlib.decompressobj()
        text = inflater.decompress(data, MAX_CONFIG_LENGTH + 1).decode()
    except (binascii.Error, zlib.error, UnicodeDecodeError, ValueError) as error:
        raise ValueError("not a config.json this page wrote") from error
    if len(text) > MAX_CONFIG_LENGTH or inflater.unconsumed_tail:
        raise ValueError(f"a config.json longer than {MAX_CONFIG_LENGTH:,} characters")
    parse_config(text)
    return text


def _entry(knob: str, value) -> str:
    return f"{knob}:{pack_config(value) if knob == CONFIG else serialise(value)}"


def encode(configurations: list[dict]) -> str:
    """Pins as they appear in a link: each pin's non-default knobs, in the Scenario's order.

    A pin keeps its pasted config.json only while it runs the pasted model.
    """
    return "|".join(
        ",".join(
            _entry(knob, knobs[knob])
            for knob in KNOBS
            if knob in knobs and (knob != CONFIG or knobs.get("model") == CUSTOM)
        )
        or "defaults"
        for knobs in configurations
    )


def decode(text: str) -> tuple[list[dict], list[str]]:
    """``(configurations, notices)`` for a link's pins; bad entries are dropped and reported."""
    configurations, notices = [], []
    parts = [p for p in text.split("|") if p]
    # a Scenario to read values against, made only when there is a pin (it is dear to make)
    scratch = Scenario() if parts else None
    for part in parts[:MAX_PINS]:
        knobs = {}
        for entry in part.split(","):
            if entry in ("", "defaults"):
                continue
            knob, _, value = entry.partition(":")
            if knob not in KNOBS:
                notices.append(f"pins: {knob[:24]!r} is not a knob: ignored")
                continue
            if knob == CONFIG:
                try:
                    knobs[knob] = unpack_config(value)
                except ValueError as error:
                    notices.append(f"pins: {CONFIG} ignored: {error}")
                continue
            parsed, notice = parse(Binding(knob, scratch, knob, UI_RANGES.get(knob)), value)
            if notice:
                notices.append(f"pins: {notice}")
            if parsed is not _IGNORE and parsed != Scenario.param[knob].default:
                knobs[knob] = parsed
        if knobs.get("model") == CUSTOM and CONFIG not in knobs:
            # Without its config.json a pasted model cannot be rebuilt: the pin runs the tier.
            del knobs["model"]
            notices.append(
                f"pins: pin {LETTERS[len(configurations)]} named a pasted model without its "
                "config.json: it shows the tier"
            )
        elif knobs.get("model") != CUSTOM:
            knobs.pop(CONFIG, None)
        configurations.append(knobs)
    if len(parts) > MAX_PINS:
        notices.append(f"pins: only the first {MAX_PINS} are kept")
    return configurations, notices


def describe(knobs: dict) -> str:
    """A pin in words: its knobs that differ from the defaults; a pasted model by its name."""
    words = [f"{knob_label(k)} {_value(k, v, knobs)}" for k, v in knobs.items() if k != CONFIG]
    return " \u00b7 ".join(words) or "the defaults"


def _value(knob: str, value, knobs: dict) -> str:
    if knob == "model" and value == CUSTOM and knobs.get(CONFIG):
        return parse_config(knobs[CONFIG]).shape.name
    return knob_value(knob, value)


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
        self.pins = encode([*self.configurations, scenario.moved_knobs()])

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
        # (on a narrow screen the sentence keeps a readable width and wraps under the button,
        # assets/phone.css)
        self.chips = LiveHTML(
            "", margin=(0, 4), sizing_mode="stretch_width", css_classes=["pin-chips"]
        )
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
            css_classes=["pin-bar"],  # a row of its own on a phone (assets/phone.css)
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
