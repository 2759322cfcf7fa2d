"""The Frontier lab's chart: every configuration, each level's Pareto frontier, the SLO region.

The figure is built once; :func:`chart_data` turns a :class:`core.studies.frontier.Frontier` into the
sources' data (formatting and layout only: every figure comes from core), so it is tested
without a browser.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import BoxAnnotation, ColumnDataSource, HoverTool, TapTool
from bokeh.plotting import figure

from core.studies.frontier import X_MEASURES, Y_MEASURES
from labs.page import theme

# Okabe-Ito colours, one per node size; any other count shares the last.
CARD_COLOURS = {1: "#0072b2", 2: "#e69f00", 4: "#009e73", 8: "#cc79a7"}
OTHER_CARDS = "#56b4e9"
LEVEL_COLOURS = {"whiteboard": theme.INK, "engine": "#d55e00"}
LEVEL_MARKERS = {"whiteboard": "circle", "engine": "triangle"}
X_LABELS = {
    "user": "output tokens per second each user sees (1 / inter-token latency)",
    "ttft": "p95 time to first token, every seat a user in a closed loop (s)",
}
Y_LABELS = {
    "gpu": "output tokens per second per GPU",
    "cost": "$ per million output tokens (cards at full batch)",
}
CHART_HEIGHT = 440
POINT_COLUMNS = (
    "x", "y", "seats", "cards", "weights", "cache", "level", "colour", "fill", "alpha",
    "marker", "size", "verdict", "index",
)  # fmt: skip


def _xy(points, x_measure: str, y_measure: str):
    x = getattr(points, X_MEASURES[x_measure][0])
    y = getattr(points, Y_MEASURES[y_measure][0])
    shown = points.feasible & (points.bounded if x_measure == "ttft" else True)
    return x, y, shown


def chart_data(points, on_frontier, level: str, x_measure: str, y_measure: str) -> dict:
    """Data of the scatter: the feasible points, the current level's drawn strongest.

    Points that break the first-token SLO are hollow; ``index`` is the point's place in
    ``points`` (what a click loads).
    """
    x, y, shown = _xy(points, x_measure, y_measure)
    rows = np.flatnonzero(shown)
    mine = points.realism[rows] == level
    colours = [CARD_COLOURS.get(int(c), OTHER_CARDS) for c in points.cards[rows]]
    ok = points.latency_ok[rows]
    return {
        "x": x[rows],
        "y": y[rows],
        "seats": points.seats[rows],
        "cards": points.cards[rows],
        "weights": points.weight_dtype[rows],
        "cache": points.kv_dtype[rows],
        "level": points.realism[rows],
        "colour": colours,
        "fill": [c if good else "#ffffff" for c, good in zip(colours, ok, strict=True)],
        "alpha": np.where(mine, 0.9, 0.3),
        "marker": [LEVEL_MARKERS.get(str(r), "circle") for r in points.realism[rows]],
        "size": np.where(on_frontier[rows], 9, 7),
        "verdict": np.where(ok, "meets the SLO", "breaks the SLO"),
        "index": rows,
    }


def line_data(points, mask, x_measure: str, y_measure: str, by_seats: bool = False) -> dict:
    """A line through the points of ``mask``, in order along the x axis (or of batch size)."""
    x, y, shown = _xy(points, x_measure, y_measure)
    rows = np.flatnonzero(mask & shown)
    rows = rows[np.argsort(points.seats[rows] if by_seats else x[rows], kind="stable")]
    return {"x": x[rows], "y": y[rows]}


def frontier_figure():
    """The figure and its sources: points, one frontier line per level, the current curve and point.

    Returns
    -------
    plot, points, lines, curve, current, slo, hover
        ``lines`` maps each level to its source; ``slo`` is the shaded region of the
        first-token target (shown on the TTFT axis).
    """
    plot = figure(
        height=CHART_HEIGHT,
        sizing_mode="stretch_width",
        x_axis_type="log",
        y_axis_type="log",
        tools="pan,wheel_zoom,box_zoom,reset",
        toolbar_location="right",
        x_axis_label=X_LABELS["user"],
        y_axis_label=Y_LABELS["gpu"],
    )
    slo = BoxAnnotation(
        right=1.0, fill_color=theme.GRANTED, fill_alpha=0.08, line_alpha=0, visible=False
    )
    plot.add_layout(slo)
    points = ColumnDataSource(data={name: [] for name in POINT_COLUMNS})
    dots = plot.scatter(
        "x",
        "y",
        source=points,
        marker="marker",
        size="size",
        line_color="colour",
        fill_color="fill",
        line_alpha="alpha",
        fill_alpha="alpha",
        line_width=1.5,
    )
    # Selection only reports the click; the look of the points stays the same.
    dots.selection_glyph = dots.glyph
    dots.nonselection_glyph = dots.glyph
    lines = {}
    for level, colour in LEVEL_COLOURS.items():
        lines[level] = ColumnDataSource(data={"x": [], "y": []})
        plot.line(
            "x",
            "y",
            source=lines[level],
            line_color=colour,
            line_width=3,
            line_alpha=0.85,
            line_dash="solid" if level == "whiteboard" else "dashed",
        )
        # Markers too: a frontier of one point has no line to draw.
        plot.scatter(
            "x", "y", source=lines[level], size=6, fill_color=colour, line_color=colour, alpha=0.85
        )
    curve = ColumnDataSource(data={"x": [], "y": []})
    plot.line("x", "y", source=curve, line_color=theme.ACCENT, line_width=1.5, line_dash="dotted")
    current = ColumnDataSource(data={"x": [], "y": []})
    plot.scatter(
        "x",
        "y",
        source=current,
        marker="star",
        size=20,
        fill_color="#ffd400",
        line_color=theme.INK,
        line_width=1.5,
    )
    hover = HoverTool(renderers=[dots], tooltips=tooltips("user", "gpu"))
    plot.add_tools(hover, TapTool(renderers=[dots]))
    theme.style_figure(plot, "frontier")
    return plot, points, lines, curve, current, slo, hover


# Bokeh formats the hover figures in the browser, so no text is sent per point.
HOVER_FORMATS = {
    "user": "@x{0,0.0} tok/s",
    "ttft": "@x{0.000} s",
    "gpu": "@y{0,0} tok/s",
    "cost": "$@y{0.000}",
}


def tooltips(x_measure: str, y_measure: str) -> list:
    """What hovering a point shows, in the units of the axes on screen."""
    return [
        ("", "@seats seats on @cards card(s), weights @weights, cache @cache (@level)"),
        ("x", HOVER_FORMATS[x_measure]),
        ("y", HOVER_FORMATS[y_measure]),
        ("", "@verdict"),
    ]
