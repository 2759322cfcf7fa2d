"""Runs of simulated steps with an unchanging set of seats: recorded cheaply, priced in closed form."""

from __future__ import annotations

import itertools
import math

import numpy as np


class Runs:
    """One row per run of steps with an unchanging set of seats: enough to rebuild each step.

    Step ``j`` of a run (0-based) lasts ``first_s`` for ``j = 0`` and
    ``max(alpha + beta * j, gamma)`` after; its ``writers`` seats hold
    ``held + writers * (j + 1)`` tokens once it ends; ``seats`` counts every occupied seat
    (a seat still prefilling its prompt in chunks writes nothing); a paged run starts with
    ``blocks`` blocks and gains, at global step ``g``, ``phases[g % block]`` more.

    The rows are kept flat, one run's numbers after another's (``values``, and ``phases``
    ``block`` per run): a list or tuple per run would be one more object for the garbage
    collector to walk, run after run.
    """

    FIELDS = ("start_s", "steps", "first_s", "alpha", "beta", "gamma", "held", "writers",
              "seats", "alloc")  # fmt: skip

    def __init__(self):
        self.values: list[float] = []  # FIELDS of each run, one run after another
        self.blocks: list[int] = []
        self.phases: list[int] = []  # each paged run's phases, one run after another

    def columns(self) -> dict:
        """Each field of every run as an array."""
        return dict(
            zip(self.FIELDS, flat_table(self.values, len(self.FIELDS), float).T, strict=True)
        )


class Stays:
    """One row per stay of a request in a seat (its :attr:`FIELDS` in ``values``, kept flat)."""

    FIELDS = ("request", "seat", "start_s", "end_s", "first_step", "tokens", "preempted", "wave")
    TYPES = (np.int64, np.int64, float, float, np.int64, np.int64, bool, np.int64)

    def __init__(self):
        self.values: list[float] = []

    def columns(self) -> dict:
        """Each field of every stay as an array of its type."""
        table = flat_table(self.values, len(self.FIELDS), float)
        return {
            name: table[:, column].astype(kind)
            for column, (name, kind) in enumerate(zip(self.FIELDS, self.TYPES, strict=True))
        }


def flat_table(values: list, width: int, kind) -> np.ndarray:
    """Rows of ``width`` numbers, kept one after another, as a 2-D array of ``kind``."""
    return np.fromiter(values, kind, count=len(values)).reshape(-1, width)


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
    if knee <= 1:  # read-bound from step 1: the series alone (the same sum, bit for bit)
        return steps * alpha + beta * (steps * (steps + 1)) / 2
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


def first_reaching(wait, cap, first, alpha, beta, gamma, knee) -> tuple[int, float]:
    """The first step ``s >= 1`` of a run whose end, ``first + tail_s(s - 1)``, reaches ``wait``.

    The caller knows one does by ``cap`` (a whole number of steps, or infinite). Returns the
    step and its ``tail_s(s - 1)``. The step is guessed in closed form and confirmed with
    :func:`tail_s` itself, so the answer is a search's; a guess that misses falls back to
    the search.
    """
    guess = _guess_reaching(wait - first, alpha, beta, gamma, knee)
    if guess < cap:
        tail = tail_s(guess - 1, alpha, beta, gamma, knee)
        if first + tail >= wait:
            if guess == 1 or first + tail_s(guess - 2, alpha, beta, gamma, knee) < wait:
                return guess, tail
        else:
            after = tail_s(guess, alpha, beta, gamma, knee)
            if first + after >= wait:
                return guess + 1, after
    low, high = 1, cap if cap != math.inf else 1
    while first + tail_s(high - 1, alpha, beta, gamma, knee) < wait:
        high *= 2
    while low < high:  # the first step whose end reaches the arrival
        middle = (low + high) // 2
        if first + tail_s(middle - 1, alpha, beta, gamma, knee) >= wait:
            high = middle
        else:
            low = middle + 1
    return low, tail_s(low - 1, alpha, beta, gamma, knee)


def _guess_reaching(seconds: float, alpha: float, beta: float, gamma: float, knee: float) -> int:
    """About the first step whose run's steps 1.. sum to ``seconds`` after the first step's.

    Notes
    -----
    Steps below the knee cost :math:`\\gamma` each; from the knee on, :math:`n` steps of the
    arithmetic series cost :math:`n \\alpha + \\beta (n k + n (n - 1) / 2)`, a quadratic in
    :math:`n`.
    """
    if seconds <= 0:
        return 1
    flat = knee - 1 if knee != math.inf else math.inf
    if gamma > 0 and seconds <= gamma * flat:
        return math.ceil(seconds / gamma) + 1
    left = seconds - (gamma * flat if flat else 0.0)
    b = alpha + beta * (knee - 0.5)
    n = left / alpha if beta <= 0 else (math.sqrt(b * b + 2.0 * beta * left) - b) / beta
    if not math.isfinite(n) or n < 0:
        return 1
    return int(flat) + math.ceil(n) + 1


def paged_cut(steps: int, writers: int, phases: list, rotation: int, room: int, block: int):
    """``steps`` cut before the first step paged memory cannot hold, and the blocks they take.

    The ``writers`` seats take ``writers`` blocks every ``block`` steps, and in a part cycle
    one for each seat whose residue (``phases``, from residue ``rotation`` on) the steps pass;
    ``room`` is the blocks still free.
    """
    gained = (steps // block) * writers + blocks_gained(phases, rotation, steps % block)
    if gained > room:
        cycle = phases[rotation:] + phases[:rotation]
        partial = [0, *itertools.accumulate(cycle)]
        cycles = room // writers if writers else 0
        extra = next(i for i in range(1, block + 1) if cycles * writers + partial[i] > room)
        steps = max(1, cycles * block + extra - 1)
        gained = (steps // block) * writers + blocks_gained(phases, rotation, steps % block)
    return steps, gained


def blocks_gained(phases: list, rotation: int, steps: int) -> int:
    """Blocks the seats take in ``steps`` steps (fewer than a cycle) from residue ``rotation``."""
    end = rotation + steps
    if end <= len(phases):
        return sum(phases[rotation:end])
    return sum(phases[rotation:]) + sum(phases[: end - len(phases)])


def rebuild_steps(runs: Runs, paged: bool, block: int) -> dict:
    """Every step's end time, and the runs' KV and seat integrals, in one vectorised pass."""
    run = runs.columns()
    steps = run["steps"].astype(np.int64)
    if steps.size == 0:
        return {"ends": np.zeros(0), "busy_s": 0.0, "used": 0.0, "allocated": 0.0, "seat_s": 0.0}
    first_step, run_of, j, dt, ends = _every_step(run, steps)
    writers = run["writers"][run_of]
    used = float(dt @ (run["held"][run_of] + writers * (j + 1)))
    if paged:
        phases = flat_table(runs.phases, block, np.int64)
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


def step_ends(runs: Runs) -> np.ndarray:
    """Every step's end time alone (what a replay reads), as :func:`rebuild_steps` gives it."""
    run = runs.columns()
    steps = run["steps"].astype(np.int64)
    return _every_step(run, steps)[-1] if steps.size else np.zeros(0)


def _every_step(run: dict, steps: np.ndarray) -> tuple:
    """Each step's run, place in its run and seconds, each run's first step, every step's end."""
    first_step = np.cumsum(steps) - steps
    run_of = np.repeat(np.arange(steps.size), steps)
    j = np.arange(int(steps.sum())) - first_step[run_of]
    dt = np.maximum(run["alpha"][run_of] + run["beta"][run_of] * j, run["gamma"][run_of])
    dt[first_step] = run["first_s"]
    total = np.cumsum(dt)
    ends = total - (total[first_step] - dt[first_step])[run_of] + run["start_s"][run_of]
    return first_step, run_of, j, dt, ends


def token_bounds(ends: np.ndarray, stays: dict, requests: int) -> tuple[np.ndarray, np.ndarray]:
    """Each request's first and last token's time on one node, from its stays' steps.

    A stay writes one token a step from its ``first_step``; a stay preempted before its
    first token writes none. The same times as every token's (``node_tokens``), without them.
    """
    writing = stays["tokens"] > 0
    request, first = stays["request"][writing], stays["first_step"][writing]
    first_step = np.full(requests, np.iinfo(np.int64).max)
    np.minimum.at(first_step, request, first)
    last_step = np.full(requests, -1, dtype=np.int64)
    np.maximum.at(last_step, request, first + stays["tokens"][writing] - 1)
    return ends[first_step], ends[last_step]
