"""The tour's steps, in the walkthrough's order: pick the workload, turn the knobs, read the
memory ledger, try the same config on the other workload, see what mattered, load a famous
failure and fix it.

Each step sets the pool lab's knobs (onto the defaults), names the knob or chart it is about,
and asks one question: a guess at a figure, or a choice whose answer a function of
:mod:`core.practice.tour` computes. No step writes a figure of its own.
"""

from __future__ import annotations

from dataclasses import dataclass

from core import KNOBS, Scenario
from core.catalog.workloads import WORKLOADS
from core.practice.tour import FEWER, LEDGER_PARTS, MORE, NO, SAME, YES
from labs.pool.lab import pool_defaults
from labs.pool.presets import POOL_PRESETS
from labs.widgets.knobs import knob_label, knob_value

_WALL = next(preset for preset in POOL_PRESETS if preset.key == "memory-wall")
_DOCS = "document analysis"
# Steps 4 to 6: long documents on the 70B model. Longer than the memory wall's (step 9), so
# the seats memory grants here never answer step 9's question before it is asked.
_LONG_DOCS = {"workload": _DOCS, "tier": "large", "prompt_tokens": 16_000, "seats": 32}
# The knobs step 8 moves away from their defaults, and the defaults it compares them with.
_MOVED = {"seats": 32, "prompt_tokens": 4000, "kv_dtype": "fp8", "prefix_hit_rate": 0.0}
_MOVED_FROM = {knob: pool_defaults()[knob] for knob in _MOVED}
# Step 10's candidate fixes, by the option's words.
_FIX_KNOBS = ({"kv_dtype": "fp8"}, {"seats": 128}, {"prompt_tokens": 4000})
_FIXES = {
    f"store the cache in {_FIX_KNOBS[0]['kv_dtype']}": _FIX_KNOBS[0],
    f"ask for {_FIX_KNOBS[1]['seats']} seats": _FIX_KNOBS[1],
    f"cut the prompt to {_FIX_KNOBS[2]['prompt_tokens']:,} tokens": _FIX_KNOBS[2],
}


@dataclass(frozen=True)
class Question:
    """A step's one question: a guess at ``field``, or a choice among ``options``."""

    text: str
    field: str = ""  # a guess at this Result field (GUESS_UNITS says its unit)
    options: tuple[str, ...] = ()
    answer: str = ""  # the core.practice.tour.ANSWERS function that picks the right option
    args: dict | None = None  # the answer function's arguments beyond the scenario

    @property
    def is_guess(self) -> bool:
        return bool(self.field)


@dataclass(frozen=True)
class TourStep:
    """One step: its title, what it says, the knobs it sets, what it points at, its question."""

    title: str
    text: str
    knobs: dict
    target: str  # the pool lab's attribute it highlights ("widgets.seats", "ledger", ...)
    question: Question
    preset: str = ""  # a famous failure to load (its story shows above the ledger)
    then_preset: str = ""  # a famous failure whose story is loaded once the question is answered
    after: str = ""  # what to notice once the question is answered


STEPS: tuple[TourStep, ...] = (
    TourStep(
        "Pick the workload",
        "Every figure in the pool lab is sized for one kind of traffic. Chat sends many short "
        "questions with short answers; document analysis sends long documents and asks for a "
        "summary. The line under the buttons gives each one's peak minute.",
        {},
        "widgets.workload",
        Question(
            "Which workload brings more requests in its peak minute?",
            options=tuple(WORKLOADS),
            answer="busier_workload",
        ),
        after="The node is rented for the peak minute, not the average one.",
    ),
    TourStep(
        "Read the headline",
        "The four cards are the pool's answer at the defaults: how many requests run at once, "
        "how long the slowest twentieth wait for their first token, how many tokens the node "
        "writes a second, and what the month costs.",
        {},
        "cards",
        Question(
            "Guess the TTFT p95 at the defaults (in ms, or any time unit).", field="ttft_p95_s"
        ),
        after="Prefill of the uncached part of the prompt, plus the wait for a free seat.",
    ),
    TourStep(
        "Turn a knob: the batch",
        "The scheduler's seats are how many requests decode together. Here the node runs one "
        "request at a time, so each decode step streams every weight for a single token.",
        {"seats": 1},
        "widgets.seats",
        Question(
            "Guess the aggregate decode rate with one seat (tok/s).", field="decode_tokens_per_s"
        ),
        after="Raise the seats slider and watch the rate climb: one weight read serves the batch.",
    ),
    TourStep(
        "Turn a knob: cache storage",
        "Now the 70B model reads documents of {prompt_tokens}, with {seats} requested. Every running "
        "request keeps its KV cache on the card, in the storage type the buttons choose.",
        _LONG_DOCS,
        "widgets.kv_dtype",
        Question(
            "Switch the cache from bf16 to fp8. Will memory grant more seats, fewer, or the same?",
            options=(MORE, FEWER, SAME),
            answer="seats_after",
            args={"knob": "kv_dtype", "value": "fp8"},
        ),
        after="One byte per number instead of two: each seat's cache takes half the room.",
    ),
    TourStep(
        "Read the memory ledger",
        "The ledger draws each card's memory: the weights first, then the cache the granted "
        "seats hold, then the room left for more cache, then a fixed margin.",
        _LONG_DOCS,
        "ledger",
        Question(
            "Which part of the node's memory is largest here?",
            options=LEDGER_PARTS,
            answer="largest_part",
        ),
        after="Whatever the weights leave is all the room the cache will ever have.",
    ),
    TourStep(
        "One cached token",
        "Each token a request holds costs the same bytes in every layer: keys and values, for "
        "every KV head, in the cache's storage type. The ledger's cache bar is that figure "
        "times the tokens held.",
        _LONG_DOCS,
        "ledger",
        Question(
            "Guess the bytes one cached token takes on this model (KiB, kB or bytes).",
            field="kv_bytes_per_token",
        ),
        after="Layers x KV heads x head size x 2 (keys and values) x bytes per number.",
    ),
    TourStep(
        "Same config, the other workload",
        "Document analysis with {seats}. The panel below the ledger runs this exact "
        "configuration on the other workload.",
        {"workload": _DOCS, "seats": 8},
        "other",
        Question(
            "This config serves document analysis. Does it pass all three checks on chat?",
            options=(YES, NO),
            answer="passes_on",
            args={"workload": "chat"},
        ),
        after="Chat's arrival rate needs more seats than the documents' long prompts do.",
    ),
    TourStep(
        "What mattered",
        "Four knobs have moved from their defaults: more seats, longer prompts, fp8 cache and no "
        "prefix hits. The table at the bottom puts each back alone and reports what changed.",
        _MOVED,
        "mattered",
        Question(
            "Which knob moves the TTFT p95 the most?",
            options=tuple(_MOVED),
            answer="mattered_most",
            args={"defaults": _MOVED_FROM, "output": "ttft_p95_s"},
        ),
        after="Most knobs are noise for a given figure; one or two decide it.",
    ),
    TourStep(
        "Load a famous failure",
        "The memory wall: a document pipeline on the 70B model with {seats} requested. Answer "
        "first; then its story appears above the ledger.",
        _WALL.knobs,
        "presets.select",
        Question("Of the {seats} requested, how many does memory grant?", field="seats_granted"),
        then_preset=_WALL.key,
    ),
    TourStep(
        "Fix it",
        "Still the memory wall. Three ways out are on the table; the knobs are yours once "
        "you have answered.",
        {},
        "cards",
        Question(
            "Which one change grants the most seats?",
            options=tuple(_FIXES),
            answer="best_change",
            args={"changes": _FIXES, "output": "seats_granted"},
        ),
        preset=_WALL.key,
        after=f"Now fix it yourself: the goal is to {_WALL.goal}",
    ),
)


def step_knobs(step: TourStep) -> dict:
    """Every knob of the Scenario as ``step`` sets it: the defaults, its knobs, its preset's."""
    preset = next((p.knobs for p in POOL_PRESETS if p.key == step.preset), {})
    defaults = {name: Scenario.param[name].default for name in KNOBS}
    return {**defaults, **pool_defaults(), **step.knobs, **preset}


def step_words(scenario: Scenario) -> dict:
    """The knob values a step's text quotes, as the page writes them."""
    return {knob: knob_value(knob, getattr(scenario, knob)) for knob in KNOBS}


def option_label(option: str) -> str:
    """An option as the student reads it: a knob by its label, anything else as written."""
    return knob_label(option) if option in KNOBS else option


def asked_later(number: int) -> tuple[str, ...]:
    """The fields later steps ask to guess at step ``number``'s very knobs (steps count from 1).

    Those figures are on no card of this step, before or after its answer, so no step shows
    the answer to a question still to come.
    """
    here = step_knobs(STEPS[number - 1])
    return tuple(
        step.question.field
        for step in STEPS[number:]
        if step.question.is_guess and step_knobs(step) == here
    )
