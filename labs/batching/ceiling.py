"""The batching lab's decode ceiling: one stream against the batch, the textbook ceiling, and
the memory wall (:mod:`core.simulator.decode_ceiling`)."""

from __future__ import annotations

from html import escape

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Range1d

from core.catalog.custom import scenario_shape
from core.simulator.decode_ceiling import MOST_SEATS, decode_ceiling, reference_ceiling
from labs.batching.chart_kit import (
    STATIC_COLOUR,
    chart,
    legend_html,
    lines,
    log2_axis,
    log_span,
    marker,
    marker_label,
)
from labs.batching.view import CHART_HEIGHT, NODE_KNOBS, TAB_MARGIN, BatchingView, html_pane
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill


def ceiling_figure():
    """Aggregate and per-stream decode rate against the seats requested."""
    source = ColumnDataSource(data={"seats": [], "aggregate": [], "stream": []})
    plot = chart(
        CHART_HEIGHT,
        x_axis_type="log",
        x_range=Range1d(0.8, 560),
        y_axis_type="log",
        y_range=Range1d(1, 10),
        x_axis_label="seats requested",
        y_axis_label="tokens/s (log)",
    )
    lines(plot, source, "seats", "aggregate", "stream", theme.ACCENT, STATIC_COLOUR)
    wall = marker(plot, theme.WAITING, dash="dashed", visible=False)
    wall_label = marker_label(plot, theme.WAITING)
    log2_axis(plot, MOST_SEATS)
    theme.style_figure(plot)
    return plot, source, wall, wall_label


class CeilingView(BatchingView):
    """Aggregate and per-stream decode rates against the seats, and the single-stream ceiling."""

    WATCHES = frozenset({*NODE_KNOBS, "prompt_tokens", "answer_mean"})

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.plot, self.source, self.wall, self.wall_label = ceiling_figure()
        self.text = html_pane()
        legend = html_pane((0, 0))
        legend.object = legend_html(
            [
                (theme.ACCENT, "aggregate, all seats", "solid"),
                (STATIC_COLOUR, "each stream", "dashed"),
                (theme.WAITING, "memory wall", "dashed"),
            ]
        )
        self.panel = section(
            "The decode ceiling: one stream against the batch",
            legend,
            pn.pane.Bokeh(self.plot, sizing_mode="stretch_width"),
            self.text,
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        if self.lab.engine.error:
            return
        lab = self.lab
        curve = decode_ceiling(self.scenario, lab.prompt_tokens, lab.answer_mean)
        refill(
            self.source,
            {
                "seats": curve.seats,
                "aggregate": curve.aggregate,
                "stream": curve.stream,
            },
        )
        self.wall.visible = curve.wall is not None
        self.wall.location = curve.wall or 1
        self.wall_label.x = curve.wall or 1
        self.wall_label.text = f"memory wall: {curve.wall} seats" if curve.wall else ""
        if curve.best > 0:
            # room above the best aggregate and below the slowest stream, on a log axis
            log_span(self.plot, float(np.nanmin(curve.stream)), curve.best)
        self.text.object = self._html(curve)

    def _html(self, curve) -> str:
        s = self.scenario
        ref = reference_ceiling()
        name = scenario_shape(s).name
        one = curve.one
        read = fmt.gigabytes(ref.weight_bytes)
        return (
            '<div class="lab"><div class="derivation">'
            f"{escape(ref.shape.name)}: {fmt.billions(ref.shape.params)} parameters \u00d7 "
            f"{ref.bytes_per_weight} bytes = {read} read for every token<br>"
            f"one {escape(ref.gpu.name)} streams {fmt.bandwidth(ref.gpu.hbm_bytes_per_s)}: "
            f"{fmt.bandwidth(ref.gpu.hbm_bytes_per_s)} \u00f7 {read}"
            f" = <b>{fmt.rate(ref.tokens_per_s)}</b> for one request, whatever the FLOPs<br>"
            f"{escape(name)} on {one.cards} \u00d7 {escape(s.gpu)}: "
            f"{fmt.gigabytes(one.weight_bytes_read)} read a token \u2192 at most <b>{fmt.rate(curve.ceiling)}</b> "
            f"(the model's {fmt.percent(curve.bandwidth_share)} of bandwidth: "
            f"{fmt.rate(one.stream_tokens_per_s)})</div>"
            '<ul class="facts"><li>Batching shares that read: the aggregate climbs almost '
            f"free with the seats, to {fmt.rate(curve.best)}"
            + (
                f", until memory stops it at {curve.wall} seats of "
                f"{fmt.count(one.seat_tokens)} tokens."
                if curve.wall
                else f" by {MOST_SEATS} seats, and memory has still not stopped it."
            )
            + "</li></ul></div>"
        )
