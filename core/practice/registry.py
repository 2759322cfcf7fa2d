"""The practice challenges by key, and drawing one problem from a challenge and a seed."""

from __future__ import annotations

import numpy as np

from core.evaluate import evaluate
from core.foundation.validation import describe_range, knob_error
from core.practice import (
    bill_problems,
    compute_problems,
    memory_problems,
    model_problems,
    pd_split_problems,
)
from core.practice.grading_rules import Tolerance, near
from core.practice.problems import Challenge, Problem, Trap

SEED_BOUNDS = (0, 999_999)
CLASSIC_SEED = 0  # the walkthrough's own numbers, for every challenge
NEW_SEED_BOUNDS = (1000, 1_000_000)  # "new problem" draws a 4 to 6 digit seed

_CLOSE_ENOUGH = Tolerance(0.02)
_WHOLE = Tolerance(0.0, whole=True)


CHALLENGES: dict[str, Challenge] = {
    challenge.key: challenge
    for challenge in (
        Challenge("kv_bytes", "Bytes per cached token", "walkthrough",
                  "the bytes one token of KV cache occupies", "bytes", "B", _CLOSE_ENOUGH,
                  memory_problems.kv_bytes),
        Challenge("seat_budget", "Seats memory can grant", "walkthrough",
                  "the seats a node's free memory can grant", "seats", "seats", _WHOLE,
                  memory_problems.seat_budget),
        Challenge("prefill_time", "Prefill time", "walkthrough",
                  "the seconds prefill spends before the first token exists", "seconds", "ms",
                  _CLOSE_ENOUGH, compute_problems.prefill_time),
        Challenge("stream_ceiling", "Single-stream ceiling", "whiteboard",
                  "the fastest one request can stream", "tokens_per_s", "tok/s", _CLOSE_ENOUGH,
                  compute_problems.stream_ceiling),
        Challenge("kv_room", "KV room after the weights", "whiteboard",
                  "the memory left for the cache", "bytes", "GB", _CLOSE_ENOUGH, memory_problems.kv_room),
        Challenge("prefill_flops", "Prefill FLOPs", "whiteboard",
                  "2 \u00d7 parameters \u00d7 prompt tokens", "flops", "FLOP", _CLOSE_ENOUGH,
                  compute_problems.prefill_flops, shown="TFLOP"),
        Challenge("fp8_seats", "Seats with an fp8 cache", "whiteboard",
                  "the seat budget when the cache halves", "seats", "seats", _WHOLE, memory_problems.fp8_seats),
        Challenge("monthly_bill", "Nodes behind the bill", "whiteboard",
                  "the node count and what it costs a month", "dollars", "$", _CLOSE_ENOUGH,
                  bill_problems.monthly_bill),
        Challenge("pd_split", "Prefill nodes for the SLO", "engine",
                  "the prefill side of a disaggregated pool's x:y split", "nodes", "nodes",
                  _WHOLE, pd_split_problems.pd_split),
        Challenge("mla_kv_bytes", "Bytes per cached token under MLA", "models",
                  "latent attention's cache: one latent and a rotary key per layer", "bytes", "B",
                  _CLOSE_ENOUGH, model_problems.mla_kv_bytes),
        Challenge("moe_weight_read", "Weights a mixture of experts reads", "models",
                  "the experts one decode step's batch touches", "bytes", "GB", _CLOSE_ENOUGH,
                  model_problems.moe_weight_read),
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
    "mla_kv_bytes": "kv_bytes_per_token",
    "moe_weight_read": "weight_bytes_read",
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
        if trap.value <= 0 or near(trap.value, answer, tolerance, 2.0):
            continue
        if any(near(trap.value, other.value, tolerance, 1.0) for other in kept):
            continue
        kept.append(trap)
    return tuple(kept)


def new_seed(rng: np.random.Generator) -> int:
    """A fresh 4 to 6 digit seed from the caller's generator (no module-level state)."""
    return int(rng.integers(*NEW_SEED_BOUNDS))


def challenge_keys(group: str | None = None) -> list[str]:
    """The challenge keys in page order, optionally only those of ``group``."""
    return [key for key, c in CHALLENGES.items() if group is None or c.group == group]
