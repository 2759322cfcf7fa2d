"""The batching lab's reserved-against-paged view: KV set aside per layout, split into cache
holding tokens and cache holding nothing."""

from __future__ import annotations

import panel as pn
from bokeh.models import ColumnDataSource, HoverTool, LabelSet, Range1d

from core.evidence.published import PAGED_WASTE_HIGH, RESERVED_WASTE_HIGH, RESERVED_WASTE_LOW
from core.foundation.units import giga
from core.simulator import answer_ceiling
from core.simulator.batching import wasted_kv_bytes
from core.simulator.steps import step_costs
from labs.batching.chart_kit import IDLE, chart, legend_html
from labs.batching.view import RUNS, TAB_MARGIN, BatchingView, html_pane
from labs.page import format as fmt
from labs.page import theme
from labs.page.layout import section
from labs.page.updates import refill

LAYOUTS = ("reserved", "paged")


def waste_figure():
    """KV allocated per layout as stacked bars: holding tokens, then holding nothing."""
    source = ColumnDataSource(
        data={"layout": [], "used": [], "wasted": [], "label": [], "x": [], "text": []}
    )
    plot = chart(
        150,
        y_range=["paged", "reserved"],
        x_range=Range1d(0, 1),
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
    theme.style_figure(plot)
    plot.ygrid.grid_line_color = None
    return plot, source


def waste_data(runs: dict) -> dict:
    """The bars' columns for one scheduler's two layouts (GB on the axis)."""
    data = {"layout": [], "used": [], "wasted": [], "label": [], "x": [], "text": []}
    for layout, run in runs.items():
        data["layout"].append(layout)
        data["used"].append(giga(run.kv_used_bytes))
        data["wasted"].append(giga(wasted_kv_bytes(run)))
        data["label"].append(
            f"{fmt.gigabytes(run.kv_used_bytes)} of {fmt.gigabytes(run.kv_allocated_bytes)}"
        )
        data["x"].append(giga(run.kv_allocated_bytes))
        data["text"].append(f"{fmt.percent(run.kv_waste)} wasted")
    return data


class WasteView(BatchingView):
    """The selected scheduler under both layouts: how much KV each set aside for nothing."""

    WATCHES = frozenset({RUNS})

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.plot, self.source = waste_figure()
        self.text = html_pane()
        self.panel = section(
            "Reserved vs paged KV",
            pn.pane.Bokeh(self.plot, sizing_mode="stretch_width"),
            self.text,
            note="The selected scheduler, both layouts, time-averaged over the run.",
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        lab = self.lab
        runs = {layout: self.runs[lab.policy, layout] for layout in LAYOUTS}
        data = waste_data(runs)
        self.plot.x_range.end = max(max(data["x"]), 1e-3) * 1.3
        refill(self.source, data)
        reserved, paged = runs["reserved"], runs["paged"]
        reach = answer_ceiling(lab.answer, lab.answer_mean, lab.answer_cap)
        block = step_costs(self.scenario, self.lab.result).block_tokens
        legend = legend_html(
            [
                (theme.KV_IN_USE, "KV holding tokens", "box"),
                (IDLE, "set aside, holding nothing", "box"),
            ]
        )
        self.text.object = (
            legend.removesuffix("</div>") + '<ul class="facts">'
            f"<li><b>Reserved</b> sets aside each request's prompt and its longest possible "
            f"answer ({fmt.count(reserved.prompt_tokens[0])} + {fmt.count(reach)} tokens): "
            f"{fmt.percent(reserved.kv_waste)} of it held nothing, and it granted at most "
            f"{fmt.count(reserved.peak_seats)} seats.</li>"
            f"<li><b>Paged</b> hands out {fmt.count(block)}-token blocks as tokens "
            f"are written: {fmt.percent(paged.kv_waste, 1)} held nothing, and it granted "
            f"{fmt.count(paged.peak_seats)} seats"
            + (
                f", preempting {fmt.count(paged.preemptions)} stays when memory ran out"
                if paged.preemptions
                else ""
            )
            + ".</li>"
            f'<li class="muted">PagedAttention measured {fmt.percent(RESERVED_WASTE_LOW)} to '
            f"{fmt.percent(RESERVED_WASTE_HIGH)} of reserved KV memory wasted, and under "
            f"{fmt.percent(PAGED_WASTE_HIGH)} with paging.</li></ul></div>"
        )
