"""Where the numbers come from: every constant of the model with its value, unit and source."""

from __future__ import annotations

from html import escape

import panel as pn

from core import sources


def sources_html() -> str:
    rows = "".join(
        f"<tr><td><b>{escape(row.constant)}</b></td><td class='num'>{escape(row.value)}</td>"
        f"<td>{escape(row.unit)}</td><td class='small'>{escape(row.source)}</td></tr>"
        for row in sources()
    )
    return (
        '<div class="lab"><h1>Where the numbers come from</h1><p class="lede">Every figure in the labs is '
        "computed from these constants by the model in <code>core/</code>. Hardware figures are the "
        "vendors' dense (no sparsity) peaks; prices are assumptions you can change in a scenario; model "
        "shapes are the published configurations.</p>"
        '<div class="panel"><table class="grid"><thead><tr><th>constant</th><th>value</th><th>unit</th>'
        f"<th>source</th></tr></thead><tbody>{rows}</tbody></table></div></div>"
    )


class SourcesPage(pn.viewable.Viewer):
    """The catalog's constants as a table."""

    def __init__(self, scenario=None, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(sources_html(), sizing_mode="stretch_width")

    def __panel__(self):
        return self._pane
