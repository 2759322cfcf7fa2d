"""The Reality check lab: the whiteboard and the engine level against what real engines measured."""

from __future__ import annotations

from html import escape

import panel as pn
import param

from core.evidence.cases import METRIC_NAMES
from core.evidence.fidelity import BAND, MOVED, PUBLISHED, STEP_LABELS, report, within_band
from core.evidence.level_gap import first_token_band
from core.evidence.scores import DEVELOPMENT_TARGET, HELD_OUT_TARGET, UNSEEN_TARGET
from core.scenario.knobs import Scenario
from labs.page import format as fmt
from labs.page.cards import Card, CardRow
from labs.page.layout import intro, note, section
from labs.page.text import LiveHTML
from labs.page.updates import refill
from labs.reality.charts import (
    ENGINE,
    SHORT,
    marker_set,
    scatter_data,
    scatter_figure,
    value_text,
    waterfall_data,
    waterfall_figure,
    waterfall_range,
    waterfall_ticks,
)
from labs.reality.mine import LATENCY, THROUGHPUT, MyMeasurements
from labs.reality.text import (
    FIGURE_WORDS,
    TABLE_GROUPS,
    families_html,
    first_tokens_html,
    load_words,
    set_up_html,
    spread_words,
    target_tone,
    target_words,
)
from labs.widgets.exports import cases_frame, csv_button
from labs.widgets.fold import folded_section
from labs.widgets.measurements import FOLD_KNOBS, measurements_summary, session_measurements

MARKER_WORDS = (
    "\u25cf first set \u00b7 \u25b2 second set \u00b7 \u25c6 second set, not scored"
    " \u00b7 \u25a0 your measurements"
)
FAMILY_NOTE = (
    "Typical miss (geometric-mean error) and the cases within \u00b125 % of the measurement, for "
    "the cases that share one trait, in-sample and with each publisher held out. A figure for a "
    "mixture of experts on a 2026 engine is only as good as that family's row."
)
TABLE_NOTE = (
    "Ratios are prediction \u00f7 measurement; green within \u00b125 %. Sources are on each "
    "case's waterfall and the Sources page."
)
LOAD_WORDS = {"saturated": "every request at once", "users": "closed loop", "rate": "open loop"}


def _unbroken(text: str) -> str:
    """``text`` kept on one line: no-break spaces and hyphens."""
    return text.replace(" ", "\u00a0").replace("-", "\u2011")


def _tone(target, score) -> str:
    """'met' or 'missed': how a set's score (in-sample or held out) stands against ``target``."""
    return target_tone(target, score.geometric_mean_error, score.within_share)


def _chip(ratio: float) -> str:
    tone = "pass" if within_band(ratio) else "fail"
    return f'<span class="chip {tone}">{escape(fmt.times(ratio))}</span>'


class RealityLab(pn.viewable.Viewer):
    """Every published case, both levels' predictions, and the terms that separate them."""

    URL_PARAMS = ("case",)  # kept in shareable links
    URL_PARTS = (("my_", "measured"),)  # the set-up chosen for the student's own files

    scenario = param.Parameter(
        doc="The session's shared scenario (this lab reads published set-ups)."
    )
    case = param.Selector(default="T3", objects=[case.key for case in PUBLISHED],
                          doc="The published case whose waterfall is shown.")  # fmt: skip

    def __init__(self, scenario=None, **params):
        super().__init__(scenario=scenario, **params)
        self.report = report()
        self.keys = [case.key for case in self.report.cases]
        self.picker = pn.widgets.Select.from_param(
            self.param.case,
            label="Published case",
            options={self._case_label(c): c.key for c in self.report.cases},
            width=420,
        )
        self.cards = CardRow(columns=6)
        self.cards.update(self._summary_cards())
        self.families = LiveHTML(
            families_html(self.report, first_tokens_html(first_token_band())),
            sizing_mode="stretch_width",
            margin=(4, 0),
        )
        throughput = scatter_data(self.report, ("throughput",))
        latency = scatter_data(self.report, ("ttft", "itl", "request"))
        self.throughput_chart, self.throughput_points = scatter_figure(
            throughput, "Output throughput", "tokens/s"
        )
        self.latency_chart, self.latency_points = scatter_figure(
            latency, "Latency: first token, per token, one request", "seconds"
        )
        for points in (self.throughput_points, self.latency_points):
            points.selected.on_change("indices", self._tapped(points))
        self.measured = session_measurements(self.scenario or Scenario())
        self.mine = MyMeasurements(
            self.measured,
            [(self.throughput_chart, THROUGHPUT), (self.latency_chart, LATENCY)],
            within_band,
            {THROUGHPUT: throughput, LATENCY: latency},
        )
        self.waterfall_chart, self.waterfall_source = waterfall_figure(
            waterfall_data(self.report.steps[self.keys.index(self.case)])
        )
        self.case_text = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.table = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.lessons = LiveHTML(self._lessons_html(), sizing_mode="stretch_width", margin=(4, 0))
        self._layout = self._build()
        self._show()

    # -- selection ------------------------------------------------------------------------
    def _tapped(self, points):
        def pick(_attr, _old, new):
            if new:
                self.case = points.data["key"][new[0]]

        return pick

    @param.depends("case", watch=True)
    def _show(self) -> None:
        index = self.keys.index(self.case)
        data = waterfall_data(self.report.steps[index])
        with pn.io.hold():
            refill(self.waterfall_source, data)
            low, high = waterfall_range(data)
            self.waterfall_chart.y_range.start, self.waterfall_chart.y_range.end = low, high
            self.waterfall_chart.yaxis.ticker.ticks = waterfall_ticks(low, high)
            for points in (self.throughput_points, self.latency_points):
                keys = list(points.data["key"])
                points.selected.indices = [keys.index(self.case)] if self.case in keys else []
            self.case_text.object = self._case_html(index)
            self.table.object = self._table_html()

    # -- text -----------------------------------------------------------------------------
    @staticmethod
    def _case_label(case) -> str:
        return (
            f"{case.key} \u00b7 {case.model_name} on {case.cards} \u00d7 {case.gpu}, "
            f"{case.engine}, {METRIC_NAMES[case.metric]}"
        )

    def _summary_cards(self) -> list[Card]:
        r = self.report
        first, second = r.scores["first"]["engine"], r.scores["second"]["engine"]
        check, later, argonne, release, dell = (
            r.check["engine"],
            r.check_second["engine"],
            r.check_argonne["engine"],
            r.check_trt10["engine"],
            r.check_sc25["engine"],
        )
        both, held = r.scores["both"]["engine"], r.cross_validated["both"]
        white_first, white_second = (r.scores[name]["whiteboard"] for name in ("first", "second"))
        peers = r.argonne_peers
        band = f"within \u00d7{BAND[0]:.2f} to \u00d7{BAND[1]:.2f}"
        development, unseen = target_words(DEVELOPMENT_TARGET), target_words(UNSEEN_TARGET)
        return [
            Card("engine level: typical miss, first set", fmt.percent(first.geometric_mean_error),
                 "", f"{first.within_band} of {first.cases} cases {band}: 2024 engines, dense "
                 f"models; {development}", _tone(DEVELOPMENT_TARGET, first)),
            Card("engine level: second set", fmt.percent(second.geometric_mean_error), "",
                 f"{second.within_band} of {second.cases} in the band: 2024-26 engines, "
                 f"mixtures and dense; {development}",
                 _tone(DEVELOPMENT_TARGET, second)),
            Card("both sets, each publisher held out", fmt.percent(held.geometric_mean_error), "",
                 f"in-sample {fmt.percent(both.geometric_mean_error)}, {both.within_band} of "
                 f"{both.cases}; held out {fmt.percent(held.within_share)} within; "
                 f"{spread_words(held)}; "
                 f"{target_words(HELD_OUT_TARGET)}",
                 _tone(HELD_OUT_TARGET, held)),
            Card("engine level, rows it never saw", fmt.percent(check.geometric_mean_error), "",
                 # the figures only: each set's count within the band is in bench/fidelity.py
                 f"{check.within_band} of {check.cases} rows; TensorRT-LLM "
                 f"1.x {fmt.percent(later.geometric_mean_error)}, 1.0 "
                 f"{fmt.percent(release.geometric_mean_error)}; SGLang/AMD "
                 f"{fmt.percent(dell.geometric_mean_error)}; {unseen}",
                 _tone(UNSEEN_TARGET, check)),
            # the whiteboard is the back of an envelope: held to no target, coloured by none
            Card("whiteboard: typical miss, first set", fmt.percent(white_first.geometric_mean_error),
                 "", f"{white_first.within_band} of {white_first.cases}; second set "
                 f"{fmt.percent(white_second.geometric_mean_error)}, "
                 f"{white_second.within_band} of {white_second.cases}"),
            Card("engine level, one lab's own build", fmt.percent(argonne.geometric_mean_error),
                 "", f"{argonne.within_band} of {argonne.cases} runs of Argonne's vLLM 0.6.1; "
                 f"its other MI300X runs {fmt.percent(peers.geometric_mean_error)}, "
                 f"{peers.within_band} of {peers.cases}; {unseen}", _tone(UNSEEN_TARGET, argonne)),
        ]  # fmt: skip

    def _case_html(self, index: int) -> str:
        case = self.report.cases[index]
        ratios = self.report.steps[index]
        moves = []
        for column, (term, label) in enumerate(list(STEP_LABELS.items())[1:], start=1):
            factor = ratios[column] / ratios[column - 1]
            if abs(factor - 1) > MOVED - 1:
                verb = "raised" if factor > 1 else "lowered"
                moves.append(
                    f"<li><b>{escape(SHORT[term])}</b> {verb} it {escape(fmt.times(factor))}: {escape(label)}.</li>"
                )
        moved = "".join(moves) or "<li>No single term moved it by more than 10 %.</li>"
        return (
            f'<div class="lab"><h2>{escape(case.key)}: {escape(case.model_name)} on {case.cards} \u00d7 '
            f"{escape(case.gpu)}, {escape(case.storage)}, {fmt.plural(case.prompt_tokens, 'token')} in, "
            f"{fmt.count(case.answer_tokens)} out, {escape(case.load_text)}</h2>"
            f'<p>Measured {escape(METRIC_NAMES[case.metric])}: <b>{escape(value_text(case.metric, case.measured))}</b>. '
            f"The whiteboard says {escape(value_text(case.metric, self.report.whiteboard[index]))} "
            f"{_chip(ratios[0])}; the engine level says "
            f"{escape(value_text(case.metric, self.report.engine[index]))} {_chip(ratios[-1])}.</p>"
            f"{set_up_html(case)}{self._elsewhere_html(index)}"
            f'<p class="small muted">What moved it by more than 10 %:</p><ul class="facts">{moved}</ul>'
            f'<p class="small muted source">Source: {escape(case.source)}. Row: <code>{escape(case.quoted)}</code></p></div>'
        )  # fmt: skip

    def _elsewhere_html(self, index: int) -> str:
        """Other publishers' runs of the case's set-up: how far two measurements of one thing part."""
        case = self.report.cases[index]
        runs = [
            f"{escape(other.key)} ({escape(other.publisher)}"
            f"{', ' + escape(other.engine + ' ' + other.engine_version) if other.engine_version else ''}) "
            f"measured {escape(value_text(case.metric, other.measured))}, "
            f"{escape(fmt.times(ratio))} of this one"
            for other, ratio in self.report.elsewhere[index]
        ]
        if not runs:
            return ""
        return (
            '<p class="small" data-elsewhere>The same set-up measured by another publisher: '
            f"{'; '.join(runs)}.</p>"
        )

    def _table_html(self) -> str:
        groups = {name: [] for name in TABLE_GROUPS}
        for index in range(len(self.report.cases)):
            groups[marker_set(self.report, index)].append(index)
        rows = []
        for name, indices in groups.items():
            rows.append(f'<tr data-set="{name}"><td colspan="11">{TABLE_GROUPS[name]}</td></tr>')
            rows.extend(self._row_html(index) for index in indices)
        return (
            '<div class="lab" style="overflow-x:auto" tabindex="0" role="region" aria-label="Published cases">'
            '<table class="grid"><thead><tr><th>case</th>'
            "<th>engine</th><th>model</th>"
            "<th>cards</th><th>storage</th><th class='num'>in / out</th><th>load</th><th>figure</th>"
            "<th class='num'>measured</th><th class='num'>whiteboard</th><th class='num'>engine</th>"
            f"</tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
        )

    def _row_html(self, index: int) -> str:
        case = self.report.cases[index]
        here = ' class="here"' if case.key == self.case else ""
        return (
            f"<tr{here}><td><b>{escape(case.key)}</b></td>"
            f"<td>{escape(_unbroken(case.engine))}</td><td>{escape(_unbroken(case.model_name))}</td>"
            f"<td>{case.cards} \u00d7 {escape(case.gpu)}</td>"
            f"<td>{escape(case.storage)}</td>"
            f'<td class="num">{fmt.count(case.prompt_tokens)} / {fmt.count(case.answer_tokens)}</td>'
            f"<td>{escape(_unbroken(load_words(case)))}</td>"
            f"<td>{escape(FIGURE_WORDS[case.metric])}</td>"
            f'<td class="num">{escape(value_text(case.metric, case.measured))}</td>'
            f'<td class="num">{_chip(self.report.steps[index, 0])}</td>'
            f'<td class="num">{_chip(self.report.steps[index, -1])}</td></tr>'
        )

    def _holds(self) -> list[str]:
        """The cases the whiteboard alone predicts within the band."""
        r = self.report
        return [
            c.key for c, ratio in zip(r.cases, r.steps[:, 0], strict=True) if within_band(ratio)
        ]

    def _lessons_summary(self) -> str:
        return (
            f"The whiteboard holds within the band on {len(self._holds())} of "
            f"{len(self.report.cases)} cases; open for where it misses and what the engine level "
            "adds, largest effect first."
        )

    def _lessons_html(self) -> str:
        r = self.report
        holds = self._holds()
        items = "".join(
            f"<li><b>{escape(SHORT[e.term])}</b>: {escape(e.label)}. Moves {e.cases_moved} of "
            f"{len(r.cases)} cases by more than 10 %; most in {escape(e.largest_case)} "
            f"({escape(fmt.times(e.largest))}).</li>"
            for e in r.effects
            if e.cases_moved
        )
        return (
            '<div class="lab"><p>The whiteboard holds within the band on '
            f"{len(holds)} cases ({escape(', '.join(holds))}): one card, plain decode, moderate "
            "prompts, where reading the weights and the cache really is the whole cost. It misses "
            "where something it treats as free is not: long prompts, many cards, a batch far "
            "from full. What the engine level adds, largest effect first:</p>"
            f'<ul class="facts">{items}</ul></div>'
        )

    # -- layout ---------------------------------------------------------------------------
    def _build(self):
        scatter = pn.Row(
            pn.pane.Bokeh(self.throughput_chart, sizing_mode="stretch_width"),
            pn.pane.Bokeh(self.latency_chart, sizing_mode="stretch_width"),
            sizing_mode="stretch_width",
            margin=0,
        )
        legend = LiveHTML(
            '<div class="lab"><div class="legend"><span><span class="swatch" style="background:#fff;'
            'border:1.6px solid #8a93a6"></span>whiteboard</span><span><span class="swatch" '
            f'style="background:{ENGINE}"></span>engine level</span><span><span class="swatch" '
            'style="background:#9fd8bd"></span>within \u00b125 % of the measurement</span>'
            f"<span>{MARKER_WORDS}</span>"
            '<span class="muted">Click a point to see its waterfall.</span></div></div>',
            sizing_mode="stretch_width",
            margin=(0, 0),
        )
        # The lesson first (what is compared, the scores, the main chart, one case's effects);
        # the long parts fold to one line each and are sent to the browser when first opened.
        self.lessons_fold, lessons = folded_section(
            "What holds, and why", lambda: [self.lessons], self._lessons_summary()
        )
        self.family_fold, families = folded_section(
            "How far to trust each level, by family",
            lambda: [note(FAMILY_NOTE), self.families],
            "Typical miss for the cases that share one trait (dense or mixture of experts, "
            "vendor, engine, figure), in-sample and with each publisher held out.",
        )
        self.mine_fold, mine = folded_section(
            "Your measurements", lambda: [self.mine], measurements_summary, self.measured,
            FOLD_KNOBS,
        )  # fmt: skip
        self.table_fold, table = folded_section(
            "Every published case",
            lambda: [note(TABLE_NOTE), self.table, self._csv()],
            f"All {len(self.report.cases)} cases with their source rows, each prediction "
            "\u00f7 measurement at both levels; download them as CSV.",
        )
        return pn.Column(
            intro(
                "Reality check",
                "The labs teach the whiteboard's arithmetic, and it is the right way to think. But "
                "take its answer to a real engine and it can be off by three times. Here are published "
                "measurements of real engines beside both levels of this lab's model: where the "
                "back-of-envelope numbers hold, where they break, and which physical effect breaks them.",
            ),
            self.cards,
            section(
                "Predicted against measured",
                legend,
                scatter,
                margin=(12, 0, 0, 0),
                css_classes=["chart-box"],  # its overlays stay inside it on a phone (phone.css)
            ),
            section(
                "From the whiteboard to the engine level, one effect at a time",
                self.picker,
                pn.pane.Bokeh(self.waterfall_chart, sizing_mode="stretch_width"),
                self.case_text,
                note="Each bar is the prediction divided by the measurement after one more effect; "
                "the dashed line is the measurement, the green band \u00b125 %.",
                css_classes=["chart-box"],  # its overlays stay inside it on a phone (phone.css)
            ),
            lessons,
            families,
            mine,
            table,
            sizing_mode="stretch_width",
            margin=(0, 0, 24, 0),
        )

    def _csv(self):
        return csv_button(
            lambda: cases_frame(self.report), "published-cases.csv", "Download cases (CSV)"
        )

    def __panel__(self):
        return self._layout
