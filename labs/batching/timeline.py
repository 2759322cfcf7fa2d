"""The batching lab's timelines: both schedulers' seats over time on the same arrivals, and
the queue each one kept."""

from __future__ import annotations

from html import escape

import panel as pn
from bokeh.models import Range1d

from core.simulator import POLICIES
from labs.batching import timeline_charts as charts
from labs.batching.chart_kit import POLICY_COLOURS, legend_html
from labs.batching.view import RUNS, BatchingView, html_pane
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill
from labs.widgets.fold import Fold

MIN_HEIGHT, MAX_HEIGHT = 150, 380  # px of a timeline, whatever the seats
ROW_PX, FRAME_PX = 7, 70  # px a seat row adds, and the axes' share
OUTLINE_ROWS = 48  # above this many seats the bars lose their white outline


class TimelineView(BatchingView):
    """The selected scheduler's timeline on top, the other below, and both queues."""

    WATCHES = frozenset({RUNS})

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.x_range = Range1d(0, 1)
        self.timelines = {}
        for slot in ("top", "bottom"):
            plot, writing, held, prefill, bars = charts.timeline_figure(self.x_range)
            self.timelines[slot] = {
                "figure": plot,
                "writing": writing,
                "held": held,
                "prefill": prefill,
                "bars": bars,
            }
        self.captions = {"top": html_pane((6, 0, 0, 0)), "bottom": html_pane((10, 0, 0, 0))}
        legend = html_pane((0, 0))
        legend.object = charts.timeline_legend()
        # The queue's chart folds to its caption (how many waited at worst under each), made
        # when first opened: the timelines are what a student came for.
        self.queue_plot = self.queue_sources = None
        self.queue = Fold(
            "Requests waiting for a seat", self._queue_rows, summary=lambda _: "",
        )  # fmt: skip
        self.panel = section(
            "Seats over time, on the same arrivals",
            legend,
            self.captions["top"],
            pn.pane.Bokeh(self.timelines["top"]["figure"], sizing_mode="stretch_width"),
            self.captions["bottom"],
            pn.pane.Bokeh(self.timelines["bottom"]["figure"], sizing_mode="stretch_width"),
            self.queue,
            note="One bar per request in its seat. Hover a bar for its arrival, wait and tokens.",
            margin=(8, 0, 0, 0),
        )

    def _queue_rows(self) -> list:
        """The queue's chart, both policies on the timelines' time axis, drawn from the runs."""
        self.queue_plot, self.queue_sources = charts.queue_figure(self.x_range)
        if self.lab.presenting:  # built after the page: presenter mode's chart text
            theme.chart_text(self.queue_plot, True)
        if self.runs is not None:
            self._fill_queue()
        legend = html_pane((0, 0))
        legend.object = legend_html(
            [(colour, policy, "solid") for policy, colour in POLICY_COLOURS.items()]
        )
        return [legend, pn.pane.Bokeh(self.queue_plot, sizing_mode="stretch_width")]

    def _fill_queue(self) -> None:
        for shown, source in self.queue_sources.items():
            refill(source, charts.queue_data(self.runs[shown, self.lab.kv_layout]))

    def refresh(self) -> None:
        runs, layout = self.runs, self.lab.kv_layout
        policy = self.lab.policy
        other = "continuous" if policy == "static" else "static"
        long_ones = charts.stragglers(runs["static", layout])
        end = max(float(runs[p, layout].segments["held_s"].max()) for p in POLICIES)
        self.x_range.start, self.x_range.end = 0.0, end * 1.01
        rows = max(runs[p, layout].peak_seats for p in POLICIES)
        height = int(min(MAX_HEIGHT, max(MIN_HEIGHT, FRAME_PX + ROW_PX * rows)))
        for slot, shown in (("top", policy), ("bottom", other)):
            run = runs[shown, layout]
            writing, held, prefill = charts.timeline_data(run, long_ones)
            target = self.timelines[slot]
            target["figure"].y_range.end = rows - 0.4
            target["figure"].y_range.start = -0.6
            target["figure"].height = height
            target["bars"].glyph.line_alpha = 1.0 if rows <= OUTLINE_ROWS else 0.0
            refill(target["writing"], writing)
            refill(target["held"], held)
            refill(target["prefill"], prefill)
            self.captions[slot].object = self._caption(run, slot)
        if self.queue_sources is not None:
            self._fill_queue()
        waiting = {p: int(runs[p, layout].queue_length.max()) for p in POLICIES}
        self.queue.summary.object = (
            '<div class="lab small muted" data-queue>At worst '
            f"{fmt.count(waiting['static'])} requests waited for a seat under static batching "
            f"and {fmt.count(waiting['continuous'])} under continuous batching.</div>"
        )

    @staticmethod
    def _caption(run, slot: str) -> str:
        role = "selected" if slot == "top" else "compared"
        if run.policy == "static":
            detail = (
                f"{fmt.count(run.waves)} waves; grey hatching is a seat held idle until its "
                f"wave's straggler (orange) finishes"
            )
        else:
            detail = "every finished seat is refilled at the next step"
            if run.preemptions:
                detail += f"; {fmt.count(run.preemptions)} stays were preempted (red)"
        # the run's own sample: the sweep's shorter runs measure the same B lower or higher
        return (
            f'<div class="lab" data-timeline-{slot}="{run.policy}"><b>{run.policy.capitalize()} '
            f'batching</b> <span class="muted small">({role}, {run.kv_layout} KV)</span> \u00b7 '
            f"{fmt.rate(run.output_tokens_per_s)} on {fmt.plural(run.requests, 'request')} "
            f"\u00b7 {escape(detail)}</div>"
        )
