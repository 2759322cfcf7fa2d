"""The KV cache calculator: what does memory grant once the weights are loaded?"""

from __future__ import annotations

from dataclasses import replace
from html import escape

import panel as pn
import param

from core import KNOBS, Scenario, evaluate
from core.catalog.custom import scenario_shape
from core.evidence.level_gap import level_gaps
from core.studies.sensitivity import knob_effects
from core.whiteboard.long_context import scenario_long_context
from labs.kv import story
from labs.kv.attention_table import AttentionComparison
from labs.kv.derivation import derivation_html
from labs.kv.long_context import LongContextNote
from labs.kv.presets import KV_PRESETS
from labs.page import format as fmt
from labs.page.cards import CardRow
from labs.page.layout import knob_column, lab_page, note, section
from labs.page.text import LiveHTML
from labs.page.updates import DETAILS_DELAY_MS, Later
from labs.widgets import knobs as ui
from labs.widgets.ledger import MemoryLedger
from labs.widgets.level_note import EngineNote
from labs.widgets.mattered import Column, MatteredTable
from labs.widgets.node_picker import NodePicker
from labs.widgets.predict import PredictCards
from labs.widgets.presets import PresetPicker, judged_state

# The card, its count and the weight storage set the room: a preset loads them too, so its
# story's figures are the ones on screen.
SHARED_KNOBS = ("tier", "model", "gpu", "cards", "weight_dtype", "kv_dtype")
LOCAL_KNOBS = ("sequence_tokens", "requests")
OUTPUTS = ("seats_granted", "seat_kv_bytes", "seats_room", "kv_share_of_weights")
NOISE_FLOORS = {
    "seats_granted": 0.5,
    "seats_room": 0.5,
    "seat_kv_bytes": 1e6,
    "kv_share_of_weights": 0.005,
}
SEQUENCE_BOUNDS = (128, 1_048_576)
ENGINE_FIELDS = ("seats_granted", "seats_room", "kv_budget_bytes")


def round_tokens(count: float) -> int:
    """A slider position as a token count people would type: three significant digits."""
    return ui.round_figures(count, SEQUENCE_BOUNDS)


def kv_defaults() -> dict:
    """Defaults of every knob this lab shows."""
    return {
        **{name: Scenario.param[name].default for name in SHARED_KNOBS},
        "sequence_tokens": KvLab.param.sequence_tokens.default,
        "requests": KvLab.param.requests.default,
    }


def evaluate_kv(scenario: Scenario, sequence_tokens: int, requests: int, **knobs):
    """The pool at a sequence length: a prompt of that length with no answer yet."""
    return evaluate(
        scenario, prompt_tokens=sequence_tokens, answer_tokens=0, seats=requests, **knobs
    )


def story_figures(knobs) -> dict:
    """Figures a preset's story quotes, from the preset's own evaluation."""
    values = {**kv_defaults(), **knobs}
    shared = {name: values[name] for name in SHARED_KNOBS}
    result = evaluate_kv(Scenario(**shared), values["sequence_tokens"], values["requests"])
    return {
        "room": fmt.gigabytes(result.kv_budget_bytes),
        "seat": fmt.memory(result.seat_kv_bytes),
        "granted": fmt.count(result.seats_granted),
        "waiting": fmt.count(result.seats_waiting),
        "room_seats": fmt.count(result.seats_room),
        "max_sequence": fmt.tokens(result.kv_budget_tokens),
        "outweigh_factor": f"{result.seat_share_of_weights:,.0f}",
    }


def describe(knob: str, value) -> str:
    if knob == "sequence_tokens":
        return fmt.plural(value, "token")
    if knob == "requests":
        return fmt.plural(value, "request")
    return ui.knob_value(knob, value)


def label(knob: str) -> str:
    return {"sequence_tokens": "sequence length", "requests": "concurrent requests"}.get(
        knob, ui.knob_label(knob)
    )


# The cards "predict first" covers, by label: the field each one shows, and its format.
PREDICTED = {
    "one cached token": "kv_bytes_per_token",
    "one seat's cache at this length": "seat_kv_bytes",
    "seats granted": "seats_granted",
}
# Uncovered cards whose notes follow from a covered figure (the cache in use is the seats
# times one seat's cache; the weights over the tokens that outweigh them, one token's bytes).
IMPLIED = ("cache share of the weights", "one sequence outweighs the model")
PREDICTED_FORMATS = {
    "kv_bytes_per_token": lambda n: f"{fmt.count(n)} bytes",
    "seat_kv_bytes": fmt.memory,
    "seats_granted": fmt.count,
}


def own_knobs_html(s: Scenario) -> str:
    """The line that says the calculator's sequence and requests are its own, not the pool's."""
    return (
        '<div class="lab small muted" data-own-knobs>These two are this calculator\'s own: the '
        f"pool lab keeps its {fmt.plural(s.seats, 'seat')} and {fmt.count(s.prompt_tokens)}-token "
        "prompts, and neither side moves the other. Model, card and cache storage are shared.</div>"
    )


class KvLab(pn.viewable.Viewer):
    """Four knobs, six figures and a ledger: who pays for the KV cache, and what memory grants."""

    URL_PARAMS = ("sequence_tokens", "requests")  # kept in shareable links

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    sequence_tokens = param.Integer(
        default=4000,
        bounds=SEQUENCE_BOUNDS,
        doc="Tokens every seat holds in cache: prompt plus answer so far.",
    )
    requests = param.Integer(
        default=16, bounds=(1, 1024), doc="Concurrent requests the scheduler asks memory for."
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        s = self.scenario
        self.length = ui.LogSlider(
            self, "sequence_tokens", SEQUENCE_BOUNDS, "Sequence length (tokens)"
        )
        self.requests_slider = pn.widgets.EditableIntSlider.from_param(
            self.param.requests,
            label="Concurrent requests",
            fixed_start=1,
            fixed_end=1024,
            sizing_mode="stretch_width",
        )
        self.widgets = {
            "tier": ui.tier_buttons(s),
            "model": ui.model_select(s),
            "kv_dtype": ui.dtype_buttons(s),
        }
        self.cards = CardRow(columns=3)
        self.predict = PredictCards(
            self.cards, PREDICTED, PREDICTED_FORMATS, s, self.kv_overrides, self, LOCAL_KNOBS,
            giveaways=self.giveaways, implied=IMPLIED,
        )  # fmt: skip
        self.own_knobs = LiveHTML("", sizing_mode="stretch_width", margin=(0, 10))
        self.engine_note = EngineNote(
            {"seats_granted": "seats granted", "seats_room": "room for",
             "kv_budget_bytes": "KV room"},
            {"seats_granted": fmt.count, "seats_room": lambda n: fmt.plural(n, "seat"),
             "kv_budget_bytes": fmt.memory},
        )  # fmt: skip
        self.ledger = MemoryLedger()
        self.binding = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.derivation = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.facts = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.attention = AttentionComparison()
        self.long_context = LongContextNote()
        # The card picker without its model select: the lab has its own, beside the tier.
        self.node = NodePicker(s, show_model=False)
        self.mattered = MatteredTable(
            [
                Column("seats_granted", "seats granted", lambda d: fmt.signed(d)),
                Column("seat_kv_bytes", "one seat's cache", lambda d: fmt.signed(d / 1e9, "GB", 2)),
                Column("seats_room", "room in seats", lambda d: fmt.signed(d)),
                Column(
                    "kv_share_of_weights", "share of weights", lambda d: fmt.signed(d * 100, "pts")
                ),
            ],
            label,
            describe,
            quiet_at_defaults=True,  # a row of zeros per knob says nothing at the defaults
        )
        self.presets = PresetPicker(
            KV_PRESETS, apply=self.load_knobs, reset=self.reset, describe=describe, defaults=kv_defaults(),
            figures=story_figures, label=label,
        )  # fmt: skip
        self.result = None
        self._details = Later(self._refresh_details, delay_ms=DETAILS_DELAY_MS, first_now=True)
        s.param.watch(self._refresh, KNOBS)
        self.param.watch(self._refresh, list(LOCAL_KNOBS))
        self._layout = self._build()
        self._refresh()

    # -- knobs ---------------------------------------------------------------------------
    def load_knobs(self, knobs) -> None:
        """Load ``knobs`` (shared and local) onto the defaults."""
        values = {**kv_defaults(), **knobs}
        with pn.io.hold():
            self.scenario.param.update(**{name: values[name] for name in SHARED_KNOBS})
            self.param.update(**{name: values[name] for name in LOCAL_KNOBS})

    def reset(self) -> None:
        """This lab's knobs back to their defaults."""
        self.load_knobs({})

    def kv_overrides(self) -> dict:
        """The knobs this lab passes to every evaluation: its length and its requests."""
        return dict(prompt_tokens=self.sequence_tokens, answer_tokens=0, seats=self.requests)

    def knob_values(self) -> dict:
        return {
            **{name: getattr(self.scenario, name) for name in SHARED_KNOBS},
            **{name: getattr(self, name) for name in LOCAL_KNOBS},
        }

    def giveaways(self) -> list:
        """What shows or implies a covered card, covered with it by predict first.

        The engine line, a preset's story, the ledger, the derivation, the three attention
        designs' bytes per token and mattered vs noise.
        """
        return [self.engine_note, self.presets.story, *self.sections]

    # -- computation ---------------------------------------------------------------------
    def _refresh(self, *_events) -> None:
        result = evaluate_kv(self.scenario, self.sequence_tokens, self.requests)
        self.result = result
        with pn.io.hold():
            self.cards.update(story.cards(result, self.sequence_tokens))
        self._details.request()

    def _refresh_details(self) -> None:
        """Everything below the cards: ledger, derivation, prose, table, story."""
        s, result = self.scenario, self.result
        shape_knob = "model" if s.model else "tier"
        defaults = kv_defaults()
        effects = knob_effects(
            s,
            {shape_knob: defaults[shape_knob],
             **{name: defaults[name] for name in ("gpu", "cards", "weight_dtype", "kv_dtype")},
             "prompt_tokens": defaults["sequence_tokens"], "seats": defaults["requests"]},
            OUTPUTS,
            NOISE_FLOORS,
            verdicts=("capacity_ok",),
            prompt_tokens=self.sequence_tokens,
            answer_tokens=0,
            seats=self.requests,
        )  # fmt: skip
        effects = [_rename(effect) for effect in effects]
        self.ledger.update(result)
        self.binding.object = f'<div class="lab"><div class="binding" data-binding>{escape(story.binding(result, self.sequence_tokens))}</div></div>'
        self.derivation.object = derivation_html(result, s, self.sequence_tokens)
        self.own_knobs.object = own_knobs_html(s)
        self.attention.update(
            scenario_shape(s), s.kv_dtype, round(result.kv_bytes_per_number), self.sequence_tokens,
            result.kv_budget_bytes, result.kv_bytes_per_token,
        )  # fmt: skip
        self.long_context.update(scenario_long_context(s, result, self.sequence_tokens))
        self.facts.object = (
            '<div class="lab"><ul class="facts">'
            + "".join(
                f"<li>{escape(line)}</li>" for line in story.facts(result, s, self.sequence_tokens)
            )
            + "</ul></div>"
        )
        self.mattered.update(effects)
        self.engine_note.update(
            level_gaps(s, ENGINE_FIELDS, prompt_tokens=self.sequence_tokens, answer_tokens=0,
                       seats=self.requests),
            s.realism == "engine",
        )  # fmt: skip
        failing = [] if result.capacity_ok else [
            f"capacity ({fmt.count(result.seats_granted)} of {fmt.count(result.seats_requested)} seats)"
        ]  # fmt: skip
        self.presets.update(
            bool(result.capacity_ok), failing, judged_state(s, result, **self.knob_values())
        )

    # -- layout --------------------------------------------------------------------------
    def _build(self):
        w = self.widgets
        knobs = knob_column(
            ui.heading("Famous failures"),
            self.presets,
            ui.heading("Model shape"),
            w["tier"],
            w["model"],
            ui.heading("Card and weights"),
            self.node,
            note("Weights take their share of every card first: a bigger model starts from a smaller KV room."),
            ui.heading("Cache storage"),
            w["kv_dtype"],
            note("fp8 keeps each cached number in one byte instead of two. Only the cache changes: not the weights, not the answers."),
            ui.heading("The pool"),
            self.own_knobs,
            self.length,
            note("Every seat pays cache for its whole sequence, prompt plus answer so far."),
            self.requests_slider,
            note("The dial is only the ask: memory grants what fits, and the rest waits without an error."),
        )  # fmt: skip
        self.sections = [
            section(
                "The card pool's memory, weights first",
                self.binding,
                self.ledger,
                margin=(8, 0, 0, 0),
            ),
            section(
                "The derivation, live",
                self.derivation,
                self.facts,
                self.long_context,
                margin=(8, 0, 0, 0),
            ),
            section(
                "Same model, three attention designs",
                self.attention,
                note="Multi-head, grouped-query and latent attention store very different caches "
                "for the same model.",
                margin=(8, 0, 0, 0),
            ),
            section(
                "Mattered vs noise", self.mattered, note="Which knobs actually moved the room."
            ),
        ]
        *shown, below = self.sections
        results = pn.Column(
            self.predict,
            self.engine_note,
            self.presets.story,
            *shown,
            sizing_mode="stretch_width",
            margin=0,
        )
        return lab_page(
            "The KV cache calculator",
            "Scheduling decides who runs; memory decides how many can. Every running request keeps a KV cache "
            "so it can continue its answer, and that cache, not compute, is the resource being handed out. Turn "
            "the knobs and watch who pays: one cached token, one running seat, the room left after the weights.",
            knobs,
            results,
            below,
        )

    def __panel__(self):
        return self._layout


def _rename(effect):
    """Report the lab's own knob names in the mattered table."""
    names = {"prompt_tokens": "sequence_tokens", "seats": "requests"}
    return replace(effect, knob=names.get(effect.knob, effect.knob))
