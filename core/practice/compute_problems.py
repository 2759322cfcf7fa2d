"""Practice problems about compute and bandwidth: prefill FLOPs, prefill time, the single-stream ceiling."""

from __future__ import annotations

from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    BYTES_PER_NUMBER,
    GPUS,
    PREFILL_EFFICIENCY,
    TIERS,
)
from core.foundation import numbers
from core.foundation.units import express, number_text
from core.practice import draws
from core.practice import wording as say
from core.practice.problems import Step, Trap
from core.whiteboard import memory, timing

# The classic whiteboard version (seed 0): the large tier on one H100.
STREAM_CLASSIC = {
    "name": TIERS["large"].name,
    "gpu": "H100 SXM",
    "weight_dtype": "bf16",
    "cards": 1,
}


def _prefill_parts(drawn: dict) -> dict:
    shape = draws.SHAPES[drawn["name"]][1]
    prompt, hit = drawn["prompt"], drawn["hit"]
    miss = prompt - prompt * hit  # as core.evaluate counts the cache-miss tokens
    flops = timing.prefill_flops(shape.active_params, miss)
    miss_step = Step(
        "Prompt tokens found in the prefix cache skip prefill; the rest are computed",
        "prompt tokens \u00d7 (1 \u2212 hit rate)",
        f"{number_text(prompt)} \u00d7 (1 \u2212 {numbers.percent(hit, figures=3)})",
        miss,
        numbers.plural(miss, "token", figures=5),
    )
    active = "active parameters" if shape.active_params != shape.params else "parameters"
    flops_step = Step(
        "About two FLOPs per parameter per token: a multiply and an add",
        f"2 \u00d7 {active} \u00d7 cache-miss tokens",
        f"2 \u00d7 {numbers.figure(shape.active_params)} \u00d7 {number_text(miss)}",
        flops,
        f"{numbers.figure(flops)} FLOP ({express(flops, 'TFLOP', 'flops')})",
    )
    return {"shape": shape, "miss": miss, "flops": flops, "steps": (miss_step, flops_step)}


def _prefill_givens(drawn: dict) -> tuple[tuple[str, str], ...]:
    card = GPUS[drawn["gpu"]]
    peak = draws.peak(drawn["gpu"], drawn["weight_dtype"])
    rate_note = (
        "fp8 weights run at the card's fp8 rate"
        if drawn["weight_dtype"] == "fp8" and card.fp8_flops != card.bf16_flops
        else "fp8 weights run at the bf16 rate on this card"
        if drawn["weight_dtype"] == "fp8"
        else "bf16 weights run at the bf16 rate"
    )
    return (
        ("model", f"{drawn['name']}, {say.params(drawn['name'])} parameters"),
        ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
        ("node", f"{drawn['cards']} \u00d7 {drawn['gpu']}"),
        ("dense tensor peak", f"{numbers.teraflops(peak, figures=4)} per card ({rate_note})"),
        ("prefill reaches", f"{numbers.percent(PREFILL_EFFICIENCY, figures=3)} of that peak"),
        ("prompt", numbers.plural(drawn["prompt"], "token", figures=5)),
        ("prefix cache hit rate", f"{numbers.percent(drawn['hit'], figures=3)} of prompt tokens"),
    )


def prefill_flops(rng) -> dict:
    drawn = draws.prefill_draw(rng)
    parts = _prefill_parts(drawn)
    shape, miss, flops = parts["shape"], parts["miss"], parts["flops"]
    traps = [Trap(flops / 2, "That is half: count two FLOPs per parameter per token.")]
    if drawn["hit"]:
        traps.append(
            Trap(
                timing.prefill_flops(shape.active_params, drawn["prompt"]),
                f"That prefills the whole prompt; the {numbers.percent(drawn['hit'], figures=3)} found in the "
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
        "knobs": draws.prefill_knobs(drawn),
        "note": "Next: the seconds those FLOPs take. Pick “Prefill time” with the same seed.",
    }


def prefill_time(rng) -> dict:
    """The prefill FLOPs, the rate the node really computes at, and the seconds they take."""
    drawn = draws.prefill_draw(rng)
    parts = _prefill_parts(drawn)
    shape, miss, flops = parts["shape"], parts["miss"], parts["flops"]
    cards, gpu, weight_dtype = drawn["cards"], drawn["gpu"], drawn["weight_dtype"]
    peak = draws.peak(gpu, weight_dtype)
    rate = cards * peak * PREFILL_EFFICIENCY
    seconds = timing.prefill_seconds(shape.active_params, miss, cards, peak)
    steps = (
        *parts["steps"],
        Step(
            f"The node computes at {numbers.percent(PREFILL_EFFICIENCY, figures=3)} of its dense peak",
            "cards \u00d7 peak per card \u00d7 efficiency",
            f"{cards} \u00d7 {numbers.teraflops(peak, figures=4)} \u00d7 {numbers.percent(PREFILL_EFFICIENCY, figures=3)}",
            rate,
            numbers.teraflops(rate, figures=4),
        ),
        Step(
            "Seconds of tensor time before the first token exists",
            "FLOPs / FLOP per second",
            f"{numbers.figure(flops)} FLOP / {numbers.figure(rate)} FLOP/s",
            seconds,
            numbers.duration(seconds, figures=4),
        ),
    )
    traps = _prefill_time_traps(drawn, shape, miss)
    return {
        "question": "How long does prefill take before the first token exists? Count tensor "
        "time only: no queue, no cache read.",
        "givens": _prefill_givens(drawn),
        "hint": "FLOPs first: two per parameter per cache-miss token. Then divide by what the "
        f"node really computes per second: cards \u00d7 peak \u00d7 {numbers.percent(PREFILL_EFFICIENCY, figures=3)}.",
        "steps": steps,
        "traps": traps,
        "knobs": draws.prefill_knobs(drawn),
    }


def _prefill_time_traps(drawn: dict, shape, miss: float) -> list[Trap]:
    """Full peak, the whole prompt, one card, every expert, and the bf16 rate for fp8 weights."""
    cards, gpu, weight_dtype = drawn["cards"], drawn["gpu"], drawn["weight_dtype"]
    peak = draws.peak(gpu, weight_dtype)
    traps = [
        Trap(
            timing.prefill_seconds(shape.active_params, miss, cards, peak, efficiency=1.0),
            "That is half the time: count two FLOPs per parameter per token, and prefill "
            f"reaches {numbers.percent(PREFILL_EFFICIENCY, figures=3)} of the peak, not all of it.",
        )
    ]
    if drawn["hit"]:
        traps.append(
            Trap(
                timing.prefill_seconds(shape.active_params, drawn["prompt"], cards, peak),
                f"That prefills the whole prompt; the {numbers.percent(drawn['hit'], figures=3)} found in the "
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
    return traps


def stream_ceiling(rng) -> dict:
    """One stream alone: a full read of the weights per token, at the node's peak bandwidth."""
    drawn = draws.classic_or_draw(rng, STREAM_CLASSIC, draws.draw_node)
    shape = draws.SHAPES[drawn["name"]][1]
    cards, gpu = drawn["cards"], drawn["gpu"]
    size = BYTES_PER_NUMBER[drawn["weight_dtype"]]
    bandwidth = GPUS[gpu].hbm_bytes_per_s
    steps = _stream_steps(drawn)
    weights, read, ceiling = (step.value for step in steps)
    traps = [
        Trap(ceiling * BANDWIDTH_EFFICIENCY, "That is a realistic rate at "
             f"{numbers.percent(BANDWIDTH_EFFICIENCY, figures=3)} of bandwidth; the ceiling is at "
             "the peak."),
        Trap(read / shape.params, "That divides by parameters; divide by bytes "
             f"({size} per parameter in {drawn['weight_dtype']})."),
    ]  # fmt: skip
    if cards > 1:
        traps.append(
            Trap(bandwidth / weights, f"That is one card's bandwidth; all {cards} read at once.")
        )
    note = (
        f"The classic whiteboard version: one {gpu}'s bandwidth streams all {numbers.size(weights)}. "
        f"(They don't fit in its {numbers.size(GPUS[gpu].memory_bytes)}; two cards would double the "
        "ceiling. The point is the read.)"
        if rng is None
        else ""
    )
    return {
        "question": "One request runs alone. What is the fastest it can possibly stream, in "
        "tokens per second, however many FLOPs the cards offer?",
        "givens": (
            ("model", f"{drawn['name']}, {say.params(drawn['name'])} parameters"),
            ("weights stored in", say.dtype(drawn["weight_dtype"], "parameter")),
            ("node", f"{cards} \u00d7 {gpu}"),
            ("memory bandwidth", f"{numbers.bandwidth(bandwidth, figures=4)} per card (peak)"),
        ),
        "hint": "Decode is bandwidth bound: each token costs one full read of the weights. "
        "How many such reads fit in a second?",
        "steps": steps,
        "traps": traps,
        "knobs": draws.knobs(
            drawn["name"], gpu=gpu, cards=cards, weight_dtype=drawn["weight_dtype"]
        ),
        "note": note,
    }


def _stream_steps(drawn: dict) -> tuple[Step, Step, Step]:
    """The weight bytes, the node's bandwidth, and the tokens per second one stream gets."""
    shape = draws.SHAPES[drawn["name"]][1]
    cards, size = drawn["cards"], BYTES_PER_NUMBER[drawn["weight_dtype"]]
    bandwidth = GPUS[drawn["gpu"]].hbm_bytes_per_s
    weights = memory.weight_bytes(shape.params, size)
    ceiling = timing.single_stream_ceiling(weights, cards, bandwidth)
    read = cards * bandwidth
    return (
        Step(
            "Every decode step re-reads all the weights",
            "parameters \u00d7 bytes per parameter",
            f"{numbers.figure(shape.params)} \u00d7 {size} B",
            weights,
            numbers.size(weights),
        ),
        Step(
            "The cards read their shares in parallel, at most at peak bandwidth",
            "cards \u00d7 bandwidth per card",
            f"{cards} \u00d7 {numbers.bandwidth(bandwidth, figures=4)}",
            read,
            numbers.bandwidth(read, figures=4),
        ),
        Step(
            "One request gets one token per full read",
            "bandwidth / weight bytes",
            f"{numbers.figure(read)} B/s / {numbers.figure(weights)} B",
            ceiling,
            express(ceiling, "tok/s", "tokens_per_s"),
        ),
    )
