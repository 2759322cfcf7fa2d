"""Runs of engine steps with an unchanging set of seats: recorded cheaply, priced in closed form."""

from __future__ import annotations

import math

import numpy as np


class Runs:
    """One row per run of steps with an unchanging set of seats: enough to rebuild each step.

    Step ``j`` of a run (0-based) lasts ``first_s`` for ``j = 0`` and
    ``max(alpha + beta * j, gamma)`` after; its ``writers`` seats hold
    ``held + writers * (j + 1)`` tokens once it ends; ``seats`` counts every occupied seat
    (a seat still prefilling its prompt in chunks writes nothing); a paged run starts with
    ``blocks`` blocks and gains, at global step ``g``, ``phases[g % block]`` more.
    """

    FIELDS = ("start_s", "steps", "first_s", "alpha", "beta", "gamma", "held", "writers",
              "seats", "alloc")  # fmt: skip

    def __init__(self):
        self.rows: list[tuple] = []  # one tuple of FIELDS per run (alloc: reserved tokens)
        self.blocks: list[int] = []
        self.phases: list[list[int]] = []

    def columns(self) -> dict:
        """Each field of every run as an array."""
        table = np.array(self.rows, dtype=float).reshape(-1, len(self.FIELDS))
        return dict(zip(self.FIELDS, table.T, strict=True))


class Stays:
    """One row per stay of a request in a seat (a tuple of :attr:`FIELDS`)."""

    FIELDS = ("request", "seat", "start_s", "end_s", "first_step", "tokens", "preempted", "wave")
    TYPES = (np.int64, np.int64, float, float, np.int64, np.int64, bool, np.int64)

    def __init__(self):
        self.rows: list[tuple] = []

    def columns(self) -> dict:
        """Each field of every stay as an array of its type."""
        columns = list(zip(*self.rows, strict=True)) or [()] * len(self.FIELDS)
        return {
            name: np.asarray(values, dtype=kind)
            for name, values, kind in zip(self.FIELDS, columns, self.TYPES, strict=True)
        }


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
    return math.ceil((gamma - alpha) / beta) if beta else math.inf


def rebuild_steps(runs: Runs, paged: bool, block: int) -> dict:
    """Every step's end time, and the runs' KV and seat integrals, in one vectorised pass."""
    run = runs.columns()
    steps = run["steps"].astype(np.int64)
    if steps.size == 0:
        return {"ends": np.zeros(0), "busy_s": 0.0, "used": 0.0, "allocated": 0.0, "seat_s": 0.0}
    first_step = np.cumsum(steps) - steps
    run_of = np.repeat(np.arange(steps.size), steps)
    j = np.arange(int(steps.sum())) - first_step[run_of]
    dt = np.maximum(run["alpha"][run_of] + run["beta"][run_of] * j, run["gamma"][run_of])
    dt[first_step] = run["first_s"]
    total = np.cumsum(dt)
    ends = total - (total[first_step] - dt[first_step])[run_of] + run["start_s"][run_of]
    writers = run["writers"][run_of]
    used = float(dt @ (run["held"][run_of] + writers * (j + 1)))
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
        allocated = float(dt @ run["alloc"][run_of])
    return {
        "ends": ends,
        "busy_s": float(dt.sum()),
        "used": used,
        "allocated": allocated,
        "seat_s": float(dt @ run["seats"][run_of]),
    }
