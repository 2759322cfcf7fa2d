"""The mattered-vs-noise table: which knobs moved the outputs, with the figure behind each label."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from html import escape

import panel as pn

from core.studies.sensitivity import KnobEffect
from labs.page.text import LiveHTML
from labs.widgets.exports import csv_button, mattered_frame


@dataclass(frozen=True)
class Column:
    """One output column: the Result field, its heading and how a change in it reads."""

    field: str
    heading: str
    change: Callable[[float], str]
    never: float | None = None  # a figure at or past this is unbounded: no difference to print


def change_text(column: Column, effect: KnobEffect) -> str:
    """How far resetting the knob moves this column's figure, in words when either side is unbounded."""
    now, reset = effect.values.get(column.field, (0.0, 0.0))
    if column.never is not None and max(now, reset) >= column.never:
        if min(now, reset) >= column.never:
            return "unbounded either way"
        return "to unbounded" if now >= column.never else "from unbounded"
    return column.change(effect.changes[column.field])


def mattered_html(
    effects: Sequence[KnobEffect],
    columns: Sequence[Column],
    knob_label: Callable[[str], str],
    value_text: Callable[[str, object], str],
) -> str:
    """A table with one row per knob: its setting, each output's change, and the label."""
    head = "".join(f"<th>{escape(column.heading)}</th>" for column in columns)
    rows = []
    for effect in effects:
        at_default = effect.current == effect.default
        if at_default:
            label, css = "at default", "noise"
        elif effect.mattered:
            label, css = "mattered", "mattered"
        else:
            label, css = "noise", "noise"
        chip_class = "pass" if css == "mattered" else "neutral"
        flips = (
            f'<div class="small muted">flips {", ".join(f.replace("_ok", "") for f in effect.flipped)}</div>'
            if effect.flipped
            else ""
        )
        setting = escape(value_text(effect.knob, effect.current))
        default = (
            ""
            if at_default
            else f'<div class="small muted">default {escape(value_text(effect.knob, effect.default))}</div>'
        )
        cells = "".join(
            f'<td class="num">{escape(change_text(column, effect))}</td>' for column in columns
        )
        rows.append(
            f'<tr class="{css}" data-knob="{effect.knob}" data-label="{label}">'
            f"<td><b>{escape(knob_label(effect.knob))}</b></td><td>{setting}{default}</td>{cells}"
            f'<td><span class="chip {chip_class}">{label}</span>{flips}</td></tr>'
        )
    return (
        '<div class="lab"><table class="grid"><thead><tr><th>knob</th><th>setting</th>'
        f"{head}<th>verdict</th></tr></thead><tbody>{''.join(rows)}</tbody></table>"
        '<p class="small muted">Each row puts that knob alone back to its default and reports how far '
        "each figure moves (now minus reset). A knob that moves no figure by more than 5 % and flips "
        "no check is noise on this workload.</p></div>"
    )


# What a table of knobs all at their defaults says instead of a row of zeros for each.
QUIET = (
    '<div class="lab small muted" data-mattered-quiet>Every knob is at its default, so nothing has '
    "moved yet: turn one and its row here says whether it mattered or was noise.</div>"
)


class MatteredTable(pn.viewable.Viewer):
    """The table as a component updated in place.

    With ``quiet_at_defaults``, a table whose knobs all sit at their defaults (every row +0)
    folds to one line saying so, and its download goes with it.
    """

    def __init__(self, columns, knob_label, value_text, quiet_at_defaults: bool = False,
                 **params):  # fmt: skip
        super().__init__(**params)
        self._columns, self._knob_label, self._value_text = columns, knob_label, value_text
        self._quiet = quiet_at_defaults
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.effects: list[KnobEffect] = []
        self.download = csv_button(self.frame, "mattered-vs-noise.csv", "Download table (CSV)")
        self._layout = pn.Column(self._pane, self.download, sizing_mode="stretch_width", margin=0)

    def frame(self):
        """The table as numbers, for download."""
        return mattered_frame(self.effects, [column.field for column in self._columns])

    def update(self, effects: Sequence[KnobEffect]) -> None:
        """Show ``effects``."""
        self.effects = list(effects)
        quiet = self._quiet and all(e.current == e.default for e in self.effects)
        self.download.visible = not quiet
        if quiet:
            self._pane.object = QUIET
            return
        self._pane.object = mattered_html(
            effects, self._columns, self._knob_label, self._value_text
        )

    def __panel__(self):
        return self._layout
