"""The batching lab's batch-size sweep: throughput and latency against B, with the memory wall
and the latency knee marked where :func:`core.simulator.batching.sweep_marks` finds them."""

from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Range1d

from core.simulator import POLICIES
from core.simulator.batching import SWEEP_BATCHES, sweep_marks
from labs.batching.chart_kit import (
    CONTINUOUS_COLOUR,
    HERE,
    POLICY_COLOURS,
    STATIC_COLOUR,
    chart,
    here_marker,
    legend_html,
    log2_axis,
    marker,
)
from labs.batching.view import RUNS, TAB_MARGIN, BatchingView, html_pane
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill
from labs.widgets.exports import batch_sweep_frame, csv_button


def sweep_figures():
    """Output throughput, and TTFT/inter-token p95, against the batch size."""
    throughput_source = ColumnDataSource(data={"batch": [], "static": [], "continuous": []})
    latency_source = ColumnDataSource(
        data={key: [] for key in ("batch", "static_ttft", "continuous_ttft", "continuous_itl")}
    )
    common = {
        "x_axis_type": "log",
        "x_range": Range1d(0.8, 320),
        "x_axis_label": "batch size B (seats the scheduler may run)",
    }
    throughput = chart(250, y_axis_label="output tok/s", **common)
    latency = chart(250, y_axis_type="log", y_axis_label="seconds (log)", **common)
    for policy, colour in POLICY_COLOURS.items():
        for plot, source, column in (
            (throughput, throughput_source, policy),
            (latency, latency_source, f"{policy}_ttft"),
        ):
            plot.line("batch", column, source=source, line_color=colour, line_width=2.5)
            plot.scatter("batch", column, source=source, color=colour, size=6)
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
        markers[name] = {
            "here": here_marker(plot),
            "wall": marker(plot, theme.WAITING, dash="dashed", visible=False),
            "knee": marker(plot, theme.KV_IN_USE, dash="dotted", width=2.5, visible=False),
        }
        log2_axis(plot, 256)
        theme.style_figure(plot)
    sources = {"throughput": throughput_source, "latency": latency_source}
    return throughput, latency, sources, markers


def _positive(values) -> np.ndarray:
    """NaN where a latency is zero, so a log axis leaves the point out."""
    values = np.asarray(values, dtype=float)
    return np.where(values > 0, values, np.nan)


class SweepView(BatchingView):
    """Both schedulers at every B of the sweep, and where raising B stops paying."""

    WATCHES = frozenset({RUNS})

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.throughput_plot, self.latency_plot, self.sources, self.markers = sweep_figures()
        self.text = html_pane()
        legend = html_pane((0, 0))
        legend.object = legend_html(
            [
                (STATIC_COLOUR, "static", "solid"),
                (CONTINUOUS_COLOUR, "continuous", "solid"),
                (CONTINUOUS_COLOUR, "continuous inter-token p95 (right)", "dashed"),
                (HERE, "your B", "box"),
                (theme.WAITING, "memory wall", "dashed"),
                (theme.KV_IN_USE, "latency knee", "dotted"),
            ],
            "right: TTFT p95 solid",
        )
        self.panel = section(
            "Batch size: throughput, latency, and where to stop",
            legend,
            pn.Row(
                pn.pane.Bokeh(self.throughput_plot, sizing_mode="stretch_width"),
                pn.pane.Bokeh(self.latency_plot, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            self.text,
            csv_button(
                lambda: batch_sweep_frame(SWEEP_BATCHES, self.lab.engine.sweep),
                "batch-size-sweep.csv",
                "Download sweep (CSV)",
            ),
            note="Each point is a fresh run of both schedulers at that B, on the layout you "
            "picked (a smaller sample of requests than the timeline).",
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        sweep = self.lab.engine.sweep
        batches = np.asarray(SWEEP_BATCHES, dtype=float)
        refill(
            self.sources["throughput"],
            {
                "batch": batches,
                **{p: [r.output_tokens_per_s for r in sweep[p]] for p in POLICIES},
            },
        )
        refill(
            self.sources["latency"],
            {
                "batch": batches,
                "static_ttft": _positive([r.ttft_p95_s for r in sweep["static"]]),
                "continuous_ttft": _positive([r.ttft_p95_s for r in sweep["continuous"]]),
                "continuous_itl": _positive([r.itl_p95_s for r in sweep["continuous"]]),
            },
        )
        marks = sweep_marks(sweep, self.runs["continuous", self.lab.kv_layout])
        for markers in self.markers.values():
            markers["here"].location = self.lab.batch_size
            markers["wall"].visible = marks.wall is not None
            markers["wall"].location = marks.wall or 1
            markers["knee"].visible = marks.knee is not None
            markers["knee"].location = marks.knee or 1
        self.text.object = self._html(sweep, marks)

    def _here_html(self, sweep: dict) -> str:
        """The sweep's continuous rate at your B, against the timeline's run and its sample."""
        if self.lab.batch_size not in SWEEP_BATCHES:
            return ""
        here = sweep["continuous"][SWEEP_BATCHES.index(self.lab.batch_size)]
        run = self.runs["continuous", self.lab.kv_layout]
        said = (
            f"<li>At your B = {here.batch_size} the sweep measures continuous batching at "
            f"{fmt.rate(here.output_tokens_per_s)} on {fmt.plural(here.requests, 'request')}"
        )
        if here.requests == run.requests:
            return said + ": the timeline's run itself.</li>"
        return (
            f"{said}; the timeline's run, {fmt.rate(run.output_tokens_per_s)} on "
            f"{fmt.plural(run.requests, 'request')}. A shorter run spends more of its time "
            "filling and draining the batch.</li>"
        )

    def _html(self, sweep: dict, marks) -> str:
        layout = self.lab.kv_layout
        parts = ['<div class="lab"><ul class="facts">']
        if marks.wall is not None and marks.wall_from_run:
            parts.append(
                f"<li><b>Memory wall at {fmt.count(marks.wall)} seats</b> ({layout} KV), met by "
                f"the full run above; the sweep's {fmt.count(sweep['continuous'][0].requests)}-"
                "request sample never asked for that many seats.</li>"
            )
        elif marks.wall is not None:
            parts.append(
                f"<li><b>Memory wall at {fmt.count(marks.wall)} seats</b> ({layout} KV): past it, "
                "raising B changes nothing; the extra requests wait in the queue.</li>"
            )
        else:
            parts.append(
                f"<li>Memory never refused a seat up to B = {SWEEP_BATCHES[-1]} here: the wall is "
                "further out (or traffic never asked for that many seats).</li>"
            )
        if marks.knee is not None:
            parts.append(
                f"<li><b>Latency knee at B = {marks.knee}</b>: the continuous engine's p95 gap "
                "between tokens has doubled from a lone request's. Past it every stream feels the "
                "batch: each step reads more cache, and more steps stop to prefill a newcomer.</li>"
            )
        else:
            parts.append(
                f"<li>No latency knee up to B = {SWEEP_BATCHES[-1]}: the weight read still "
                "dominates each step.</li>"
            )
        best = marks.best
        parts.append(
            f"<li>Measured peak: {fmt.rate(best.output_tokens_per_s)} at B = {best.batch_size} "
            f"on {fmt.plural(best.requests, 'request')} a point. Only a sweep like this one finds "
            "the setting before both marks.</li>" + self._here_html(sweep) + "</ul></div>"
        )
        return "".join(parts)
