"""An hour of traffic through the step engine: a trace's own requests, or a drawn stream.

The closed form sizes the pool (:func:`core.evaluate.evaluate`'s ``nodes``) for one rate.
:func:`replay` sends the hour's requests, one by one, through that many nodes of the step
engine (continuous batching, paged cache, each request where the scenario's router sends it:
:func:`core.cache.routing.route`) and reports what each minute of the hour saw; its
goodput judges each request's measured TTFT and TPOT by the one predicate
(:func:`core.traffic.goodput.meets_targets`). Replays are cached per process by the knobs
they read, as immutable records, so a page that returns to a configuration does not run
it again.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from core.cache.routing import route
from core.cache.sessions import hour_sessions
from core.catalog.traces import TRACES, load_trace
from core.catalog.workloads import TTFT_PERCENTILE, TTFT_SLO_S
from core.evaluate import evaluate
from core.foundation.caching import Unkeyed
from core.scenario.knobs import Scenario
from core.simulator.requests import Requests
from core.simulator.scheduler import Scheduler
from core.simulator.simulate import MAX_NODES
from core.simulator.simulate import _check_fits as check_fits
from core.simulator.steps import step_costs
from core.traffic.arrivals import HOUR_S, hour_arrivals
from core.traffic.goodput import measured_meets_targets
from core.traffic.replay_budget import WorkMeter

# The most requests one replay serves (the 100,000-request bench runs in about as long as a
# knob change may hold a page); a faster hour is refused with this reason instead.
MAX_REPLAY_REQUESTS = 100_000
_CACHED_REPLAYS = 16


@dataclass(frozen=True)
class Replay:
    """What the hour's requests saw on the sized pool, minute by minute (arrays are read-only).

    ``minute_ttft_p95_s[m]`` is the 95th-percentile first-token time of the requests that
    arrived in minute ``m`` (0 in a minute without arrivals); a minute *fails* when it is at or
    over the target. ``first_failing_minute`` is -1 when none fails. ``refused`` names why an
    hour was not replayed (then every figure is empty or zero).
    """

    nodes: int
    requests: int
    per_minute: np.ndarray
    minute_ttft_p95_s: np.ndarray
    minute_fails: np.ndarray
    first_failing_minute: int
    peak_minute_index: int
    ttft_p95_s: float
    goodput: float
    refused: str = ""

    @property
    def latency_ok(self) -> bool:
        """Whether the hour was replayed and its first-token p95 is under the target."""
        return not self.refused and self.ttft_p95_s < TTFT_SLO_S

    @property
    def failing_minutes(self) -> int:
        """How many minutes of the hour miss the first-token target at p95."""
        return int(self.minute_fails.sum())

    def chart_columns(self) -> dict:
        """The per-minute chart's columns: minute, arrivals, p95, and whether it fails.

        ``shade_left`` and ``shade_right`` bound the shading from the first failing minute's
        bar to the hour's end (both NaN when no minute fails); ``y_end`` leaves room above the
        tallest bar for its label.
        """
        minutes = np.arange(len(self.per_minute))
        first = self.first_failing_minute
        return {
            "minute": minutes,
            "arrivals": self.per_minute,
            "ttft_p95_s": self.minute_ttft_p95_s,
            "fails": self.minute_fails,
            "shade_left": float(first) - 0.5 if first >= 0 else float("nan"),
            "shade_right": float(len(minutes)) - 0.5 if first >= 0 else float("nan"),
            "y_end": 1.18 * float(max(self.per_minute.max(initial=0), 1)),
        }


@dataclass(frozen=True)
class LatencyCheck:
    """The pool's latency check: which first-token p95 it judged (``judged``), that p95, and
    whether it is under the target."""

    ok: bool
    ttft_p95_s: float
    judged: str  # one of LATENCY_JUDGES


LATENCY_JUDGES = ("closed form", "replayed hour")


def latency_check(result, hour: Replay | None = None) -> LatencyCheck:
    """The latency check of ``result`` (:func:`core.evaluate.evaluate`'s), judged on ``hour``.

    A pool sized for a steady rate can pass the closed form and fail the real hour's bursts,
    so a replayed hour, when there is one (not None, not refused), is the verdict; otherwise
    the closed form's p95 is.
    """
    if hour is not None and not hour.refused:
        return LatencyCheck(hour.latency_ok, hour.ttft_p95_s, LATENCY_JUDGES[1])
    return LatencyCheck(bool(result.latency_ok), float(result.ttft_p95_s), LATENCY_JUDGES[0])


def hour_requests(knobs: dict, rate_per_min: float, prompt: float, answer: float) -> Requests:
    """The hour's requests: the trace's own, or a seeded stream at ``rate_per_min``.

    Arrivals are :func:`core.traffic.arrivals.hour_arrivals`; drawn requests all carry the
    scenario's prompt and answer lengths.
    """
    traffic = knobs["traffic"]
    if traffic in TRACES:
        trace = load_trace(traffic)
        answers = trace.answer_tokens
        return Requests(trace.arrival_s, trace.prompt_tokens, answers, answers)
    arrival = hour_arrivals(traffic, float(rate_per_min), float(knobs["burstiness"]))
    n = len(arrival)
    prompts = np.full(n, max(round(prompt), 1), dtype=np.int64)
    answers = np.full(n, max(round(answer), 1), dtype=np.int64)
    return Requests(arrival, prompts, answers, answers)


def replay(scenario: Scenario, result=None) -> Replay:
    """The hour of ``scenario``'s traffic served by the nodes the closed form sized.

    ``result`` is ``scenario``'s :func:`core.evaluate.evaluate` when the caller holds it (a
    lab does): the replay then evaluates nothing; otherwise it evaluates once. Cached per
    process by the scenario's knobs: the same knobs give the same record at once.
    """
    items = tuple(sorted(scenario.knobs().items(), key=lambda item: item[0]))
    return _replay(items, Unkeyed(result))


@functools.lru_cache(maxsize=_CACHED_REPLAYS)
def _replay(items: tuple, held: Unkeyed) -> Replay:
    knobs = dict(items)
    scenario = Scenario(**knobs)
    sized = held.value if held.value is not None else evaluate(scenario)
    nodes = int(sized.nodes)
    expected = sized.arrivals_per_min * 60.0
    if knobs["traffic"] in TRACES:
        expected = load_trace(knobs["traffic"]).requests
    if nodes > MAX_NODES:
        return _refused(nodes, f"the pool needs {nodes} nodes; the step engine runs {MAX_NODES}")
    if expected > MAX_REPLAY_REQUESTS:
        return _refused(nodes, f"the hour holds ~{expected:,.0f} requests; a replay serves "
                        f"{MAX_REPLAY_REQUESTS:,}")  # fmt: skip
    if sized.seats_granted < 1:
        return _refused(nodes, "no request fits in the node's memory")
    workload = hour_requests(knobs, sized.arrivals_per_min, sized.seat_tokens - sized.answer_tokens,
                             sized.answer_tokens)  # fmt: skip
    meter = WorkMeter(int(sized.seats_granted))
    try:
        run = serve_hour(scenario, workload, nodes, knobs["router"], sized.request_s, sized, meter)
    except ValueError as error:  # a request that fits no node, or an hour past the work bound
        return _refused(nodes, str(error))
    return _summarise(nodes, workload, run, knobs["tpot_slo_s"])


@dataclass(frozen=True)
class HourRun:
    """Each request's first and last token on the replayed pool: all a replay reads of a run
    (its goodput is :func:`core.traffic.goodput.measured_goodput`)."""

    first_token_s: np.ndarray
    finish_s: np.ndarray
    ttft_s: np.ndarray
    answer_tokens: np.ndarray


def serve_hour(scenario, workload: Requests, nodes: int, router: str, service_s: float,
               result=None, meter: WorkMeter | None = None) -> HourRun:  # fmt: skip
    """The hour on ``nodes`` continuous-batching, paged nodes, each request where ``router`` sends it.

    The same runs :func:`core.simulator.simulate` serves (round-robin) or the router's shares,
    keeping only each request's first and last token, not every token's time. ``result`` is
    ``scenario``'s evaluation, when held (the step costs read it instead of evaluating again).
    A ``meter`` (:class:`core.traffic.replay_budget.WorkMeter`) bounds the work: reckoned
    before the first node runs, then counted as they run; past it, ``ReplayTooLong``.
    """
    costs = step_costs(scenario, result)
    check_fits(workload, "paged", costs)
    replica = hour_replicas(scenario, workload, nodes, router, service_s)
    if meter is not None:
        step_s = float(np.asarray(costs.read_s(0.0, 1)))
        meter.expect(replica, workload.answer_tokens, nodes, step_s, scenario.seats, service_s)
    check = meter.check if meter is not None else None
    first, finish = np.zeros(len(workload)), np.zeros(len(workload))
    for node in range(nodes):
        ids = np.flatnonzero(replica == node)
        if len(ids) == 0:
            continue
        share = workload if nodes == 1 else workload.subset(ids)
        scheduler = Scheduler(costs, share, "continuous", "paged", scenario.seats, 0.0, 0)
        node_run = scheduler.serve(check)
        if meter is not None:
            meter.node_done(node_run)
        first[ids], finish[ids] = node_run.token_bounds()
    return HourRun(first, finish, first - workload.arrival_s, workload.answer_tokens)


def hour_replicas(scenario, workload: Requests, nodes: int, router: str,
                  service_s: float) -> np.ndarray:  # fmt: skip
    """The node each of the hour's requests goes to under ``router``."""
    n = len(workload)
    if router == "round-robin" or nodes == 1:
        replica = np.arange(n) % nodes
    else:
        gap_s = float(scenario.think_time_s) + service_s  # the scenario's sessions, as the fleet's
        sessions = hour_sessions(n, scenario.session_turns, gap_s)
        replica = route(router, workload.arrival_s, service_s, nodes, sessions)
    return replica


def _summarise(nodes: int, workload: Requests, run, tpot_slo_s: float) -> Replay:
    """Per-minute arrivals and first-token tails, the hour's p95 and its goodput."""
    minute = (workload.arrival_s // 60.0).astype(np.int64)
    per_minute = np.bincount(minute, minlength=int(np.ceil(HOUR_S / 60)))
    order = np.lexsort((run.ttft_s, minute))
    sorted_minutes, sorted_ttft = minute[order], run.ttft_s[order]
    starts = np.searchsorted(sorted_minutes, np.arange(len(per_minute)))
    counts = per_minute
    rank = starts + np.maximum(np.ceil(TTFT_PERCENTILE * counts).astype(np.int64) - 1, 0)
    tails = np.where(counts > 0, sorted_ttft[np.minimum(rank, len(sorted_ttft) - 1)], 0.0)
    fails = tails >= TTFT_SLO_S
    good = measured_meets_targets(run, tpot_slo_s)
    return Replay(
        nodes=nodes,
        requests=len(workload),
        per_minute=_frozen(per_minute),
        minute_ttft_p95_s=_frozen(tails),
        minute_fails=_frozen(fails),
        first_failing_minute=int(np.argmax(fails)) if fails.any() else -1,
        peak_minute_index=int(per_minute.argmax()),
        ttft_p95_s=float(np.quantile(run.ttft_s, TTFT_PERCENTILE, method="inverted_cdf")),
        goodput=float(good.mean()),
    )


def _refused(nodes: int, reason: str) -> Replay:
    empty = _frozen(np.zeros(0))
    return Replay(nodes, 0, empty, empty, _frozen(np.zeros(0, bool)), -1, 0, 0.0, 0.0, reason)


def _frozen(array: np.ndarray) -> np.ndarray:
    array.setflags(write=False)
    return array
