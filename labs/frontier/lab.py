"""The Frontier lab: throughput per GPU against speed per user, over batch size, cards and precision."""

from __future__ import annotations

from html import escape

import panel as pn
import param

from core import KNOBS, TTFT_SLO_S, Scenario
from core.studies.frontier import FRONTIER_CARDS, best_within_slo, frontiers, sweep_axes, sweeps
from labs.frontier.chart import (
    CARD_COLOURS,
    LEVEL_COLOURS,
    X_LABELS,
    Y_LABELS,
    chart_data,
    frontier_figure,
    line_data,
    tooltips,
)
from labs.frontier.mine import (
    MEASURED_NOTE,
    POINTS_NOTE,
    add_measured,
    measured_data,
    notes_html,
    points_summary,
)
from labs.page import format as fmt
from labs.page.cards import Card, CardRow
from labs.page.layout import knob_column, lab_page, note, section
from labs.page.links import Binding, query_for
from labs.page.qualifiers import FULL_LOAD
from labs.page.text import LiveHTML
from labs.page.updates import refill, session_doc
from labs.widgets import knobs as ui
from labs.widgets.exports import csv_button, frontier_frame, frontier_table
from labs.widgets.fold import folded_section
from labs.widgets.measurements import (
    FOLD_KNOBS,
    measurements_summary,
    session_measurements,
    upload_widget,
)

X_OPTIONS = {"tokens/s per user": "user", "p95 first token": "ttft"}
Y_OPTIONS = {"tokens/s per GPU": "gpu", "$ per M output": "cost"}
USUAL = "model's usual"


def cards_buttons(scenario: Scenario):
    """Cards per node: the model's usual count (None) or a tensor-parallel size the sweep tries.

    Linked by hand: a ``None`` option would render blank in the browser.
    """
    labels = [USUAL, *(str(c) for c in FRONTIER_CARDS)]
    group = pn.widgets.RadioButtonGroup(
        options=labels,
        value=USUAL if scenario.cards is None else str(scenario.cards),
        color="primary",
        variant="outline",
        sizing_mode="stretch_width",
    )

    def to_widget(event):
        text = USUAL if event.new is None else str(event.new)
        if text not in group.options:
            group.options = [*labels, text]
        group.value = text

    group.param.watch(
        lambda event: setattr(scenario, "cards", None if event.new == USUAL else int(event.new)),
        "value",
    )
    scenario.param.watch(to_widget, "cards")
    return group


class FrontierLab(pn.viewable.Viewer):
    """Sweep batch size x cards x precision for the session's model, card and workload."""

    URL_PARAMS = ("x_axis", "y_axis", "sweep_cards", "sweep_weights", "sweep_cache")

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    x_axis = param.Selector(
        default="user",
        objects=list(X_OPTIONS.values()),
        doc="Horizontal axis: tokens per second each user sees, or the pool's p95 first token.",
    )
    y_axis = param.Selector(
        default="gpu",
        objects=list(Y_OPTIONS.values()),
        doc="Vertical axis: output tokens per second per GPU, or dollars per million of them.",
    )
    sweep_cards = param.Boolean(default=True, doc="Try 1, 2, 4 and 8 cards per node.")
    sweep_weights = param.Boolean(default=True, doc="Try every weight storage.")
    sweep_cache = param.Boolean(default=True, doc="Try every cache storage.")

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        s = self.scenario
        # Set by the shell: a function that shows another lab (None when embedded alone).
        self.navigate = None
        self.points = None
        self.mask = None
        (
            self.plot,
            self.point_source,
            self.line_sources,
            self.curve,
            self.current,
            self.slo,
            self.hover,
        ) = frontier_figure()
        self.point_source.selected.on_change("indices", self._tapped)
        self.measured = session_measurements(s)
        self.measured_source = add_measured(self.plot)
        self.upload = upload_widget(self.measured)
        self.measured_notes = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.measured.param.watch(self._show_measured, ["explained", "messages"])
        self.plot_pane = pn.pane.Bokeh(self.plot, sizing_mode="stretch_width")
        self.cards = CardRow(columns=4)
        self.summary = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.legend = LiveHTML(_legend_html(), sizing_mode="stretch_width", margin=(0, 0))
        self.loaded = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.table = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.download = csv_button(
            self._table_frame, "frontier-points.csv", "Download points (CSV)"
        )
        self.widgets = {
            "x_axis": pn.widgets.RadioButtonGroup.from_param(
                self.param.x_axis, options=X_OPTIONS, color="primary", variant="outline",
                sizing_mode="stretch_width",
            ),
            "y_axis": pn.widgets.RadioButtonGroup.from_param(
                self.param.y_axis, options=Y_OPTIONS, color="primary", variant="outline",
                sizing_mode="stretch_width",
            ),
            "sweep_cards": pn.widgets.Checkbox.from_param(self.param.sweep_cards, label="cards per node (1, 2, 4, 8)"),
            "sweep_weights": pn.widgets.Checkbox.from_param(self.param.sweep_weights, label="weight storage"),
            "sweep_cache": pn.widgets.Checkbox.from_param(self.param.sweep_cache, label="cache storage"),
        }  # fmt: skip
        self._stale = True
        self._rendered = False
        s.param.watch(self._refresh, list(KNOBS))
        self.param.watch(self._refresh, list(self.URL_PARAMS))
        self._layout = self._build()
        self._refresh()

    # -- computation ---------------------------------------------------------------------
    def _on_screen(self) -> bool:
        """Whether the chart is on a page now, or about to be (always, outside a session).

        Before its first render the chart has no models yet, and a link's knobs arrive then:
        those must be drawn. Once rendered, no models means another lab took its place.
        """
        if session_doc() is None or self.plot_pane._models:
            self._rendered = self._rendered or session_doc() is not None
            return True
        return not self._rendered

    def _refresh(self, *_events) -> None:
        if not self._on_screen():
            # Another lab is on screen: catch up when this one is shown again.
            self._stale = True
            return
        self._compute()

    def _compute(self) -> None:
        self._stale = False
        s = self.scenario
        axes = sweep_axes(s, self.sweep_cards, self.sweep_weights, self.sweep_cache)
        # This configuration's own batch sizes, its own batch size last.
        own = sweep_axes(s, cards=False, weights=False, cache=False, levels=(s.realism,))
        points, family = sweeps(s, axes, {**own, "seats": (*own["seats"], s.seats)})
        here = family.at(-1)
        self.points = points
        self.mask = mask = frontiers(points, self.x_axis, self.y_axis)
        x, y = self.x_axis, self.y_axis
        with pn.io.hold():
            refill(self.point_source, chart_data(points, mask, s.realism, x, y))
            for level, source in self.line_sources.items():
                refill(source, line_data(points, mask & (points.realism == level), x, y))
            refill(self.curve, line_data(family, family.feasible, x, y, by_seats=True))
            refill(self.current, line_data(here, here.feasible, x, y))
            self.slo.right = TTFT_SLO_S
            self.slo.visible = x == "ttft"
            self.plot.xaxis.axis_label = X_LABELS[x]
            self.plot.yaxis.axis_label = Y_LABELS[y]
            self.hover.tooltips = tooltips(x, y)
            self.cards.update(self._cards(here))
            self.summary.object = self._summary_html(points)
            shown = mask & (points.realism == s.realism)
            self.table.object = frontier_table(points, shown, x)
            self.points_fold.summary.object = points_summary(int(shown.sum()), s.realism)
            self._show_measured()

    def _show_measured(self, *_events) -> None:
        """The student's runs over the chart (on the per-user and per-GPU axes)."""
        store = self.measured
        refill(self.measured_source, measured_data(store.explained, self.x_axis, self.y_axis))
        self.measured_notes.object = notes_html(store.messages, store.explained)

    def _cards(self, here) -> list[Card]:
        if self.scenario.answer_tokens == 0:
            why = ("no output", "answers of 0 tokens: no throughput to plot")
        elif not here.feasible[0]:
            why = ("does not fit", "the weights or the batch overflow memory")
        else:
            why = None
        if why:
            return [Card("this configuration", why[0], "", why[1], alarm=True)]
        ttft_ok = bool(here.latency_ok[0])
        return [
            Card("per GPU", fmt.rate(here.gpu_tokens_per_s[0]).removesuffix(" tok/s"), "tok/s", "output tokens", qualifier=FULL_LOAD),
            Card("per user", fmt.rate(here.user_tokens_per_s[0]).removesuffix(" tok/s"), "tok/s", "1 / inter-token latency", qualifier=FULL_LOAD),
            Card("TTFT p95", fmt.duration(here.ttft_p95_s[0], not here.bounded[0]), "",
                 "meets the SLO" if ttft_ok else "breaks the SLO", "better" if ttft_ok else "worse", alarm=not ttft_ok, qualifier=FULL_LOAD),
            Card("$ per M output", fmt.axis_text("cost", here.usd_per_million_output[0]), "", "card-hours, every seat busy", qualifier=FULL_LOAD),
        ]  # fmt: skip

    def _summary_html(self, points) -> str:
        s = self.scenario
        best = best_within_slo(points, s.realism, self.y_axis, self.x_axis)
        level = "engine" if s.realism == "engine" else "whiteboard"
        head = (
            f"<b>{escape(fmt.model_name(s))}</b> on <b>{escape(s.gpu)}</b>, {escape(s.workload)} traffic: "
            f"{len(points):,} configurations in one evaluation."
        )
        if best < 0:
            verdict = f"At the {level} level no configuration meets the {fmt.duration(TTFT_SLO_S)} first-token SLO."
        else:
            measure = "tokens per GPU" if self.y_axis == "gpu" else "dollars per token"
            value = (
                fmt.rate(points.gpu_tokens_per_s[best])
                if self.y_axis == "gpu"
                else f"{fmt.axis_text('cost', points.usd_per_million_output[best])} per M output"
            )
            verdict = (
                f"At the {level} level the best {measure} within the SLO: <b>{value}</b> with "
                f"{points.seats[best]} seats on {points.cards[best]} card(s), weights "
                f"{escape(points.weight_dtype[best])}, cache {escape(points.kv_dtype[best])}."
            )
        return f'<div class="lab"><p>{head} {verdict}</p></div>'

    def _table_frame(self):
        """The sweep's points as a table for download."""
        return frontier_frame(self.points, self.mask)

    # -- a click loads the point ---------------------------------------------------------
    def _tapped(self, _attr, _old, new) -> None:
        if not new or self.points is None:
            return
        index = int(self.point_source.data["index"][new[0]])
        self.point_source.selected.indices = []
        self.load_point(index)

    def load_point(self, index: int) -> None:
        """Load configuration ``index`` of the sweep into the scenario, and open the pool lab."""
        p = self.points
        self.scenario.param.update(
            seats=int(p.seats[index]),
            cards=int(p.cards[index]),
            weight_dtype=str(p.weight_dtype[index]),
            kv_dtype=str(p.kv_dtype[index]),
            realism=str(p.realism[index]),
        )
        self.loaded.object = (
            f'<div class="lab"><div class="notice" data-loaded>Loaded {p.seats[index]} seats on '
            f"{p.cards[index]} card(s), weights {escape(p.weight_dtype[index])}, cache "
            f"{escape(p.kv_dtype[index])}, {escape(p.realism[index])} level. "
            + (
                ""
                if self.navigate
                else f'Open the <a href="./pool{escape(self._pool_query())}">'
                "pool lab</a> to see it run."
            )
            + "</div></div>"
        )
        if self.navigate is not None:
            self.navigate("pool")

    def _pool_query(self) -> str:
        """The link query that opens the pool lab on the scenario's knobs."""
        return query_for([Binding(knob, self.scenario, knob) for knob in KNOBS])

    # -- layout --------------------------------------------------------------------------
    def _measured_fold(self) -> pn.Column:
        """The student's files, folded to a line until opened (or until a link or file sets them)."""
        self.measured_fold, panel = folded_section(
            "Your measurements",
            lambda: [note(MEASURED_NOTE), self.upload, self.measured_notes],
            measurements_summary,
            self.measured,
            FOLD_KNOBS,
        )
        return panel

    def _points_fold(self) -> pn.Column:
        """The frontier's points as a table, folded to a line saying how many there are."""
        self.points_fold, panel = folded_section(
            "Frontier points at this level",
            lambda: [note(POINTS_NOTE), self.table, self.download],
            "",
        )
        return panel

    def _build(self):
        s, w = self.scenario, self.widgets
        knobs = knob_column(
            ui.heading("Chart"),
            w["x_axis"],
            w["y_axis"],
            ui.heading("Sweep over"),
            note(
                "Batch size always runs 1 to 256. Unticked, an axis holds this configuration's value."
            ),
            w["sweep_cards"],
            w["sweep_weights"],
            w["sweep_cache"],
            ui.heading("Model, card and traffic"),
            ui.tier_buttons(s),
            ui.model_select(s),
            pn.widgets.Select.from_param(s.param.gpu, label="Card", sizing_mode="stretch_width"),
            ui.workload_buttons(s),
            ui.prompt_slider(s),
            ui.hit_rate_slider(s),
            ui.heading("This configuration (the star)"),
            ui.seats_slider(s),
            ui.heading("Cards per node"),
            cards_buttons(s),
            ui.heading("Weight storage"),
            ui.choice_buttons(s, "weight_dtype", _dtype_labels("weight_dtype")),
            ui.heading("Cache storage"),
            ui.choice_buttons(s, "kv_dtype", _dtype_labels("kv_dtype")),
            ui.heading("Level of detail"),
            ui.realism_buttons(s),
        )
        results = pn.Column(
            self.cards,
            self.summary,
            self.loaded,
            section(
                "The frontier",
                self.legend,
                self.plot_pane,
                margin=(8, 0, 0, 0),
                note="The SLO bounds the first token: on the p95-first-token axis the region it "
                "allows is shaded green; on the per-user axis the points that break it are hollow.",
            ),
            self._measured_fold(),
            self._points_fold(),
            sizing_mode="stretch_width",
            margin=0,
        )
        return lab_page(
            "The frontier: throughput against speed",
            "Every batch size, node size and precision for this model, card and traffic, driven "
            "full as a benchmark drives a node. Up and right is better: more tokens from each "
            "GPU, faster tokens for each user. The line is the frontier no configuration beats "
            "on both; click any point to load it into the pool lab.",
            knobs,
            results,
        )

    def __panel__(self):
        # The shell asks for the layout each time it shows this lab.
        if self._stale:
            self._compute()
        return self._layout


def _dtype_labels(knob: str) -> dict:
    """Button labels for a storage knob: every value the scenario accepts."""
    return {value: value for value in Scenario.param[knob].objects}


def _legend_html() -> str:
    cards = "".join(
        f'<span><span class="swatch" style="background:{colour}"></span>{count} card{"s" if count > 1 else ""}</span>'
        for count, colour in CARD_COLOURS.items()
    )
    levels = "".join(
        f'<span><span class="swatch" style="background:{colour};height:3px"></span>{level} frontier</span>'
        for level, colour in LEVEL_COLOURS.items()
    )
    return (
        f'<div class="lab"><div class="legend">{cards}{levels}'
        "<span>\u25cf whiteboard \u25b2 engine</span><span>hollow: breaks the first-token SLO</span>"
        "<span>\u2605 this configuration; dotted: its batch sizes</span>"
        "<span>\u25a0 your measured runs</span></div></div>"
    )
