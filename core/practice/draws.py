"""Drawing practice scenarios from a seed: the catalog's models, the option lists, and the knobs each draw selects."""

from __future__ import annotations

import math
from collections.abc import Callable

import numpy as np

from core.catalog import BYTES_PER_NUMBER, GPUS, MODELS, TIERS, ModelShape
from core.evaluate import evaluate
from core.whiteboard import memory

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


def pick(rng: np.random.Generator, options):
    """One of ``options``, drawn with ``rng``."""
    options = list(options)
    return options[int(rng.integers(len(options)))]


def cards_for(shape: ModelShape, gpu: str, weight_dtype: str) -> int | None:
    """The model's usual card count, doubled until its weights fill at most 3/4 of the node."""
    weights = memory.weight_bytes(shape.params, BYTES_PER_NUMBER[weight_dtype])
    for cards in sorted({shape.cards, 2 * shape.cards, 4 * shape.cards, 8}):
        if cards >= shape.cards and weights <= 0.75 * cards * GPUS[gpu].memory_bytes:
            return cards
    return None


def draw(rng: np.random.Generator, make: Callable[[np.random.Generator], dict | None]) -> dict:
    """The first scenario ``make`` accepts; ``make`` returns None to ask for another draw."""
    for _ in range(_MAX_DRAWS):
        drawn = make(rng)
        if drawn is not None:
            return drawn
    raise RuntimeError("no acceptable scenario was drawn")  # pragma: no cover


def classic_or_draw(
    rng: np.random.Generator | None,
    classic: dict,
    make: Callable[[np.random.Generator], dict | None],
) -> dict:
    """A copy of ``classic`` when ``rng`` is None (seed 0), else the first draw ``make`` accepts."""
    return dict(classic) if rng is None else draw(rng, make)


def draw_node(rng: np.random.Generator, weight_dtypes=DTYPES) -> dict | None:
    """A model, a card, weight storage and a card count that holds the weights."""
    name = pick(rng, SHAPES)
    gpu = pick(rng, GPUS)
    weight_dtype = pick(rng, weight_dtypes)
    cards = cards_for(SHAPES[name][1], gpu, weight_dtype)
    if cards is None:
        return None
    return {"name": name, "gpu": gpu, "weight_dtype": weight_dtype, "cards": cards}


def knobs(name: str, **more) -> dict:
    """The scenario knobs that select model ``name``, with ``more`` knobs."""
    return {**SHAPES[name][0], **more}


def fraction(ratio: float) -> float:
    """The part of ``ratio`` after the decimal point."""
    return ratio - math.floor(ratio)


def peak(gpu: str, weight_dtype: str) -> float:
    """The dense tensor peak a prefill runs at: fp8 weights use the fp8 rate (core's rule)."""
    card = GPUS[gpu]
    return card.fp8_flops if weight_dtype == "fp8" else card.bf16_flops


def node_knobs(drawn: dict, **more) -> dict:
    """The knobs of a drawn node (model, card, card count, weight storage), with ``more``."""
    return knobs(
        drawn["name"],
        gpu=drawn["gpu"],
        cards=drawn["cards"],
        weight_dtype=drawn["weight_dtype"],
        **more,
    )


def seat_knobs(drawn: dict) -> dict:
    """The knobs of a seat problem's draw (every seat memory can grant is asked for)."""
    return node_knobs(
        drawn,
        kv_dtype=drawn.get("kv_dtype", "bf16"),
        prompt_tokens=drawn.get("prompt", 1),
        answer_tokens=drawn.get("answer", 0),
        seats=4096,
    )


def prefill_draw(rng) -> dict:
    """One scenario for both prefill challenges, so a seed's FLOPs lead to its seconds."""
    if rng is None:
        return {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                "cards": 1, "prompt": 1200, "hit": 0.3}  # fmt: skip

    def make(rng):
        node = draw_node(rng)
        if node is None:
            return None
        node.update(prompt=pick(rng, PREFILL_PROMPTS), hit=pick(rng, HIT_RATES))
        seconds = evaluate(**prefill_knobs(node)).prefill_s
        return node if 0.001 <= seconds <= 30 else None

    return draw(rng, make)


def prefill_knobs(drawn: dict) -> dict:
    """The knobs of a prefill problem's draw."""
    return node_knobs(
        drawn,
        prompt_tokens=drawn["prompt"],
        prefix_hit_rate=drawn["hit"],
    )


def bill_knobs(drawn: dict) -> dict:
    """The knobs of a monthly-bill problem's draw."""
    return node_knobs(
        drawn,
        workload=drawn["workload"],
        seats=drawn["seats"],
        prompt_tokens=drawn["prompt"],
        prefix_hit_rate=drawn["hit"],
        arrivals_per_min=drawn["arrivals"],
    )
