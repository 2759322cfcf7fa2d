"""A group of knobs folded under one button, open whenever one of its knobs leaves its default.

The pool lab's knob column holds the walkthrough's knobs first; everything beyond them folds
away until a student opens it, and a link or a preset that sets one of its knobs opens it by
itself. A fold given a builder instead of rows builds them when first opened: a session that
never opens it never pays for its widgets. A lab's long sections fold the same way
(:func:`folded_section`): a white panel holding the toggle and a line saying what it holds.
"""

from __future__ import annotations

from collections.abc import Callable
from html import escape

import panel as pn

from labs.page.layout import PANEL_STYLE
from labs.page.text import LiveHTML


def any_moved(owner, names) -> bool:
    """Whether any of ``owner``'s parameters ``names`` is away from its default."""
    return any(getattr(owner, name) != owner.param[name].default for name in names)


class Fold(pn.viewable.Viewer):
    """``rows`` (or what ``rows()`` builds, on first opening) under a toggle titled ``title``.

    With ``summary``, a line under the toggle says what the folded knobs hold (HTML made from
    the scenario), kept current as they change. Without ``knobs`` (a section, not knobs) it
    opens only when a student opens it.
    """

    def __init__(self, title: str, rows, scenario=None, knobs=(), summary: Callable | None = None,
                 **params):  # fmt: skip
        super().__init__(**params)
        self._scenario, self._knobs = scenario, tuple(knobs)
        self._rows = rows
        self.body = None if callable(rows) else self._column_of(rows)
        self.toggle = pn.widgets.Toggle(
            label=title, color="primary", variant="outline", value=self._moved(),
            sizing_mode="stretch_width", margin=(6, 10, 2, 10),
        )  # fmt: skip
        self._summary = summary
        self.summary = None
        if summary is not None:
            self.summary = LiveHTML(summary(scenario), sizing_mode="stretch_width", margin=(0, 10))
        # The body is swapped in and out rather than hidden: a nested column's visible flag
        # set before the browser draws it was seen to leave the body hidden.
        self._column = pn.Column(self.toggle, sizing_mode="stretch_width", margin=0)
        self.toggle.param.watch(self._show, "value")
        if self._knobs:
            scenario.param.watch(self._follow, list(self._knobs))
        self._show()

    @staticmethod
    def _column_of(rows) -> pn.Column:
        return pn.Column(*rows, sizing_mode="stretch_width", margin=0)

    @property
    def built(self) -> bool:
        """Whether the folded rows exist yet (a builder's are made on first opening)."""
        return self.body is not None

    def _moved(self) -> bool:
        """Whether any of the group's knobs is away from its default."""
        return any_moved(self._scenario, self._knobs)

    def follow(self, owner, names) -> None:
        """Open too whenever one of ``owner``'s parameters ``names`` leaves its default (now,
        or later): knobs shown in the fold that another object holds."""

        def opened(*_events) -> None:
            if any_moved(owner, names):
                self.toggle.value = True

        owner.param.watch(opened, list(names))
        opened()

    def _follow(self, *_events) -> None:
        if self._summary is not None:
            self.summary.object = self._summary(self._scenario)
        if self._moved():
            self.toggle.value = True

    def _show(self, *_events) -> None:
        head = [self.toggle] if self.summary is None else [self.toggle, self.summary]
        if not self.toggle.value:
            self._column.objects = head
            return
        if self.body is None:
            self.body = self._column_of(self._rows())
        self._column.objects = [*head, self.body]

    def __panel__(self):
        return self._column


def folded_section(title: str, rows, summary: str | Callable, scenario=None, knobs=(),
                   margin=(16, 0, 0, 0)) -> tuple[Fold, pn.Column]:  # fmt: skip
    """A lab's section folded to one line: (its fold, the white panel that holds it).

    ``summary`` is the closed line's text (or HTML made from ``scenario``, kept current);
    ``rows`` or what the builder ``rows()`` returns show under it once opened.
    """
    if isinstance(summary, str):
        words = f'<div class="lab small muted" data-fold-summary>{escape(summary)}</div>'
        summary = lambda _scenario: words  # noqa: E731
    fold = Fold(title, rows, scenario, knobs, summary=summary)
    panel = pn.Column(fold, styles=PANEL_STYLE, sizing_mode="stretch_width", margin=margin,
                      css_classes=["lab-fold"])  # fmt: skip
    return fold, panel
