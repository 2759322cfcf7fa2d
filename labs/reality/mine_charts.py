"""The student's measured points on the predicted-against-measured charts, each run its colour.

Pure data functions (points in, a ``ColumnDataSource`` dict out) and one function that adds
the glyphs to a chart :func:`labs.reality.charts.scatter_figure` built, so it is tested
without a browser.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import ColumnDataSource, HoverTool

from core.evidence.cases import METRIC_NAMES
from labs.page import format as fmt
from labs.reality.charts import value_text
from labs.widgets.measurements import run_colour

COLUMNS = ("key", "measured", "whiteboard", "engine", "colour", "run", "figure",
           "measured_text", "whiteboard_text", "engine_text", "setup")  # fmt: skip


def mine_data(pairs, metrics) -> dict:
    """Columns of the points of ``pairs`` ((explained run, point)) whose metric is in ``metrics``."""
    rows = [(item, point) for item, point in pairs if point.metric in metrics]
    return {
        "key": [point.case.key for _, point in rows],
        "measured": np.array([point.measured for _, point in rows], dtype=float),
        "whiteboard": np.array([point.whiteboard for _, point in rows], dtype=float),
        "engine": np.array([point.engine for _, point in rows], dtype=float),
        "colour": [run_colour(point.run) for _, point in rows],
        "run": [item.run.label for item, _ in rows],
        "figure": [f"{METRIC_NAMES[point.metric]} ({point.statistic})" for _, point in rows],
        "measured_text": [value_text(point.metric, point.measured) for _, point in rows],
        "whiteboard_text": [fmt.times(point.steps[0]) for _, point in rows],
        "engine_text": [fmt.times(point.steps[-1]) for _, point in rows],
        "setup": [item.setup.model + " on " + item.setup.gpu for item, _ in rows],
    }


def add_mine(chart) -> ColumnDataSource:
    """Squares in each run's colour over a scatter chart: hollow the whiteboard, filled the engine."""
    source = ColumnDataSource({name: [] for name in COLUMNS})
    chart.segment("measured", "whiteboard", "measured", "engine", source=source,
                  color="colour", line_width=1.5, line_alpha=0.7)  # fmt: skip
    chart.scatter("measured", "whiteboard", source=source, marker="square", size=11,
                  fill_color="#ffffff", line_color="colour", line_width=2)  # fmt: skip
    engine = chart.scatter("measured", "engine", source=source, marker="square", size=12,
                           fill_color="colour", line_color="#1d2433", line_width=1)  # fmt: skip
    chart.add_tools(
        HoverTool(
            renderers=[engine],
            tooltips=[
                ("yours", "@key: @run"),
                ("set-up", "@setup"),
                ("figure", "@figure"),
                ("measured", "@measured_text"),
                ("whiteboard", "@whiteboard_text"),
                ("engine level", "@engine_text"),
            ],
        )
    )
    return source


def span(published: dict, mine: dict) -> tuple[float, float]:
    """The chart's axis range: every published and measured value, with a margin either side."""
    values = [np.asarray(data[name], dtype=float) for data in (published, mine)
              for name in ("measured", "whiteboard", "engine")]  # fmt: skip
    joined = np.concatenate(values)
    joined = joined[np.isfinite(joined) & (joined > 0)]
    return float(joined.min()) / 1.6, float(joined.max()) * 1.6
