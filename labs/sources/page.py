"""Where the numbers come from: every constant of the model with its value, unit and source, by kind."""

from __future__ import annotations

from html import escape

import panel as pn

from core import sources
from core.evidence.published import batching_sources
from core.evidence.source_groups import SourceGroup, source_groups


def source_cell(row) -> str:
    """The source text, escaped, with its web address (if any) as a link that opens a new tab."""
    text, link = row.source, row.link
    if not link:
        return escape(text)
    start = text.index(link)
    shown = link.split("://", 1)[1]
    anchor = (
        f'<a href="{escape(link, quote=True)}" target="_blank" rel="noopener noreferrer">'
        f"{escape(shown)}</a>"
    )
    return escape(text[:start]) + anchor + escape(text[start + len(link) :])


# Column shares (constant, value, unit, source) per kind: model shapes need a wide value
# column, the other kinds a wider name. Fixed shares: long text wraps in its cell.
_WIDTHS = {"models": (17, 37, 12, 34)}
_DEFAULT_WIDTHS = (25, 17, 18, 40)


def _source_spans(rows) -> list[int]:
    """For each row, how many rows its source cell spans: a run of one source is one cell."""
    spans = [0] * len(rows)
    start = 0
    for index in range(1, len(rows) + 1):
        if index == len(rows) or rows[index].source != rows[start].source:
            spans[start] = index - start
            start = index
    return spans


def _table(rows, widths=_DEFAULT_WIDTHS) -> str:
    cells = []
    for row, span in zip(rows, _source_spans(rows), strict=True):
        source = f"<td class='small' rowspan='{span}'>{source_cell(row)}</td>" if span else ""
        cells.append(
            f"<tr><td><b>{escape(row.constant)}</b></td><td class='value'>{escape(row.value)}"
            f"</td><td>{escape(row.unit)}</td>{source}</tr>"
        )
    columns = "".join(f'<col style="width:{share}%">' for share in widths)
    return (
        f'<div class="panel"><table class="grid sources"><colgroup>{columns}</colgroup>'
        "<thead><tr><th>constant</th><th>value</th><th>unit</th><th>source</th></tr></thead>"
        f"<tbody>{''.join(cells)}</tbody></table></div>"
    )


def _group(group: SourceGroup) -> str:
    return (
        f'<section class="source-group" data-kind="{escape(group.kind, quote=True)}">'
        f'<h2 style="margin-top:24px">{escape(group.heading)}</h2>'
        f'<p class="lede">{escape(group.about)}</p>'
        f"{_table(group.rows, _WIDTHS.get(group.kind, _DEFAULT_WIDTHS))}</section>"
    )


def _contents(groups: list[SourceGroup]) -> str:
    names = " · ".join(escape(group.heading) for group in groups)
    return f'<p class="small muted">On this page: {names}.</p>'


def sources_html() -> str:
    groups = source_groups([*sources(), *batching_sources()])
    return (
        '<div class="lab"><h1>Where the numbers come from</h1><p class="lede">Every figure in the '
        "labs is computed from these constants by the model in <code>core/</code>. The "
        "whiteboard level uses the datasheet peaks and its own assumptions; the engine level "
        "adds the engines' defaults and the rates measured on real cards. The measurements the "
        "two levels are checked against are listed, with their sources, in the Reality check "
        f"lab.</p>{_contents(groups)}{''.join(_group(group) for group in groups)}</div>"
    )


class SourcesPage(pn.viewable.Viewer):
    """The catalog's constants as tables, one per kind."""

    def __init__(self, scenario=None, **params):
        super().__init__(**params)
        self._pane = pn.pane.HTML(sources_html(), sizing_mode="stretch_width")

    def __panel__(self):
        return self._pane
