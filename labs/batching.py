"""The batching lab: a step-level engine to watch, static against continuous batching.

Every figure comes from :mod:`core.engine` (the simulated engine), :mod:`core.speculative`,
:mod:`core.roofline`, :func:`core.evaluate` and :mod:`core.published`; this module only lays
them out. One knob change reruns four small engines on the same arrivals (static and
continuous, each with reserved and paged KV), so switching policy or layout costs nothing;
the batch-size sweep is cached per knob state and reruns only when the workload changes.
"""

from __future__ import annotations

from collections import OrderedDict
from html import escape

import numpy as np
import panel as pn
import param
from bokeh.models import Range1d

from core import GPUS, TIERS, Scenario, evaluate, timing
from core.catalog import BANDWIDTH_EFFICIENCY
from core.custom import scenario_shape
from core.engine import (
    ANSWER_SHAPES,
    ARRIVALS,
    KV_LAYOUTS,
    POLICIES,
    answer_ceiling,
    draw_requests,
    simulate,
)
from core.level_gap import stream_gaps
from core.published import (
    CONTINUOUS_BATCHING_TOK_S,
    DEFAULT_ACCEPTANCE,
    DEFAULT_DRAFT_COST,
    DEFAULT_DRAFT_TOKENS,
    OPTIMISED_KERNELS_FACTOR,
    PAGED_WASTE_HIGH,
    RESERVED_WASTE_HIGH,
    RESERVED_WASTE_LOW,
    SPECULATIVE_SPEEDUP_HIGH,
    SPECULATIVE_SPEEDUP_LOW,
    STATIC_BATCHING_TOK_S,
)
from core.roofline import attainable_flops, decode_intensity, prefill_intensity, ridge_point
from core.speculative import expected_tokens_per_pass, pass_seconds, plain_step_seconds, speedup
from core.steps import step_costs
from core.validation import Amount, Count
from labs import batching_charts as charts
from labs import format as fmt
from labs import knobs as ui
from labs.cards import Card, CardRow
from labs.engine_note import EngineNote
from labs.layout import intro, knob_column, note, section
from labs.text import LiveHTML

NODE_KNOBS = ("tier", "model", "gpu", "cards", "weight_dtype", "kv_dtype")
WORKLOAD_KNOBS = (
    "batch_size",
    "wait_cap_s",
    "arrival",
    "arrival_rate",
    "prompt_tokens",
    "answer",
    "answer_mean",
    "answer_cap",
    "requests",
    "seed",
)
VIEW_KNOBS = ("policy", "kv_layout")
SPECULATIVE_KNOBS = ("draft_tokens", "acceptance", "draft_cost")
SWEEP_REQUESTS = 100  # requests per point of the batch-size sweep (keeps a rerun near 100 ms)
CACHE_SIZE = 8

# The published comparison (see core.published): one 13B model, 512-token prompts, answers
# exponential of mean 128 capped at 1,536, every request sent at once, and the scheduler's
# cap at vLLM's default of 256 running sequences, on the card of the 2023 measurements (a
# 40 GB A100). The gap table shows every card.
PUBLISHED_MODEL = "Llama-2-13B"
PUBLISHED_GPU = "A100 40GB SXM"
PUBLISHED_LAB = {
    "policy": "continuous",
    "kv_layout": "paged",
    "batch_size": 256,
    "arrival": "offline",
    "prompt_tokens": 512,
    "answer": "capped exponential",
    "answer_mean": 128,
    "answer_cap": 1536,
    "requests": 300,
    "seed": 0,
}
PUBLISHED_NODE = {
    "model": PUBLISHED_MODEL,
    "gpu": PUBLISHED_GPU,
    "cards": None,
    "weight_dtype": "bf16",
    "kv_dtype": "bf16",
}

POLICY_LABELS = {"static": "static", "continuous": "continuous"}
LAYOUT_LABELS = {"reserved": "reserved", "paged": "paged"}
ARRIVAL_LABELS = {"Poisson stream": "poisson", "offline batch": "offline"}


def node_name(scenario: Scenario) -> str:
    """The model and node the scenario runs, as the page names them."""
    shape = scenario_shape(scenario)
    cards = evaluate(scenario).cards
    return f"{shape.name} on {cards} \u00d7 {scenario.gpu}"


def published_gap(requests: int = PUBLISHED_LAB["requests"]) -> list[dict]:
    """The published workload on every card: static + reserved against continuous + paged."""
    workload = draw_requests(
        requests,
        PUBLISHED_LAB["seed"],
        arrival="offline",
        prompt_tokens=PUBLISHED_LAB["prompt_tokens"],
        answer="capped exponential",
        answer_mean=PUBLISHED_LAB["answer_mean"],
        answer_cap=PUBLISHED_LAB["answer_cap"],
    )
    rows = []
    for gpu in GPUS:
        scenario = Scenario(**{**PUBLISHED_NODE, "gpu": gpu})
        try:
            costs = step_costs(scenario)
        except ValueError:  # a card too small to hold the published node (the L4)
            continue
        runs = {
            (policy, layout): simulate(
                scenario,
                policy,
                layout,
                workload=workload,
                costs=costs,
                batch_size=PUBLISHED_LAB["batch_size"],
            )
            for policy, layout in (("static", "reserved"), ("continuous", "paged"))
        }
        # The published baseline: static batching with reserved KV on unoptimised kernels.
        naive = simulate(
            scenario,
            "static",
            "reserved",
            workload=workload,
            costs=costs.slowed(OPTIMISED_KERNELS_FACTOR),
            batch_size=PUBLISHED_LAB["batch_size"],
        )
        static, continuous = runs["static", "reserved"], runs["continuous", "paged"]
        rows.append(
            {
                "gpu": gpu,
                "room": costs.kv_budget_bytes,
                "static": static.output_tokens_per_s,
                "continuous": continuous.output_tokens_per_s,
                "naive": naive.output_tokens_per_s,
                "static_seats": static.peak_seats,
                "continuous_seats": continuous.peak_seats,
                "ratio": continuous.output_tokens_per_s / static.output_tokens_per_s,
                "naive_ratio": continuous.output_tokens_per_s / naive.output_tokens_per_s,
            }
        )
    return rows


class BatchingLab(pn.viewable.Viewer):
    """Run the engine yourself: a scheduler, a KV layout, and every request's tokens in time."""

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    policy = param.Selector(
        default="static", objects=list(POLICIES), doc="The scheduler the headline figures show."
    )
    kv_layout = param.Selector(
        default="reserved", objects=list(KV_LAYOUTS), doc="How the engine sets KV memory aside."
    )
    batch_size = Count(default=32, bounds=(1, 256), doc="B: the most seats the scheduler runs.")
    wait_cap_s = Amount(
        default=0.5, bounds=(0.0, 5.0), doc="Static only: how long a wave waits to fill."
    )
    arrival = param.Selector(
        default="poisson", objects=list(ARRIVALS), doc="A Poisson stream or an offline batch."
    )
    arrival_rate = Amount(
        default=10.0, bounds=(0.1, 50.0), doc="Mean arrivals per second of the Poisson stream."
    )
    prompt_tokens = Count(default=512, bounds=(16, 8192), doc="Tokens of every prompt.")
    answer = param.Selector(
        default="capped exponential", objects=list(ANSWER_SHAPES), doc="Shape of answer lengths."
    )
    answer_mean = Count(default=128, bounds=(1, 2048), doc="Mean answer tokens.")
    answer_cap = Count(
        default=1536, bounds=(1, 16384), doc="The capped exponential's cap (its max_tokens)."
    )
    requests = Count(default=200, bounds=(20, 1000), doc="Requests each engine serves.")
    seed = Count(default=0, bounds=(0, 9999), doc="Seed of the arrivals and answer lengths.")
    draft_tokens = Count(
        default=DEFAULT_DRAFT_TOKENS, bounds=(1, 16), doc="k: tokens the draft proposes a pass."
    )
    acceptance = Amount(
        default=DEFAULT_ACCEPTANCE, bounds=(0.0, 1.0), doc="Chance each drafted token is kept."
    )
    draft_cost = Amount(
        default=DEFAULT_DRAFT_COST,
        bounds=(0.0, 1.0),
        doc="A draft step as a share of a target step.",
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        self._suspended = False
        self._runs_cache: OrderedDict = OrderedDict()
        self._sweep_cache: OrderedDict = OrderedDict()
        self.runs: dict | None = None
        self.sweep: dict | None = None
        self.error = ""
        self._gap_rows: list[dict] | None = None
        self.widgets = self._widgets()
        self._panes()
        self._figures()
        self._layout = self._build()
        self.param.watch(self._refresh_engine, [*WORKLOAD_KNOBS, *VIEW_KNOBS])
        self.param.watch(self._refresh_speculative, [*SPECULATIVE_KNOBS])
        self.param.watch(self._refresh_analytic, ["batch_size", "prompt_tokens", "answer_mean"])
        self.param.watch(self._arrival_changed, ["arrival", "answer"])
        self.scenario.param.watch(self._refresh_all, list(NODE_KNOBS))
        self._arrival_changed()
        self._refresh_all()

    # -- widgets and panes ---------------------------------------------------------------
    def _widgets(self) -> dict:
        s = self.scenario
        buttons = {"color": "primary", "variant": "outline", "sizing_mode": "stretch_width"}
        wide = {"sizing_mode": "stretch_width"}
        return {
            "policy": pn.widgets.RadioButtonGroup.from_param(
                self.param.policy, options=POLICY_LABELS, label="Scheduler", **buttons
            ),
            "kv_layout": pn.widgets.RadioButtonGroup.from_param(
                self.param.kv_layout, options=LAYOUT_LABELS, label="KV layout", **buttons
            ),
            "batch_size": pn.widgets.EditableIntSlider.from_param(
                self.param.batch_size,
                label="Batch size B (seats)",
                start=1,
                end=256,
                fixed_start=1,
                fixed_end=256,
                **wide,
            ),
            "wait_cap_s": pn.widgets.FloatSlider.from_param(
                self.param.wait_cap_s, label="Static wave wait cap (s)", step=0.05, **wide
            ),
            "arrival": pn.widgets.RadioButtonGroup.from_param(
                self.param.arrival, options=ARRIVAL_LABELS, **buttons
            ),
            "arrival_rate": pn.widgets.FloatSlider.from_param(
                self.param.arrival_rate, label="Arrivals per second", step=0.5, **wide
            ),
            "requests": pn.widgets.IntSlider.from_param(
                self.param.requests, label="Requests", step=10, **wide
            ),
            "seed": pn.widgets.IntInput.from_param(self.param.seed, label="Seed", **wide),
            "prompt_tokens": pn.widgets.EditableIntSlider.from_param(
                self.param.prompt_tokens,
                label="Prompt (tokens)",
                start=16,
                end=8192,
                step=16,
                fixed_start=16,
                fixed_end=8192,
                **wide,
            ),
            "answer": pn.widgets.Select.from_param(
                self.param.answer, label="Answer lengths", **wide
            ),
            "answer_mean": pn.widgets.EditableIntSlider.from_param(
                self.param.answer_mean,
                label="Mean answer (tokens)",
                start=1,
                end=2048,
                fixed_start=1,
                fixed_end=2048,
                **wide,
            ),
            "answer_cap": pn.widgets.EditableIntSlider.from_param(
                self.param.answer_cap,
                label="Answer cap (max_tokens)",
                start=1,
                end=4096,
                fixed_start=1,
                fixed_end=16384,
                **wide,
            ),
            "tier": ui.tier_buttons(s),
            "model": ui.model_select(s),
            "gpu": pn.widgets.Select.from_param(s.param.gpu, label="Card", **wide),
            "kv_dtype": ui.dtype_buttons(s),
            "draft_tokens": pn.widgets.IntSlider.from_param(
                self.param.draft_tokens, label="Draft length k", **wide
            ),
            "acceptance": pn.widgets.FloatSlider.from_param(
                self.param.acceptance, label="Acceptance", step=0.01, format="0%", **wide
            ),
            "draft_cost": pn.widgets.FloatSlider.from_param(
                self.param.draft_cost,
                label="Draft step cost",
                step=0.01,
                format="0%",
                **wide,
            ),
        }

    def _panes(self) -> None:
        def html(margin=(4, 0)):
            return LiveHTML("", sizing_mode="stretch_width", margin=margin)

        self.cards = CardRow(columns=5)
        self.engine_note = EngineNote(
            {"throughput_tokens_per_s": "output throughput", "itl_s": "inter-token p50"},
            {"throughput_tokens_per_s": fmt.rate, "itl_s": fmt.duration},
        )
        self.notice = html()
        self.notice.visible = False
        self.summary = html()
        self.captions = {"top": html((6, 0, 0, 0)), "bottom": html((10, 0, 0, 0))}
        self.queue_caption = html((10, 0, 0, 0))
        self.legend = html((0, 0))
        self.legends = {name: html((0, 0)) for name in ("queue", "sweep", "speculative", "ceiling")}
        self.sweep_text = html()
        self.waste_text = html()
        self.gap_text = html()
        self.gap_story = html()
        self.speculative_text = html()
        self.roofline_text = html()
        self.ceiling_text = html()
        self.load_preset = pn.widgets.Button(
            label="Load the published 13B comparison",
            color="primary",
            sizing_mode="stretch_width",
            margin=(4, 0),
        )
        self.reset = pn.widgets.Button(
            label="Back to the defaults",
            color="default",
            sizing_mode="stretch_width",
            margin=(4, 0),
        )
        self.load_preset.on_click(lambda _event: self.load_published())
        self.reset.on_click(lambda _event: self.restore_defaults())

    def _figures(self) -> None:
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
        self.queue_plot, self.queue_sources = charts.queue_figure(self.x_range)
        (self.throughput_plot, self.latency_plot, self.sweep_sources, self.sweep_markers) = (
            charts.sweep_figures()
        )
        self.waste_plot, self.waste_source = charts.waste_figure()
        self.speculative_plot, self.speculative_source, self.speculative_here = (
            charts.speculative_figure()
        )
        (self.ceiling_plot, self.ceiling_source, self.ceiling_wall, self.ceiling_wall_label) = (
            charts.ceiling_figure()
        )
        (
            self.roofline_plot,
            self.roof_source,
            self.roof_path,
            self.roof_points,
            self.ridge,
            self.ridge_label,
        ) = charts.roofline_figure()

    # -- actions -------------------------------------------------------------------------
    def load_published(self) -> None:
        """Load the published comparison: its node on the shared scenario, its knobs here."""
        self._load(PUBLISHED_NODE, PUBLISHED_LAB)
        self.gap_story.object = self._gap_story_html()

    def restore_defaults(self) -> None:
        """Every knob of this lab, and the node's knobs, back to their defaults."""
        lab = {
            name: self.param[name].default
            for name in (*WORKLOAD_KNOBS, *VIEW_KNOBS, *SPECULATIVE_KNOBS)
        }
        node = {name: Scenario.param[name].default for name in NODE_KNOBS}
        self._load(node, lab)
        self.gap_story.object = ""

    def _load(self, node: dict, lab: dict) -> None:
        """Set node and lab knobs together, then recompute once."""
        self._suspended = True
        try:
            with pn.io.hold():
                self.scenario.param.update(**node)
                self.param.update(**lab)
        finally:
            self._suspended = False
        self._refresh_all()

    def _arrival_changed(self, *_events) -> None:
        self.widgets["arrival_rate"].disabled = self.arrival == "offline"
        self.widgets["wait_cap_s"].disabled = self.arrival == "offline"
        self.widgets["answer_cap"].disabled = self.answer != "capped exponential"

    # -- computation ---------------------------------------------------------------------
    def _node_key(self) -> tuple:
        knobs = self.scenario.knobs()
        return tuple(knobs[name] for name in NODE_KNOBS)

    def _stream(self, count: int) -> dict:
        return {
            "arrival": self.arrival,
            "rate_per_s": self.arrival_rate,
            "prompt_tokens": self.prompt_tokens,
            "answer": self.answer,
            "answer_mean": self.answer_mean,
            "answer_cap": self.answer_cap,
        } | {"count": count, "seed": self.seed}

    def _workload_key(self) -> tuple:
        return (
            *self._node_key(),
            *(getattr(self, name) for name in WORKLOAD_KNOBS if name != "batch_size"),
        )

    @staticmethod
    def _remember(cache: OrderedDict, key, compute):
        if key in cache:
            cache.move_to_end(key)
            return cache[key]
        value = compute()
        cache[key] = value
        if len(cache) > CACHE_SIZE:
            cache.popitem(last=False)
        return value

    def compute_runs(self) -> dict:
        """The four engines (static / continuous x reserved / paged) on the same arrivals."""

        def run():
            costs = step_costs(self.scenario)
            workload = draw_requests(**self._stream(self.requests))
            return {
                (policy, layout): simulate(
                    self.scenario,
                    policy,
                    layout,
                    workload=workload,
                    costs=costs,
                    batch_size=self.batch_size,
                    wait_cap_s=self.wait_cap_s,
                )
                for policy in POLICIES
                for layout in KV_LAYOUTS
            }

        key = (*self._workload_key(), self.batch_size)
        return self._remember(self._runs_cache, key, run)

    def compute_sweep(self) -> dict:
        """Both policies at every batch size of the sweep, on the current layout."""

        def run():
            costs = step_costs(self.scenario)
            workload = draw_requests(**self._stream(min(self.requests, SWEEP_REQUESTS)))
            out = {}
            for policy in POLICIES:
                out[policy] = [
                    simulate(
                        self.scenario,
                        policy,
                        self.kv_layout,
                        workload=workload,
                        costs=costs,
                        batch_size=batch,
                        wait_cap_s=self.wait_cap_s,
                    )
                    for batch in charts.SWEEP_BATCHES
                ]
            return out

        key = (*self._workload_key(), self.kv_layout)
        return self._remember(self._sweep_cache, key, run)

    def _refresh_all(self, *_events) -> None:
        if self._suspended:
            return
        with pn.io.hold():
            self._refresh_engine()
            self._refresh_speculative()
            self._refresh_analytic()
            self._refresh_ceiling()

    def _refresh_engine(self, *_events) -> None:
        if self._suspended:
            return
        try:
            runs = self.compute_runs()
            sweep = self.compute_sweep()
        except ValueError as error:
            self._show_error(str(error))
            return
        self.error = ""
        self.runs, self.sweep = runs, sweep
        if self._gap_rows is None:
            self._gap_rows = published_gap()
        with pn.io.hold():
            self.notice.visible = False
            for panel in self.engine_sections:
                panel.visible = True
            self._update_cards(runs)
            self._update_timelines(runs)
            self._update_sweep(sweep)
            self._update_waste(runs)
            self.gap_text.object = self._gap_html()

    def _show_error(self, message: str) -> None:
        self.error = message
        self.runs = self.sweep = None
        if message.startswith("scenario="):
            result = evaluate(self.scenario)
            message = (
                f"The weights of {node_name(self.scenario)} take "
                f"{fmt.gigabytes(result.weight_bytes)} of the node's "
                f"{fmt.gigabytes(result.node_memory_bytes)}, leaving no room for any KV cache"
            )
            advice = "Pick a smaller model or a card with more memory."
        else:
            advice = "Shorten the prompt or the answer cap, or pick a card with more memory."
        with pn.io.hold():
            self.notice.object = (
                '<div class="lab"><div class="notice" data-error><b>This engine cannot run.</b> '
                f"{escape(message)}. {advice}</div></div>"
            )
            self.notice.visible = True
            self.cards.update([])
            self.summary.object = self.gap_story.object = ""
            for panel in self.engine_sections:
                panel.visible = False
            if self._gap_rows is None:
                self._gap_rows = published_gap()
            self.gap_text.object = self._gap_html()

    # -- headline ------------------------------------------------------------------------
    def _update_cards(self, runs: dict) -> None:
        run = runs[self.policy, self.kv_layout]
        static, continuous = runs["static", self.kv_layout], runs["continuous", self.kv_layout]
        gain = continuous.output_tokens_per_s / static.output_tokens_per_s
        rate_value, rate_unit = fmt.split_unit(fmt.rate(run.output_tokens_per_s))
        ttft_value, ttft_unit = fmt.split_unit(fmt.duration(run.ttft_p95_s))
        itl_value, itl_unit = fmt.split_unit(fmt.duration(run.itl_p95_s))
        walled = run.memory_stalls > 0
        self.cards.update(
            [
                Card(
                    "output throughput",
                    rate_value,
                    rate_unit,
                    self._gain_note(gain),
                ),
                Card(
                    "TTFT p95",
                    ttft_value,
                    ttft_unit,
                    f"p50 {fmt.duration(run.ttft_p50_s)} \u00b7 p99 {fmt.duration(run.ttft_p99_s)}",
                ),
                Card("inter-token p95", itl_value, itl_unit, f"p50 {fmt.duration(run.itl_p50_s)}"),
                Card(
                    "KV waste",
                    fmt.percent(run.kv_waste),
                    "",
                    f"{fmt.gigabytes(run.kv_allocated_bytes)} set aside on average",
                ),
                Card(
                    "most seats at once",
                    fmt.count(run.peak_seats),
                    f"of B = {self.batch_size}",
                    "memory refused seats" if walled else "memory never refused one",
                    "worse" if walled else "",
                    alarm=walled,
                ),
            ]
        )
        self._update_engine_note(run)
        self.summary.object = (
            f'<div class="lab"><div class="binding" data-summary>{escape(self._summary(runs))}'
            "</div></div>"
        )

    def _update_engine_note(self, run) -> None:
        """What a real engine would see, beside the simulation (priced like the whiteboard)."""
        if self.policy != "continuous":
            self.engine_note.say(
                "The engine level models continuous batching, as real engines run: switch the "
                "scheduler to continuous to see what one would measure here."
            )
            return
        # With arrivals the stream sets the throughput; only an offline batch measures it.
        simulated = {"itl_s": run.itl_p50_s}
        rate = None
        if self.arrival == "offline":
            simulated["throughput_tokens_per_s"] = run.output_tokens_per_s
        else:
            rate = self.arrival_rate
        self.engine_note.update(
            stream_gaps(self.scenario, simulated, self.prompt_tokens, self.answer_mean,
                        self.batch_size, rate)
        )  # fmt: skip

    def _gain_note(self, gain: float) -> str:
        """How the other scheduler compares, on the same layout."""
        if self.policy == "continuous":
            return f"{charts.ratio(gain)} static's, both {self.kv_layout}"
        return f"continuous: {charts.ratio(gain)} this, both {self.kv_layout}"

    def _summary(self, runs: dict) -> str:
        static, continuous = runs["static", self.kv_layout], runs["continuous", self.kv_layout]
        held = static.idle_seat_s + float(
            (static.segments["end_s"] - static.segments["start_s"]).sum()
        )
        idle = static.idle_seat_s / held if held > 0 else 0.0
        gain = continuous.output_tokens_per_s / static.output_tokens_per_s
        if idle >= 0.005:
            first = (
                f"Static batching ran {fmt.count(static.waves)} waves; each waited for its slowest "
                f"request, so seats sat idle for {fmt.percent(idle)} of the time they were held."
            )
        else:
            first = (
                f"Static batching ran {fmt.count(static.waves)} waves and no seat waited on a "
                "straggler: every wave's requests finished together."
            )
        second = (
            f" On the same arrivals continuous batching wrote {charts.ratio(gain)} the tokens "
            f"per second, with a p95 first token of {fmt.duration(continuous.ttft_p95_s)} "
            f"against {fmt.duration(static.ttft_p95_s)}."
        )
        run = runs[self.policy, self.kv_layout]
        if run.memory_stalls:
            third = (
                f" Memory, not B, capped the {self.policy} engine at {fmt.count(run.peak_seats)} "
                f"seat{'s' if run.peak_seats != 1 else ''}: the memory wall."
            )
        elif run.peak_seats < self.batch_size:
            third = (
                f" Traffic never filled B = {self.batch_size}: at most "
                f"{fmt.count(run.peak_seats)} seats ran at once."
            )
        else:
            third = ""
        return first + second + third

    # -- timeline ------------------------------------------------------------------------
    def _update_timelines(self, runs: dict) -> None:
        other = "continuous" if self.policy == "static" else "static"
        static = runs["static", self.kv_layout]
        long_ones = charts.stragglers(static)
        end = max(
            float(run.segments["held_s"].max())
            for run in runs.values()
            if run.kv_layout == self.kv_layout
        )
        self.x_range.start, self.x_range.end = 0.0, end * 1.01
        rows = max(runs[p, self.kv_layout].peak_seats for p in POLICIES)
        height = int(min(380, max(150, 70 + 7 * rows)))
        for slot, policy in (("top", self.policy), ("bottom", other)):
            run = runs[policy, self.kv_layout]
            writing, held, prefill = charts.timeline_data(run, long_ones)
            target = self.timelines[slot]
            target["figure"].y_range.end = rows - 0.4
            target["figure"].y_range.start = -0.6
            target["figure"].height = height
            target["bars"].glyph.line_alpha = 1.0 if rows <= 48 else 0.0
            target["writing"].data = writing
            target["held"].data = held
            target["prefill"].data = prefill
            self.captions[slot].object = self._timeline_caption(run, slot)
        for policy, source in self.queue_sources.items():
            source.data = charts.queue_data(runs[policy, self.kv_layout])
        waiting = {p: int(runs[p, self.kv_layout].queue_length.max()) for p in POLICIES}
        self.queue_caption.object = (
            '<div class="lab small muted">Requests waiting for a seat. At worst '
            f"{fmt.count(waiting['static'])} waited under static batching and "
            f"{fmt.count(waiting['continuous'])} under continuous batching.</div>"
        )

    def _timeline_caption(self, run, slot: str) -> str:
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
        return (
            f'<div class="lab" data-timeline-{slot}="{run.policy}"><b>{run.policy.capitalize()} '
            f'batching</b> <span class="muted small">({role}, {run.kv_layout} KV)</span> \u00b7 '
            f"{fmt.rate(run.output_tokens_per_s)} \u00b7 {escape(detail)}</div>"
        )

    # -- sweep ---------------------------------------------------------------------------
    def _update_sweep(self, sweep: dict) -> None:
        batches = np.asarray(charts.SWEEP_BATCHES, dtype=float)

        def positive(values):
            values = np.asarray(values, dtype=float)
            return np.where(values > 0, values, np.nan)

        self.sweep_sources["throughput"].data = {
            "batch": batches,
            **{p: [r.output_tokens_per_s for r in sweep[p]] for p in POLICIES},
        }
        self.sweep_sources["latency"].data = {
            "batch": batches,
            "static_ttft": positive([r.ttft_p95_s for r in sweep["static"]]),
            "continuous_ttft": positive([r.ttft_p95_s for r in sweep["continuous"]]),
            "continuous_itl": positive([r.itl_p95_s for r in sweep["continuous"]]),
        }
        continuous = sweep["continuous"]
        walled = [r for r in continuous if r.memory_stalls > 0]
        wall = walled[0].peak_seats if walled else None
        main = self.runs["continuous", self.kv_layout] if self.runs else None
        measured_here = wall is None and main is not None and main.memory_stalls > 0
        if measured_here:
            wall = main.peak_seats
        itl = np.array([r.itl_p95_s for r in continuous])
        doubled = np.flatnonzero(itl >= 2 * itl[0]) if itl[0] > 0 else np.array([], dtype=int)
        knee = int(charts.SWEEP_BATCHES[doubled[0]]) if doubled.size else None
        for markers in self.sweep_markers.values():
            markers["here"].location = self.batch_size
            markers["wall"].visible = wall is not None
            markers["wall"].location = wall or 1
            markers["knee"].visible = knee is not None
            markers["knee"].location = knee or 1
        self.sweep_text.object = self._sweep_html(sweep, wall, knee, measured_here)

    def _sweep_html(self, sweep: dict, wall, knee, measured_here: bool = False) -> str:
        best = max(sweep["continuous"], key=lambda r: r.output_tokens_per_s)
        parts = ['<div class="lab"><ul class="facts">']
        if wall is not None and measured_here:
            parts.append(
                f"<li><b>Memory wall at {fmt.count(wall)} seats</b> ({self.kv_layout} KV), met by "
                f"the full run above; the sweep's {fmt.count(sweep['continuous'][0].requests)}-"
                "request sample never asked for that many seats.</li>"
            )
        elif wall is not None:
            parts.append(
                f"<li><b>Memory wall at {fmt.count(wall)} seats</b> ({self.kv_layout} KV): past it, "
                "raising B changes nothing; the extra requests wait in the queue.</li>"
            )
        else:
            parts.append(
                "<li>Memory never refused a seat up to B = 256 here: the wall is further out "
                "(or traffic never asked for that many seats).</li>"
            )
        if knee is not None:
            parts.append(
                f"<li><b>Latency knee at B = {knee}</b>: the continuous engine's p95 gap between "
                "tokens has doubled from a lone request's. Past it every stream feels the batch: "
                "each step reads more cache, and more steps stop to prefill a newcomer.</li>"
            )
        else:
            parts.append(
                "<li>No latency knee up to B = 256: the weight read still dominates each step.</li>"
            )
        parts.append(
            f"<li>Measured peak: {fmt.rate(best.output_tokens_per_s)} at B = {best.batch_size} "
            f"({fmt.count(best.requests)} requests a point). Only a sweep like this one finds "
            "the setting before both marks.</li></ul></div>"
        )
        return "".join(parts)

    # -- reserved vs paged ---------------------------------------------------------------
    def _update_waste(self, runs: dict) -> None:
        reserved, paged = runs[self.policy, "reserved"], runs[self.policy, "paged"]
        rows = {"reserved": reserved, "paged": paged}
        data = {"layout": [], "used": [], "wasted": [], "label": [], "x": [], "text": []}
        for layout, run in rows.items():
            used = run.kv_used_bytes / 1e9
            allocated = run.kv_allocated_bytes / 1e9
            data["layout"].append(layout)
            data["used"].append(used)
            data["wasted"].append(max(0.0, allocated - used))
            data["label"].append(
                f"{fmt.gigabytes(run.kv_used_bytes)} of {fmt.gigabytes(run.kv_allocated_bytes)}"
            )
            data["x"].append(allocated)
            data["text"].append(f"{fmt.percent(run.kv_waste)} wasted")
        self.waste_plot.x_range.end = max(max(data["x"]), 1e-3) * 1.3
        self.waste_source.data = data
        self.waste_text.object = (
            '<div class="lab"><div class="legend">'
            f'<span><span class="swatch" style="background:{charts.theme.KV_IN_USE}"></span>'
            "KV holding tokens</span>"
            f'<span><span class="swatch" style="background:{charts.IDLE}"></span>'
            'set aside, holding nothing</span></div><ul class="facts">'
            f"<li><b>Reserved</b> sets aside each request's prompt and its longest possible "
            f"answer ({fmt.count(reserved.prompt_tokens[0])} + "
            f"{fmt.count(self._ceiling_tokens())} tokens): {fmt.percent(reserved.kv_waste)} of "
            f"it held nothing, and it granted at most {fmt.count(reserved.peak_seats)} seats.</li>"
            f"<li><b>Paged</b> hands out {fmt.count(self._block_tokens())}-token blocks as tokens "
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

    def _ceiling_tokens(self) -> int:
        return answer_ceiling(self.answer, self.answer_mean, self.answer_cap)

    def _block_tokens(self) -> int:
        return step_costs(self.scenario).block_tokens

    # -- the published gap ---------------------------------------------------------------
    def _gap_html(self) -> str:
        rows = self._gap_rows or []
        published_ratio = CONTINUOUS_BATCHING_TOK_S / STATIC_BATCHING_TOK_S
        body = "".join(
            ('<tr class="here">' if row["gpu"] == PUBLISHED_GPU else "<tr>")
            + f'<td style="white-space:nowrap">{escape(row["gpu"])}</td>'
            f'<td class="num">{fmt.count(row["static_seats"])} \u2192 '
            f"{fmt.count(row['continuous_seats'])}</td>"
            f'<td class="num">{fmt.rate(row["static"])}</td>'
            f'<td class="num">{fmt.rate(row["continuous"])}</td>'
            f'<td class="num"><b>{charts.ratio(row["ratio"])}</b></td>'
            f'<td class="num"><b>{charts.ratio(row["naive_ratio"])}</b></td></tr>'
            for row in rows
        )
        body += (
            '<tr class="noise"><td>published</td><td></td>'
            f'<td class="num">{fmt.rate(STATIC_BATCHING_TOK_S)}*</td>'
            f'<td class="num">{fmt.rate(CONTINUOUS_BATCHING_TOK_S)}</td><td></td>'
            f'<td class="num"><b>{charts.ratio(published_ratio)}</b></td></tr>'
        )
        return (
            '<div class="lab"><table class="grid"><thead><tr><th>card</th>'
            "<th>seats, reserved \u2192 paged</th><th>static + reserved</th>"
            "<th>continuous + paged</th><th>gap</th><th>vs naive kernels</th></tr></thead>"
            f"<tbody>{body}</tbody></table>"
            f"{self._gap_decomposition_html()}"
            '<p class="small muted" style="margin-top:8px">Each engine served '
            f"{fmt.count(PUBLISHED_LAB['requests'])} requests at once: "
            f"{fmt.count(PUBLISHED_LAB['prompt_tokens'])}-token prompts, answers exponential of "
            f"mean {fmt.count(PUBLISHED_LAB['answer_mean'])} capped at "
            f"{fmt.count(PUBLISHED_LAB['answer_cap'])}, B = {PUBLISHED_LAB['batch_size']}, on "
            f"{escape(PUBLISHED_MODEL)} in bf16. <b>gap</b> compares the two schedulers on the "
            "same kernels; the less KV room, the fewer seats and the wider it gets. <b>vs naive "
            "kernels</b> also runs the static engine "
            f"{charts.ratio(OPTIMISED_KERNELS_FACTOR)} slower, as the benchmark's unoptimised "
            "baseline* was. The model's rates assume 60 % of bandwidth on every engine: compare "
            "ratios, not tokens per second.</p></div>"
        )

    def _gap_decomposition_html(self) -> str:
        """Published gap = scheduling and memory (simulated) x kernels (measured), with numbers."""
        row = next((r for r in self._gap_rows or [] if r["gpu"] == PUBLISHED_GPU), None)
        if row is None:
            return ""
        published_ratio = CONTINUOUS_BATCHING_TOK_S / STATIC_BATCHING_TOK_S
        return (
            '<div class="derivation" style="margin-top:10px">'
            f"{escape(PUBLISHED_GPU)}, the card of the published run:<br>"
            f"scheduling + memory (simulated) {charts.ratio(row['ratio'])}<br>"
            f"\u00d7 faster kernels (measured) {charts.ratio(OPTIMISED_KERNELS_FACTOR)}<br>"
            f"= <b>{charts.ratio(row['naive_ratio'])}</b> against the naive baseline "
            f"(published {charts.ratio(published_ratio)})</div>"
        )

    def _gap_story_html(self) -> str:
        row = next((r for r in self._gap_rows or [] if r["gpu"] == PUBLISHED_GPU), None)
        if row is None:
            return ""
        return (
            '<div class="lab"><div class="story" data-preset="published">'
            '<div class="title">The published comparison, loaded</div>'
            f"<div>{escape(PUBLISHED_MODEL)} on one {escape(PUBLISHED_GPU)}, every request sent at "
            "once. Against the published naive baseline (static batching, reserved KV, kernels "
            f"{charts.ratio(OPTIMISED_KERNELS_FACTOR)} slower: {fmt.rate(row['naive'])}) "
            f"continuous batching with paged KV writes {fmt.rate(row['continuous'])}: "
            f"<b>{charts.ratio(row['naive_ratio'])}</b>. On the same kernels, scheduling and "
            f"memory alone buy <b>{charts.ratio(row['ratio'])}</b> "
            f"({fmt.rate(row['static'])} static). Switch the scheduler and the layout one at a "
            "time to see what each buys.</div></div></div>"
        )

    # -- speculative decoding ------------------------------------------------------------
    def _context_tokens(self) -> float:
        """The cache a seat holds on average while it decodes: its prompt and half its answer."""
        return self.prompt_tokens + self.answer_mean / 2

    def _refresh_speculative(self, *_events) -> None:
        if self._suspended:
            return
        try:
            costs = step_costs(self.scenario)
        except ValueError:
            return
        batches = np.unique(np.round(np.geomspace(1, 1024, 80)))
        context = self._context_tokens()
        args = (self.draft_tokens, self.acceptance, self.draft_cost)
        curve = speedup(costs, batches, *args, context_tokens=context)
        bare = speedup(costs, batches, *args, context_tokens=0)
        here = speedup(costs, self.batch_size, *args, context_tokens=context)
        lone = speedup(costs, 1, *args, context_tokens=context)
        tokens = expected_tokens_per_pass(self.draft_tokens, self.acceptance)
        plain = float(plain_step_seconds(costs, self.batch_size, context))
        passing = float(
            pass_seconds(costs, self.batch_size, self.draft_tokens, self.draft_cost, context)
        )
        verify_read = float(costs.read_s(self.batch_size * context))
        verify_math = float(costs.compute_s(self.batch_size * (self.draft_tokens + 1)))
        bound = "the read of weights and cache" if verify_read >= verify_math else "arithmetic"
        with pn.io.hold():
            self.speculative_source.data = {"batch": batches, "cache": curve, "weights": bare}
            self.speculative_plot.y_range.end = max(3.2, float(curve.max()) * 1.1)
            self.speculative_here.location = self.batch_size
            k = self.draft_tokens
            self.speculative_text.object = (
                '<div class="lab"><div class="derivation">'
                f"E = (1 \u2212 \u03b1<sup>k+1</sup>) / (1 \u2212 \u03b1) = "
                f"(1 \u2212 {self.acceptance:.2f}<sup>{k + 1}</sup>) / {1 - self.acceptance:.2f}"
                f" = <b>{tokens:.2f}</b> tokens a pass<br>"
                f"pass at B = {self.batch_size}: draft {k} \u00d7 {fmt.percent(self.draft_cost)} "
                f"\u00d7 {fmt.duration(plain)} + verify "
                f"{fmt.duration(passing - k * self.draft_cost * plain)} = {fmt.duration(passing)}<br>"
                f"speed-up = {tokens:.2f} \u00d7 {fmt.duration(plain)} \u00f7 "
                f"{fmt.duration(passing)} = <b>{charts.ratio(here)}</b></div>"
                f'<ul class="facts"><li>A lone request streams <b>{charts.ratio(lone)}</b> faster '
                f"(published: {SPECULATIVE_SPEEDUP_LOW:g}\u2013{SPECULATIVE_SPEEDUP_HIGH:g}\u00d7): "
                "verifying k + 1 tokens costs about one step while the weight read dominates.</li>"
                f"<li>At B = {self.batch_size} the verify pass is bound by {bound}. Once the "
                "batch's arithmetic outweighs the read, verification costs k + 1 steps and the "
                "trick stops paying; a long cache (solid line) keeps the pass read-bound "
                "longer.</li></ul></div>"
            )

    # -- roofline ------------------------------------------------------------------------
    def _refresh_analytic(self, *_events) -> None:
        if self._suspended:
            return
        try:
            costs = step_costs(self.scenario)
        except ValueError:
            return
        if _events:
            self._refresh_speculative()
        context = self._context_tokens()
        peak, bandwidth = costs.peak_flops, costs.hbm_bytes_per_s
        ridge = float(ridge_point(peak, bandwidth))
        intensities = np.geomspace(0.5, 20_000, 120)
        path = np.arange(1, 257)
        decode_path = decode_intensity(costs, path, context)
        decode = float(decode_intensity(costs, self.batch_size, context))
        prefill = float(prefill_intensity(costs, self.prompt_tokens))
        with pn.io.hold():
            self.roof_source.data = {
                "intensity": intensities,
                "tflops": attainable_flops(intensities, peak, bandwidth) / 1e12,
            }
            self.roof_path.data = {
                "intensity": decode_path,
                "tflops": attainable_flops(decode_path, peak, bandwidth) / 1e12,
            }
            self.roof_points.data = {
                "intensity": [decode, prefill],
                "tflops": [
                    float(attainable_flops(x, peak, bandwidth)) / 1e12 for x in (decode, prefill)
                ],
                "colour": [charts.theme.ACCENT, charts.theme.KV_IN_USE],
                "name": [
                    f"decode step, B = {self.batch_size}",
                    f"prefill, {fmt.count(self.prompt_tokens)} tokens",
                ],
                "text": [f"decode, B = {self.batch_size}", "prefill"],
            }
            self.roofline_plot.y_range.end = peak / 1e12 * 2.5
            self.roofline_plot.y_range.start = bandwidth * 0.5 / 1e12 * 0.5
            self.ridge.location = ridge
            self.ridge_label.x = ridge
            self.ridge_label.text = f"ridge {charts.intensity(ridge)}"
            where = "below" if decode < ridge else "above"
            self.roofline_text.object = (
                '<div class="lab"><ul class="facts">'
                f"<li>Ridge point: {charts.teraflops(peak)} \u00f7 "
                f"{bandwidth / 1e12:,.2f} TB/s = <b>{charts.intensity(ridge)}</b> per "
                f"{escape(self.scenario.gpu)} ({escape(self.scenario.weight_dtype)} weights).</li>"
                f"<li>A decode step at B = {self.batch_size} does <b>{charts.intensity(decode)}</b>"
                f", {where} the ridge: "
                + (
                    "it waits on memory, so each added seat's arithmetic comes almost free."
                    if decode < ridge
                    else "the batch finally keeps the arithmetic busy."
                )
                + "</li>"
                f"<li>A {fmt.count(self.prompt_tokens)}-token prefill does "
                f"<b>{charts.intensity(prefill)}</b>: "
                + (
                    "on the flat compute roof."
                    if prefill >= ridge
                    else "still on the slope: a prompt this short cannot fill the card either."
                )
                + " Drag B to move the decode point.</li></ul></div>"
            )

    # -- decode ceiling ------------------------------------------------------------------
    def _refresh_ceiling(self) -> None:
        if self.error:
            return
        s = self.scenario
        reference = TIERS["large"]
        h100 = GPUS["H100 SXM"]
        reference_weights = reference.params * 2
        reference_ceiling = float(
            timing.single_stream_ceiling(reference_weights, 1, h100.hbm_bytes_per_s)
        )
        seats = np.arange(1, 513)
        result = evaluate(
            s,
            seats=seats,
            prompt_tokens=self.prompt_tokens,
            answer_tokens=self.answer_mean,
            prefix_hit_rate=0.0,
        )
        one = evaluate(
            s,
            seats=1,
            prompt_tokens=self.prompt_tokens,
            answer_tokens=self.answer_mean,
            prefix_hit_rate=0.0,
        )
        served = result.seats_granted >= 1
        aggregate = np.where(served, result.decode_tokens_per_s, np.nan)
        stream = np.where(served, result.stream_tokens_per_s, np.nan)
        refused = np.flatnonzero(result.seats_granted < result.seats_requested)
        wall = int(seats[refused[0]] - 1) if refused.size else None
        ceiling = float(one.single_stream_tokens_per_s)
        name = scenario_shape(s).name
        with pn.io.hold():
            self.ceiling_source.data = {"seats": seats, "aggregate": aggregate, "stream": stream}
            self.ceiling_wall.visible = bool(wall)
            self.ceiling_wall.location = wall or 1
            self.ceiling_wall_label.x = wall or 1
            self.ceiling_wall_label.text = f"memory wall: {wall} seats" if wall else ""
            if np.isfinite(aggregate).any():
                top = float(np.nanmax(aggregate))
                bottom = float(np.nanmin(stream))
                self.ceiling_plot.y_range.start = bottom * 0.5
                self.ceiling_plot.y_range.end = top * 2.5
            best = float(np.nanmax(aggregate)) if np.isfinite(aggregate).any() else 0.0
            self.ceiling_text.object = (
                '<div class="lab"><div class="derivation">'
                f"{escape(reference.name)}: {reference.params / 1e9:g}B parameters \u00d7 2 bytes "
                f"= {fmt.gigabytes(reference_weights)} read for every token<br>"
                f"one {escape(h100.name)} streams {h100.hbm_bytes_per_s / 1e12:g} TB/s: "
                f"{h100.hbm_bytes_per_s / 1e12:g} TB/s \u00f7 {fmt.gigabytes(reference_weights)}"
                f" = <b>{fmt.rate(reference_ceiling)}</b> for one request, whatever the FLOPs<br>"
                f"{escape(name)} on {one.cards} \u00d7 {escape(s.gpu)}: "
                f"{fmt.gigabytes(one.weight_bytes)} \u2192 at most <b>{fmt.rate(ceiling)}</b> "
                f"(the model's {fmt.percent(BANDWIDTH_EFFICIENCY)} of bandwidth: "
                f"{fmt.rate(one.stream_tokens_per_s)})</div>"
                '<ul class="facts"><li>Batching shares that read: the aggregate climbs almost '
                f"free with the seats, to {fmt.rate(best)}"
                + (
                    f", until memory stops it at {wall} seats of "
                    f"{fmt.count(self.prompt_tokens + self.answer_mean)} tokens."
                    if wall
                    else " by 512 seats, and memory has still not stopped it."
                )
                + "</li></ul></div>"
            )

    # -- layout --------------------------------------------------------------------------
    def _build(self):
        w = self.widgets
        knobs = knob_column(
            ui.heading("The published comparison"),
            self.load_preset,
            self.reset,
            ui.heading("Engine"),
            LiveHTML('<div class="lab small muted">Scheduler</div>', margin=(0, 10)),
            w["policy"],
            LiveHTML('<div class="lab small muted">KV layout</div>', margin=(4, 10, 0, 10)),
            w["kv_layout"],
            w["batch_size"],
            w["wait_cap_s"],
            ui.heading("Traffic"),
            w["arrival"],
            w["arrival_rate"],
            w["requests"],
            w["seed"],
            ui.heading("Request shape"),
            w["prompt_tokens"],
            w["answer"],
            w["answer_mean"],
            w["answer_cap"],
            ui.heading("Node (shared with every lab)"),
            w["tier"],
            w["model"],
            w["gpu"],
            w["kv_dtype"],
            note(
                "The engine prefills new prompts and writes one token per running seat each "
                "step, priced by the same timing model as the pool lab."
            ),
        )
        timeline = section(
            "Seats over time, on the same arrivals",
            self.legend,
            self.captions["top"],
            pn.pane.Bokeh(self.timelines["top"]["figure"], sizing_mode="stretch_width"),
            self.captions["bottom"],
            pn.pane.Bokeh(self.timelines["bottom"]["figure"], sizing_mode="stretch_width"),
            self.queue_caption,
            self.legends["queue"],
            pn.pane.Bokeh(self.queue_plot, sizing_mode="stretch_width"),
            note="One bar per request in its seat. Hover a bar for its arrival, wait and tokens.",
            margin=(8, 0, 0, 0),
        )
        self.legend.object = _timeline_legend()
        self._fill_legends()
        results = pn.Column(
            self.notice,
            self.cards,
            self.engine_note,
            self.summary,
            self.gap_story,
            timeline,
            sizing_mode="stretch_width",
            margin=0,
        )
        sweep = section(
            "Batch size: throughput, latency, and where to stop",
            self.legends["sweep"],
            pn.Row(
                pn.pane.Bokeh(self.throughput_plot, sizing_mode="stretch_width"),
                pn.pane.Bokeh(self.latency_plot, sizing_mode="stretch_width"),
                sizing_mode="stretch_width",
            ),
            self.sweep_text,
            note="Each point is a fresh run of both schedulers at that B, on the layout you "
            "picked (a smaller sample of requests than the timeline).",
        )
        waste = section(
            "Reserved vs paged KV",
            pn.pane.Bokeh(self.waste_plot, sizing_mode="stretch_width"),
            self.waste_text,
            note="The selected scheduler, both layouts, time-averaged over the run.",
            margin=(16, 8, 0, 0),
        )
        gap = section(
            "The published gap: static vs continuous",
            self.gap_text,
            note="The same workload on every card in the catalog, simulated.",
            margin=(16, 0, 0, 8),
        )
        speculative = section(
            "Speculative decoding: the batch-of-one trick",
            pn.Row(
                self.widgets["draft_tokens"],
                self.widgets["acceptance"],
                self.widgets["draft_cost"],
                sizing_mode="stretch_width",
            ),
            self.legends["speculative"],
            pn.pane.Bokeh(self.speculative_plot, sizing_mode="stretch_width"),
            self.speculative_text,
            note="A small draft model proposes k tokens; the target checks them in one pass. "
            "Draft step cost is one draft step as a share of a target step.",
            margin=(16, 8, 0, 0),
        )
        roofline = section(
            "The roofline: why decode waits on memory",
            pn.pane.Bokeh(self.roofline_plot, sizing_mode="stretch_width"),
            self.roofline_text,
            margin=(16, 0, 0, 8),
        )
        ceiling = section(
            "The decode ceiling: one stream against the batch",
            self.legends["ceiling"],
            pn.pane.Bokeh(self.ceiling_plot, sizing_mode="stretch_width"),
            self.ceiling_text,
        )
        self.engine_sections = [timeline, sweep, waste, speculative, roofline, ceiling]
        return pn.Column(
            intro(
                "Run the engine yourself",
                "A small inference engine, simulated one step at a time: requests arrive, a "
                "scheduler seats them, each step prefills new prompts and writes one token for "
                "every running seat. Watch a static wave wait for its slowest request, watch "
                "continuous batching refill seats the moment they free up, and see what memory, "
                "not the batch size, finally allows.",
            ),
            pn.Row(knobs, results, sizing_mode="stretch_width", margin=0),
            sweep,
            pn.Row(waste, gap, sizing_mode="stretch_width", margin=0),
            pn.Row(speculative, roofline, sizing_mode="stretch_width", margin=0),
            ceiling,
            sizing_mode="stretch_width",
            margin=(0, 0, 24, 0),
        )

    def _fill_legends(self) -> None:
        static, continuous = charts.STATIC_COLOUR, charts.CONTINUOUS_COLOUR
        theme = charts.theme
        self.legends["queue"].object = charts.legend_html(
            [(static, "static", "solid"), (continuous, "continuous", "solid")]
        )
        self.legends["sweep"].object = charts.legend_html(
            [
                (static, "static", "solid"),
                (continuous, "continuous", "solid"),
                (continuous, "continuous inter-token p95 (right)", "dashed"),
                ("rgba(29,36,51,.35)", "your B", "box"),
                (theme.WAITING, "memory wall", "dashed"),
                (theme.KV_IN_USE, "latency knee", "dotted"),
            ],
            "right: TTFT p95 solid",
        )
        self.legends["speculative"].object = charts.legend_html(
            [
                (theme.ACCENT, "with this cache (prompt + half the answer)", "solid"),
                (charts.STATIC_COLOUR, "weights only, no cache", "dashed"),
                ("rgba(29,36,51,.35)", "your B", "box"),
            ]
        )
        self.legends["ceiling"].object = charts.legend_html(
            [
                (theme.ACCENT, "aggregate, all seats", "solid"),
                (charts.STATIC_COLOUR, "each stream", "dashed"),
                (theme.WAITING, "memory wall", "dashed"),
            ]
        )

    def __panel__(self):
        return self._layout


def _timeline_legend() -> str:
    items = (
        (charts.WRITING, "writing tokens"),
        (charts.WRITING_ALT, "the next request in the same seat"),
        (charts.PREFILL, "prefill, before the first token"),
        (charts.STRAGGLER, "straggler: last of its static wave"),
        (charts.IDLE, "seat held idle"),
        (charts.PREEMPTED, "preempted (paged memory ran out)"),
    )
    spans = "".join(
        f'<span><span class="swatch" style="background:{colour}"></span>{escape(text)}</span>'
        for colour, text in items
    )
    return f'<div class="lab"><div class="legend">{spans}</div></div>'
