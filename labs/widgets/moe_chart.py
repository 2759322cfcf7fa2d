"""The mixture-of-experts read curve: weight bytes one decode step reads against batch size."""

from __future__ import annotations

from html import escape

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, FixedTicker, Label, Range1d, Span
from bokeh.plotting import figure

from core.catalog import ModelShape
from core.foundation.units import giga
from core.whiteboard.experts import experts_per_card, needs_expert_parallelism, read_curve
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import PANEL_STYLE, section
from labs.page.text import LiveHTML
from labs.page.updates import assign, refill

BATCHES = np.unique(np.round(np.logspace(0, np.log10(1024), 64)))
MOE_COLOUR = theme.ACCENT
DENSE_COLOUR = theme.MUTED
ACTIVE_COLOUR = theme.KV_IN_USE
MARKER_COLOUR = theme.INK
# Each line's colour, its legend words and its dash: no two alike, the batch marker included.
LINES = (
    (MOE_COLOUR, "this model: shared weights + the experts the batch touches", "solid"),
    (DENSE_COLOUR, "a dense model of the same size", "dashed"),
    (ACTIVE_COLOUR, "one token's share (its k experts)", "dotted"),
)
MARKER = (MARKER_COLOUR, "your batch B (the vertical line)", "solid")


def _legend() -> str:
    spans = "".join(
        f'<span><span class="swatch" style="width:1.6em;height:0;border-radius:0;'
        f'border-top:{1.5 if label == MARKER[1] else 2.5}px {style} {colour};vertical-align:0.25em">'
        f"</span>{label}</span>"
        for colour, label, style in (*LINES, MARKER)
    )
    return f'<div class="lab"><div class="legend">{spans}</div></div>'


def dense_sentence(name: str, total: str, weight_dtype: str) -> str:
    """What the read curve says of a dense model, in one sentence (a flat line says no more)."""
    return (
        f"The {name} is dense: every decode step reads all {total} of its "
        f"{escape(weight_dtype)} weights, at batch 1 as at batch 1,000. Pick a mixture "
        "of experts (gpt-oss, Qwen3 MoE, DeepSeek-V3) to see the curve bend."
    )


class MoeReadChart(pn.viewable.Viewer):
    """Weight GB read per decode step from batch 1 to 1,024, dense against mixture of experts.

    Built once; :meth:`update` refills its data source and caption from
    :func:`core.whiteboard.experts.read_curve`.
    """

    def __init__(self, **params):
        super().__init__(**params)
        self.source = ColumnDataSource(data={"batch": [], "moe": [], "dense": [], "active": []})
        plot = figure(
            height=260,
            sizing_mode="stretch_width",
            x_axis_type="log",
            x_range=Range1d(0.8, 1300),
            # A Range1d, set per model: BokehJS pins a DataRange1d's end to the value it first
            # saw, so a link's model drawn on a kept first page kept the default's scale and
            # drew the curve off the top (DeepSeek-R1 in fp8 showed an empty chart).
            y_range=Range1d(0, 1),
            toolbar_location=None,
            tools="",
            x_axis_label="batch size B (requests decoding together)",
            y_axis_label="weight GB read per decode step",
        )
        plot.line("batch", "dense", source=self.source, line_color=DENSE_COLOUR, line_width=2,
                  line_dash="dashed")  # fmt: skip
        plot.line("batch", "active", source=self.source, line_color=ACTIVE_COLOUR, line_width=2,
                  line_dash="dotted")  # fmt: skip
        plot.line("batch", "moe", source=self.source, line_color=MOE_COLOUR, line_width=3)
        self.marker = Span(location=1, dimension="height", line_color=MARKER_COLOUR,
                           line_width=1.5, line_dash=MARKER[2], line_alpha=0.7)  # fmt: skip
        plot.add_layout(self.marker)
        self.marker_label = Label(x=1, y=0, x_offset=4, text="", text_baseline="top",
                                  text_font_size="11px", text_color=MARKER_COLOUR)  # fmt: skip
        plot.add_layout(self.marker_label)
        plot.xaxis.ticker = FixedTicker(ticks=[2**i for i in range(11)])
        theme.style_figure(plot)
        self.plot = plot
        self.caption = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self._drawn = None  # the (shape, bytes per weight) the curve shows
        self._layout = pn.Column(
            LiveHTML(_legend(), sizing_mode="stretch_width", margin=(0, 0)),
            pn.pane.Bokeh(plot, sizing_mode="stretch_width"),
            self.caption,
            sizing_mode="stretch_width",
            margin=0,
        )

    def update(
        self, shape: ModelShape, weight_dtype: str, bytes_per_weight: float, seats: int,
        cards: int, card_memory_bytes: float,
    ) -> None:  # fmt: skip
        """Redraw for ``shape`` stored as ``weight_dtype``, marking ``seats`` on the curve."""
        here = read_curve(shape, bytes_per_weight, np.array([max(seats, 1)]))
        with pn.io.hold():
            # The curve moves with the model and its weights only, not with the batch marker.
            if (shape, bytes_per_weight) != self._drawn:
                self._draw_curve(shape, bytes_per_weight)
            assign(self.marker, location=max(seats, 1))
            assign(self.marker_label, x=max(seats, 1), text=f"your B = {fmt.count(max(seats, 1))}")
            self.caption.object = self._caption(shape, weight_dtype, seats, cards,
                                                card_memory_bytes, here)  # fmt: skip

    def _draw_curve(self, shape: ModelShape, bytes_per_weight: float) -> None:
        curve = read_curve(shape, bytes_per_weight, BATCHES)
        refill(self.source, {
            "batch": curve.batch,
            "moe": giga(curve.moe_bytes),
            "dense": giga(curve.dense_bytes),
            "active": np.full(curve.batch.shape, giga(curve.active_bytes)),
        })  # fmt: skip
        # Set, not left to the browser: a page opened on one model and switched to a much
        # bigger one kept its first scale, drawing the new curve off the top.
        self.plot.y_range.end = 1.08 * float(np.max(self.source.data["dense"]))
        self.marker_label.y = 0.99 * self.plot.y_range.end
        self._drawn = (shape, bytes_per_weight)

    def _caption(self, shape, weight_dtype, seats, cards, card_memory_bytes, here) -> str:
        total = fmt.gigabytes(here.dense_bytes[0])
        name = escape(shape.name)
        if not shape.is_moe:
            lines = [dense_sentence(name, total, weight_dtype)]
        else:
            lines = [
                f"Each token routes to {shape.experts_per_token} of {shape.experts} experts per "
                f"layer; a batch of B touches about E(1 \u2212 (1 \u2212 k/E)<sup>B</sup>) of them. "
                f"At B = {fmt.count(seats)} that is <b>{here.experts_read[0]:,.1f}</b> of "
                f"{shape.experts}: the step reads <b>{fmt.gigabytes(here.moe_bytes[0])}</b> of "
                f"{total} (one token alone: {fmt.gigabytes(here.active_bytes)}).",
                "Memory still pays for every expert; only the reads shrink, so a mixture of "
                "experts is cheap to decode one request at a time and nearly as dear as a dense "
                "model of its size once the batch is large.",
            ]
            if needs_expert_parallelism(here.dense_bytes[0], card_memory_bytes, shape.experts):
                lines.append(
                    f"Its weights outgrow one card, so the node spreads each layer's experts over "
                    f"its {cards} cards (expert parallelism): "
                    f"{experts_per_card(shape.experts, cards):,.0f} experts on each."
                )
        items = "".join(f"<li>{line}</li>" for line in lines)
        return f'<div class="lab" data-moe-caption><ul class="facts">{items}</ul></div>'

    def __panel__(self):
        return self._layout


class FoldedMoeChart(pn.viewable.Viewer):
    """A titled panel with the read curve for a mixture of experts; one line for a dense model.

    The chart (about fifty Bokeh models) is built the first time a mixture of experts is on
    screen: a dense model's curve is one flat line, which its one sentence says.
    """

    def __init__(self, title: str, note: str, margin=(8, 0, 0, 0), **params):
        super().__init__(**params)
        self.title, self.note, self._margin = title, note, margin
        self.presenter = False  # the page's presenter mode, for the chart's text once built
        self.chart: MoeReadChart | None = None
        self._section = None
        self.line = LiveHTML("", sizing_mode="stretch_width", margin=0)
        self._folded = pn.Column(self.line, styles=PANEL_STYLE, sizing_mode="stretch_width",
                                 margin=margin)  # fmt: skip
        self._layout = pn.Column(self._folded, sizing_mode="stretch_width", margin=0)

    def update(
        self, shape: ModelShape, weight_dtype: str, bytes_per_weight: float, seats: int,
        cards: int, card_memory_bytes: float,
    ) -> None:  # fmt: skip
        """The chart for a mixture of experts (built on first need), else the one line."""
        if shape.is_moe:
            if self.chart is None:
                self.chart = MoeReadChart()
                theme.chart_text(self.chart.plot, self.presenter)
                self._section = section(self.title, self.chart, note=self.note,
                                        margin=self._margin)  # fmt: skip
            self.chart.update(shape, weight_dtype, bytes_per_weight, seats, cards,
                              card_memory_bytes)  # fmt: skip
            shown = self._section
        else:
            total = fmt.gigabytes(read_curve(shape, bytes_per_weight, BATCHES[:1]).dense_bytes[0])
            self.line.object = (
                f'<div class="lab small" data-moe-caption data-moe-folded><b>{escape(self.title)}'
                f"</b>: {dense_sentence(escape(shape.name), total, weight_dtype)}</div>"
            )
            shown = self._folded
        if len(self._layout.objects) != 1 or self._layout.objects[0] is not shown:
            self._layout.objects = [shown]  # only on a change: setting children resends them

    def __panel__(self):
        return self._layout
