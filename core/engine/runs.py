"""Runs of engine steps with an unchanging set of seats: recorded cheaply, priced in closed form."""

from __future__ import annotations

import numpy as np


class Runs:
    """One row per run of steps with an unchanging set of seats: enough to rebuild each step.

    Step ``j`` of a run (0-based) lasts ``first_s`` for ``j = 0`` and
    ``max(alpha + beta * j, gamma)`` after; its ``writers`` seats hold
    ``held + writers * (j + 1)`` tokens once it ends; ``seats`` counts every occupied seat
    (a seat still prefilling its prompt in chunks writes nothing); a paged run starts with
    ``blocks`` blocks and gains, at global step ``g``, ``phases[g % block]`` more.
    """

    def __init__(self):
        self.start_s: list[float] = []
        self.steps: list[int] = []
        self.first_s: list[float] = []
        self.alpha: list[float] = []
        self.beta: list[float] = []
        self.gamma: list[float] = []
        self.held: list[int] = []
        self.writers: list[int] = []
        self.seats: list[int] = []
        self.alloc: list[float] = []  # reserved tokens set aside during the run
        self.blocks: list[int] = []
        self.phases: list[list[int]] = []


class Stays:
    """One row per stay of a request in a seat."""

    def __init__(self):
        self.request: list[int] = []
        self.seat: list[int] = []
        self.start_s: list[float] = []
        self.end_s: list[float] = []
        self.first_step: list[int] = []
        self.tokens: list[int] = []
        self.preempted: list[bool] = []
        self.wave: list[int] = []


def tail_s(steps: int, alpha: float, beta: float, gamma: float, knee: float) -> float:
    """Seconds of steps 1 to ``steps`` of a run: the sum of ``max(alpha + beta j, gamma)``.

    Notes
    -----
    Below ``knee`` (the first ``j`` whose read outweighs the arithmetic) each step costs
    ``gamma``; from it on the steps form an arithmetic series:
    :math:`\\sum_{j=p}^{q} (\\alpha + \\beta j) = (q - p + 1)\\alpha + \\beta (q(q+1) - (p-1)p)/2`.
    """
    if steps <= 0:
        return 0.0
    flat = steps if knee > steps else max(0, int(knee) - 1)
    total = gamma * flat
    first = flat + 1
    if steps >= first:
        total += (steps - first + 1) * alpha + beta * (
            steps * (steps + 1) - (first - 1) * first
        ) / 2
    return total


def knee_of(alpha: float, beta: float, gamma: float) -> float:
    """The first step ``j >= 1`` of a run whose read ``alpha + beta j`` reaches ``gamma``."""
    if alpha + beta >= gamma:
        return 1.0
    return float(np.ceil((gamma - alpha) / beta)) if beta else np.inf


def rebuild_steps(runs: Runs, paged: bool, block: int) -> dict:
    """Every step's end time, and the runs' KV and seat integrals, in one vectorised pass."""
    steps = np.asarray(runs.steps, dtype=np.int64)
    if steps.size == 0:
        return {"ends": np.zeros(0), "busy_s": 0.0, "used": 0.0, "allocated": 0.0, "seat_s": 0.0}
    first_step = np.cumsum(steps) - steps
    run_of = np.repeat(np.arange(steps.size), steps)
    j = np.arange(int(steps.sum())) - first_step[run_of]
    alpha, beta, gamma = (
        np.asarray(values)[run_of] for values in (runs.alpha, runs.beta, runs.gamma)
    )
    dt = np.maximum(alpha + beta * j, gamma)
    del alpha, beta, gamma
    dt[first_step] = runs.first_s
    total = np.cumsum(dt)
    ends = total - (total[first_step] - dt[first_step])[run_of] + np.asarray(runs.start_s)[run_of]
    writers = np.asarray(runs.writers, dtype=float)[run_of]
    used = float(dt @ (np.asarray(runs.held, dtype=float)[run_of] + writers * (j + 1)))
    if paged:
        phases = np.asarray(runs.phases, dtype=np.int64)
        gained = np.cumsum(phases[run_of, (first_step[run_of] + j + 1) % block])
        held_blocks = (
            gained
            - (gained[first_step] - phases[np.arange(steps.size), (first_step + 1) % block])[run_of]
        )
        held_blocks += np.asarray(runs.blocks, dtype=np.int64)[run_of]
        allocated = float(dt @ held_blocks) * block
    else:
        allocated = float(dt @ np.asarray(runs.alloc)[run_of])
    return {
        "ends": ends,
        "busy_s": float(dt.sum()),
        "used": used,
        "allocated": allocated,
        "seat_s": float(dt @ np.asarray(runs.seats, dtype=float)[run_of]),
    }
