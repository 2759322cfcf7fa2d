"""Practice problems about memory: bytes per cached token, KV room, seats memory grants, seats with an fp8 cache."""

from __future__ import annotations

import math

from core.catalog import (
    BYTES_PER_NUMBER,
    GPUS,
    MEMORY_MARGIN,
    TIERS,
)
from core.evaluate import evaluate
from core.foundation import numbers
from core.foundation.units import express, number_text
from core.practice import draws
from core.practice import wording as say
from core.practice.problems import Step, Trap
from core.whiteboard import memory

# The walkthrough's own numbers (seed 0) for the seat and KV-room problems.
SEAT_CLASSIC = {"name": TIERS["small"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                "cards": 1, "kv_dtype": "bf16", "prompt": 4000, "answer": 0}  # fmt: skip
KV_ROOM_CLASSIC = {"name": TIERS["large"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
                   "cards": 2}  # fmt: skip
FP8_CLASSIC = {"name": TIERS["large"].name, "gpu": "H100 SXM", "weight_dtype": "bf16",
               "cards": 2, "prompt": 1200, "answer": 200}  # fmt: skip


def every_layer(per_layer: float, layers: int, total: float) -> Step:
    """The derivation's step from one layer's cache bytes to the whole model's."""
    return Step(
        "Every layer keeps its own",
        "one layer \u00d7 layers",
        f"{numbers.figure(per_layer)} B \u00d7 {layers}",
        total,
        numbers.size(total),
    )


def kv_bytes(rng) -> dict:
    if rng is None:
        name, dtype = TIERS["small"].name, "bf16"
    else:
        name, dtype = draws.pick(rng, draws.SHAPES), draws.pick(rng, draws.DTYPES)
    shape = draws.SHAPES[name][1]
    knobs = draws.knobs(name, kv_dtype=dtype)
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
            ("model", say.model(name)),
            ("KV cache stored in", say.dtype(dtype, "number")),
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
            every_layer(per_layer, layers, total),
        ),
        "traps": traps,
        "knobs": knobs,
    }


def seat_budget(rng) -> dict:
    """The KV room the weights leave, one seat's sequence, and the whole seats that fit."""
    drawn = draws.classic_or_draw(rng, SEAT_CLASSIC, _draw_seats)
    steps, parts = room_steps(drawn)
    per_token = parts["per_token"]
    steps += (
        Step(
            "Bytes of cache one token occupies",
            "2 \u00d7 bytes per number \u00d7 layers \u00d7 KV heads \u00d7 head dim",
            parts["per_token_plugged"],
            per_token,
            numbers.size(per_token),
        ),
        *seat_steps(
            drawn,
            parts["budget"],
            per_token,
            ("One seat holds its prompt and its answer",
             "Whole seats that fit: round down, a part-seat can't run"),
        ),
    )  # fmt: skip
    return {
        "question": "How many seats can the node's memory grant at once, each holding a full "
        "sequence in its KV cache?",
        "givens": (
            ("model", say.model(drawn["name"])),
            ("parameters", say.params(drawn["name"])),
            ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
            ("KV cache stored in", say.dtype(drawn["kv_dtype"], "number")),
            ("node", say.node(drawn["cards"], drawn["gpu"])),
            (
                "held back",
                f"{numbers.percent(MEMORY_MARGIN, figures=3)} of the memory the weights leave free",
            ),
            ("one seat holds", say.seat(drawn["prompt"], drawn["answer"])),
        ),
        "hint": f"Weights load first; {numbers.percent(1 - MEMORY_MARGIN, figures=3)} of what they leave is KV "
        "room. Divide the room by "
        "the bytes one seat's whole sequence occupies, and round down.",
        "steps": steps,
        "traps": _seat_traps(drawn, parts, seats=steps[-1].value),
        "knobs": draws.seat_knobs(drawn),
    }


def _draw_seats(rng) -> dict | None:
    """A node, cache storage and sequence granting 2 to 400 seats, not near a whole count."""
    node = draws.draw_node(rng)
    if node is None:
        return None
    node.update(
        kv_dtype=draws.pick(rng, draws.DTYPES),
        prompt=draws.pick(rng, draws.SEAT_PROMPTS),
        answer=draws.pick(rng, draws.SEAT_ANSWERS),
    )
    result = evaluate(**draws.seat_knobs(node))
    room = result.kv_budget_bytes / (result.seat_tokens * result.kv_bytes_per_token)
    if not (2 <= result.seats_room <= 400 and 0.1 <= draws.fraction(room) <= 0.9):
        return None
    return node


def seat_steps(
    drawn: dict, budget: float, per_token: float, saying: tuple[str, str]
) -> tuple[Step, Step]:
    """One seat's cache bytes, then the whole seats the KV room holds, each step said as ``saying``."""
    seat_bytes = (drawn["prompt"] + drawn["answer"]) * per_token
    seats = memory.seats_that_fit(budget, drawn["prompt"] + drawn["answer"], per_token)
    return (
        Step(
            saying[0],
            "(prompt + answer tokens) \u00d7 bytes per token",
            f"({number_text(drawn['prompt'])} + {number_text(drawn['answer'])}) \u00d7 "
            f"{numbers.figure(per_token)} B",
            seat_bytes,
            numbers.size(seat_bytes),
        ),
        Step(
            saying[1],
            "\u230aKV room / one seat\u230b",
            f"\u230a{numbers.figure(budget)} B / {numbers.figure(seat_bytes)} B\u230b = "
            f"\u230a{number_text(budget / seat_bytes, 5)}\u230b",
            seats,
            numbers.plural(seats, "seat", figures=4),
        ),
    )


def _seat_traps(drawn: dict, parts: dict, seats: int) -> list[Trap]:
    """No margin, no weights, one seat too many, and (with an answer) the prompt alone."""
    budget, per_token = parts["budget"], parts["per_token"]
    seat_bytes = (drawn["prompt"] + drawn["answer"]) * per_token
    traps = [
        Trap(math.floor(parts["free"] / seat_bytes), "That uses all the free memory. Hold back the "
             f"{numbers.percent(MEMORY_MARGIN, figures=3)} margin first."),
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
    return traps


def room_steps(drawn: dict) -> tuple[tuple[Step, ...], dict]:
    """Weights, node memory and KV room, as steps, plus the figures later steps need."""
    shape = draws.SHAPES[drawn["name"]][1]
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
            f"{numbers.figure(shape.params)} \u00d7 {weight_size} B",
            weights,
            numbers.size(weights),
        ),
        Step(
            "The node's memory",
            "cards \u00d7 memory per card",
            f"{cards} \u00d7 {numbers.size(card_memory)}",
            node,
            numbers.size(node),
        ),
        Step(
            f"KV room: what the weights leave, less the {numbers.percent(MEMORY_MARGIN, figures=3)} margin",
            "(node memory \u2212 weights) \u00d7 (1 \u2212 margin)",
            f"({numbers.size(node)} \u2212 {numbers.size(weights)}) \u00d7 (1 \u2212 {number_text(MEMORY_MARGIN)})",
            budget,
            numbers.size(budget),
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


def kv_room(rng) -> dict:
    drawn = draws.classic_or_draw(rng, KV_ROOM_CLASSIC, draws.draw_node)
    steps, parts = room_steps(drawn)
    cards = drawn["cards"]
    shape = draws.SHAPES[drawn["name"]][1]
    card_memory = GPUS[drawn["gpu"]].memory_bytes
    traps = [
        Trap(parts["free"], f"That is all the free memory. Hold back the {numbers.percent(MEMORY_MARGIN, figures=3)} "
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
            ("model", f"{drawn['name']}, {say.params(drawn['name'])} parameters"),
            ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
            ("node", say.node(cards, drawn["gpu"])),
            (
                "held back",
                f"{numbers.percent(MEMORY_MARGIN, figures=3)} of the memory the weights leave free",
            ),
        ),
        "hint": "Weights first: parameters \u00d7 bytes each, split across the cards. Take "
        f"them from the node's memory, then keep {numbers.percent(1 - MEMORY_MARGIN, figures=3)} of what is left.",
        "steps": steps,
        "traps": traps,
        "knobs": draws.knobs(
            drawn["name"], gpu=drawn["gpu"], cards=cards, weight_dtype=drawn["weight_dtype"]
        ),
    }


def fp8_seats(rng) -> dict:
    """The same KV room with the cache in fp8: each token's bytes halve and the seats double."""
    drawn = draws.classic_or_draw(rng, FP8_CLASSIC, _draw_fp8_seats)
    granted = evaluate(**draws.seat_knobs({**drawn, "kv_dtype": "bf16"})).seats_room
    steps, parts = room_steps({**drawn, "kv_dtype": "fp8"})
    shape = draws.SHAPES[drawn["name"]][1]
    wide = memory.kv_bytes_per_token(shape.layers, shape.kv_heads, shape.head_dim, 2)
    narrow = parts["per_token"]
    steps = (
        steps[-1],
        Step(
            "fp8 stores each cached number in 1 byte instead of 2",
            "bf16 bytes per token \u00d7 1/2",
            f"{numbers.figure(wide)} B \u00d7 1/2",
            narrow,
            numbers.size(narrow),
        ),
        *seat_steps(
            drawn,
            parts["budget"],
            narrow,
            (
                "One seat's cache halves with it",
                "The same room holds twice the seats, rounded down",
            ),
        ),
    )
    traps = [
        Trap(granted, "That is the bf16 count. fp8 halves the bytes of every cached number, so "
             "each seat costs half as much memory."),
        Trap(math.floor(granted / 2), "Smaller numbers mean more seats, not fewer."),
        Trap(4 * granted, "Only the cache changes storage; its bytes halve once, not twice."),
    ]  # fmt: skip
    return {
        "question": f"With a bf16 KV cache this node grants {numbers.plural(granted, 'seat', figures=4)}. Store the "
        "cache in fp8 instead, weights unchanged: how many seats now?",
        "givens": (
            ("model", say.model(drawn["name"])),
            ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
            ("node", say.node(drawn["cards"], drawn["gpu"])),
            ("one seat holds", say.seat(drawn["prompt"], drawn["answer"])),
            ("with a bf16 cache", f"{numbers.plural(granted, 'seat', figures=4)} fit"),
        ),
        "hint": "The KV room doesn't change: the weights are the same. What happens to the bytes "
        "one seat needs?",
        "steps": steps,
        "traps": traps,
        "knobs": draws.seat_knobs({**drawn, "kv_dtype": "fp8"}),
    }


def _draw_fp8_seats(rng) -> dict | None:
    """A bf16-weight node and sequence whose seats exactly double with an fp8 cache."""
    node = draws.draw_node(rng, weight_dtypes=("bf16",))
    if node is None:
        return None
    node.update(
        prompt=draws.pick(rng, draws.SEAT_PROMPTS),
        answer=draws.pick(rng, draws.SEAT_ANSWERS),
    )
    bf16 = evaluate(**draws.seat_knobs({**node, "kv_dtype": "bf16"}))
    fp8 = evaluate(**draws.seat_knobs({**node, "kv_dtype": "fp8"}))
    room = bf16.kv_budget_bytes / (bf16.seat_tokens * bf16.kv_bytes_per_token)
    doubles = fp8.seats_room == 2 * bf16.seats_room
    if not (doubles and 2 <= bf16.seats_room <= 200 and 0.1 <= draws.fraction(room) <= 0.4):
        return None
    return node
