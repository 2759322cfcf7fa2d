"""The pool lab: a dedicated serving pool, its knobs, and what they do to latency, memory and money."""

from __future__ import annotations

from html import escape

import panel as pn
import param
from bokeh.events import DocumentReady

from core import KNOBS, Scenario, evaluate
from core.catalog.traces import TRACES
from core.traffic.queueing import UNBOUNDED_WAIT_S
from labs.page import format as fmt
from labs.page import theme
from labs.page.cards import CardRow
from labs.page.layout import knob_column, lab_page, section
from labs.page.memo import scenario_key, shared_memo
from labs.page.qualifiers import closed_users
from labs.page.text import LiveHTML
from labs.page.updates import DETAILS_DELAY_MS, Later, session_doc
from labs.pool.checks import FORMATS, PREDICTED, PoolChecks
from labs.pool.details import details_for, other_workload, pool_defaults, story_figures
from labs.pool.fleet import derived_line, fleet_controls, fleet_html, fleet_section
from labs.pool.headline import headline_cards, other_workload_html, workload_html
from labs.pool.hour import HourView, hour_section, traffic_controls
from labs.pool.presets import POOL_PRESETS
from labs.pool.story import binding_sentence, explanations
from labs.widgets import knobs as ui
from labs.widgets.beyond import BEYOND_KNOBS, summary_html
from labs.widgets.fold import Fold
from labs.widgets.ledger import MemoryLedger
from labs.widgets.mattered import Column, MatteredTable
from labs.widgets.moe_chart import FoldedMoeChart
from labs.widgets.node_picker import NodePicker
from labs.widgets.predict import PredictCards
from labs.widgets.presets import PresetPicker, judged_state
from labs.widgets.sessions import SessionKnobs
from labs.widgets.tiers import TierTable, tier_sentence

MOE_TITLE = "Weight bytes read per decode step, dense vs mixture of experts"
MOE_NOTE = "The ledger pays for every weight; a decode step reads only what its batch routes to."
TRACE_PROMPTS = (
    '<div class="lab small muted" data-trace-prompts><b>Prompt length</b>: the trace brings '
    "its own prompts.</div>"
)


def _fill(slot: pn.Column, objects: list) -> None:
    """Put ``objects`` in ``slot`` unless they are there already.

    Setting a column's children, even to the same ones, sends them all to the browser again:
    a knob change that keeps what a slot shows must leave the slot alone.
    """
    shown = [pn.panel(item) for item in objects]
    if len(shown) != len(slot.objects) or any(
        new is not old for new, old in zip(shown, slot.objects, strict=False)
    ):
        slot.objects = shown


class PoolLab(pn.viewable.Viewer):
    """Run the serving pool yourself: knobs in, live seats, TTFT, decode rate, bill and memory out."""

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    presenting = param.Boolean(
        default=False, doc="Presenter mode's chart text, for the charts built after the page."
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        s = self.scenario
        self.widgets = {
            "workload": ui.workload_buttons(s),
            "seats": ui.seats_slider(s),
            "tier": ui.tier_buttons(s),
            "prompt_tokens": ui.prompt_slider(s),
            "prefix_hit_rate": ui.hit_rate_slider(s),
            "kv_dtype": ui.dtype_buttons(s),
        }
        self.workload_facts = LiveHTML("", sizing_mode="stretch_width", margin=(2, 0))
        self.model_note = LiveHTML("", sizing_mode="stretch_width", margin=(0, 0), visible=False)
        self.use_tier = pn.widgets.Button(
            label="Use the tier instead", color="light", visible=False, margin=(0, 0)
        )
        self.use_tier.on_click(lambda _event: setattr(self.scenario, "model", None))
        self.model_slot = pn.Column(sizing_mode="stretch_width", margin=0)  # filled on need
        # A trace brings its own prompts: the prompt knob gives way to a line saying so.
        self.trace_prompts = LiveHTML(TRACE_PROMPTS, sizing_mode="stretch_width", margin=(4, 10))
        self.prompt_slot = pn.Column(self.widgets["prompt_tokens"], sizing_mode="stretch_width",
                                     margin=0)  # fmt: skip
        self.moe = FoldedMoeChart(MOE_TITLE, MOE_NOTE)
        self.cards = CardRow(columns=4)
        self.checks = PoolChecks()
        self.badges, self.engine_note = self.checks.badges, self.checks.engine_note
        self.predict = PredictCards(self.cards, PREDICTED, FORMATS, s, giveaways=self.giveaways)
        self.binding = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.ledger = MemoryLedger()
        self.tiers = TierTable()
        self.other = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.facts = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.mattered = MatteredTable(
            [
                Column("seats_granted", "live seats", lambda d: fmt.signed(d)),
                Column("ttft_p95_s", "TTFT p95", fmt.signed_duration, UNBOUNDED_WAIT_S),
                Column("decode_tokens_per_s", "decode rate", lambda d: fmt.signed(d, "tok/s")),
                Column("monthly_usd", "monthly bill", fmt.signed_dollars),
            ],
            ui.knob_label,
            ui.knob_value,
        )
        self.presets = PresetPicker(
            POOL_PRESETS,
            apply=self.load_knobs,
            reset=self.reset,
            describe=ui.knob_value,
            defaults=pool_defaults(),
            figures=story_figures,
            label=ui.knob_label,
        )
        # Built when first needed: the knobs beyond the walkthrough when their fold opens, the
        # hour on traffic not Poisson, the fleet's table for a fleet (issue 35: a session's
        # first page builds only what it shows).
        self.node = self.sessions = self.derived = None
        self.hour = self.hour_section = None
        self.fleet = self.fleet_section = None
        self.hour_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        self.fleet_slot = pn.Column(sizing_mode="stretch_width", margin=0)
        doc = session_doc()
        if doc is not None:  # a link's traffic shows the hour before the browser has drawn
            doc.on_event(DocumentReady, lambda _event: self._show_hour_again())
        self._memo = shared_memo()  # core's answers for the scenarios shown last, by any session
        self.result = None
        self.items = []
        self._details = Later(self._refresh_details, delay_ms=DETAILS_DELAY_MS, first_now=True)
        self.scenario.param.watch(self._refresh, KNOBS)
        self._layout = self._build()
        self._refresh()

    # -- actions -------------------------------------------------------------------------
    def load_knobs(self, knobs) -> None:
        """Load ``knobs`` onto the defaults in one update (one recomputation)."""
        self.scenario.param.update(**{**pool_defaults(), **knobs})

    def reset(self) -> None:
        """Every knob of the scenario back to its default."""
        self.scenario.param.update(**{name: Scenario.param[name].default for name in KNOBS})

    def redraw(self) -> None:
        """Recompute and redraw everything (a preset loaded onto knobs already in place)."""
        self._refresh()

    def _show_hour_again(self) -> None:
        """Send the hour's and the fleet's sections again once the browser has drawn the page."""
        with pn.io.hold():
            for slot in (self.hour_slot, self.fleet_slot):
                for shown in slot.objects:
                    shown.visible = False
                    shown.visible = True
            if self.hour_slot.objects:  # on Poisson the hour is not shown: nothing to send again
                self.hour.resend()

    def giveaways(self) -> list:
        """The parts that show or imply a headline figure: covered while a card waits for a guess.

        The checks and the engine line, a preset's story, the replayed hour, the fleet's routers
        and derived hit rate, the ledger, the story of the numbers, the other workload's chips,
        the MoE chart's marker at the granted batch, and mattered vs noise.
        """
        # The hour, the fleet and the derived line are built when first needed: their slots
        # (and the derived line once the fold has made it) are what the page holds.
        parts = [self.checks, self.presets.story, self.hour_slot, self.fleet_slot, *self.sections]
        return parts + ([self.derived] if self.derived is not None else [])

    @property
    def moe_chart(self):
        """The read curve's chart (None until a mixture of experts has been on screen)."""
        return self.moe.chart

    # -- built when first needed ---------------------------------------------------------
    def _beyond_rows(self) -> list:
        """The knobs beyond the walkthrough, built when their fold first opens."""
        s = self.scenario
        self.node = NodePicker(s, show_model=False)
        fleet_rows, self.derived = fleet_controls(s)
        self.sessions = SessionKnobs(s)
        if self.result is not None:  # the details already drawn did not know these rows
            self._fill_beyond()
        return [
            ui.heading("Model, card and weights"),
            ui.model_select(s),
            self.node,
            ui.heading("Traffic and the fleet"),
            *traffic_controls(s),
            *fleet_rows,
            ui.heading("Memory beyond the card"),
            ui.offload_select(s),
            self.sessions,
            ui.heading("Level of detail"),
            ui.realism_buttons(s),
            ui.engine_level_rows(s),
        ]

    def _fill_beyond(self) -> None:
        """The folded rows' own figures: the sessions' derived hit rate, the fleet's line."""
        self.sessions.update(self.result)
        self.derived.object = derived_line(self.scenario, self.result)

    def _show_hour(self, replayed: bool) -> None:
        """The hour's section on traffic not Poisson, its view built the first time."""
        if replayed and self.hour is None:
            self.hour = HourView(on_hour=lambda _hour: self._hour_in())
            theme.chart_text(self.hour.plot, self.presenting)
            self.hour_section = hour_section(self.hour)
            self.hour_section.visible = True
        if replayed:
            self.hour.update(self.scenario, self.result)
        _fill(self.hour_slot, [self.hour_section] if replayed else [])

    def _show_fleet(self, fleet: bool) -> None:
        """The routers' table for a fleet, its section built the first time."""
        if fleet and self.fleet is None:
            self.fleet = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
            self.fleet_section = fleet_section(self.fleet)
            self.fleet_section.visible = True
        if fleet:
            self.fleet.object = fleet_html(self.scenario)
        _fill(self.fleet_slot, [self.fleet_section] if fleet else [])

    @param.depends("presenting", watch=True)
    def _present_later_charts(self) -> None:
        self.moe.presenter = self.presenting
        if self.hour is not None:
            theme.chart_text(self.hour.plot, self.presenting)

    # -- computation ---------------------------------------------------------------------
    def _defaults_for(self, workload: str):
        return self._memo.kept(
            ("defaults", workload), "result", lambda: evaluate(Scenario(workload=workload))
        )

    def _refresh(self, *_events) -> None:
        s = self.scenario
        key = scenario_key(s)
        result = self._memo.kept(key, "result", lambda: evaluate(s))
        self.result = result
        with pn.io.hold():
            base = self._defaults_for(s.workload)
            self.cards.update(headline_cards(result, base, s.workload, closed_users(s)))
            self._judge_checks()
            if self._memo.has(key, "details"):  # a scenario shown before: all in one message
                self._refresh_details()
                return
        self._details.request()

    def _refresh_details(self) -> None:
        """Everything below the headline: ledger, prose, other workload, table, story."""
        s, result = self.scenario, self.result
        details = self._memo.kept(scenario_key(s), "details", lambda: details_for(s, result))
        other_name = other_workload(s.workload)
        other, effects = details.other, details.effects
        sentence = binding_sentence(result, closed_users(s)) + tier_sentence(s.kv_offload, result)
        self.binding.object = (
            f'<div class="lab"><div class="binding" data-binding>{escape(sentence)}</div></div>'
        )
        self.ledger.update(result)
        self.tiers.update(s.kv_offload, result)
        if self.sessions is not None:
            self._fill_beyond()
        self.other.object = other_workload_html(other_name, other)
        self.facts.object = (
            '<div class="lab"><ul class="facts">'
            + "".join(
                f"<li>{escape(line)}</li>" for line in explanations(s, result, details.steady)
            )
            + "</ul></div>"
        )
        self.workload_facts.object = workload_html(s, result)
        self.model_note.object = (
            f'<div class="lab"><div class="notice">Exact model <b>{escape(fmt.model_name(s))}</b> '
            "replaces the tier.</div></div>"
            if s.model
            else ""
        )
        self.model_note.visible = self.use_tier.visible = bool(s.model)
        if s.model and not self.model_slot.objects:  # the first exact model: its note joins
            self.model_slot.objects = [self.model_note, self.use_tier]
        self.mattered.update(effects)
        self.engine_note.update(
            details.gaps, s.realism == "engine", details.band, details.provenance,
            first_token=details.first_token,
        )  # fmt: skip
        self.moe.update(
            details.shape, s.weight_dtype, result.weight_bytes_per_number,
            max(result.seats_granted, 1), result.cards, result.card_memory_bytes,
        )  # fmt: skip
        prompt = self.widgets["prompt_tokens"]  # a trace brings its own prompts
        _fill(self.prompt_slot, [self.trace_prompts] if s.traffic in TRACES else [prompt])
        self._show_fleet(s.prefix_source == "derived" or s.replicas is not None)
        self._show_hour(s.traffic != "poisson")
        self._judge()

    def _replayed_hour(self):
        """This knobs' replayed hour, on traffic not Poisson (None while it replays)."""
        if self.scenario.traffic == "poisson" or self.hour is None:
            return None
        return self.hour.replay_of(self.scenario)

    def _judge_checks(self) -> None:
        """The badges' checks; on traffic not Poisson, latency judges this knobs' replayed hour."""
        self.items = self.checks.judge(self.scenario, self.result, self._replayed_hour())

    def _hour_in(self) -> None:
        """A replay is on screen: the latency badge judges it, then the preset."""
        self._judge_checks()
        self._judge()

    def failing(self) -> list[str]:
        """The checks that fail; on traffic not Poisson the hour must also have been replayed."""
        return self.checks.failing(self.scenario, self._replayed_hour())

    @property
    def passes(self) -> bool:
        """Whether every check passes, the replayed hour's included."""
        return bool(self.result.passes) and not self.failing()

    def _judge(self) -> None:
        """The preset's verdict: the closed form's checks, and the replayed hour's on real traffic."""
        s, result = self.scenario, self.result
        failing = self.failing()
        # the goal's state (a session table among it) is read only while a preset is loaded
        state = judged_state(s, result) if self.presets.preset else {}
        self.presets.update(not failing, failing, state)

    # -- layout --------------------------------------------------------------------------
    def _sections(self) -> list:
        """The sections below the headline, each showing its figures (predict first covers them)."""
        return [
            section(
                "The memory ledger", self.binding, self.ledger, self.tiers, margin=(8, 0, 0, 0)
            ),
            section("What the numbers say", self.facts, margin=(8, 0, 0, 0)),
            section("Same config, the other workload", self.other, margin=(8, 0, 0, 0)),
            self.moe,  # the read curve, folded to one line for a dense model
            section(
                "Mattered vs noise on this workload",
                self.mattered,
                note="Which knobs actually moved the pool away from its defaults.",
            ),
        ]

    def _build(self):
        w = self.widgets
        # The seed's walkthrough first; everything beyond it folds into one area whose closed
        # header says what differs from the walkthrough, built when first opened.
        self.beyond = Fold("Beyond the walkthrough", self._beyond_rows, self.scenario,
                           BEYOND_KNOBS, summary=summary_html)  # fmt: skip
        knobs = knob_column(
            ui.heading("Famous failures"),
            self.presets,
            ui.heading("Pick the workload"),
            w["workload"],
            self.workload_facts,
            ui.heading("Scheduler"),
            w["seats"],
            ui.heading("Model tier"),
            w["tier"],
            self.model_slot,
            ui.heading("Request shape"),
            self.prompt_slot,
            w["prefix_hit_rate"],
            ui.heading("Cache storage"),
            w["kv_dtype"],
            self.beyond,
        )
        self.sections = self._sections()
        *shown, below = self.sections
        # Prose and charts sit beside the knobs, so the results column runs as long as they do.
        results = pn.Column(
            self.predict,
            self.checks,
            self.presets.story,
            self.hour_slot,
            self.fleet_slot,
            *shown,
            sizing_mode="stretch_width",
            margin=0,
        )
        return lab_page(
            "Run the serving pool yourself",
            "One dedicated serving node, rented by the month and sized for the peak minute. Turn a knob and "
            "every figure below is recomputed from the same arithmetic: a weight read per decode step, KV cache "
            "per seat, FLOPs per prompt token, and a queue in front of the seats.",
            knobs,
            results,
            below,
        )

    def __panel__(self):
        return self._layout
