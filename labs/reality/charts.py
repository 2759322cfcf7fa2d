"""The Reality check lab's charts: predicted against measured, and one case's waterfall.

Figures are built once; the data functions are pure (published cases and predictions in, a
``ColumnDataSource`` dict out) so they are tested without a browser.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import (
    BoxAnnotation,
    ColumnDataSource,
    FixedTicker,
    HoverTool,
    LabelSet,
    Range1d,
    Span,
    TapTool,
)
from bokeh.plotting import figure

from core.evidence.cases import METRIC_NAMES
from core.evidence.fidelity import BAND
from labs.page import format as fmt
from labs.page import theme

WHITEBOARD = "#8a93a6"
ENGINE = theme.ACCENT
UP = "#d55e00"  # Okabe-Ito vermilion: a term that raised the figure
DOWN = "#0072b2"  # Okabe-Ito blue: a term that lowered it
SHORT = {
    "whiteboard": "whiteboard",
    "load": "running batch",
    "engine_memory": "engine memory",
    "measured_rates": "measured rates",
    "gemm_shapes": "GEMM shapes",
    "live_context": "live context",
    "stream_then_math": "stream + math",
    "prefill_time": "prefill time",
    "prefill_shape": "prompt² + weights",
    "activation_traffic": "activations",
    "tensor_parallel": "all-reduces",
    "fixed_overheads": "fixed costs",
    "expert_reads": "experts read",
    "routing_imbalance": "router skew",
    "checkpoint_formats": "checkpoint formats",
    "server_overheads": "server costs",
    "finite_run": "run length",
    "engine": "engine level",
}
CHART_HEIGHT = 330
# The waterfall's ratio ticks, 1-2-5 a decade; a label this many times above a bar's top
# would reach the measurement line at 1 (11 px text on a log axis of a few decades).
RATIO_TICKS = tuple(float(f"{m}e{e}") for e in range(-3, 4) for m in (1, 2, 5))
FINE_TICKS = tuple(float(f"{m}e{e}") for e in range(-3, 4) for m in (1, 1.5, 2, 3, 5, 7))
LABEL_CLEARANCE = 1.7
# Two labels of neighbouring bars closer than this factor in height would touch on a phone's
# narrow bars (11 px text, ~2 decades in 330 px): the smaller step's label gives way, and the
# case's list of terms below the chart still gives its figure.
LABEL_NEIGHBOUR = 1.5
# Labels this many bars apart or closer can touch: one label is about two bars wide at 390 px.
LABEL_REACH = 2
# Each set's points: the first development set, the second, and its cases shown but not scored.
SET_MARKERS = {"first": "circle", "second": "triangle", "unscored": "diamond"}


def value_text(metric: str, value: float) -> str:
    """A figure in the unit its case was measured in."""
    if metric == "throughput":
        return fmt.rate(value)
    return fmt.duration(value)


def marker_set(report, index: int) -> str:
    """The key of :data:`SET_MARKERS` for case ``index``: its set, or 'unscored'."""
    if not report.cases[index].scored:
        return "unscored"
    return report.set_of(index)


def scatter_data(report, metrics) -> dict:
    """Points of the cases whose metric is in ``metrics``, with their hover text.

    A point's marker says its set (:data:`SET_MARKERS`); the hover names the figure.
    """
    cases, whiteboard, engine = report.cases, report.whiteboard, report.engine
    rows = [i for i, case in enumerate(cases) if case.metric in metrics]
    measured = np.array([cases[i].measured for i in rows])
    white_ratio = report.steps[rows, 0]
    engine_ratio = report.steps[rows, -1]
    return {
        "key": [cases[i].key for i in rows],
        "index": rows,
        "measured": measured,
        "whiteboard": np.asarray(whiteboard)[rows],
        "engine": np.asarray(engine)[rows],
        "setup": [f"{cases[i].model_name} on {cases[i].cards} \u00d7 {cases[i].gpu}, {cases[i].engine}"
                  for i in rows],
        "figure": [METRIC_NAMES[cases[i].metric] for i in rows],
        "measured_text": [value_text(cases[i].metric, cases[i].measured) for i in rows],
        "whiteboard_text": [fmt.times(ratio) for ratio in white_ratio],
        "engine_text": [fmt.times(ratio) for ratio in engine_ratio],
        "marker": [SET_MARKERS[marker_set(report, i)] for i in rows],
    }  # fmt: skip


def _band(low: float, high: float) -> dict:
    """The ±25 % band around predicted = measured, as one polygon."""
    xs = [low, high, high, low]
    return {"x": xs, "y": [low * BAND[0], high * BAND[0], high * BAND[1], low * BAND[1]]}


def scatter_figure(data: dict, title: str, unit: str):
    """A log-log chart of predicted against measured, with the ±25 % band shaded.

    Returns the figure and the source of the engine points (its selection picks a case).
    """
    values = np.concatenate([data["measured"], data["whiteboard"], data["engine"]])
    low, high = float(values.min()) / 1.6, float(values.max()) * 1.6
    chart = figure(
        title=title,
        height=CHART_HEIGHT,
        sizing_mode="stretch_width",
        x_axis_type="log",
        y_axis_type="log",
        x_range=Range1d(low, high),
        y_range=Range1d(low, high),
        toolbar_location=None,
        tools="",
    )
    theme.style_figure(chart)
    chart.xaxis.axis_label = f"measured ({unit})"
    chart.yaxis.axis_label = f"predicted ({unit})"
    # The band and the diagonal run far past the axes, which a student's points may widen.
    band = _band(low / 100, high * 100)
    chart.patch(band["x"], band["y"], color=theme.FREE_KV, alpha=0.35, line_alpha=0)
    chart.line([low / 100, high * 100], [low / 100, high * 100], color=theme.MUTED,
               line_dash="dashed", line_width=1)  # fmt: skip
    source = ColumnDataSource(data)
    # One source feeds every glyph, so a selection would fade the whiteboard's points too.
    steady = {"nonselection_line_alpha": 1.0, "nonselection_fill_alpha": 1.0}
    chart.segment("measured", "whiteboard", "measured", "engine", source=source,
                  color="#c3c8d3", line_width=1, nonselection_line_alpha=1.0)  # fmt: skip
    chart.scatter("measured", "whiteboard", source=source, size=9, marker="marker",
                  fill_color="#ffffff", line_color=WHITEBOARD, line_width=1.6, **steady)  # fmt: skip
    points = chart.scatter(
        "measured", "engine", source=source, size=10, marker="marker", fill_color=ENGINE,
        line_color="#ffffff", selection_fill_color=UP, selection_line_color=theme.INK,
        nonselection_fill_alpha=0.85,
    )  # fmt: skip
    chart.add_tools(
        HoverTool(
            renderers=[points],
            tooltips=[
                ("case", "@key: @setup"),
                ("figure", "@figure"),
                ("measured", "@measured_text"),
                ("whiteboard", "@whiteboard_text"),
                ("engine level", "@engine_text"),
            ],
        ),
        TapTool(renderers=[points]),
    )
    return chart, source


def waterfall_data(ratios) -> dict:
    """Bars of a waterfall in units of the measurement: each step from the last to its value.

    ``ratios`` are the predictions over the measurement after each step (whiteboard first,
    engine level last); a final 'engine level' bar stands from the axis like the first.
    """
    ratios = np.asarray(ratios, dtype=float)
    keys = list(SHORT)[: len(ratios)]
    bottoms = np.concatenate([[np.nan], ratios[:-1]])
    tops = ratios.copy()
    floor = float(min(ratios.min(), BAND[0]) / 1.5)
    bottoms[0] = floor
    names = [SHORT[key] for key in keys] + [SHORT["engine"]]
    bottoms = np.append(bottoms, floor)
    tops = np.append(tops, ratios[-1])
    colours = [WHITEBOARD] + [
        UP if t > b else DOWN for b, t in zip(bottoms[1:-1], tops[1:-1], strict=True)
    ]
    colours.append(ENGINE)
    sizes = np.abs(np.log(tops / bottoms))  # each bar's step on the log axis
    labels = [fmt.times(t) if i in (0, len(tops) - 1) or size > 0.03 else ""
              for i, (t, size) in enumerate(zip(tops, sizes, strict=True))]  # fmt: skip
    low, high = np.minimum(bottoms, tops), np.maximum(bottoms, tops)
    # A label sits above its bar, unless the bar tops out just under the measurement line:
    # then below it, so no label ever sits on the dashed line.
    under = (high < 1.0) & (high * LABEL_CLEARANCE > 1.0)
    labels = _spaced(labels, np.where(under, low, high), under, sizes)
    return {
        "step": names,
        "bottom": low,
        "top": high,
        "value": tops,
        "colour": colours,
        "label": labels,
        "label_above": [
            text if not low_side else "" for text, low_side in zip(labels, under, strict=True)
        ],
        "label_below": [
            text if low_side else "" for text, low_side in zip(labels, under, strict=True)
        ],
    }


def _spaced(labels: list[str], heights, under, sizes) -> list[str]:
    """``labels`` with the smaller step's label dropped where two nearby labels would touch.

    Two labels touch when they are at most :data:`LABEL_REACH` bars apart (a label is wider
    than a bar on a phone), on the same side of their bars, and their heights are within
    :data:`LABEL_NEIGHBOUR` of each other; the first and last bars keep theirs.
    """
    kept = list(labels)
    last = len(kept) - 1
    for i in range(1, len(kept)):
        for j in range(i - 1, max(-1, i - 1 - LABEL_REACH), -1):
            if not (kept[i] and kept[j]) or under[i] != under[j]:
                continue
            if abs(np.log(heights[i] / heights[j])) >= np.log(LABEL_NEIGHBOUR):
                continue
            drop = j if (i == last or (j != 0 and sizes[j] < sizes[i])) else i
            kept[drop] = ""
    return kept


def waterfall_figure(data: dict):
    """The waterfall chart: built once, refilled through the returned source and range."""
    source = ColumnDataSource(data)
    chart = figure(
        x_range=list(data["step"]),
        y_axis_type="log",
        height=CHART_HEIGHT,
        sizing_mode="stretch_width",
        toolbar_location=None,
        tools="",
    )
    theme.style_figure(chart, "waterfall")
    chart.add_layout(BoxAnnotation(bottom=BAND[0], top=BAND[1], fill_color=theme.FREE_KV,
                                   fill_alpha=0.3, line_alpha=0))  # fmt: skip
    chart.add_layout(Span(location=1.0, dimension="width", line_color=theme.INK, line_width=1.5,
                          line_dash="dashed"))  # fmt: skip
    chart.vbar(x="step", bottom="bottom", top="top", width=0.7, color="colour", source=source)
    for text, y, offset, baseline in (("label_above", "top", 4, "bottom"),
                                      ("label_below", "bottom", -4, "top")):  # fmt: skip
        chart.add_layout(LabelSet(x="step", y=y, text=text, source=source, y_offset=offset,
                                  text_baseline=baseline, text_font_size="11px",
                                  text_color=theme.INK, text_align="center"))  # fmt: skip
    chart.yaxis.ticker = FixedTicker(ticks=waterfall_ticks(*waterfall_range(data)))
    chart.yaxis.major_label_overrides = {tick: f"\u00d7{tick:g}" for tick in FINE_TICKS}
    chart.yaxis.axis_label = "predicted \u00f7 measured"
    chart.xaxis.major_label_orientation = 0.7
    chart.xgrid.grid_line_color = None
    # room beside the first and last bars, so their labels (centred on them) stay inside the
    # plot on a phone's narrow bars
    chart.x_range.range_padding = 0.12
    chart.y_range = Range1d(*waterfall_range(data))
    return chart, source


def waterfall_ticks(low: float, high: float) -> list[float]:
    """The ratio ticks between ``low`` and ``high``: 1-2-5 a decade, finer on a short axis."""
    for ticks in (RATIO_TICKS, FINE_TICKS):
        inside = [tick for tick in ticks if low <= tick <= high]
        if len(inside) >= 3:
            return inside
    return inside


def waterfall_range(data: dict) -> tuple[float, float]:
    """The waterfall's y range: every bar and the band, with room for labels above and below."""
    low = min(float(np.nanmin(data["bottom"])), BAND[0])
    high = max(float(np.nanmax(data["top"])), BAND[1])
    below = any(data["label_below"])
    return low / (LABEL_CLEARANCE if below else 1.0), high * 1.6
