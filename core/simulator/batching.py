"""What the batching lab asks of the step simulator: its four runs, the batch sweep and their marks.

One knob state runs four simulations on the same arrivals (static and continuous, each with
reserved and paged KV) and a sweep of both schedulers over the batch sizes
:data:`SWEEP_BATCHES`. The marks read off a sweep (the memory wall, the latency knee) and
the shares read off a run (idle seats, wasted KV, one scheduler's gain over the other) are
model quantities, so they live here and the lab only words them. Every run keeps to a budget
of answer tokens (:data:`RUN_TOKENS`, :data:`SWEEP_TOKENS`, :data:`DESIGN_TOKENS`), so that no
knob change costs more than :data:`CHANGE_WORK` (:func:`work`).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

import numpy as np

from core.catalog import CHUNKED_PREFILL_TOKENS
from core.scenario.knobs import Scenario
from core.simulator import KV_LAYOUTS, POLICIES, Requests, SimulationResult, draw_requests, simulate
from core.simulator.steps import step_costs

# What the step simulator does when a lab leaves a knob alone (labs read defaults here, not in
# the catalog: the catalog's numbers reach a page only through core).
SIMULATOR_DEFAULTS = MappingProxyType({"chunk_tokens": CHUNKED_PREFILL_TOKENS})
SWEEP_BATCHES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
SWEEP_REQUESTS = 100  # requests per point of the batch-size sweep (keeps a rerun near 100 ms)
# A change's time grows with the steps simulated and the tokens written (every token's time is
# kept), so a long-answer stream is served only as far as these answer tokens go: its first
# requests whose answers fit. The lab's defaults and the published setup stay well inside.
RUN_TOKENS = 250_000  # each of the four runs
SWEEP_TOKENS = 25_000  # each point of the sweep
DESIGN_TOKENS = 400_000  # each of the serving-modes card's three designs
# The most work (:func:`work`) one knob change may cost. Four runs and the sweep's 18 points,
# each at most about twice its token budget (a step per token at B = 1) and a stay per
# request, come to 2.9 million; the serving-modes card's three designs to 2.4 million.
# bench/simulator.py times the heaviest changes.
CHANGE_WORK = 3_000_000
KNEE_FACTOR = 2.0  # the latency knee: where the p95 gap between tokens has doubled
IDLE_NOTICE = 0.005  # static waves idling less than this share of their seat time: none to speak of


@dataclass(frozen=True)
class Stream:
    """The requests a simulated node serves: how they arrive and how long prompts and answers are."""

    arrival: str
    rate_per_s: float
    prompt_tokens: int
    answer: str
    answer_mean: int
    answer_cap: int
    seed: int

    def draw(self, count: int, max_tokens: int | None = None) -> Requests:
        """``count`` requests of this stream, or their first whose answers fit ``max_tokens``.

        The same seed gives the same requests; the cut is :func:`first_within`'s.
        """
        workload = draw_requests(
            count,
            self.seed,
            arrival=self.arrival,
            rate_per_s=self.rate_per_s,
            prompt_tokens=self.prompt_tokens,
            answer=self.answer,
            answer_mean=self.answer_mean,
            answer_cap=self.answer_cap,
        )
        return workload if max_tokens is None else first_within(workload, max_tokens)


def first_within(workload: Requests, max_tokens: int) -> Requests:
    """The first requests of ``workload`` whose answers add up to at most ``max_tokens``.

    At least one request is kept; a stream that fits is returned as it is.
    """
    fit = int(np.searchsorted(np.cumsum(workload.answer_tokens), max_tokens, side="right"))
    keep = max(fit, 1)
    return workload if keep >= len(workload) else workload.subset(np.arange(keep))


def work(results) -> int:
    """What runs cost: steps simulated, tokens written and seat stays kept, over ``results``.

    A change's server time grows with this count (``bench/simulator.py`` times it), so it
    bounds the time without a clock.
    """
    return sum(run.steps + run.output_tokens + int(run.segments["request"].size) for run in results)


def _runner(scenario: Scenario, stream: Stream, requests: int, wait_cap_s: float, max_tokens: int):
    """A function simulating one scheduler and layout on ``requests`` of ``stream`` (drawn once) on one node.

    The stream is served only as far as ``max_tokens`` answer tokens go.
    """
    costs = step_costs(scenario)
    workload = stream.draw(requests, max_tokens)

    def run(policy: str, kv_layout: str, batch_size: int) -> SimulationResult:
        return simulate(
            scenario,
            policy,
            kv_layout,
            workload=workload,
            costs=costs,
            batch_size=batch_size,
            wait_cap_s=wait_cap_s,
        )

    return run


def run_simulations(
    scenario: Scenario, stream: Stream, requests: int, batch_size: int, wait_cap_s: float
) -> dict:
    """The four simulations, keyed ``(policy, kv_layout)``, on the same ``requests`` arrivals.

    Each serves the first of them whose answers fit :data:`RUN_TOKENS` (its ``requests``
    says how many).
    """
    run = _runner(scenario, stream, requests, wait_cap_s, RUN_TOKENS)
    return {
        (policy, layout): run(policy, layout, batch_size)
        for policy in POLICIES
        for layout in KV_LAYOUTS
    }


def run_sweep(
    scenario: Scenario, stream: Stream, requests: int, kv_layout: str, wait_cap_s: float
) -> dict:
    """Both schedulers at every batch size of :data:`SWEEP_BATCHES`, on one KV layout.

    Each point serves at most :data:`SWEEP_REQUESTS` requests and :data:`SWEEP_TOKENS`
    answer tokens.
    """
    run = _runner(scenario, stream, min(requests, SWEEP_REQUESTS), wait_cap_s, SWEEP_TOKENS)
    return {
        policy: [run(policy, kv_layout, batch) for batch in SWEEP_BATCHES] for policy in POLICIES
    }


@dataclass(frozen=True)
class SweepMarks:
    """Where raising B stops paying: the memory wall and the latency knee of a sweep.

    ``wall`` is the seats at which memory first refused one (None: never); ``wall_from_run``
    says the sweep's smaller sample never met it and the full run did. ``knee`` is the first
    B at which continuous batching's p95 inter-token gap reached :data:`KNEE_FACTOR` times a
    lone request's (None: never). ``best`` is the sweep's fastest continuous run.
    """

    wall: int | None
    wall_from_run: bool
    knee: int | None
    best: SimulationResult


def sweep_marks(sweep: dict, full_run: SimulationResult | None = None) -> SweepMarks:
    """The memory wall and latency knee of ``sweep`` (:func:`run_sweep`).

    Notes
    -----
    The wall is the peak seats of the first continuous run that stalled on memory; when no
    sweep point stalled but ``full_run`` (the lab's continuous run) did, its peak seats. The
    knee is the least :math:`B` with :math:`ITL_{p95}(B) \\ge 2\\,ITL_{p95}(1)`.
    """
    continuous = sweep["continuous"]
    walled = [run for run in continuous if run.memory_stalls > 0]
    wall = walled[0].peak_seats if walled else None
    from_run = wall is None and full_run is not None and full_run.memory_stalls > 0
    if from_run:
        wall = full_run.peak_seats
    itl = np.array([run.itl_p95_s for run in continuous])
    doubled = np.flatnonzero(itl >= KNEE_FACTOR * itl[0]) if itl[0] > 0 else np.array([], int)
    knee = int(SWEEP_BATCHES[doubled[0]]) if doubled.size else None
    best = max(continuous, key=lambda run: run.output_tokens_per_s)
    return SweepMarks(wall, bool(from_run), knee, best)


def gain(runs: dict, kv_layout: str) -> float:
    """Continuous batching's output tokens per second over static's, on one layout."""
    static, continuous = runs["static", kv_layout], runs["continuous", kv_layout]
    return continuous.output_tokens_per_s / static.output_tokens_per_s


def idle_share(run: SimulationResult) -> float:
    """Share of the seat time a static run held seats idle behind its stragglers (0 to 1).

    Notes
    -----
    .. math:: s = \\frac{t_{idle}}{t_{idle} + \\sum_i (t_{end,i} - t_{start,i})}
    """
    held = run.idle_seat_s + float((run.segments["end_s"] - run.segments["start_s"]).sum())
    return run.idle_seat_s / held if held > 0 else 0.0


def wasted_kv_bytes(run: SimulationResult) -> float:
    """KV bytes set aside but holding no token, averaged over the run."""
    return max(0.0, run.kv_allocated_bytes - run.kv_used_bytes)


def decode_context_tokens(prompt_tokens, answer_mean):
    """Tokens of cache a seat holds on average while it decodes: its prompt and half its answer.

    Notes
    -----
    .. math:: T = T_p + \\bar{A} / 2
    """
    return prompt_tokens + answer_mean / 2


def stay_waits(run: SimulationResult) -> np.ndarray:
    """Seconds each seat stay's request waited between its arrival and taking that seat."""
    stays = run.segments
    return stays["start_s"] - run.arrival_s[stays["request"]]
