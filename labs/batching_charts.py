"""The batching lab's charts: each figure built once, and the data that fills it.

Data functions are pure (an engine result in, a ``ColumnDataSource`` dict out) so they can
be tested without a browser; figure builders return the figure and the sources to refill.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import (
    BasicTicker,
    ColumnDataSource,
    FixedTicker,
    HoverTool,
    Label,
    LabelSet,
    Range1d,
    Span,
)
from bokeh.plotting import figure

from labs import format as fmt
from labs import theme

STATIC_COLOUR = "#5b6578"
CONTINUOUS_COLOUR = theme.ACCENT
POLICY_COLOURS = {"static": STATIC_COLOUR, "continuous": CONTINUOUS_COLOUR}
WRITING = "#6f86c6"
WRITING_ALT = "#3d5a98"  # every other stay in a seat, so back-to-back requests stay apart
STRAGGLER = theme.KV_IN_USE
IDLE = "#d9dde5"
PREEMPTED = theme.WAITING
PREFILL = "#cc79a7"  # Okabe-Ito reddish purple: the step that reads the prompt
SWEEP_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
POWERS_OF_TWO = [2**i for i in range(13)]


def legend_html(items, note: str = "") -> str:
    """An HTML legend above a chart: ``items`` are (colour, label, style) with style 'solid',
    'dashed' or 'box'."""
    spans = []
    for colour, label, style in items:
        if style == "box":
            swatch = f'<span class="swatch" style="background:{colour}"></span>'
        else:
            swatch = (
                f'<span class="swatch" style="width:1.6em;height:0;border-radius:0;'
                f'border-top:2.5px {style} {colour};vertical-align:0.25em"></span>'
            )
        spans.append(f"<span>{swatch}{label}</span>")
    extra = f'<span class="muted">{note}</span>' if note else ""
    return f'<div class="lab"><div class="legend">{"".join(spans)}{extra}</div></div>'


def ratio(value: float) -> str:
    """A ratio of two figures: 4.8x, 23x."""
    value = fmt.finite(value)
    return f"{value:,.1f}\u00d7" if value < 10 else f"{value:,.0f}\u00d7"


def intensity(value: float) -> str:
    """Arithmetic intensity in FLOPs per byte."""
    value = fmt.finite(value)
    return f"{value:,.1f} FLOP/B" if value < 10 else f"{value:,.0f} FLOP/B"


def teraflops(value: float) -> str:
    """FLOP/s in TFLOP/s."""
    return f"{fmt.finite(value) / 1e12:,.0f} TFLOP/s"


# -- timeline ------------------------------------------------------------------------------
def stragglers(result) -> set[int]:
    """The request of each static wave that finished last: the one holding the wave open."""
    stays = result.segments
    if result.policy != "static" or not stays["wave"].size:
        return set()
    order = np.lexsort((stays["end_s"], stays["wave"]))
    waves = stays["wave"][order]
    last = np.flatnonzero(np.append(waves[1:] != waves[:-1], True))
    # a wave whose seats all finish together has no straggler
    alone = [
        i
        for i in last
        if (stays["end_s"][order][i] > stays["start_s"][order][i])
        and np.sum(stays["wave"] == waves[i]) > 1
    ]
    return {int(stays["request"][order][i]) for i in alone}


def timeline_data(result, long_ones: set[int]) -> tuple[dict, dict, dict]:
    """Bars for every seat stay (writing), its prefill, and every seat held idle after it.

    ``long_ones`` are coloured as stragglers (the static run's, shown in both charts).
    """
    stays = result.segments
    request = stays["request"]
    seat = stays["seat"].astype(float)
    kind = np.where(
        stays["preempted"],
        "preempted",
        np.where(np.isin(request, list(long_ones)), "straggler", "writing"),
    )
    # the n-th stay in its seat, counted in time order, alternates between two blues
    order = np.lexsort((stays["start_s"], stays["seat"]))
    rank = np.empty(order.size, dtype=np.int64)
    first_of_seat = np.searchsorted(stays["seat"][order], stays["seat"][order])
    rank[order] = np.arange(order.size) - first_of_seat
    # (static waves are already separated by their idle tails: one shade is enough there)
    alternate = result.policy == "continuous" and rank % 2 == 1
    blues = np.where(alternate, WRITING_ALT, WRITING)
    colours = np.where(
        kind == "preempted", PREEMPTED, np.where(kind == "straggler", STRAGGLER, blues)
    )
    writing = {
        "left": stays["start_s"],
        "right": stays["end_s"],
        "bottom": seat - 0.42,
        "top": seat + 0.42,
        "colour": colours,
        "kind": kind,
        "request": request + 1,
        "arrived": [fmt.duration(value) for value in result.arrival_s[request]],
        "admitted": [fmt.duration(value) for value in stays["start_s"]],
        "ended": [fmt.duration(value) for value in stays["end_s"]],
        "tokens": stays["tokens"],
        "answer": result.answer_tokens[request],
        "waited": [fmt.duration(value) for value in stays["start_s"] - result.arrival_s[request]],
    }
    idle = stays["held_s"] > stays["end_s"]
    held = {
        "left": stays["end_s"][idle],
        "right": stays["held_s"][idle],
        "bottom": seat[idle] - 0.42,
        "top": seat[idle] + 0.42,
        "idle": (stays["held_s"] - stays["end_s"])[idle],
    }
    prefill = {
        "left": stays["start_s"],
        "right": stays["first_token_s"],
        "bottom": seat - 0.42,
        "top": seat + 0.42,
        "seconds": stays["first_token_s"] - stays["start_s"],
    }
    return writing, held, prefill


def timeline_figure(x_range: Range1d):
    """Seats (rows) by time: one bar per stay, grey where a seat sits idle."""
    writing = ColumnDataSource(
        data={
            key: []
            for key in (
                "left",
                "right",
                "bottom",
                "top",
                "colour",
                "kind",
                "request",
                "arrived",
                "tokens",
                "answer",
                "waited",
            )
        }
    )
    held = ColumnDataSource(data={"left": [], "right": [], "bottom": [], "top": [], "idle": []})
    prefill = ColumnDataSource(
        data={"left": [], "right": [], "bottom": [], "top": [], "seconds": []}
    )
    plot = figure(
        height=220,
        sizing_mode="stretch_width",
        x_range=x_range,
        y_range=Range1d(-0.6, 8),
        toolbar_location=None,
        tools="",
        x_axis_label="seconds",
        y_axis_label="seat",
    )
    idle_bars = plot.quad(
        left="left",
        right="right",
        bottom="bottom",
        top="top",
        source=held,
        fill_color=IDLE,
        line_color=None,
        hatch_pattern="/",
        hatch_color="#b7bdc9",
        hatch_alpha=0.8,
        hatch_scale=6,
    )
    bars = plot.quad(
        left="left",
        right="right",
        bottom="bottom",
        top="top",
        source=writing,
        fill_color="colour",
        line_color="#ffffff",
        line_width=0.5,
    )
    prefills = plot.quad(
        left="left",
        right="right",
        bottom="bottom",
        top="top",
        source=prefill,
        fill_color=PREFILL,
        line_color=None,
    )
    plot.add_tools(
        HoverTool(
            renderers=[prefills],
            tooltips=[("prefill", "@seconds{0.000} s reading prompts before the first token")],
        ),
        HoverTool(
            renderers=[bars],
            tooltips=[
                ("request", "#@request (@kind)"),
                ("arrived", "@arrived{0.00} s"),
                ("waited for a seat", "@waited{0.00} s"),
                ("in the seat", "@left{0.00} s \u2192 @right{0.00} s"),
                ("tokens here", "@tokens of @answer"),
            ],
        ),
        HoverTool(
            renderers=[idle_bars], tooltips=[("seat idle", "@idle{0.00} s, waiting for the wave")]
        ),
    )
    plot.yaxis.ticker = BasicTicker(min_interval=1, desired_num_ticks=6)
    theme.style_figure(plot)
    plot.ygrid.grid_line_color = None
    return plot, writing, held, prefill, bars


def queue_data(result) -> dict:
    """The queue length as a step function of time."""
    return {"time": result.queue_time_s, "length": result.queue_length}


def queue_figure(x_range: Range1d):
    """Requests waiting for a seat, both policies on one time axis."""
    sources = {
        policy: ColumnDataSource(data={"time": [], "length": []}) for policy in POLICY_COLOURS
    }
    plot = figure(
        height=150,
        sizing_mode="stretch_width",
        x_range=x_range,
        toolbar_location=None,
        tools="",
        x_axis_label="seconds",
        y_axis_label="waiting",
    )
    for policy, source in sources.items():
        plot.step(
            x="time",
            y="length",
            source=source,
            mode="after",
            line_width=2,
            line_color=POLICY_COLOURS[policy],
        )
    theme.style_figure(plot)
    return plot, sources


# -- batch size sweep ----------------------------------------------------------------------
def _log2_axis(plot, end: int, every: int = 1) -> None:
    plot.xaxis.ticker = FixedTicker(ticks=[b for b in POWERS_OF_TWO[::every] if b <= end])
    plot.xaxis.major_label_overrides = {b: f"{b:,}" for b in POWERS_OF_TWO}


def sweep_figures():
    """Output throughput, and TTFT/inter-token p95, against the batch size."""
    keys = ("batch", "static", "continuous")
    throughput_source = ColumnDataSource(data={key: [] for key in keys})
    latency_source = ColumnDataSource(
        data={key: [] for key in ("batch", "static_ttft", "continuous_ttft", "continuous_itl")}
    )
    common = {
        "height": 250,
        "sizing_mode": "stretch_width",
        "x_axis_type": "log",
        "x_range": Range1d(0.8, 320),
        "toolbar_location": None,
        "tools": "",
        "x_axis_label": "batch size B (seats the scheduler may run)",
    }
    throughput = figure(y_axis_label="output tok/s", **common)
    latency = figure(y_axis_type="log", y_axis_label="seconds (log)", **common)
    for policy, colour in POLICY_COLOURS.items():
        throughput.line(
            "batch",
            policy,
            source=throughput_source,
            line_color=colour,
            line_width=2.5,
        )
        throughput.scatter("batch", policy, source=throughput_source, color=colour, size=6)
        latency.line(
            "batch",
            f"{policy}_ttft",
            source=latency_source,
            line_color=colour,
            line_width=2.5,
        )
        latency.scatter("batch", f"{policy}_ttft", source=latency_source, color=colour, size=6)
    latency.line(
        "batch",
        "continuous_itl",
        source=latency_source,
        line_color=CONTINUOUS_COLOUR,
        line_width=2,
        line_dash="dashed",
    )
    markers = {}
    for name, plot in (("throughput", throughput), ("latency", latency)):
        wall = Span(
            location=1,
            dimension="height",
            line_color=theme.WAITING,
            line_dash="dashed",
            line_width=2,
            visible=False,
        )
        knee = Span(
            location=1,
            dimension="height",
            line_color=theme.KV_IN_USE,
            line_dash="dotted",
            line_width=2.5,
            visible=False,
        )
        here = Span(
            location=1, dimension="height", line_color=theme.INK, line_alpha=0.35, line_width=6
        )
        for span in (here, wall, knee):
            plot.add_layout(span)
        _log2_axis(plot, 256)
        theme.style_figure(plot)
        markers[name] = {"wall": wall, "knee": knee, "here": here}
    plot_sources = {"throughput": throughput_source, "latency": latency_source}
    return throughput, latency, plot_sources, markers


# -- reserved vs paged ---------------------------------------------------------------------
def waste_figure():
    """KV allocated per layout, split into cache holding tokens and cache holding nothing."""
    source = ColumnDataSource(
        data={"layout": [], "used": [], "wasted": [], "label": [], "x": [], "text": []}
    )
    plot = figure(
        height=150,
        sizing_mode="stretch_width",
        y_range=["paged", "reserved"],
        x_range=Range1d(0, 1),
        toolbar_location=None,
        tools="",
        x_axis_label="GB of KV, averaged over the run",
    )
    bars = plot.hbar_stack(
        ["used", "wasted"],
        y="layout",
        height=0.6,
        source=source,
        color=[theme.KV_IN_USE, IDLE],
        line_color="#ffffff",
    )
    bars[0].name, bars[1].name = "holding tokens", "holding nothing"
    plot.add_tools(HoverTool(renderers=bars, tooltips=[("", "$name"), ("", "@label")]))
    plot.add_layout(
        LabelSet(
            x="x",
            y="layout",
            text="text",
            source=source,
            text_font_size="12px",
            text_baseline="middle",
            text_color=theme.INK,
            x_offset=6,
        )
    )
    plot.ygrid.grid_line_color = None
    theme.style_figure(plot)
    plot.ygrid.grid_line_color = None
    return plot, source


# -- speculative decoding ------------------------------------------------------------------
def speculative_figure():
    """Speed-up per stream against the batch: with this cache, and with weights only."""
    source = ColumnDataSource(data={"batch": [], "cache": [], "weights": []})
    plot = figure(
        height=240,
        sizing_mode="stretch_width",
        x_axis_type="log",
        x_range=Range1d(0.8, 1300),
        y_range=Range1d(0, 3.2),
        toolbar_location=None,
        tools="",
        x_axis_label="seats decoding together",
        y_axis_label="speed-up per stream",
    )
    plot.line(
        "batch",
        "cache",
        source=source,
        line_color=theme.ACCENT,
        line_width=2.5,
    )
    plot.line(
        "batch",
        "weights",
        source=source,
        line_color=STATIC_COLOUR,
        line_width=2,
        line_dash="dashed",
    )
    plot.add_layout(Span(location=1, dimension="width", line_color=theme.INK, line_alpha=0.5))
    here = Span(location=1, dimension="height", line_color=theme.INK, line_alpha=0.35, line_width=6)
    plot.add_layout(here)
    _log2_axis(plot, 1024)
    theme.style_figure(plot)
    return plot, source, here


# -- decode ceiling ------------------------------------------------------------------------
def ceiling_figure():
    """Aggregate and per-stream decode rate against the seats requested."""
    source = ColumnDataSource(data={"seats": [], "aggregate": [], "stream": []})
    plot = figure(
        height=240,
        sizing_mode="stretch_width",
        x_axis_type="log",
        x_range=Range1d(0.8, 560),
        y_axis_type="log",
        y_range=Range1d(1, 10),
        toolbar_location=None,
        tools="",
        x_axis_label="seats requested",
        y_axis_label="tokens per second (log)",
    )
    plot.line(
        "seats",
        "aggregate",
        source=source,
        line_color=theme.ACCENT,
        line_width=2.5,
    )
    plot.line(
        "seats",
        "stream",
        source=source,
        line_color=STATIC_COLOUR,
        line_width=2,
        line_dash="dashed",
    )
    wall = Span(
        location=1,
        dimension="height",
        line_color=theme.WAITING,
        line_dash="dashed",
        line_width=2,
        visible=False,
    )
    plot.add_layout(wall)
    wall_label = Label(
        x=1,
        y=0,
        x_units="data",
        y_units="screen",
        y_offset=8,
        x_offset=4,
        text="",
        text_font_size="11px",
        text_color=theme.WAITING,
    )
    plot.add_layout(wall_label)
    _log2_axis(plot, 512)
    theme.style_figure(plot)
    return plot, source, wall, wall_label


# -- roofline ------------------------------------------------------------------------------
def roofline_figure():
    """Attainable FLOP/s against arithmetic intensity, with decode and prefill placed on it."""
    roof = ColumnDataSource(data={"intensity": [], "tflops": []})
    path = ColumnDataSource(data={"intensity": [], "tflops": []})
    points = ColumnDataSource(
        data={"intensity": [], "tflops": [], "colour": [], "name": [], "text": []}
    )
    plot = figure(
        height=240,
        sizing_mode="stretch_width",
        x_axis_type="log",
        y_axis_type="log",
        x_range=Range1d(0.5, 20_000),
        y_range=Range1d(1, 3000),
        toolbar_location=None,
        tools="",
        x_axis_label="arithmetic intensity (FLOPs per byte read, log)",
        y_axis_label="attainable TFLOP/s per card (log)",
    )
    plot.line("intensity", "tflops", source=roof, line_color=theme.INK, line_width=2.5)
    plot.line(
        "intensity", "tflops", source=path, line_color=theme.ACCENT, line_alpha=0.35, line_width=6
    )
    dots = plot.scatter(
        "intensity",
        "tflops",
        source=points,
        color="colour",
        size=13,
        line_color="#ffffff",
        line_width=1.5,
    )
    plot.add_layout(
        LabelSet(
            x="intensity",
            y="tflops",
            text="text",
            source=points,
            text_font_size="12px",
            text_color=theme.INK,
            x_offset=9,
            y_offset=-16,
        )
    )
    ridge = Span(location=1, dimension="height", line_color=theme.MUTED, line_dash="dashed")
    plot.add_layout(ridge)
    ridge_label = Label(
        x=1,
        y=0,
        x_units="data",
        y_units="screen",
        y_offset=8,
        x_offset=4,
        text="",
        text_font_size="11px",
        text_color=theme.MUTED,
    )
    plot.add_layout(ridge_label)
    plot.add_tools(HoverTool(renderers=[dots], tooltips=[("", "@name")]))
    theme.style_figure(plot)
    return plot, roof, path, points, ridge, ridge_label
