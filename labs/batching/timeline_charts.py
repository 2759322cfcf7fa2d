"""The timeline charts of the batching lab: seats by time, one bar per stay, and the queue.

The data functions are pure (an engine result in, a ``ColumnDataSource`` dict out) so they
can be tested without a browser; the builders return the figure and the sources to refill.
"""

from __future__ import annotations

import numpy as np
from bokeh.models import BasicTicker, ColumnDataSource, HoverTool, Range1d

from core.simulator.batching import stay_waits
from labs.batching.chart_kit import IDLE, POLICY_COLOURS, chart, legend_html
from labs.page import format as fmt
from labs.page import theme

WRITING = "#6f86c6"
WRITING_ALT = "#3d5a98"  # every other stay in a seat, so back-to-back requests stay apart
STRAGGLER = theme.KV_IN_USE
PREEMPTED = theme.WAITING
PREFILL = "#cc79a7"  # Okabe-Ito reddish purple: the step that reads the prompt
BAR = 0.42  # half a bar's height, in seats
WRITING_KEYS = (
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


def _bars(left, right, seat) -> dict:
    return {"left": left, "right": right, "bottom": seat - BAR, "top": seat + BAR}


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
    writing = _bars(stays["start_s"], stays["end_s"], seat) | {
        "colour": colours,
        "kind": kind,
        "request": request + 1,
        "arrived": [fmt.duration(value) for value in result.arrival_s[request]],
        "admitted": [fmt.duration(value) for value in stays["start_s"]],
        "ended": [fmt.duration(value) for value in stays["end_s"]],
        "tokens": stays["tokens"],
        "answer": result.answer_tokens[request],
        "waited": [fmt.duration(value) for value in stay_waits(result)],
    }
    idle = stays["held_s"] > stays["end_s"]
    held = _bars(stays["end_s"][idle], stays["held_s"][idle], seat[idle]) | {
        "idle": (stays["held_s"] - stays["end_s"])[idle],
    }
    prefill = _bars(stays["start_s"], stays["first_token_s"], seat) | {
        "seconds": stays["first_token_s"] - stays["start_s"],
    }
    return writing, held, prefill


def timeline_figure(x_range: Range1d):
    """Seats (rows) by time: one bar per stay, grey where a seat sits idle."""
    writing = ColumnDataSource(data={key: [] for key in WRITING_KEYS})
    held = ColumnDataSource(data={key: [] for key in ("left", "right", "bottom", "top", "idle")})
    prefill = ColumnDataSource(
        data={key: [] for key in ("left", "right", "bottom", "top", "seconds")}
    )
    plot = chart(
        220, x_range=x_range, y_range=Range1d(-0.6, 8), x_axis_label="seconds", y_axis_label="seat"
    )
    box = {"left": "left", "right": "right", "bottom": "bottom", "top": "top"}
    idle_bars = plot.quad(
        **box,
        source=held,
        fill_color=IDLE,
        line_color=None,
        hatch_pattern="/",
        hatch_color="#b7bdc9",
        hatch_alpha=0.8,
        hatch_scale=6,
    )
    bars = plot.quad(
        **box, source=writing, fill_color="colour", line_color="#ffffff", line_width=0.5
    )
    prefills = plot.quad(**box, source=prefill, fill_color=PREFILL, line_color=None)
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
    plot = chart(150, x_range=x_range, x_axis_label="seconds", y_axis_label="waiting")
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


def timeline_legend() -> str:
    """The swatches under the timeline's heading."""
    items = (
        (WRITING, "writing tokens"),
        (WRITING_ALT, "the next request in the same seat"),
        (PREFILL, "prefill, before the first token"),
        (STRAGGLER, "straggler: last of its static wave"),
        (IDLE, "seat held idle"),
        (PREEMPTED, "preempted (paged memory ran out)"),
    )
    return legend_html([(colour, text, "box") for colour, text in items])
