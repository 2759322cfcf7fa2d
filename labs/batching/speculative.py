"""The batching lab's speculative-decoding view: speed-up per stream against the batch, its
own three knobs, and the pass at the student's B term by term (:func:`core.simulator.speculative.pass_terms`)."""

from __future__ import annotations

import numpy as np
import panel as pn
from bokeh.models import ColumnDataSource, Range1d

from core.evidence.published import SPECULATIVE_SPEEDUP_HIGH, SPECULATIVE_SPEEDUP_LOW
from core.simulator.speculative import pass_terms, speedup
from labs.batching.chart_kit import (
    HERE,
    STATIC_COLOUR,
    chart,
    here_marker,
    legend_html,
    lines,
    log2_axis,
    marker,
)
from labs.batching.view import (
    CHART_HEIGHT,
    NODE_KNOBS,
    SPECULATIVE_KNOBS,
    TAB_MARGIN,
    BatchingView,
    html_pane,
)
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill

MOST_SEATS = 1024  # the curve runs from one seat to this many
MIN_TOP = 3.2  # the y axis shows at least this speed-up


def speculative_figure():
    """Speed-up per stream against the batch: with this cache, and with weights only."""
    source = ColumnDataSource(data={"batch": [], "cache": [], "weights": []})
    plot = chart(
        CHART_HEIGHT,
        x_axis_type="log",
        x_range=Range1d(0.8, 1300),
        y_range=Range1d(0, MIN_TOP),
        x_axis_label="seats decoding together",
        y_axis_label="speed-up per stream",
    )
    lines(plot, source, "batch", "cache", "weights", theme.ACCENT, STATIC_COLOUR)
    marker(plot, theme.INK, width=1, alpha=0.5, across=True)
    here = here_marker(plot)
    log2_axis(plot, MOST_SEATS)
    theme.style_figure(plot)
    return plot, source, here


class SpeculativeView(BatchingView):
    """How much faster each stream writes with a draft model, and where the trick fades."""

    WATCHES = frozenset(
        {*SPECULATIVE_KNOBS, *NODE_KNOBS, "batch_size", "prompt_tokens", "answer_mean"}
    )

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        widgets = [lab.widgets[name] for name in SPECULATIVE_KNOBS]
        self.plot, self.source, self.here = speculative_figure()
        self.text = html_pane()
        legend = html_pane((0, 0))
        legend.object = legend_html(
            [
                (theme.ACCENT, "with this cache (prompt + half the answer)", "solid"),
                (STATIC_COLOUR, "weights only, no cache", "dashed"),
                (HERE, "your B", "box"),
            ]
        )
        self.panel = section(
            "Speculative decoding: the batch-of-one trick",
            pn.Row(*widgets, sizing_mode="stretch_width"),
            legend,
            pn.pane.Bokeh(self.plot, sizing_mode="stretch_width"),
            self.text,
            note="A small draft model proposes k tokens; the target checks them in one pass. "
            "Draft step cost is one draft step as a share of a target step.",
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        terms = self.step_terms()
        if terms is None:
            return
        costs, context = terms
        lab = self.lab
        batches = np.unique(np.round(np.geomspace(1, MOST_SEATS, 80)))
        knobs = (lab.draft_tokens, lab.acceptance, lab.draft_cost)
        curve = speedup(costs, batches, *knobs, context_tokens=context)
        bare = speedup(costs, batches, *knobs, context_tokens=0)
        here = pass_terms(costs, lab.batch_size, *knobs, context)
        lone = speedup(costs, 1, *knobs, context_tokens=context)
        refill(self.source, {"batch": batches, "cache": curve, "weights": bare})
        self.plot.y_range.end = max(MIN_TOP, float(curve.max()) * 1.1)
        self.here.location = lab.batch_size
        self.text.object = self._html(here, lone)

    def _html(self, here, lone: float) -> str:
        lab = self.lab
        k, batch = lab.draft_tokens, lab.batch_size
        bound = "the read of weights and cache" if here.read_bound else "arithmetic"
        return (
            '<div class="lab"><div class="derivation">'
            f"E = (1 \u2212 \u03b1<sup>k+1</sup>) / (1 \u2212 \u03b1) = "
            f"(1 \u2212 {fmt.fraction(lab.acceptance)}<sup>{k + 1}</sup>) / "
            f"{fmt.fraction(1 - lab.acceptance)} = <b>{fmt.fraction(here.tokens)}</b> tokens a pass<br>"
            f"pass at B = {batch}: draft {k} \u00d7 {fmt.percent(lab.draft_cost)} "
            f"\u00d7 {fmt.duration(here.plain_s)} + verify "
            f"{fmt.duration(here.verify_s)} = {fmt.duration(here.pass_s)}<br>"
            f"speed-up = {fmt.fraction(here.tokens)} \u00d7 {fmt.duration(here.plain_s)} \u00f7 "
            f"{fmt.duration(here.pass_s)} = <b>{fmt.ratio(here.speedup)}</b></div>"
            f'<ul class="facts"><li>A lone request streams <b>{fmt.ratio(lone)}</b> faster '
            f"(published: {SPECULATIVE_SPEEDUP_LOW:g}\u2013{SPECULATIVE_SPEEDUP_HIGH:g}\u00d7): "
            "verifying k + 1 tokens costs about one step while the weight read dominates.</li>"
            f"<li>At B = {batch} the verify pass is bound by {bound}. Once the "
            "batch's arithmetic outweighs the read, verification costs k + 1 steps and the "
            "trick stops paying; a long cache (solid line) keeps the pass read-bound "
            "longer.</li></ul></div>"
        )
