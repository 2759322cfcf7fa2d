"""A group of knobs folded under one button, open whenever one of its knobs leaves its default.

The pool lab's knob column holds the walkthrough's knobs first; the later groups (real
traffic and the fleet, memory beyond the card) fold away until a student opens them, and a
link or a preset that sets one of their knobs opens them by itself.
"""

from __future__ import annotations

import panel as pn


class Fold(pn.viewable.Viewer):
    """``rows`` under a toggle titled ``title``, shown while it is pressed."""

    def __init__(self, title: str, rows, scenario, knobs, **params):
        super().__init__(**params)
        self._scenario, self._knobs = scenario, tuple(knobs)
        self.toggle = pn.widgets.Toggle(
            label=title, color="primary", variant="outline", value=self._moved(),
            sizing_mode="stretch_width", margin=(6, 10, 2, 10),
        )  # fmt: skip
        self.body = pn.Column(*rows, sizing_mode="stretch_width", margin=0)
        # The body is swapped in and out rather than hidden: a nested column's visible flag
        # set before the browser draws it was seen to leave the body hidden.
        self._column = pn.Column(self.toggle, sizing_mode="stretch_width", margin=0)
        self.toggle.param.watch(self._show, "value")
        scenario.param.watch(self._follow, list(self._knobs))
        self._show()

    def _moved(self) -> bool:
        """Whether any of the group's knobs is away from its default."""
        return any(
            getattr(self._scenario, name) != self._scenario.param[name].default
            for name in self._knobs
        )

    def _follow(self, *_events) -> None:
        if self._moved():
            self.toggle.value = True

    def _show(self, *_events) -> None:
        self._column.objects = [self.toggle, self.body] if self.toggle.value else [self.toggle]

    def __panel__(self):
        return self._column
