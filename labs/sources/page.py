"""Where the numbers come from: every constant of the model with its value, unit and source."""

from __future__ import annotations

from html import escape

import panel as pn

from core import sources
from core.evidence.published import batching_sources


def _table(rows) -> str:
    body = "".join(
        f"<tr><td><b>{escape(row.constant)}</b></td><td class='value'>{escape(row.value)}</td>"
        f"<td>{escape(row.unit)}</td><td class='small'>{escape(row.source)}</td></tr>"
        for row in rows
    )
    # Fixed column shares: a long model shape wraps in its cell instead of widening the table.
    return (
        '<div class="panel"><table class="grid sources"><colgroup><col style="width:18%">'
        '<col style="width:22%"><col style="width:12%"><col style="width:48%"></colgroup>'
        "<thead><tr><th>constant</th><th>value</th><th>unit</th><th>source</th></tr></thead>"
        f"<tbody>{body}</tbody></table></div>"
    )


def sources_html() -> str:
    return (
        '<div class="lab"><h1>Where the numbers come from</h1><p class="lede">Every figure in the '
        "labs is computed from these constants by the model in <code>core/</code>. Hardware "
        "figures are the vendors' dense (no sparsity) peaks; prices are assumptions you can "
        "change in a scenario; model shapes are the published configurations. Rows marked "
        "engine level feed the second level of detail: rates measured on the cards, engines' "
        "documented defaults and fixed costs, each from a published source. The measurements "
        "the two levels are checked against are listed, with their sources, in the Reality "
        "check lab.</p>"
        f"{_table(sources())}"
        '<h2 style="margin-top:24px">What others measured</h2><p class="lede">Published '
        "measurements the batching lab sets its engine beside. They are not inputs of the "
        "capacity model: they show what it reproduces and what it leaves out.</p>"
        f"{_table(batching_sources())}</div>"
    )


class SourcesPage(pn.viewable.Viewer):
    """The catalog's constants as a table."""

    def __init__(self, scenario=None, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(sources_html(), sizing_mode="stretch_width")

    def __panel__(self):
        return self._pane
