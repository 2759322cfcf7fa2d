"""The Reality check lab's "Your measurements": the student's files beside both levels.

An upload taking several files, the set-up chosen for what the files do not state, each run's
set-up in words (guesses marked), a table of measured, whiteboard and engine level with
ratios, one point's waterfall, and the table as CSV. The points also go on the lab's two
predicted-against-measured charts, each run in its colour.
"""

from __future__ import annotations

from html import escape

import pandas as pd
import panel as pn
import param

from core.evidence.cases import METRIC_NAMES
from core.evidence.fidelity import STEP_LABELS
from core.evidence.measured.explain import setup_text, table_rows
from core.evidence.measured.matching import ENGINE_NAMES
from core.evidence.measured.read import FORMATS
from labs.page import format as fmt
from labs.page.a11y import aria_name
from labs.page.layout import note
from labs.page.text import LiveHTML
from labs.page.updates import refill
from labs.reality.charts import SHORT, value_text, waterfall_data, waterfall_figure, waterfall_range
from labs.reality.mine_charts import add_mine, mine_data, span
from labs.reality.text import FIGURE_WORDS
from labs.widgets.exports import csv_button
from labs.widgets.measurements import run_colour, upload_widget

THROUGHPUT = ("throughput",)
LATENCY = ("ttft", "itl", "request")
_BLANK = {"": "as the file says"}


def _unbroken(text: str) -> str:
    """``text`` kept on one line."""
    return text.replace(" ", "\u00a0").replace("-", "\u2011")


def _chip(ratio: float, within) -> str:
    tone = "pass" if within(ratio) else "fail"
    return f'<span class="chip {tone}">{escape(fmt.times(ratio))}</span>'


def _moves_html(point) -> str:
    items = [f"<li><b>{escape(SHORT[term])}</b> {'raised' if factor > 1 else 'lowered'} it "
             f"{escape(fmt.times(factor))}: {escape(label)}.</li>" for term, label, factor in point.moves]  # fmt: skip
    return "".join(items) or "<li>No single term moved it by more than 10 %.</li>"


def _options(store, name: str, blank: str = "") -> dict:
    objects = store.param[name].objects
    words = ENGINE_NAMES if name == "engine" else {}
    return {(blank or _BLANK[""]) if value == "" else words.get(value, str(value)): value
            for value in objects}  # fmt: skip


class MyMeasurements(pn.viewable.Viewer):
    """The section of the Reality check lab that reads the student's own benchmark files."""

    point = param.String(default="", doc="The key of the measured point whose waterfall is shown.")

    def __init__(self, store, charts, within, published, **params):
        super().__init__(**params)
        self.store, self.within, self.published = store, within, published
        self.charts = charts  # (chart, metrics) pairs: the lab's two scatter charts
        self.sources = [add_mine(chart) for chart, _ in charts]
        self.upload = upload_widget(store)
        self.clear = pn.widgets.Button(label="Clear my files", color="light", width=140)
        self.clear.on_click(lambda _event: store.clear())
        self.widgets = self._widgets()
        self.config_text = aria_name(pn.widgets.TextAreaInput(
            placeholder="Paste the model's config.json for runs the catalog does not know",
            height=70, sizing_mode="stretch_width", max_length=200_000,
        ), "The config.json of your runs' model")  # fmt: skip
        self.use_config = pn.widgets.Button(label="Use this config.json", color="light", width=190)
        self.use_config.on_click(self._paste)
        self.picker = pn.widgets.Select(label="Your point", options={}, width=420)
        self.picker.param.watch(lambda event: setattr(self, "point", event.new or ""), "value")
        self.chart, self.waterfall_source = waterfall_figure(
            waterfall_data([1.0] * len(STEP_LABELS))  # every step's bar, refilled per point
        )
        self.messages = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.runs_text = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.table = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.point_text = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.download = csv_button(
            lambda: pd.DataFrame(table_rows(store.explained)), "my-measurements.csv",
            "Download my table (CSV)",
        )  # fmt: skip
        self.details = pn.Column(
            self.runs_text, self.table, self.download, self.picker,
            pn.pane.Bokeh(self.chart, sizing_mode="stretch_width"), self.point_text,
            sizing_mode="stretch_width", margin=0, visible=False,
        )  # fmt: skip
        store.param.watch(self._show, ["explained", "messages"])
        self._layout = self._build()
        self._show()

    def _widgets(self) -> dict:
        s = self.store
        return {
            "gpu": pn.widgets.Select.from_param(s.param.gpu, label="Card", width=150),
            "cards": pn.widgets.IntInput.from_param(s.param.cards, label="Cards (0: usual)", width=120),
            "weights": pn.widgets.Select.from_param(s.param.weights, label="Weights", options=_options(s, "weights"), width=190),
            "cache": pn.widgets.Select.from_param(s.param.cache, label="Cache", options=_options(s, "cache"), width=190),
            "engine": pn.widgets.Select.from_param(s.param.engine, label="Engine", options=_options(s, "engine"), width=190),
            "model": pn.widgets.Select.from_param(s.param.model, label="Model, if the file's is unknown", options=_options(s, "model", "none chosen"), width=230),
            "users": pn.widgets.IntInput.from_param(s.param.users, label="Users, if the file has no load", width=200),
        }  # fmt: skip

    def _paste(self, _event=None) -> None:
        problem = self.store.paste(self.config_text.value or "")
        self.store.messages = [f"config.json: {problem}"] if problem else []

    # -- refresh --------------------------------------------------------------------------
    def _show(self, *_events) -> None:
        pairs = self.store.points()
        keys = {f"{point.case.key} \u00b7 {item.run.label}, {METRIC_NAMES[point.metric]}":
                point.case.key for item, point in pairs}  # fmt: skip
        with pn.io.hold():
            for (chart, metrics), source in zip(self.charts, self.sources, strict=True):
                data = mine_data(pairs, metrics)
                refill(source, data)
                published = self.published[metrics]
                chart.x_range.start, chart.x_range.end = span(published, data)
                chart.y_range.start, chart.y_range.end = chart.x_range.start, chart.x_range.end
            self.messages.object = self._messages_html()
            self.runs_text.object = self._runs_html()
            self.table.object = self._table_html(pairs)
            self.picker.options = keys
            if keys and self.point not in keys.values():
                self.point = next(iter(keys.values()))
            self.picker.value = self.point if keys else None
            self.details.visible = bool(self.store.explained)
            self._show_point()

    @param.depends("point", watch=True)
    def _show_point(self) -> None:
        found = [
            (item, point) for item, point in self.store.points() if point.case.key == self.point
        ]
        if not found:
            self.point_text.object = ""
            return
        item, point = found[0]
        data = waterfall_data(point.steps)
        with pn.io.hold():
            refill(self.waterfall_source, data)
            self.chart.y_range.start, self.chart.y_range.end = waterfall_range(data)
            self.point_text.object = (
                f'<div class="lab"><p><b style="color:{run_colour(point.run)}">\u25a0</b> '
                f"<b>{escape(point.case.key)}</b>, {escape(item.run.label)}: measured "
                f"{escape(point.statistic)} <b>{escape(value_text(point.metric, point.measured))}</b>; "
                f"the whiteboard says {escape(value_text(point.metric, point.whiteboard))} "
                f"{_chip(point.steps[0], self.within)}, the engine level "
                f"{escape(value_text(point.metric, point.engine))} {_chip(point.steps[-1], self.within)}."
                f'</p><p class="small muted">What moved it by more than 10 %:</p><ul class="facts">{_moves_html(point)}</ul></div>'
            )  # fmt: skip

    # -- text -----------------------------------------------------------------------------
    def _messages_html(self) -> str:
        if not self.store.messages:
            return ""
        items = "".join(f"<li>{escape(text)}</li>" for text in self.store.messages)
        return (
            '<div class="lab"><div class="notice" data-file-notice><b>Some files were not read.'
            f'</b><ul class="facts">{items}</ul></div></div>'
        )

    def _runs_html(self) -> str:
        items = []
        for index, item in enumerate(self.store.explained):
            run, colour = item.run, run_colour(index)
            head = (f'<b style="color:{colour}">\u25a0 M{index + 1}</b> <b>{escape(run.label)}</b> '
                    f"({escape(run.tool)}{', per request' if run.per_request else ', summary'}; "
                    f"model in the file: {escape(run.model or 'none')})")  # fmt: skip
            if item.setup is None or item.problem:
                body = f'<span class="fail-text">{escape(item.problem)}</span>'
            else:
                body = f"evaluated on {escape(setup_text(item.setup))}"
            items.append(f"<li>{head}: {body}</li>")
        return f'<div class="lab"><ul class="facts">{"".join(items)}</ul></div>'

    def _table_html(self, pairs) -> str:
        rows = []
        for item, point in pairs:
            case, chip = point.case, lambda ratio: _chip(ratio, self.within)
            rows.append(
                f'<tr><td><b style="color:{run_colour(point.run)}">\u25a0</b>\u00a0'
                f"{escape(_unbroken(case.key))}</td><td>{escape(_unbroken(item.setup.model))}</td>"
                f"<td>{item.setup.cards}\u00a0\u00d7 {escape(item.setup.gpu)}</td>"
                f'<td class="num">{fmt.count(case.prompt_tokens)}\u00a0/\u00a0{fmt.count(case.answer_tokens)}</td>'
                f"<td>{escape(_unbroken(case.load_text))}</td>"
                f"<td>{escape(_unbroken(FIGURE_WORDS[case.metric]))} "
                f'<span class="muted small">{escape(_unbroken(point.statistic))}</span></td>'
                f'<td class="num">{escape(value_text(case.metric, point.measured))}</td>'
                f'<td class="num">{escape(value_text(case.metric, point.whiteboard))}\u00a0{chip(point.steps[0])}</td>'
                f'<td class="num">{escape(value_text(case.metric, point.engine))}\u00a0{chip(point.steps[-1])}</td></tr>'
            )  # fmt: skip
        if not rows:
            return ""
        return (
            '<div class="lab" style="overflow-x:auto" tabindex="0" role="region" aria-label="Your runs">'
            '<table class="grid" data-mine><thead><tr><th>point</th>'
            "<th>model</th><th>cards</th><th class='num'>in / out</th><th>load</th><th>figure</th>"
            "<th class='num'>measured</th><th class='num'>whiteboard</th>"
            f"<th class='num'>engine level</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    # -- layout ---------------------------------------------------------------------------
    def _build(self):
        w = self.widgets
        row = dict(sizing_mode="stretch_width", margin=0)
        # No heading of its own: the lab folds this section under a toggle of that name.
        return pn.Column(
            note(
                f"Reads {FORMATS}, up to 20 MB each; the files stay in this session, and the "
                "link keeps only the set-up chosen here. No results file names its card: choose "
                "it. Each point shows on the charts above as a square in its run's colour "
                "(hollow: the whiteboard, filled: the engine level)."
            ),
            self.upload,
            pn.Row(w["gpu"], w["cards"], w["weights"], w["cache"], w["engine"], self.clear, **row),
            pn.Row(w["model"], w["users"], self.config_text, self.use_config, **row),
            self.messages,
            self.details,
            **row,
        )

    def __panel__(self):
        return self._layout
