"""The line under a lab's headline: what a real engine would see where it differs by over 25 %."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

import panel as pn

from labs.page.format import times
from labs.page.text import LiveHTML


class EngineNote(pn.viewable.Viewer):
    """'A real engine would see ...' for the figures whose two levels part, updated in place."""

    def __init__(self, names: Mapping[str, str], formats: Mapping[str, Callable[[float], str]]):
        super().__init__()
        self._names = names
        self._formats = formats
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(6, 0, 0, 0))

    def update(self, found, engine_on_screen: bool = False) -> None:
        """Show the gaps ``found`` (:func:`core.evidence.level_gap.gaps`); the screen shows one level."""
        if engine_on_screen:
            lead, other = "On the whiteboard these would read", "whiteboard"
        else:
            lead, other = "A real engine would see", "engine level"
        if not found:
            text = f"{lead} about the same: every figure above is within \u00b125 % at the {other}."
        else:
            parts = []
            for gap in found:
                shown = gap.whiteboard if engine_on_screen else gap.engine
                ratio = 1 / gap.ratio if engine_on_screen and gap.ratio else gap.ratio
                note = f" ({times(ratio)})" if ratio not in (0.0, float("inf")) else ""
                parts.append(
                    f"{escape(self._names[gap.field])} <b>{escape(self._formats[gap.field](shown))}</b>{note}"
                )
            text = f"{lead}: " + "; ".join(parts) + ". The Reality check tab shows why."
        self._pane.object = (
            f'<div class="lab"><div class="engine-note" data-engine-note>{text}</div></div>'
        )

    def say(self, text: str) -> None:
        """Show ``text`` instead, where the two levels cannot be compared."""
        self._pane.object = (
            f'<div class="lab"><div class="engine-note" data-engine-note>{escape(text)}</div></div>'
        )

    def __panel__(self):
        return self._pane
