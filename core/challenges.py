"""Practice problems: the interview arithmetic of serving, drawn from a seed and checked.

Each challenge draws a scenario from the catalog (model, card, storage types, lengths, hit
rate) with ``numpy.random.default_rng(seed)``, so one seed gives one problem everywhere and
a class can work the same one. The expected answer is a field of :func:`core.evaluate`;
the derivation is a list of :class:`Step` whose numbers come from the functions of
:mod:`core.memory` and :mod:`core.timing`, and whose last number is the expected answer.
Seed 0 is the classic version of each challenge, with the walkthrough's own numbers.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from core import memory, timing
from core.answers import (
    Reading,
    Tolerance,
    express,
    kind_of,
    number_text,
    off_by,
    read_answer,
)
from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    BYTES_PER_NUMBER,
    GPUS,
    HOURS_PER_MONTH,
    MEMORY_MARGIN,
    MODELS,
    PREFILL_EFFICIENCY,
    TIERS,
    ModelShape,
)
from core.evaluate import evaluate
from core.validation import describe_range, knob_error
from core.workloads import WORKLOADS

SEED_BOUNDS = (0, 999_999)
CLASSIC_SEED = 0  # the walkthrough's own numbers, for every challenge
NEW_SEED_BOUNDS = (1000, 1_000_000)  # "new problem" draws a 4 to 6 digit seed
# How far off a wrong answer may be and still be told it is close.
CLOSE = 0.10


@dataclass(frozen=True)
class Step:
    """One line of a derivation: what it finds, the rule, the rule with numbers, the result.

    Attributes
    ----------
    say : str
        What the step finds, in words.
    formula : str
        The rule in words and symbols, e.g. ``"2 × bytes per number × KV heads × head dim"``.
    plugged : str
        The same rule with this problem's numbers in it.
    value : float
        The number the step arrives at; for the last step, the expected answer in the base
        unit of the problem's kind.
    result : str
        ``value`` as the page writes it, with its unit.
    """

    say: str
    formula: str
    plugged: str
    value: float
    result: str


@dataclass(frozen=True)
class Trap:
    """A common wrong answer and what it usually means."""

    value: float
    message: str


@dataclass(frozen=True)
class Problem:
    """One drawn problem: the question, its numbers, the answer and how it is derived.

    Attributes
    ----------
    challenge : str
        Key of the challenge in :data:`CHALLENGES`.
    seed : int
        The seed it was drawn from.
    title : str
        The challenge's name.
    question : str
        The question in one or two sentences.
    givens : tuple of (str, str)
        The numbers the student works from, as (what, value) rows.
    kind : str
        The quantity asked for, a key of :data:`core.answers.KINDS`.
    unit : str
        The unit the question states; a bare number is read in it.
    shown : str
        The unit the page writes the exact answer in (often ``unit``).
    answer : float
        The expected answer in the kind's base unit, a field of :func:`core.evaluate`.
    tolerance : Tolerance
        How close an answer must come.
    hint : str
        A nudge that names the rule without doing the arithmetic.
    steps : tuple of Step
        The derivation, ending on ``answer``.
    traps : tuple of Trap
        Wrong answers worth a specific word.
    knobs : dict
        The scenario knobs, so ``getattr(evaluate(**knobs), field)`` is ``answer``.
    field : str
        The :class:`core.Result` field the answer is.
    note : str
        A remark shown under the question, or empty.
    """

    challenge: str
    seed: int
    title: str
    question: str
    givens: tuple[tuple[str, str], ...]
    kind: str
    unit: str
    shown: str
    answer: float
    tolerance: Tolerance
    hint: str
    steps: tuple[Step, ...]
    traps: tuple[Trap, ...]
    knobs: dict = field(compare=False)
    field: str = ""
    note: str = ""

    @property
    def exact(self) -> str:
        """The expected answer as the page writes it, to four significant figures."""
        return express(self.answer, self.shown, self.kind, digits=4)


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one typed answer.

    Attributes
    ----------
    status : str
        ``"right"``, ``"wrong"``, or ``"unreadable"`` (nothing to check; not an attempt).
    message : str
        What to tell the student.
    reading : Reading
        How the text was read.
    """

    status: str
    message: str
    reading: Reading

    @property
    def right(self) -> bool:
        """True for a right answer."""
        return self.status == "right"


@dataclass(frozen=True)
class Challenge:
    """A kind of problem: its name, group, the quantity it asks for and how it is drawn."""

    key: str
    title: str
    group: str  # "walkthrough" (the seed's three), "whiteboard" or "engine" (past batching)
    summary: str
    kind: str
    unit: str
    tolerance: Tolerance
    build: Callable[[np.random.Generator | None], dict] = field(repr=False)
    shown: str = ""  # the unit the exact answer is written in; ``unit`` when empty


# -- number writing for the derivations ----------------------------------------------------

_SUPERSCRIPT = str.maketrans(
    "-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def _n(value: float, digits: int = 4) -> str:
    """A plain number: whole ones in full, others to ``digits`` figures; powers of ten past 1e6."""
    value = float(value)
    if abs(value) >= 1e6:
        mantissa, power = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa} \u00d7 10{str(int(power)).translate(_SUPERSCRIPT)}"
    return number_text(value, digits)


def _size(size: float) -> str:
    """Bytes in the unit a person would say: B below 10 kB, then MB or GB."""
    if size < 10_000:
        return express(size, "B", "bytes")
    if size < 1e6:
        return f"{express(size, 'B', 'bytes')} ({express(size, 'KiB', 'bytes', 4)})"
    if size < 1e9:
        return express(size, "MB", "bytes")
    return express(size, "GB", "bytes")


def _flops(value: float) -> str:
    return f"{_n(value)} FLOP ({express(value, 'TFLOP', 'flops')})"


def _per_s(value: float) -> str:
    return f"{express(value, 'TFLOP', 'flops')}/s"


def _bandwidth(value: float) -> str:
    return f"{number_text(value / 1e12, 4)} TB/s"


def _percent(fraction: float) -> str:
    return f"{number_text(fraction * 100, 3)} %"


def _tokens(count: float) -> str:
    return f"{number_text(count, 5)} token{'s' if count != 1 else ''}"


def _plural(count: float, word: str) -> str:
    return f"{number_text(count)} {word}{'' if count == 1 else 's'}"


# -- drawing scenarios ---------------------------------------------------------------------

# Every model the catalog knows: display name -> (knobs that select it, its shape).
SHAPES: dict[str, tuple[dict, ModelShape]] = {
    **{shape.name: ({"tier": key, "model": None}, shape) for key, shape in TIERS.items()},
    # Practice derives by hand the dense formulas: mixtures, latent attention and windows
    # have their own labs.
    **{
        name: ({"model": name}, shape)
        for name, shape in MODELS.items()
        if not shape.is_moe and shape.attention != "MLA" and not shape.window_layers
    },
}
DTYPES = tuple(BYTES_PER_NUMBER)
SEAT_PROMPTS = (1000, 1500, 2000, 3000, 4000, 6000, 8000, 12000, 16000, 24000, 32000)
SEAT_ANSWERS = (0, 100, 200, 300, 500, 1000, 2000)
PREFILL_PROMPTS = (500, 800, 1000, 1200, 1500, 2000, 3000, 4000, 6000, 8000, 16000, 32000)
HIT_RATES = (0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9)
ARRIVALS_PER_MIN = (30, 60, 120, 240, 480, 900, 1200, 2400)
REQUESTED_SEATS = (8, 16, 24, 32, 48, 64)
_MAX_DRAWS = 2000


def _pick(rng: np.random.Generator, options):
    options = list(options)
    return options[int(rng.integers(len(options)))]


def _cards_for(shape: ModelShape, gpu: str, weight_dtype: str) -> int | None:
    """The model's usual card count, doubled until its weights fill at most 3/4 of the node."""
    weights = memory.weight_bytes(shape.params, BYTES_PER_NUMBER[weight_dtype])
    for cards in sorted({shape.cards, 2 * shape.cards, 4 * shape.cards, 8}):
        if cards >= shape.cards and weights <= 0.75 * cards * GPUS[gpu].memory_bytes:
            return cards
    return None


def _draw(rng: np.random.Generator, make: Callable[[np.random.Generator], dict | None]) -> dict:
    """The first scenario ``make`` accepts; ``make`` returns None to ask for another draw."""
    for _ in range(_MAX_DRAWS):
        drawn = make(rng)
        if drawn is not None:
            return drawn
    raise RuntimeError("no acceptable scenario was drawn")  # pragma: no cover


def _draw_node(rng: np.random.Generator, weight_dtypes=DTYPES) -> dict | None:
    """A model, a card, weight storage and a card count that holds the weights."""
    name = _pick(rng, SHAPES)
    gpu = _pick(rng, GPUS)
    weight_dtype = _pick(rng, weight_dtypes)
    cards = _cards_for(SHAPES[name][1], gpu, weight_dtype)
    if cards is None:
        return None
    return {"name": name, "gpu": gpu, "weight_dtype": weight_dtype, "cards": cards}


def _knobs(name: str, **knobs) -> dict:
    return {**SHAPES[name][0], **knobs}


def _fraction(ratio: float) -> float:
    return ratio - math.floor(ratio)


def _model_text(name: str) -> str:
    shape = SHAPES[name][1]
    return f"{name}: {shape.layers} layers, {shape.kv_heads} KV heads, head dim {shape.head_dim}"


def _params_text(name: str) -> str:
    shape = SHAPES[name][1]
    text = f"{number_text(shape.params / 1e9, 4)} billion"
    if shape.active_params != shape.params:
        text += f" ({number_text(shape.active_params / 1e9, 4)} billion active per token)"
    return text


def _dtype_text(dtype: str, what: str) -> str:
    size = BYTES_PER_NUMBER[dtype]
    return f"{dtype}, {size} byte{'s' if size != 1 else ''} per {what}"


def _node_text(cards: int, gpu: str) -> str:
    return f"{cards} \u00d7 {gpu}, {number_text(GPUS[gpu].memory_bytes / 1e9)} GB each"


def _peak(gpu: str, weight_dtype: str) -> float:
    """The dense tensor peak a prefill runs at: fp8 weights use the fp8 rate (core's rule)."""
    card = GPUS[gpu]
    return card.fp8_flops if weight_dtype == "fp8" else card.bf16_flops


# -- the challenges ------------------------------------------------------------------------


def _kv_bytes(rng) -> dict:
    if rng is None:
        name, dtype = TIERS["small"].name, "bf16"
    else:
        name, dtype = _pick(rng, SHAPES), _pick(rng, DTYPES)
    shape = SHAPES[name][1]
    knobs = _knobs(name, kv_dtype=dtype)
    size = BYTES_PER_NUMBER[dtype]
    layers, heads, dim = shape.layers, shape.kv_heads, shape.head_dim
    per_layer = memory.kv_bytes_per_token(1, heads, dim, size)
    total = memory.kv_bytes_per_token(layers, heads, dim, size)
    traps = [
        Trap(total / 2, "That is half: every layer stores a key and a value vector, and each "
             f"number takes {size} byte{'s' if size != 1 else ''}."),
        Trap(total * 8, "That counts bits. Divide by 8: the question asks for bytes."),
        Trap(per_layer, f"That is one layer. The model has {layers} of them, each with its own cache."),
    ]  # fmt: skip
    if dtype == "fp8":
        traps.append(Trap(total * 2, "That is the bf16 figure; fp8 stores each number in 1 byte."))
    return {
        "question": "How many bytes of KV cache does one token of one running sequence occupy?",
        "givens": (
            ("model", _model_text(name)),
            ("KV cache stored in", _dtype_text(dtype, "number")),
        ),
        "hint": "Each layer keeps two vectors per KV head, a key and a value, each head-dim "
        "numbers long. Work out one layer, then multiply by the layers.",
        "steps": (
            Step(
                "One layer stores a key and a value vector for each KV head",
                "2 \u00d7 bytes per number \u00d7 KV heads \u00d7 head dim",
                f"2 \u00d7 {size} B \u00d7 {heads} \u00d7 {dim}",
                per_layer,
                express(per_layer, "B", "bytes"),
            ),
            Step(
                "Every layer keeps its own",
                "one layer \u00d7 layers",
                f"{_n(per_layer)} B \u00d7 {layers}",
                total,
                _size(total),
            ),
        ),
        "traps": traps,
        "knobs": knobs,
    }


def _seat_budget(rng) -> dict:
    if rng is None:
        drawn = {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                 "cards": 1, "kv_dtype": "bf16", "prompt": 4000, "answer": 0}  # fmt: skip
    else:

        def make(rng):
            node = _draw_node(rng)
            if node is None:
                return None
            node.update(
                kv_dtype=_pick(rng, DTYPES),
                prompt=_pick(rng, SEAT_PROMPTS),
                answer=_pick(rng, SEAT_ANSWERS),
            )
            result = evaluate(**_seat_knobs(node))
            room = result.kv_budget_bytes / (result.seat_tokens * result.kv_bytes_per_token)
            if not (2 <= result.seats_room <= 400 and 0.1 <= _fraction(room) <= 0.9):
                return None
            return node

        drawn = _draw(rng, make)
    knobs = _seat_knobs(drawn)
    steps, parts = _room_steps(drawn)
    budget, per_token = parts["budget"], parts["per_token"]
    seat_tokens = drawn["prompt"] + drawn["answer"]
    seat_bytes = seat_tokens * per_token
    seats = memory.seats_that_fit(budget, seat_tokens, per_token)
    steps += (
        Step(
            "Bytes of cache one token occupies",
            "2 \u00d7 bytes per number \u00d7 layers \u00d7 KV heads \u00d7 head dim",
            parts["per_token_plugged"],
            per_token,
            _size(per_token),
        ),
        Step(
            "One seat holds its prompt and its answer",
            "(prompt + answer tokens) \u00d7 bytes per token",
            f"({number_text(drawn['prompt'])} + {number_text(drawn['answer'])}) \u00d7 "
            f"{_n(per_token)} B",
            seat_bytes,
            _size(seat_bytes),
        ),
        Step(
            "Whole seats that fit: round down, a part-seat can't run",
            "\u230aKV room / one seat\u230b",
            f"\u230a{_n(budget)} B / {_n(seat_bytes)} B\u230b = "
            f"\u230a{number_text(budget / seat_bytes, 5)}\u230b",
            seats,
            _plural(seats, "seat"),
        ),
    )
    free = parts["free"]
    traps = [
        Trap(math.floor(free / seat_bytes), "That uses all the free memory. Hold back the "
             f"{_percent(MEMORY_MARGIN)} margin first."),
        Trap(math.floor(drawn["cards"] * GPUS[drawn["gpu"]].memory_bytes * (1 - MEMORY_MARGIN)
                        / seat_bytes), "That forgets the weights: they load first."),
        Trap(seats + 1, f"One too many: {budget / seat_bytes:.2f} seats fit, and a "
             "part-seat can't run, so round down. (Rounded figures in the working can also "
             "push you over: keep four significant figures.)"),
    ]  # fmt: skip
    if drawn["answer"]:
        traps.append(
            Trap(
                math.floor(budget / (drawn["prompt"] * per_token)),
                "That counts the prompt only. A seat also caches its answer tokens.",
            )
        )
    tokens = _seat_text(drawn["prompt"], drawn["answer"])
    return {
        "question": "How many seats can the node's memory grant at once, each holding a full "
        "sequence in its KV cache?",
        "givens": (
            ("model", _model_text(drawn["name"])),
            ("parameters", _params_text(drawn["name"])),
            ("weights stored in", _dtype_text(drawn["weight_dtype"], "parameter")),
            ("KV cache stored in", _dtype_text(drawn["kv_dtype"], "number")),
            ("node", _node_text(drawn["cards"], drawn["gpu"])),
            ("held back", f"{_percent(MEMORY_MARGIN)} of the memory the weights leave free"),
            ("one seat holds", tokens),
        ),
        "hint": f"Weights load first; {_percent(1 - MEMORY_MARGIN)} of what they leave is KV "
        "room. Divide the room by "
        "the bytes one seat's whole sequence occupies, and round down.",
        "steps": steps,
        "traps": traps,
        "knobs": knobs,
    }


def _seat_text(prompt: int, answer: int) -> str:
    if not answer:
        return f"{number_text(prompt)} tokens (a prompt, no answer yet)"
    return f"{number_text(prompt)} prompt + {number_text(answer)} answer tokens"


def _seat_knobs(drawn: dict) -> dict:
    return _knobs(
        drawn["name"],
        gpu=drawn["gpu"],
        cards=drawn["cards"],
        weight_dtype=drawn["weight_dtype"],
        kv_dtype=drawn.get("kv_dtype", "bf16"),
        prompt_tokens=drawn.get("prompt", 1),
        answer_tokens=drawn.get("answer", 0),
        seats=4096,
    )


def _room_steps(drawn: dict) -> tuple[tuple[Step, ...], dict]:
    """Weights, node memory and KV room, as steps, plus the figures later steps need."""
    shape = SHAPES[drawn["name"]][1]
    weight_size = BYTES_PER_NUMBER[drawn["weight_dtype"]]
    card_memory = GPUS[drawn["gpu"]].memory_bytes
    cards = drawn["cards"]
    weights = memory.weight_bytes(shape.params, weight_size)
    node = cards * card_memory
    free = node - weights
    budget = memory.kv_budget_bytes(cards, card_memory, weights)
    kv_size = BYTES_PER_NUMBER[drawn.get("kv_dtype", "bf16")]
    per_token = memory.kv_bytes_per_token(shape.layers, shape.kv_heads, shape.head_dim, kv_size)
    steps = (
        Step(
            "The weights load first",
            "parameters \u00d7 bytes per parameter",
            f"{_n(shape.params)} \u00d7 {weight_size} B",
            weights,
            _size(weights),
        ),
        Step(
            "The node's memory",
            "cards \u00d7 memory per card",
            f"{cards} \u00d7 {_size(card_memory)}",
            node,
            _size(node),
        ),
        Step(
            f"KV room: what the weights leave, less the {_percent(MEMORY_MARGIN)} margin",
            "(node memory \u2212 weights) \u00d7 (1 \u2212 margin)",
            f"({_size(node)} \u2212 {_size(weights)}) \u00d7 (1 \u2212 {number_text(MEMORY_MARGIN)})",
            budget,
            _size(budget),
        ),
    )
    parts = {
        "weights": weights,
        "free": free,
        "budget": budget,
        "per_token": per_token,
        "per_token_plugged": f"2 \u00d7 {kv_size} B \u00d7 {shape.layers} \u00d7 "
        f"{shape.kv_heads} \u00d7 {shape.head_dim}",
    }
    return steps, parts


def _prefill_draw(rng) -> dict:
    """One scenario for both prefill challenges, so a seed's FLOPs lead to its seconds."""
    if rng is None:
        return {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                "cards": 1, "prompt": 1200, "hit": 0.3}  # fmt: skip

    def make(rng):
        node = _draw_node(rng)
        if node is None:
            return None
        node.update(prompt=_pick(rng, PREFILL_PROMPTS), hit=_pick(rng, HIT_RATES))
        seconds = evaluate(**_prefill_knobs(node)).prefill_s
        return node if 0.001 <= seconds <= 30 else None

    return _draw(rng, make)


def _prefill_knobs(drawn: dict) -> dict:
    return _knobs(
        drawn["name"],
        gpu=drawn["gpu"],
        cards=drawn["cards"],
        weight_dtype=drawn["weight_dtype"],
        prompt_tokens=drawn["prompt"],
        prefix_hit_rate=drawn["hit"],
    )


def _prefill_parts(drawn: dict) -> dict:
    shape = SHAPES[drawn["name"]][1]
    prompt, hit = drawn["prompt"], drawn["hit"]
    miss = prompt - prompt * hit  # as core.evaluate counts the cache-miss tokens
    flops = timing.prefill_flops(shape.active_params, miss)
    miss_step = Step(
        "Prompt tokens found in the prefix cache skip prefill; the rest are computed",
        "prompt tokens \u00d7 (1 \u2212 hit rate)",
        f"{number_text(prompt)} \u00d7 (1 \u2212 {_percent(hit)})",
        miss,
        _tokens(miss),
    )
    active = "active parameters" if shape.active_params != shape.params else "parameters"
    flops_step = Step(
        "About two FLOPs per parameter per token: a multiply and an add",
        f"2 \u00d7 {active} \u00d7 cache-miss tokens",
        f"2 \u00d7 {_n(shape.active_params)} \u00d7 {number_text(miss)}",
        flops,
        _flops(flops),
    )
    return {"shape": shape, "miss": miss, "flops": flops, "steps": (miss_step, flops_step)}


def _prefill_givens(drawn: dict) -> tuple[tuple[str, str], ...]:
    card = GPUS[drawn["gpu"]]
    peak = _peak(drawn["gpu"], drawn["weight_dtype"])
    rate_note = (
        "fp8 weights run at the card's fp8 rate"
        if drawn["weight_dtype"] == "fp8" and card.fp8_flops != card.bf16_flops
        else "fp8 weights run at the bf16 rate on this card"
        if drawn["weight_dtype"] == "fp8"
        else "bf16 weights run at the bf16 rate"
    )
    return (
        ("model", f"{drawn['name']}, {_params_text(drawn['name'])} parameters"),
        ("weights stored in", _dtype_text(drawn["weight_dtype"], "parameter")),
        ("node", f"{drawn['cards']} \u00d7 {drawn['gpu']}"),
        ("dense tensor peak", f"{_per_s(peak)} per card ({rate_note})"),
        ("prefill reaches", f"{_percent(PREFILL_EFFICIENCY)} of that peak"),
        ("prompt", _tokens(drawn["prompt"])),
        ("prefix cache hit rate", f"{_percent(drawn['hit'])} of prompt tokens"),
    )


def _prefill_flops(rng) -> dict:
    drawn = _prefill_draw(rng)
    parts = _prefill_parts(drawn)
    shape, miss, flops = parts["shape"], parts["miss"], parts["flops"]
    traps = [Trap(flops / 2, "That is half: count two FLOPs per parameter per token.")]
    if drawn["hit"]:
        traps.append(
            Trap(
                timing.prefill_flops(shape.active_params, drawn["prompt"]),
                f"That prefills the whole prompt; the {_percent(drawn['hit'])} found in the "
                "prefix cache is read, not computed.",
            )
        )
    if shape.active_params != shape.params:
        traps.append(
            Trap(
                timing.prefill_flops(shape.params, miss),
                "That counts every expert. Each token runs only the active parameters.",
            )
        )
    givens = tuple(g for g in _prefill_givens(drawn) if g[0] in ("model", "prompt"))
    return {
        "question": "How many floating-point operations does prefill spend on one request's "
        "prompt? (Leave attention's own FLOPs out.)",
        "givens": (*givens, _prefill_givens(drawn)[-1]),
        "hint": "Only the cache-miss tokens are computed. A forward pass costs about two FLOPs "
        "per parameter per token.",
        "steps": parts["steps"],
        "traps": traps,
        "knobs": _prefill_knobs(drawn),
        "note": "Next: the seconds those FLOPs take. Pick “Prefill time” with the same seed.",
    }


def _prefill_time(rng) -> dict:
    drawn = _prefill_draw(rng)
    parts = _prefill_parts(drawn)
    shape, miss, flops = parts["shape"], parts["miss"], parts["flops"]
    cards, gpu, weight_dtype = drawn["cards"], drawn["gpu"], drawn["weight_dtype"]
    peak = _peak(gpu, weight_dtype)
    rate = cards * peak * PREFILL_EFFICIENCY
    seconds = timing.prefill_seconds(shape.active_params, miss, cards, peak)
    steps = (
        *parts["steps"],
        Step(
            f"The node computes at {_percent(PREFILL_EFFICIENCY)} of its dense peak",
            "cards \u00d7 peak per card \u00d7 efficiency",
            f"{cards} \u00d7 {_per_s(peak)} \u00d7 {_percent(PREFILL_EFFICIENCY)}",
            rate,
            _per_s(rate),
        ),
        Step(
            "Seconds of tensor time before the first token exists",
            "FLOPs / FLOP per second",
            f"{_n(flops)} FLOP / {_n(rate)} FLOP/s",
            seconds,
            _duration(seconds),
        ),
    )
    traps = [
        Trap(
            timing.prefill_seconds(shape.active_params, miss, cards, peak, efficiency=1.0),
            "That is half the time: count two FLOPs per parameter per token, and prefill "
            f"reaches {_percent(PREFILL_EFFICIENCY)} of the peak, not all of it.",
        )
    ]
    if drawn["hit"]:
        traps.append(
            Trap(
                timing.prefill_seconds(shape.active_params, drawn["prompt"], cards, peak),
                f"That prefills the whole prompt; the {_percent(drawn['hit'])} found in the "
                "prefix cache is read, not computed.",
            )
        )
    if cards > 1:
        traps.append(
            Trap(
                timing.prefill_seconds(shape.active_params, miss, 1, peak),
                f"That is one card's time; the {cards} cards of the node share the work.",
            )
        )
    if shape.active_params != shape.params:
        traps.append(
            Trap(
                timing.prefill_seconds(shape.params, miss, cards, peak),
                "That counts every expert. Each token runs only the active parameters.",
            )
        )
    if weight_dtype == "fp8" and GPUS[gpu].fp8_flops != GPUS[gpu].bf16_flops:
        traps.append(
            Trap(
                timing.prefill_seconds(shape.active_params, miss, cards, GPUS[gpu].bf16_flops),
                "That uses the bf16 peak. With fp8 weights the card runs at its fp8 rate.",
            )
        )
    return {
        "question": "How long does prefill take before the first token exists? Count tensor "
        "time only: no queue, no cache read.",
        "givens": _prefill_givens(drawn),
        "hint": "FLOPs first: two per parameter per cache-miss token. Then divide by what the "
        f"node really computes per second: cards \u00d7 peak \u00d7 {_percent(PREFILL_EFFICIENCY)}.",
        "steps": steps,
        "traps": traps,
        "knobs": _prefill_knobs(drawn),
    }


def _duration(seconds: float) -> str:
    if seconds < 1:
        return express(seconds, "ms", "seconds")
    return express(seconds, "s", "seconds")


def _stream_ceiling(rng) -> dict:
    if rng is None:
        drawn = {"name": TIERS["large"].name, "gpu": "H100 SXM", "weight_dtype": "bf16", "cards": 1}
    else:
        drawn = _draw(rng, _draw_node)
    shape = SHAPES[drawn["name"]][1]
    cards, gpu = drawn["cards"], drawn["gpu"]
    size = BYTES_PER_NUMBER[drawn["weight_dtype"]]
    bandwidth = GPUS[gpu].hbm_bytes_per_s
    weights = memory.weight_bytes(shape.params, size)
    ceiling = timing.single_stream_ceiling(weights, cards, bandwidth)
    read = cards * bandwidth
    steps = (
        Step(
            "Every decode step re-reads all the weights",
            "parameters \u00d7 bytes per parameter",
            f"{_n(shape.params)} \u00d7 {size} B",
            weights,
            _size(weights),
        ),
        Step(
            "The cards read their shares in parallel, at most at peak bandwidth",
            "cards \u00d7 bandwidth per card",
            f"{cards} \u00d7 {_bandwidth(bandwidth)}",
            read,
            _bandwidth(read),
        ),
        Step(
            "One request gets one token per full read",
            "bandwidth / weight bytes",
            f"{_n(read)} B/s / {_n(weights)} B",
            ceiling,
            express(ceiling, "tok/s", "tokens_per_s"),
        ),
    )
    traps = [
        Trap(ceiling * BANDWIDTH_EFFICIENCY, "That is a realistic rate at "
             f"{_percent(BANDWIDTH_EFFICIENCY)} of bandwidth; the ceiling is at "
             "the peak."),
        Trap(read / shape.params, "That divides by parameters; divide by bytes "
             f"({size} per parameter in {drawn['weight_dtype']})."),
    ]  # fmt: skip
    if cards > 1:
        traps.append(
            Trap(bandwidth / weights, f"That is one card's bandwidth; all {cards} read at once.")
        )
    note = (
        f"The classic whiteboard version: one {gpu}'s bandwidth streams all {_size(weights)}. "
        f"(They don't fit in its {_size(GPUS[gpu].memory_bytes)}; two cards would double the "
        "ceiling. The point is the read.)"
        if rng is None
        else ""
    )
    return {
        "question": "One request runs alone. What is the fastest it can possibly stream, in "
        "tokens per second, however many FLOPs the cards offer?",
        "givens": (
            ("model", f"{drawn['name']}, {_params_text(drawn['name'])} parameters"),
            ("weights stored in", _dtype_text(drawn["weight_dtype"], "parameter")),
            ("node", f"{cards} \u00d7 {gpu}"),
            ("memory bandwidth", f"{_bandwidth(bandwidth)} per card (peak)"),
        ),
        "hint": "Decode is bandwidth bound: each token costs one full read of the weights. "
        "How many such reads fit in a second?",
        "steps": steps,
        "traps": traps,
        "knobs": _knobs(drawn["name"], gpu=gpu, cards=cards, weight_dtype=drawn["weight_dtype"]),
        "note": note,
    }


def _kv_room(rng) -> dict:
    if rng is None:
        drawn = {"name": TIERS["large"].name, "gpu": "H100 SXM", "weight_dtype": "bf16", "cards": 2}
    else:
        drawn = _draw(rng, _draw_node)
    steps, parts = _room_steps(drawn)
    cards = drawn["cards"]
    shape = SHAPES[drawn["name"]][1]
    card_memory = GPUS[drawn["gpu"]].memory_bytes
    traps = [
        Trap(parts["free"], f"That is all the free memory. Hold back the {_percent(MEMORY_MARGIN)} "
             "margin for activations and fragmentation."),
        Trap(memory.kv_budget_bytes(cards, card_memory, shape.params), "That counts one byte "
             f"per parameter; {drawn['weight_dtype']} stores "
             f"{BYTES_PER_NUMBER[drawn['weight_dtype']]}."),
    ]  # fmt: skip
    if cards > 1:
        traps.append(
            Trap(
                parts["budget"] / cards, "That is one card's share; the question asks for the node."
            )
        )
    return {
        "question": "How much memory is left for the KV cache on the whole node once the weights "
        "are loaded?",
        "givens": (
            ("model", f"{drawn['name']}, {_params_text(drawn['name'])} parameters"),
            ("weights stored in", _dtype_text(drawn["weight_dtype"], "parameter")),
            ("node", _node_text(cards, drawn["gpu"])),
            ("held back", f"{_percent(MEMORY_MARGIN)} of the memory the weights leave free"),
        ),
        "hint": "Weights first: parameters \u00d7 bytes each, split across the cards. Take "
        f"them from the node's memory, then keep {_percent(1 - MEMORY_MARGIN)} of what is left.",
        "steps": steps,
        "traps": traps,
        "knobs": _knobs(
            drawn["name"], gpu=drawn["gpu"], cards=cards, weight_dtype=drawn["weight_dtype"]
        ),
    }


def _fp8_seats(rng) -> dict:
    if rng is None:
        drawn = {"name": TIERS["large"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                 "cards": 2, "prompt": 1200, "answer": 200}  # fmt: skip
    else:

        def make(rng):
            node = _draw_node(rng, weight_dtypes=("bf16",))
            if node is None:
                return None
            node.update(prompt=_pick(rng, SEAT_PROMPTS), answer=_pick(rng, SEAT_ANSWERS))
            bf16 = evaluate(**_seat_knobs({**node, "kv_dtype": "bf16"}))
            fp8 = evaluate(**_seat_knobs({**node, "kv_dtype": "fp8"}))
            room = bf16.kv_budget_bytes / (bf16.seat_tokens * bf16.kv_bytes_per_token)
            doubles = fp8.seats_room == 2 * bf16.seats_room
            if not (doubles and 2 <= bf16.seats_room <= 200 and 0.1 <= _fraction(room) <= 0.4):
                return None
            return node

        drawn = _draw(rng, make)
    bf16 = evaluate(**_seat_knobs({**drawn, "kv_dtype": "bf16"}))
    steps, parts = _room_steps({**drawn, "kv_dtype": "fp8"})
    shape = SHAPES[drawn["name"]][1]
    budget = parts["budget"]
    seat_tokens = drawn["prompt"] + drawn["answer"]
    wide = memory.kv_bytes_per_token(shape.layers, shape.kv_heads, shape.head_dim, 2)
    narrow = parts["per_token"]
    seat_bytes = seat_tokens * narrow
    seats = memory.seats_that_fit(budget, seat_tokens, narrow)
    steps = (
        steps[-1],
        Step(
            "fp8 stores each cached number in 1 byte instead of 2",
            "bf16 bytes per token \u00d7 1/2",
            f"{_n(wide)} B \u00d7 1/2",
            narrow,
            _size(narrow),
        ),
        Step(
            "One seat's cache halves with it",
            "(prompt + answer tokens) \u00d7 bytes per token",
            f"({number_text(drawn['prompt'])} + {number_text(drawn['answer'])}) \u00d7 "
            f"{_n(narrow)} B",
            seat_bytes,
            _size(seat_bytes),
        ),
        Step(
            "The same room holds twice the seats, rounded down",
            "\u230aKV room / one seat\u230b",
            f"\u230a{_n(budget)} B / {_n(seat_bytes)} B\u230b = "
            f"\u230a{number_text(budget / seat_bytes, 5)}\u230b",
            seats,
            _plural(seats, "seat"),
        ),
    )
    granted = bf16.seats_room
    traps = [
        Trap(granted, "That is the bf16 count. fp8 halves the bytes of every cached number, so "
             "each seat costs half as much memory."),
        Trap(math.floor(granted / 2), "Smaller numbers mean more seats, not fewer."),
        Trap(4 * granted, "Only the cache changes storage; its bytes halve once, not twice."),
    ]  # fmt: skip
    tokens = _seat_text(drawn["prompt"], drawn["answer"])
    return {
        "question": f"With a bf16 KV cache this node grants {_plural(granted, 'seat')}. Store the "
        "cache in fp8 instead, weights unchanged: how many seats now?",
        "givens": (
            ("model", _model_text(drawn["name"])),
            ("weights stored in", _dtype_text(drawn["weight_dtype"], "parameter")),
            ("node", _node_text(drawn["cards"], drawn["gpu"])),
            ("one seat holds", tokens),
            ("with a bf16 cache", f"{_plural(granted, 'seat')} fit"),
        ),
        "hint": "The KV room doesn't change: the weights are the same. What happens to the bytes "
        "one seat needs?",
        "steps": steps,
        "traps": traps,
        "knobs": _seat_knobs({**drawn, "kv_dtype": "fp8"}),
    }


def _monthly_bill(rng) -> dict:
    if rng is None:
        drawn = {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                 "cards": 1, "workload": "chat", "seats": 16, "prompt": 1200, "hit": 0.3,
                 "arrivals": None}  # fmt: skip
    else:

        def make(rng):
            node = _draw_node(rng, weight_dtypes=("bf16",))
            if node is None:
                return None
            workload = _pick(rng, WORKLOADS)
            node.update(
                workload=workload,
                seats=_pick(rng, REQUESTED_SEATS),
                prompt=WORKLOADS[workload].typical_prompt_tokens,
                hit=0.3,
                arrivals=_pick(rng, ARRIVALS_PER_MIN),
            )
            result = evaluate(**_bill_knobs(node))
            if not result.weights_fit or result.seats_granted < 1:
                return None
            busy = result.arrivals_per_s * result.sizing_request_s / result.seats_granted
            if not (2 <= result.nodes <= 16 and result.sizing_request_s <= 120):
                return None
            if not 0.1 <= _fraction(busy) <= 0.9:
                return None
            return node

        drawn = _draw(rng, make)
    knobs = _bill_knobs(drawn)
    result = evaluate(**knobs)
    price = GPUS[drawn["gpu"]].usd_per_hour
    cards = result.cards
    workload = WORKLOADS[drawn["workload"]]
    arrivals_per_min = drawn["arrivals"] or workload.arrivals_per_min
    per_s = result.arrivals_per_s
    busy = result.arrivals_per_s * result.sizing_request_s
    nodes = result.nodes
    bill = float(nodes) * float(cards) * price * HOURS_PER_MONTH  # as core.evaluate bills
    steps = (
        Step(
            "Arrivals per second at the peak minute",
            "arrivals per minute / 60",
            f"{number_text(arrivals_per_min)} / 60",
            per_s,
            f"{number_text(per_s, 4)} a second",
        ),
        Step(
            "Seats busy on average: arrivals per second \u00d7 seconds each one holds a seat",
            "arrivals per second \u00d7 seat time",
            f"{number_text(per_s, 4)} \u00d7 {number_text(result.sizing_request_s, 4)} s",
            busy,
            f"{number_text(busy, 4)} busy seats",
        ),
        Step(
            "Whole nodes to carry them: round up, a part-node can't be rented",
            "\u2308busy seats / seats per node\u2309",
            f"\u2308{number_text(busy, 4)} / {result.seats_granted}\u2309 = "
            f"\u2308{number_text(busy / result.seats_granted, 4)}\u2309",
            nodes,
            _plural(nodes, "node"),
        ),
        Step(
            "Every card is rented every hour of the month, busy or idle",
            "nodes \u00d7 cards per node \u00d7 price per card-hour \u00d7 hours",
            f"{nodes} \u00d7 {cards} \u00d7 ${price:.2f} \u00d7 {HOURS_PER_MONTH}",
            bill,
            f"{express(bill, '$', 'dollars', 6)} a month",
        ),
    )
    fractional = busy / result.seats_granted * cards * price * HOURS_PER_MONTH
    traps = [
        Trap(bill / HOURS_PER_MONTH, f"That is one hour. A month bills {HOURS_PER_MONTH} hours."),
    ]  # fmt: skip
    if fractional < bill * 0.97:
        traps.append(
            Trap(fractional, "That pays for a fraction of a node. Nodes come whole: round up.")
        )
    if cards > 1:
        traps.append(Trap(bill / cards, f"That rents one card per node; each node has {cards}."))
    if nodes > 1:
        traps.append(
            Trap(bill / nodes, f"That is one node; the peak keeps {_plural(nodes, 'node')} busy.")
        )
    return {
        "question": "The pool is sized for the peak minute with a cold prefix cache and rented by "
        "the month. What is the monthly bill?",
        "givens": (
            ("model and node", f"{drawn['name']} on {_node_text(cards, drawn['gpu'])}"),
            ("peak arrivals", f"{number_text(arrivals_per_min)} requests a minute"),
            (
                "each request holds a seat for",
                f"{number_text(result.sizing_request_s, 4)} s (whole prompt prefilled, then "
                f"{_plural(result.answer_tokens, 'decode step')})",
            ),
            ("seats per node", _seats_per_node(result)),
            ("price", f"${price:.2f} per card-hour"),
            ("a month", f"{HOURS_PER_MONTH} hours"),
        ),
        "hint": "Arrivals per second \u00d7 seconds per request = seats busy on average. Divide "
        "by the seats one node offers, round up to whole nodes, and rent every card all month.",
        "steps": steps,
        "traps": traps,
        "knobs": knobs,
    }


def _seats_per_node(result) -> str:
    granted, asked = result.seats_granted, result.seats_requested
    if granted < asked:
        return f"{granted} (memory's cap; the scheduler asks for {asked})"
    return f"{granted}"


def _bill_knobs(drawn: dict) -> dict:
    return _knobs(
        drawn["name"],
        workload=drawn["workload"],
        gpu=drawn["gpu"],
        cards=drawn["cards"],
        weight_dtype=drawn["weight_dtype"],
        seats=drawn["seats"],
        prompt_tokens=drawn["prompt"],
        prefix_hit_rate=drawn["hit"],
        arrivals_per_min=drawn["arrivals"],
    )


_CLOSE_ENOUGH = Tolerance(0.02)
_WHOLE = Tolerance(0.0, whole=True)


def _pd_split(rng) -> dict:
    # Imported here: the builder uses this module's Step and Trap.
    from core.challenge_pd_split import build

    return build(rng)


CHALLENGES: dict[str, Challenge] = {
    challenge.key: challenge
    for challenge in (
        Challenge("kv_bytes", "Bytes per cached token", "walkthrough",
                  "the bytes one token of KV cache occupies", "bytes", "B", _CLOSE_ENOUGH,
                  _kv_bytes),
        Challenge("seat_budget", "Seats memory can grant", "walkthrough",
                  "the seats a node's free memory can grant", "seats", "seats", _WHOLE,
                  _seat_budget),
        Challenge("prefill_time", "Prefill time", "walkthrough",
                  "the seconds prefill spends before the first token exists", "seconds", "ms",
                  _CLOSE_ENOUGH, _prefill_time),
        Challenge("stream_ceiling", "Single-stream ceiling", "whiteboard",
                  "the fastest one request can stream", "tokens_per_s", "tok/s", _CLOSE_ENOUGH,
                  _stream_ceiling),
        Challenge("kv_room", "KV room after the weights", "whiteboard",
                  "the memory left for the cache", "bytes", "GB", _CLOSE_ENOUGH, _kv_room),
        Challenge("prefill_flops", "Prefill FLOPs", "whiteboard",
                  "2 \u00d7 parameters \u00d7 prompt tokens", "flops", "FLOP", _CLOSE_ENOUGH,
                  _prefill_flops, shown="TFLOP"),
        Challenge("fp8_seats", "Seats with an fp8 cache", "whiteboard",
                  "the seat budget when the cache halves", "seats", "seats", _WHOLE, _fp8_seats),
        Challenge("monthly_bill", "Nodes behind the bill", "whiteboard",
                  "the node count and what it costs a month", "dollars", "$", _CLOSE_ENOUGH,
                  _monthly_bill),
        Challenge("pd_split", "Prefill nodes for the SLO", "engine",
                  "the prefill side of a disaggregated pool's x:y split", "nodes", "nodes",
                  _WHOLE, _pd_split),
    )
}  # fmt: skip

# Which Result field each challenge's answer is.
_FIELDS = {
    "kv_bytes": "kv_bytes_per_token",
    "seat_budget": "seats_room",
    "prefill_time": "prefill_s",
    "stream_ceiling": "single_stream_tokens_per_s",
    "kv_room": "kv_budget_bytes",
    "prefill_flops": "prefill_flops",
    "fp8_seats": "seats_room",
    "monthly_bill": "monthly_usd",
    "pd_split": "prefill_nodes",
}


def check_seed(seed) -> int:
    """``seed`` as an int, if it is a whole number from 0 to 999,999.

    Raises
    ------
    ValueError
        Naming the seed and the allowed range.
    """
    allowed = f"a whole number, {describe_range(SEED_BOUNDS)}"
    if isinstance(seed, bool):
        raise knob_error("seed", seed, allowed)
    try:
        whole = int(seed)
    except (TypeError, ValueError, OverflowError):
        raise knob_error("seed", seed, allowed) from None
    if whole != seed or not SEED_BOUNDS[0] <= whole <= SEED_BOUNDS[1]:
        raise knob_error("seed", seed, allowed)
    return whole


def make_problem(challenge: str, seed: int) -> Problem:
    """The problem of ``challenge`` drawn from ``seed``: the same one every time.

    Parameters
    ----------
    challenge : str
        A key of :data:`CHALLENGES`.
    seed : int
        0 to 999,999; 0 gives the classic version with the walkthrough's numbers.

    Returns
    -------
    Problem
        Whose ``answer`` is ``getattr(evaluate(**problem.knobs), problem.field)`` and whose
        last derivation step arrives at that same number.

    Raises
    ------
    ValueError
        For an unknown challenge or a seed outside 0 to 999,999.
    """
    if challenge not in CHALLENGES:
        raise knob_error("challenge", challenge, f"one of {', '.join(CHALLENGES)}")
    seed = check_seed(seed)
    spec = CHALLENGES[challenge]
    rng = None if seed == CLASSIC_SEED else np.random.default_rng(seed)
    drawn = spec.build(rng)
    field_name = _FIELDS[challenge]
    answer = getattr(evaluate(**drawn["knobs"]), field_name)
    traps = _distinct_traps(drawn["traps"], answer, spec.tolerance)
    return Problem(
        challenge=challenge,
        seed=seed,
        title=spec.title,
        question=drawn["question"],
        givens=tuple(drawn["givens"]),
        kind=spec.kind,
        unit=spec.unit,
        shown=spec.shown or spec.unit,
        answer=float(answer),
        tolerance=spec.tolerance,
        hint=drawn["hint"],
        steps=tuple(drawn["steps"]),
        traps=traps,
        knobs=drawn["knobs"],
        field=field_name,
        note=drawn.get("note", ""),
    )


def _distinct_traps(traps, answer: float, tolerance: Tolerance) -> tuple[Trap, ...]:
    """Traps that differ from the answer (by twice the tolerance) and from each other."""
    kept: list[Trap] = []
    for trap in traps:
        if trap.value <= 0 or _near(trap.value, answer, tolerance, 2.0):
            continue
        if any(_near(trap.value, other.value, tolerance, 1.0) for other in kept):
            continue
        kept.append(trap)
    return tuple(kept)


def _near(value: float, target: float, tolerance: Tolerance, widen: float) -> bool:
    if tolerance.relative == 0.0:
        return value == target
    return abs(off_by(value, target)) <= widen * tolerance.relative


def new_seed(rng: np.random.Generator) -> int:
    """A fresh 4 to 6 digit seed from the caller's generator (no module-level state)."""
    return int(rng.integers(*NEW_SEED_BOUNDS))


def check_answer(problem: Problem, text: str) -> Verdict:
    """Read ``text`` and judge it against ``problem``'s answer and tolerance.

    Parameters
    ----------
    problem : Problem
        The problem being answered.
    text : str
        What the student typed, with or without a unit.

    Returns
    -------
    Verdict
        ``"unreadable"`` with a message saying what to fix when the text can't be read (this
        is not an attempt); otherwise ``"right"`` or ``"wrong"`` with a message. Never raises
        for any text.
    """
    reading = read_answer(text, problem.kind, problem.unit)
    if not reading.ok:
        return Verdict("unreadable", reading.message, reading)
    value, exact = reading.value, problem.answer
    tolerance = problem.tolerance
    read_as = express(value, problem.shown, problem.kind, digits=4)
    off = off_by(value, exact)
    if tolerance.accepts(value, exact):
        if read_as == problem.exact or abs(off) < 5e-4:
            return Verdict("right", f"Exactly {problem.exact}.", reading)
        return Verdict(
            "right",
            f"You gave {read_as}; the exact value is {problem.exact} ({_off_text(off)} off).",
            reading,
        )
    kind = kind_of(problem.kind)
    if kind.whole and value != round(value):
        return Verdict(
            "wrong",
            f"{kind.base.label.capitalize()} come whole: {number_text(value)} isn't a whole "
            "number. Round it the way the question needs.",
            reading,
        )
    for trap in problem.traps:
        if _near(value, trap.value, tolerance, 1.0):
            return Verdict("wrong", trap.message, reading)
    if reading.bare:
        for other in kind.units:
            if other.label != reading.unit and tolerance.accepts(
                value / kind.unit(reading.unit).factor * other.factor, exact
            ):
                return Verdict(
                    "wrong",
                    f"A bare number is read in {reading.unit}, so you gave {read_as}. "
                    "Type the unit you meant after the number.",
                    reading,
                )
    direction = "too high" if off > 0 else "too low"
    if abs(off) <= CLOSE and tolerance.relative:
        return Verdict(
            "wrong",
            f"Close: {read_as} is {_off_text(off)} {direction}, and the check wants "
            f"{_off_text(tolerance.relative)} or better. Keep more figures in the working.",
            reading,
        )
    factor = _round_factor(value / exact)
    if factor:
        return Verdict(
            "wrong",
            f"{read_as} is {factor} {direction}. A factor like that usually means a step was "
            "dropped or doubled, or a unit slipped.",
            reading,
        )
    return Verdict("wrong", f"{read_as} is {direction}.", reading)


def _off_text(fraction: float) -> str:
    return f"{abs(fraction) * 100:.2g} %" if abs(fraction) < 0.1 else f"{abs(fraction):.0%}"


def _round_factor(ratio: float) -> str:
    """'2\u00d7', '1,000\u00d7' ... when ``ratio`` is that round factor (or its inverse)."""
    if ratio <= 0:
        return ""
    big = ratio if ratio >= 1 else 1 / ratio
    for factor in (2, 4, 8, 10, 60, 100, 1000, 1024, 1e6, 1e9):
        if abs(big / factor - 1) <= 0.02:
            return f"{number_text(factor)}\u00d7"
    return ""


def challenge_keys(group: str | None = None) -> list[str]:
    """The challenge keys in page order, optionally only those of ``group``."""
    return [key for key, c in CHALLENGES.items() if group is None or c.group == group]
