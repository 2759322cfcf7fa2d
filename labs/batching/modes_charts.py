"""The serving-modes card's charts: seat timelines, latency percentiles, the first token's path.

Data functions are pure (engine results in, ``ColumnDataSource`` dicts out) so they can be
tested without a browser; figure builders return the figure and the sources to refill.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, Range1d

from labs.batching import chart_kit
from labs.page import format as fmt
from labs.page import theme

MODE_LABELS = {
    "aggregated": "no chunking",
    "chunked": "chunked prefill",
    "disaggregated": "disaggregated",
}
MODE_COLOURS = {"aggregated": "#5b6578", "chunked": theme.ACCENT, "disaggregated": "#009e73"}
PREFILLING = "#cc79a7"  # Okabe-Ito reddish purple: a prompt being read
DECODING = "#6f86c6"
LONG = "#3d2a6e"  # a long prompt's request, decoding
STALL = theme.WAITING
PERCENTILES = ("p50", "p95", "p99")
PATH = ("wait", "prefill", "KV transfer")


def legend_html(items) -> str:
    """An HTML legend of (colour, label) boxes."""
    return chart_kit.legend_html([(colour, label, "box") for colour, label in items])


TIMELINE_LEGEND = legend_html(
    [
        (PREFILLING, "prompt being prefilled"),
        (DECODING, "writing tokens"),
        (LONG, "the long prompt's request"),
        (STALL, "a stream stalled (a gap over 3\u00d7 the median)"),
    ]
)


def timeline_figure(x_range: Range1d, title: str) -> tuple:
    """One engine's seats over time: bars per stay, stalls drawn over them."""
    fig = chart_kit.chart(
        170, x_range=x_range, y_range=Range1d(-0.8, 8), title=title, x_axis_label="time (s)"
    )
    theme.style_figure(fig)
    fig.yaxis.axis_label = "seat"
    stays = ColumnDataSource(timeline_data(None)["stays"])
    stalls = ColumnDataSource(timeline_data(None)["stalls"])
    bars = fig.hbar(y="row", left="left", right="right", height=0.8, color="colour", source=stays)
    fig.hbar(y="row", left="left", right="right", height=0.8, color=STALL, source=stalls)
    fig.add_tools(
        HoverTool(
            renderers=[bars],
            tooltips=[("request", "@request"), ("", "@what"), ("prompt", "@prompt tokens")],
        )
    )
    return fig, stays, stalls


def timeline_data(result, long_tokens: int = 0) -> dict:
    """Bars for every stay (prefill part, then decode part) and for every stall of ``result``."""
    empty = {
        "row": [],
        "left": [],
        "right": [],
        "colour": [],
        "request": [],
        "what": [],
        "prompt": [],
    }
    if result is None:
        return {"stays": dict(empty), "stalls": {k: [] for k in ("row", "left", "right")}}
    seg = result.segments
    request = seg["request"]
    prompt = result.prompt_tokens[request]
    long = prompt >= long_tokens if long_tokens else np.zeros(request.size, dtype=bool)
    role = np.asarray(result.node_roles)[seg["node"]]
    prefilling = role == "prefill"
    first = np.where(prefilling, seg["end_s"], np.minimum(seg["first_token_s"], seg["end_s"]))
    decode_colour = np.where(long, LONG, DECODING)
    rows = np.concatenate([seg["seat"], seg["seat"]])
    stays = {
        "row": rows,
        "left": np.concatenate([seg["start_s"], first]),
        "right": np.concatenate([first, np.where(prefilling, first, seg["end_s"])]),
        "colour": np.concatenate([np.full(request.size, PREFILLING), decode_colour]),
        "request": np.concatenate([request, request]),
        "what": np.concatenate(
            [np.full(request.size, "prefilling its prompt"), np.full(request.size, "writing")]
        ),
        "prompt": np.concatenate([prompt, prompt]),
    }
    stalls = result.stalls()
    return {
        "stays": stays,
        "stalls": {"row": stalls["seat"], "left": stalls["start_s"], "right": stalls["end_s"]},
    }


def seat_rows(result) -> float:
    """The top of a timeline's y axis: every seat that held a request."""
    seats = result.segments["seat"]
    return float(seats.max() + 0.8) if seats.size else 1.0


def grouped_bars(title: str, factors: list) -> tuple:
    """Bars in milliseconds, one per (mode, part) factor, grouped by mode; (figure, source)."""
    fig = chart_kit.chart(230, x_range=FactorRange(*factors, group_padding=0.6), title=title)
    theme.style_figure(fig)
    fig.yaxis.axis_label = "milliseconds"
    fig.y_range.start = 0
    source = ColumnDataSource(
        {
            "x": factors,
            "ms": [0.0] * len(factors),
            "colour": ["#fff"] * len(factors),
            "label": [""] * len(factors),
        }
    )
    bars = fig.vbar(x="x", top="ms", width=0.8, color="colour", source=source)
    fig.add_tools(HoverTool(renderers=[bars], tooltips=[("", "@x"), ("", "@label")]))
    return fig, source


def percentile_figure(title: str, modes) -> tuple:
    """p50, p95 and p99 for each mode, side by side."""
    fig, source = grouped_bars(
        title, [(MODE_LABELS[mode], q) for mode in modes for q in PERCENTILES]
    )
    fig.xaxis.major_label_orientation = 0
    return fig, source


def percentile_data(results: dict, field: str) -> dict:
    """The bars of :func:`percentile_figure` for ``ttft`` or ``itl``."""
    xs, ms, colours, labels = [], [], [], []
    for mode, result in results.items():
        for q in PERCENTILES:
            seconds = getattr(result, f"{field}_{q}_s")
            xs.append((MODE_LABELS[mode], q))
            ms.append(fmt.finite(seconds) * 1e3)
            colours.append(MODE_COLOURS[mode])
            labels.append(fmt.duration(seconds))
    return {"x": xs, "ms": ms, "colour": colours, "label": labels}


def path_figure(modes) -> tuple:
    """A request's way to its first token, mean seconds by phase; the KV transfer its own bar."""
    fig, source = grouped_bars(
        "To the first token and the link (mean)",
        [(MODE_LABELS[mode], phase) for mode in modes for phase in PATH],
    )
    fig.xaxis.major_label_text_alpha = 0.0  # the phases are told by colour (PATH_LEGEND)
    return fig, source


PATH_COLOURS = {"wait": theme.WAITING, "prefill": PREFILLING, "KV transfer": "#e69f00"}
# The phases of SimulationResult.time_split each bar shows.
PATH_PHASES = {"wait": "waiting", "prefill": "first token", "KV transfer": "KV transfer"}


PATH_LEGEND = legend_html(
    [
        (PATH_COLOURS["wait"], "waiting to start"),
        (PATH_COLOURS["prefill"], "admission to first token"),
        (PATH_COLOURS["KV transfer"], "KV transfer to a decode node"),
    ]
)


def path_data(results: dict) -> dict:
    """The bars of :func:`path_figure`: waiting, first token and KV transfer per mode."""
    xs, ms, colours, labels = [], [], [], []
    for mode, result in results.items():
        split = result.time_split()
        for phase in PATH:
            seconds = split[PATH_PHASES[phase]]
            xs.append((MODE_LABELS[mode], phase))
            ms.append(fmt.finite(seconds) * 1e3)
            colours.append(PATH_COLOURS[phase])
            labels.append(fmt.duration(seconds))
    return {"x": xs, "ms": ms, "colour": colours, "label": labels}
