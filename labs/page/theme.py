"""The lab's look: its stylesheet, its colours for charts, and the Panel extension call."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import panel as pn
import param
from bokeh.models import Axis, Label, LabelSet, Legend, NoOverlap, SaveTool, Title

ASSETS = Path(__file__).resolve().parents[2] / "assets"  # labs/page/theme.py -> repo root

# Chart colours, the same as the CSS variables (Okabe-Ito based, readable for colour-blind eyes).
WEIGHTS = "#3d5a98"
KV_IN_USE = "#e69f00"
FREE_KV = "#9fd8bd"
MARGIN = "#c9ced8"
WAITING = "#b3261e"
GRANTED = "#17703a"
ACCENT = "#3347b0"
INK = "#1d2433"
MUTED = "#5b6578"
GRID = "#e8ebf1"

PAGE_CSS = """
body { background: #f5f6f9; margin: 0; }
"""
# Panel's page template declares no viewport, so a phone lays the page out 980 px wide and
# shrinks it: each page's template adds the declaration (a string extends Panel's base.html).
VIEWPORT_TEMPLATE = (
    '{% block postamble %}<meta name="viewport" content="width=device-width, initial-scale=1">'
    "{% endblock %}"
)
# The stylesheets, in the order they apply: the lab's look (lab.css), the accessibility rules
# (a11y.css: the focus ring, reduced motion), then the narrow screens' layout (phone.css).
STYLESHEETS = ("lab.css", "a11y.css", "phone.css")


@cache
def stylesheet() -> str:
    """The lab's CSS, read once from assets/ (a constant, not session state)."""
    return "\n".join((ASSETS / name).read_text(encoding="utf-8") for name in STYLESHEETS)


def declare_viewport() -> None:
    """This session's page declares the device's width as its viewport (phones, tablets)."""
    doc = pn.state.curdoc
    if doc is not None:
        doc.template = VIEWPORT_TEMPLATE


def extension() -> None:
    """Load Panel with the lab's stylesheet applied to every component; declare the viewport."""
    pn.extension("filedropper", raw_css=[stylesheet()], global_css=[PAGE_CSS])  # uploads
    declare_viewport()


# Chart text in px: tick labels, axis titles, titles. Bokeh draws it on a canvas, out of the
# stylesheet's reach, so presenter mode sets it on the models.
CHART_TEXT = {False: (12, 12, 13), True: (20, 20, 22)}
# Text drawn on a chart (a bar's value, a marker's name): 11 px, and larger for a projector.
ANNOTATION_TEXT = {False: "11px", True: "17px"}


def chart_text(model, presenter: bool) -> None:
    """Every axis, title and legend under the Bokeh ``model`` at the page's size."""
    ticks, titles, heading = (f"{size}px" for size in CHART_TEXT[presenter])
    # One walk over the chart's models (a select per kind walked them five times over).
    for item in model.references():
        if isinstance(item, Axis):
            item.major_label_text_font_size = ticks
            item.axis_label_text_font_size = titles
        elif isinstance(item, Title):
            item.text_font_size = heading
        elif isinstance(item, Legend):
            item.label_text_font_size = ticks
        elif isinstance(item, Label | LabelSet):
            item.text_font_size = ANNOTATION_TEXT[presenter]


def present(view, presenter: bool) -> None:
    """Chart text of every Bokeh figure in ``view`` for the page's presenter flag.

    A view with a ``presenting`` parameter hears the flag too, for the charts it builds later.
    """
    if isinstance(view, param.Parameterized) and "presenting" in view.param:
        view.presenting = presenter
    viewable = view.__panel__() if isinstance(view, pn.viewable.Viewer) else view
    for pane in viewable.select(pn.pane.Bokeh):
        if pane.object is not None:
            chart_text(pane.object, presenter)


def chart_name(figure) -> str:
    """A file name for a chart: its title, else its vertical axis label, as a slug."""
    label = figure.title.text if figure.title is not None and figure.title.text else ""
    if not label and figure.yaxis and figure.yaxis[0].axis_label:
        label = figure.yaxis[0].axis_label
    slug = "-".join("".join(c if c.isalnum() else " " for c in label.lower()).split())
    return slug[:48] or "chart"


def style_figure(figure, filename: str | None = None) -> None:
    """Quiet axes and grid for every Bokeh chart in the lab, and a button that saves it as PNG.

    The save button is Bokeh's own SaveTool (``filename``.png, by default named after the
    chart's title or vertical axis); a chart built without a toolbar gets one that shows
    only while the pointer is over the chart.
    """
    filename = filename or chart_name(figure)
    if figure.toolbar_location is None:
        # The chart was drawn without a toolbar: its tools keep working unseen, and the
        # toolbar that appears on hover holds the save button alone.
        for tool in figure.tools:
            tool.visible = isinstance(tool, SaveTool)
        figure.toolbar_location = "right"
        figure.toolbar.autohide = True
    saves = [tool for tool in figure.tools if isinstance(tool, SaveTool)]
    if saves:
        saves[0].filename = filename
    else:
        figure.add_tools(SaveTool(filename=filename))
    figure.toolbar.logo = None
    figure.outline_line_color = None
    figure.background_fill_color = "#ffffff"
    figure.border_fill_color = "#ffffff"
    for axis in (*figure.xaxis, *figure.yaxis):
        axis.axis_line_color = "#aab1bf"
        axis.major_tick_line_color = "#aab1bf"
        axis.minor_tick_line_color = None
        axis.major_label_text_color = MUTED
        axis.axis_label_text_color = MUTED
        axis.axis_label_text_font_style = "normal"
        # On a phone's narrow chart a tick label that would overlap its neighbour is left out.
        axis.major_label_policy = NoOverlap()
    figure.xgrid.grid_line_color = GRID
    figure.ygrid.grid_line_color = GRID
    figure.title.text_color = INK
    chart_text(figure, False)
