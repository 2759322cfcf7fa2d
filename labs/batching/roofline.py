"""The batching lab's roofline: attainable FLOP/s against arithmetic intensity, with the
decode step and the prefill placed on it (:func:`core.simulator.roofline.roofline`)."""

from __future__ import annotations

from html import escape

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, LabelSet, Range1d

from core.foundation.units import tera
from core.simulator.roofline import ROOF_INTENSITIES, roofline
from labs.batching.chart_kit import chart, log_span, marker, marker_label
from labs.batching.view import CHART_HEIGHT, NODE_KNOBS, TAB_MARGIN, BatchingView, html_pane
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill


def roofline_figure():
    """Attainable FLOP/s against arithmetic intensity, with decode and prefill placed on it."""
    roof = ColumnDataSource(data={"intensity": [], "tflops": []})
    path = ColumnDataSource(data={"intensity": [], "tflops": []})
    points = ColumnDataSource(
        data={"intensity": [], "tflops": [], "colour": [], "name": [], "text": []}
    )
    plot = chart(
        CHART_HEIGHT,
        x_axis_type="log",
        y_axis_type="log",
        x_range=Range1d(*ROOF_INTENSITIES),
        y_range=Range1d(1, 3000),
        x_axis_label="arithmetic intensity (FLOPs per byte read, log)",
        y_axis_label="TFLOP/s per card",
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
    ridge = marker(plot, theme.MUTED, dash="dashed", width=1)
    ridge_label = marker_label(plot, theme.MUTED)
    plot.add_tools(HoverTool(renderers=[dots], tooltips=[("", "@name")]))
    theme.style_figure(plot)
    return plot, roof, path, points, ridge, ridge_label


class RooflineView(BatchingView):
    """Why decode waits on memory: the card's roof, the decode point at B and the prefill."""

    WATCHES = frozenset({*NODE_KNOBS, "batch_size", "prompt_tokens", "answer_mean"})

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        (self.plot, self.roof, self.path, self.points, self.ridge, self.ridge_label) = (
            roofline_figure()
        )
        self.text = html_pane()
        self.panel = section(
            "The roofline: why decode waits on memory",
            pn.pane.Bokeh(self.plot, sizing_mode="stretch_width"),
            self.text,
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        terms = self.step_terms()
        if terms is None:
            return
        costs, context = terms
        lab = self.lab
        roof = roofline(costs, lab.batch_size, context, lab.prompt_tokens)
        refill(self.roof, {"intensity": roof.intensity, "tflops": tera(roof.attainable)})
        refill(self.path, {"intensity": roof.path, "tflops": tera(roof.path_attainable)})
        refill(
            self.points,
            {
                "intensity": [roof.decode, roof.prefill],
                "tflops": [tera(roof.decode_attainable), tera(roof.prefill_attainable)],
                "colour": [theme.ACCENT, theme.KV_IN_USE],
                "name": [
                    f"decode step, B = {lab.batch_size}",
                    f"prefill, {fmt.count(lab.prompt_tokens)} tokens",
                ],
                "text": [f"decode, B = {lab.batch_size}", "prefill"],
            },
        )
        # from a quarter of the slope's start (1 FLOP/byte) up past the roof, room for labels
        log_span(self.plot, tera(roof.hbm_bytes_per_s), tera(roof.peak_flops), below=0.25)
        self.ridge.location = roof.ridge
        self.ridge_label.x = roof.ridge
        self.ridge_label.text = f"ridge {fmt.intensity(roof.ridge)}"
        self.text.object = self._html(roof)

    def _html(self, roof) -> str:
        lab = self.lab
        where = "below" if roof.decode_memory_bound else "above"
        return (
            '<div class="lab"><ul class="facts">'
            f"<li>Ridge point: {fmt.teraflops(roof.peak_flops)} \u00f7 "
            f"{fmt.bandwidth(roof.hbm_bytes_per_s)} = <b>{fmt.intensity(roof.ridge)}</b> per "
            f"{escape(self.scenario.gpu)} ({escape(self.scenario.weight_dtype)} weights).</li>"
            f"<li>A decode step at B = {lab.batch_size} does "
            f"<b>{fmt.intensity(roof.decode)}</b>, {where} the ridge: "
            + (
                "it waits on memory, so each added seat's arithmetic comes almost free."
                if roof.decode_memory_bound
                else "the batch finally keeps the arithmetic busy."
            )
            + "</li>"
            f"<li>A {fmt.count(lab.prompt_tokens)}-token prefill does "
            f"<b>{fmt.intensity(roof.prefill)}</b>: "
            + (
                "on the flat compute roof."
                if roof.prefill_compute_bound
                else "still on the slope: a prompt this short cannot fill the card either."
            )
            + " Drag B to move the decode point.</li></ul></div>"
        )
