"""A step-level inference engine: requests arrive, a scheduler batches them, tokens come out.

The simplified engine an interview asks for (request batching, per-batch inference,
token-level result collection), simulated step by step on the capacity model's timing:

- **Requests** arrive as a seeded Poisson stream, or all at once for an offline batch, each
  with a prompt and an answer length drawn from a chosen distribution (:func:`draw_requests`).
- **Schedulers.** *Static* fills a wave up to ``B`` seats (or until the oldest request has
  waited ``wait_cap_s``, or memory is full) and runs it until its last request finishes;
  seats whose request is done sit idle until then. *Continuous* retires finished requests
  and admits waiting ones at every step.
- **KV layouts.** *Reserved* sets aside each request's prompt plus its largest possible answer
  on admission. *Paged* allocates 16-token blocks as tokens are written; when the blocks run
  out mid-run the most recently admitted request is preempted, its blocks freed, and it is
  re-admitted later by recomputing its prompt and the tokens it already wrote (vLLM's
  default recompute preemption). Either way admission stops when memory is out, not only at
  ``B``: that is the memory wall.
- **Steps.** A step prefills the newly admitted prompts and writes one token for every seat
  that was already running; each newly admitted request's first token comes out of its
  prefill in the same step. The step's duration is the prefill time plus one decode step over
  the running seats (:class:`core.steps.StepCosts`): the weight read shared by the batch plus
  the cache its seats read.

Two modelling choices, both in static batching's favour: a finished request's seat in a static
wave costs no reads and no arithmetic while it waits (padded engines keep computing such rows),
and a wave's prompts are prefilled together in one step. With every answer the same length
there is no straggler and static batching keeps pace with continuous batching (continuous can
even trail by a weight read per admission, under 2 %); the gap comes from answer variance.

Speed: between two events (a request finishes, an arrival can be admitted, paged memory
runs out) the running set does not change, and its cache grows by one token per seat per
step, so the steps of such a run are an arithmetic series priced in one vectorised call.
Per-token times stay exact: every seat writes exactly one token per step it runs.
"""

from __future__ import annotations

import bisect
import heapq
import itertools
import math
from dataclasses import dataclass, field

import numpy as np

from core.evaluate import evaluate
from core.scenario import Scenario
from core.steps import StepCosts, step_costs
from core.validation import check_array, check_choice, knob_error

POLICIES = ("static", "continuous")
KV_LAYOUTS = ("reserved", "paged")
ARRIVALS = ("poisson", "offline")
ANSWER_SHAPES = ("fixed", "exponential", "capped exponential", "uniform")

# An engine cannot reserve for an unbounded answer: the uncapped exponential is cut at this
# many times its mean (one answer in e^16, about nine million, reaches it) and a reserved
# layout reserves all of it.
UNCAPPED_CEILING = 16
# The published static-vs-continuous benchmark caps answers at 1,536 tokens (Anyscale,
# "How continuous batching enables 23x throughput in LLM inference", 2023).
DEFAULT_ANSWER_CAP = 1536
DEFAULT_WAIT_CAP_S = 0.5
MAX_REQUESTS = 1_000_000


@dataclass(frozen=True)
class Requests:
    """A stream of requests, sorted by arrival: what every scheduler is asked to serve.

    ``max_answer_tokens`` is each request's generation limit (its ``max_tokens``), the answer
    length a reserved layout must set room aside for.
    """

    arrival_s: np.ndarray
    prompt_tokens: np.ndarray
    answer_tokens: np.ndarray
    max_answer_tokens: np.ndarray

    def __len__(self) -> int:
        return len(self.arrival_s)


def _check_int(name, value, low, high=None):
    check_array(name, value, (low, high), integer=True)
    return int(value)


def _check_number(name, value, low, high, inclusive=(True, True)):
    check_array(name, value, (low, high), inclusive)
    return float(value)


def answer_ceiling(answer: str, answer_mean: float, answer_cap: int) -> int:
    """The longest answer a distribution can draw: what a reserved layout reserves.

    ``fixed`` is its mean, ``uniform`` is ``2 mean - 1``, ``capped exponential`` its cap, and
    the uncapped ``exponential`` is cut at ``UNCAPPED_CEILING`` times its mean.
    """
    mean = round(answer_mean)
    if answer == "fixed":
        return mean
    if answer == "uniform":
        return 2 * mean - 1
    if answer == "capped exponential":
        return int(answer_cap)
    return UNCAPPED_CEILING * mean


def draw_requests(
    count: int = 1000,
    seed: int = 0,
    *,
    arrival: str = "poisson",
    rate_per_s: float = 4.0,
    prompt_tokens: int = 512,
    answer: str = "capped exponential",
    answer_mean: float = 128,
    answer_cap: int = DEFAULT_ANSWER_CAP,
) -> Requests:
    """Draw ``count`` requests: arrival times, prompt lengths and answer lengths.

    Parameters
    ----------
    count : int
        Requests, 1 to 1,000,000.
    seed : int
        Seed of the draw; the same seed gives the same requests. Arrivals and answers come
        from separate streams, so changing the arrival mode keeps the answers.
    arrival : {"poisson", "offline"}
        A Poisson stream at ``rate_per_s``, or every request waiting at time 0.
    rate_per_s : float
        Mean arrivals per second of the Poisson stream.
    prompt_tokens : int
        Tokens of every prompt.
    answer : {"fixed", "exponential", "capped exponential", "uniform"}
        Shape of the answer lengths, of mean ``answer_mean``.
    answer_mean, answer_cap : float, int
        Mean answer tokens; the cap of the capped exponential.

    Notes
    -----
    Exponential answers are geometric (the exponential's whole-token twin, every answer at
    least one token, mean exactly :math:`\\mu`); the capped shape is
    :math:`\\min(\\mathrm{cap}, \\mathrm{Geom}(1/\\mu))`, whose mean falls just below
    :math:`\\mu` when the cap bites. Uniform answers are whole numbers from 1 to
    :math:`2\\mu - 1`. Poisson inter-arrival gaps are exponential of mean :math:`1/\\lambda`.
    """
    count = _check_int("requests", count, 1, MAX_REQUESTS)
    seed = _check_int("seed", seed, 0, 2**32 - 1)
    arrival = str(check_choice("arrival", arrival, ARRIVALS))
    answer = str(check_choice("answer", answer, ANSWER_SHAPES))
    rate_per_s = _check_number("arrival_rate_per_s", rate_per_s, 0.0, 1e6, (False, True))
    prompt_tokens = _check_int("prompt_tokens", prompt_tokens, 1, 4_000_000)
    answer_mean = _check_number("answer_mean", answer_mean, 1.0, 100_000.0)
    answer_cap = _check_int("answer_cap", answer_cap, 1, 1_000_000)

    arrivals_rng, answers_rng = (
        np.random.default_rng(child) for child in np.random.SeedSequence(seed).spawn(2)
    )
    if arrival == "poisson":
        arrival_s = np.cumsum(arrivals_rng.exponential(1.0 / rate_per_s, count))
    else:
        arrival_s = np.zeros(count)
    ceiling = answer_ceiling(answer, answer_mean, answer_cap)
    mean = round(answer_mean)
    if answer == "fixed":
        answers = np.full(count, mean, dtype=np.int64)
    elif answer == "uniform":
        answers = answers_rng.integers(1, 2 * mean, count, endpoint=False)
    else:
        answers = np.minimum(answers_rng.geometric(1.0 / max(answer_mean, 1.0), count), ceiling)
    answers = np.maximum(answers.astype(np.int64), 1)
    return Requests(
        arrival_s=arrival_s,
        prompt_tokens=np.full(count, prompt_tokens, dtype=np.int64),
        answer_tokens=answers,
        max_answer_tokens=np.full(count, max(ceiling, 1), dtype=np.int64),
    )


@dataclass(frozen=True)
class EngineResult:
    """What one simulated run served: per-request records and the run's aggregates.

    Times are seconds from time 0. Per request (arrays of length ``requests``):
    ``arrival_s``, ``admit_s`` (first admission), ``first_token_s``, ``finish_s``,
    ``ttft_s``; every token's time is in ``token_s``, request ``i``'s tokens at
    ``token_s[token_offsets[i]:token_offsets[i + 1]]`` (see :meth:`token_times`).

    ``segments`` holds one row per stay of a request in a seat: ``request``, ``seat``,
    ``start_s`` (admission), ``first_token_s`` (its first token there: the end of the step
    that prefilled it), ``end_s`` (its last token there, or its preemption),
    ``held_s`` (when the seat was free again: the wave's end under static batching),
    ``tokens``, ``preempted`` and ``wave`` (static waves, numbered from 0; -1 otherwise).

    ``peak_seats`` is the most seats that ran at once; ``memory_stalls`` counts the step
    boundaries at which a waiting request found a free seat but no memory (the memory wall);
    ``idle_seat_s`` is the seat-seconds static waves held idle behind their stragglers.
    """

    policy: str
    kv_layout: str
    batch_size: int
    requests: int
    arrival_s: np.ndarray
    prompt_tokens: np.ndarray
    answer_tokens: np.ndarray
    admit_s: np.ndarray
    first_token_s: np.ndarray
    finish_s: np.ndarray
    ttft_s: np.ndarray
    token_offsets: np.ndarray
    token_s: np.ndarray
    segments: dict = field(repr=False)
    steps: int
    output_tokens: int
    makespan_s: float
    output_tokens_per_s: float
    ttft_p50_s: float
    ttft_p95_s: float
    ttft_p99_s: float
    itl_p50_s: float
    itl_p95_s: float
    queue_time_s: np.ndarray
    queue_length: np.ndarray
    kv_used_bytes: float
    kv_allocated_bytes: float
    kv_waste: float
    kv_budget_bytes: float
    peak_seats: int
    mean_seats: float
    preemptions: int
    waves: int
    idle_seat_s: float
    memory_stalls: int

    def token_times(self, request: int) -> np.ndarray:
        """The time of every token request ``request`` wrote, in order."""
        return self.token_s[self.token_offsets[request] : self.token_offsets[request + 1]]


def simulate(
    scenario: Scenario | None = None,
    policy: str = "static",
    kv_layout: str = "reserved",
    requests: int = 1000,
    seed: int = 0,
    *,
    batch_size: int | None = None,
    wait_cap_s: float = DEFAULT_WAIT_CAP_S,
    arrival: str = "poisson",
    arrival_rate_per_s: float | None = None,
    prompt_tokens: int | None = None,
    answer: str = "capped exponential",
    answer_mean: float | None = None,
    answer_cap: int = DEFAULT_ANSWER_CAP,
    workload: Requests | None = None,
    costs: StepCosts | None = None,
) -> EngineResult:
    """Run the engine on ``requests`` requests and report what every one of them saw.

    Parameters
    ----------
    scenario : Scenario, optional
        The node: model (or tier), card, cards, weight and KV storage. It also gives the
        defaults of ``batch_size`` (its seats), ``prompt_tokens``, ``answer_mean`` (its
        answer tokens) and ``arrival_rate_per_s`` (its peak-minute rate).
    policy : {"static", "continuous"}
    kv_layout : {"reserved", "paged"}
    requests : int
        How many requests to draw (ignored when ``workload`` is given).
    seed : int
        Seed of the draw; the run is deterministic for a given seed.
    batch_size : int, optional
        Most seats the scheduler runs at once, 1 to 4,096; memory may grant fewer.
    wait_cap_s : float
        Static only: the longest the oldest waiting request waits for its wave to fill.
    arrival, arrival_rate_per_s, prompt_tokens, answer, answer_mean, answer_cap
        The request stream, as in :func:`draw_requests`.
    workload : Requests, optional
        Serve these requests instead of drawing them (to run several policies on the same
        arrivals).
    costs : StepCosts, optional
        Precomputed step costs of ``scenario`` (saves one evaluation).

    Returns
    -------
    EngineResult

    Raises
    ------
    ValueError
        For a bad argument, naming it, its value and the allowed range; or when one request
        at its largest cannot fit in the node's KV room.

    Notes
    -----
    Output throughput is the answer tokens over the span from the first arrival to the last
    token. TTFT is first token minus arrival; inter-token latency is the gap between a
    request's consecutive tokens, pooled over every request. KV waste is time-averaged:

    .. math:: w = 1 - \\frac{\\int K_{used}\\,dt}{\\int K_{allocated}\\,dt}

    where :math:`K_{used}` counts the cache of requests still writing and
    :math:`K_{allocated}` what the layout has set aside: every reservation (under static
    batching a wave's reservations are held until the wave ends) or every allocated block.
    """
    scenario = scenario or Scenario()
    policy = str(check_choice("policy", policy, POLICIES))
    kv_layout = str(check_choice("kv_layout", kv_layout, KV_LAYOUTS))
    costs = costs or step_costs(scenario)
    if batch_size is None:
        batch_size = scenario.seats
    batch_size = _check_int("batch_size", batch_size, 1, 4096)
    wait_cap_s = _check_number("wait_cap_s", wait_cap_s, 0.0, 3600.0)
    if workload is None:
        knobs = scenario.knobs()
        if arrival_rate_per_s is None or answer_mean is None:
            base = _scenario_defaults(scenario)
            arrival_rate_per_s = base[0] if arrival_rate_per_s is None else arrival_rate_per_s
            answer_mean = base[1] if answer_mean is None else answer_mean
        workload = draw_requests(
            requests,
            seed,
            arrival=arrival,
            rate_per_s=arrival_rate_per_s,
            prompt_tokens=knobs["prompt_tokens"] if prompt_tokens is None else prompt_tokens,
            answer=answer,
            answer_mean=answer_mean,
            answer_cap=answer_cap,
        )
    _check_fits(workload, kv_layout, costs)
    return _run(costs, workload, policy, kv_layout, batch_size, wait_cap_s)


def _scenario_defaults(scenario: Scenario) -> tuple[float, float]:
    result = evaluate(scenario)
    return max(result.arrivals_per_s, 1e-6), max(float(result.answer_tokens), 1.0)


def _check_fits(workload: Requests, kv_layout: str, costs: StepCosts) -> None:
    """Refuse a stream whose largest request cannot fit in the KV room on its own."""
    if kv_layout == "reserved":
        largest = int((workload.prompt_tokens + workload.max_answer_tokens).max())
        room = costs.kv_budget_tokens
    else:
        largest_tokens = int((workload.prompt_tokens + workload.answer_tokens).max())
        largest = math.ceil(largest_tokens / costs.block_tokens) * costs.block_tokens
        room = costs.kv_budget_blocks * costs.block_tokens
    if largest > room:
        raise knob_error(
            "prompt_tokens + answer_cap",
            largest,
            f"at most {room:,} tokens: the KV room of this node holds no more for one request",
        )


class _Runs:
    """One row per run of steps with an unchanging set of seats: enough to rebuild each step.

    Step ``j`` of a run (0-based) lasts ``first_s`` for ``j = 0`` and
    ``max(alpha + beta * j, gamma)`` after; the seats hold ``held + seats * (j + 1)`` tokens
    once it ends; a paged run starts with ``blocks`` blocks and gains, at global step ``g``,
    ``phases[g % block]`` more.
    """

    def __init__(self):
        self.start_s: list[float] = []
        self.steps: list[int] = []
        self.first_s: list[float] = []
        self.alpha: list[float] = []
        self.beta: list[float] = []
        self.gamma: list[float] = []
        self.held: list[int] = []
        self.seats: list[int] = []
        self.alloc: list[float] = []  # reserved tokens set aside during the run
        self.blocks: list[int] = []
        self.phases: list[list[int]] = []


class _Stays:
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


def _tail_s(steps: int, alpha: float, beta: float, gamma: float, knee: float) -> float:
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


def _run(
    costs: StepCosts, req: Requests, policy: str, layout: str, batch: int, wait_cap: float
) -> EngineResult:
    """The event loop: admissions, preemptions and runs of steps, one event at a time.

    Running seats all advance one token per step, so the loop keeps only aggregates of them:
    ``held`` (their cached tokens), a heap of the global step at which each writes its last
    token and, for the paged layout, ``blocks`` (their blocks) and ``phases`` (how many of
    them need a fresh block at a global step of each residue mod the block size: a seat
    holding :math:`T` tokens before global step :math:`g` needs one when
    :math:`T \\equiv 0 \\pmod{b}`, a residue of :math:`g` fixed for its whole stay). A run
    ends at the first finish, at the boundary after an arrival that can be admitted, or
    before the step paged memory cannot hold; its duration is summed in closed form
    (:func:`_tail_s`) and its steps are rebuilt vectorised afterwards.
    """
    n = len(req)
    arrival = req.arrival_s.tolist()
    prompt = req.prompt_tokens.tolist()
    answer = req.answer_tokens.tolist()
    reserve = (req.prompt_tokens + req.max_answer_tokens).tolist()
    block = costs.block_tokens
    paged = layout == "paged"
    static = policy == "static"
    capacity = costs.kv_budget_blocks if paged else costs.kv_budget_tokens
    base, per_token, token_flop_s = costs.decode_terms(1)

    generated = [0] * n  # tokens written before the request's current stay began
    admit_s = [math.nan] * n
    seat_of = [0] * n
    start_of = [0.0] * n
    first_step_of = [0] * n
    finish_step_of = [-1] * n
    phase_of = [0] * n
    runs, stays = _Runs(), _Stays()
    requeued: list[tuple[float, int]] = []  # preempted requests, in arrival order
    head = 0  # next fresh request (in arrival order) not yet admitted
    running: dict[int, None] = {}  # in admission order, oldest first
    finishing: list[tuple[int, int]] = []  # (global step of the last token, request)
    free_seats = list(range(batch))
    held = 0  # tokens the running seats hold
    blocks = 0  # blocks the running seats hold (paged)
    reserved = 0  # tokens the running seats reserve (reserved)
    phases = [0] * block
    wave = -1
    wave_alloc = 0.0  # static + reserved: the wave's reservations, held until it ends
    t = 0.0
    done = 0
    steps_done = 0
    stalls = 0  # boundaries at which memory, not the seats, refused a waiting request

    def queued(limit: int) -> list[int]:
        """Up to ``limit`` waiting requests, highest priority first."""
        out = [request for _, request in requeued[:limit]]
        if len(out) < limit:
            arrived = bisect.bisect_right(arrival, t, lo=head)
            out.extend(range(head, min(arrived, head + limit - len(out))))
        return out

    def plan(room: int) -> tuple[list[int], bool]:
        """The waiting requests seats and memory admit now, and whether memory stopped them."""
        chosen: list[int] = []
        for request in queued(batch - len(running)):
            tokens = prompt[request] + generated[request]
            cost = -(-(tokens + 1) // block) if paged else reserve[request]
            if cost > room:
                return chosen, True
            room -= cost
            chosen.append(request)
        return chosen, False

    def leave(request: int, preempted: bool) -> None:
        nonlocal held, blocks, reserved
        written = steps_done - first_step_of[request]
        tokens = prompt[request] + generated[request] + written
        held -= tokens
        if paged:
            blocks -= -(-tokens // block)
            phases[phase_of[request]] -= 1
        else:
            reserved -= reserve[request]
        stays.request.append(request)
        stays.seat.append(seat_of[request])
        stays.start_s.append(start_of[request])
        stays.end_s.append(t)
        stays.first_step.append(first_step_of[request])
        stays.tokens.append(written)
        stays.preempted.append(preempted)
        stays.wave.append(wave if static else -1)
        generated[request] += written
        finish_step_of[request] = -1
        del running[request]
        if not static:
            heapq.heappush(free_seats, seat_of[request])

    while done < n:
        # Paged memory runs out as the seats grow: preempt the newest until the next step fits.
        while paged and running and blocks + phases[(steps_done + 1) % block] > capacity:
            victim = next(reversed(running))
            leave(victim, True)
            bisect.insort(requeued, (arrival[victim], victim))

        # Admission.
        new: list[int] = []
        if static and not running:
            if not requeued and arrival[head] > t:
                t = arrival[head]
                continue
            chosen, full = plan(capacity)
            stalls += full
            oldest = requeued[0][0] if requeued else arrival[head]
            # A real engine cannot know no one else is coming: a short wave waits its cap.
            if len(chosen) < batch and not full and t < oldest + wait_cap:
                upcoming = bisect.bisect_right(arrival, t, lo=head)
                t = min(arrival[upcoming] if upcoming < n else math.inf, oldest + wait_cap)
                continue
            new = chosen
            wave += 1
            wave_alloc = float(sum(reserve[request] for request in new))
        elif not static:
            if len(running) < batch:
                need = blocks + phases[(steps_done + 1) % block] if paged else reserved
                new, blocked = plan(capacity - need)
                stalls += blocked
            if not running and not new:
                t = max(t, arrival[head])
                continue
        fresh_tokens = 0
        for request in new:
            if requeued and requeued[0][1] == request:
                requeued.pop(0)
            else:
                head += 1
            tokens = prompt[request] + generated[request]
            fresh_tokens += tokens
            held += tokens
            if paged:
                blocks += -(-tokens // block)
                phase_of[request] = (steps_done + 1 - tokens) % block
                phases[phase_of[request]] += 1
            else:
                reserved += reserve[request]
            seat_of[request] = len(running) if static else heapq.heappop(free_seats)
            start_of[request] = t
            first_step_of[request] = steps_done
            finish_step_of[request] = steps_done + answer[request] - generated[request]
            heapq.heappush(finishing, (finish_step_of[request], request))
            if math.isnan(admit_s[request]):
                admit_s[request] = t
            running[request] = None

        # One run of steps with an unchanging set of seats.
        while finish_step_of[finishing[0][1]] != finishing[0][0]:
            heapq.heappop(finishing)  # a stay that ended in preemption
        seats = len(running)
        old = seats - len(new)
        steps = finishing[0][0] - steps_done
        # Step j >= 1 reads the weights and held + seats * j cached tokens; step 0 also
        # prefills the newly admitted prompts, and only the old seats decode in it.
        alpha, beta, gamma = base + per_token * held, per_token * seats, token_flop_s * seats
        knee = (
            1.0
            if alpha + beta >= gamma
            else math.ceil((gamma - alpha) / beta)
            if beta
            else math.inf
        )
        if new:
            first = token_flop_s * fresh_tokens
            if old:
                first += max(base + per_token * (held - fresh_tokens), token_flop_s * old)
        else:
            first = max(alpha, gamma)

        # Continuous batching admits at the first step boundary after a request can start.
        if not static and seats < batch and not requeued and head < n and arrival[head] > t:
            wait = arrival[head] - t
            if first + _tail_s(steps - 1, alpha, beta, gamma, knee) >= wait:
                low, high = 1, steps  # the first step whose end reaches the arrival
                while low < high:
                    middle = (low + high) // 2
                    if first + _tail_s(middle - 1, alpha, beta, gamma, knee) >= wait:
                        high = middle
                    else:
                        low = middle + 1
                steps = low
        # Paged blocks as the seats grow; stop before the step memory cannot hold.
        if paged:
            rotation = (steps_done + 1) % block
            cycle = phases[rotation:] + phases[:rotation]
            partial = [0, *itertools.accumulate(cycle)]
            room = capacity - blocks
            if (steps // block) * seats + partial[steps % block] > room:
                cycles = room // seats if seats else 0
                extra = next(i for i in range(1, block + 1) if cycles * seats + partial[i] > room)
                steps = max(1, cycles * block + extra - 1)
            runs.blocks.append(blocks)
            runs.phases.append(list(phases))
            blocks += (steps // block) * seats + partial[steps % block]
        runs.start_s.append(t)
        runs.steps.append(steps)
        runs.first_s.append(first)
        runs.alpha.append(alpha)
        runs.beta.append(beta)
        runs.gamma.append(gamma)
        runs.held.append(held)
        runs.seats.append(seats)
        runs.alloc.append(wave_alloc if static else float(reserved))

        t += first + _tail_s(steps - 1, alpha, beta, gamma, knee)
        held += seats * steps
        steps_done += steps
        while finishing and finishing[0][0] == steps_done:
            _, request = heapq.heappop(finishing)
            if finish_step_of[request] == steps_done:
                leave(request, False)
                done += 1

    return _package(costs, req, policy, layout, batch, runs, stays, np.asarray(admit_s), stalls)


def _percentile(values: np.ndarray, q: float) -> float:
    return float(np.percentile(values, q)) if values.size else 0.0


def _rebuild_steps(runs: _Runs, paged: bool, block: int) -> dict:
    """Every step's end time, and the run's KV and seat integrals, in one vectorised pass."""
    steps = np.asarray(runs.steps, dtype=np.int64)
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
    seats = np.asarray(runs.seats, dtype=float)[run_of]
    used = float(dt @ (np.asarray(runs.held, dtype=float)[run_of] + seats * (j + 1)))
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
        "seat_s": float(dt @ seats),
    }


def _package(costs, req, policy, layout, batch, runs, stays, admit_s, stalls) -> EngineResult:
    n = len(req)
    rebuilt = _rebuild_steps(runs, layout == "paged", costs.block_tokens)
    ends = rebuilt["ends"]
    seg = {
        "request": np.asarray(stays.request, dtype=np.int64),
        "seat": np.asarray(stays.seat, dtype=np.int64),
        "start_s": np.asarray(stays.start_s, dtype=float),
        "end_s": np.asarray(stays.end_s, dtype=float),
        "first_step": np.asarray(stays.first_step, dtype=np.int64),
        "tokens": np.asarray(stays.tokens, dtype=np.int64),
        "preempted": np.asarray(stays.preempted, dtype=bool),
        "wave": np.asarray(stays.wave, dtype=np.int64),
    }
    seg["first_token_s"] = ends[seg["first_step"]]
    if policy == "static":
        wave_end = np.zeros(int(seg["wave"].max()) + 1)
        np.maximum.at(wave_end, seg["wave"], seg["end_s"])
        seg["held_s"] = wave_end[seg["wave"]]
    else:
        seg["held_s"] = seg["end_s"].copy()

    # Every token's time: a stay writes one token per step from its first step on.
    order = np.lexsort((seg["first_step"], seg["request"]))
    lengths = seg["tokens"][order]
    starts = np.cumsum(lengths) - lengths
    step_index = np.arange(int(lengths.sum())) - np.repeat(
        starts - seg["first_step"][order], lengths
    )
    token_s = ends[step_index]
    offsets = np.concatenate([[0], np.cumsum(req.answer_tokens)])
    first_token_s = token_s[offsets[:-1]]
    finish_s = token_s[offsets[1:] - 1]

    gaps = np.diff(token_s)
    within = np.ones(gaps.size, dtype=bool)
    within[offsets[1:-1] - 1] = False
    gaps = gaps[within]

    ttft = first_token_s - req.arrival_s
    output = int(req.answer_tokens.sum())
    span = float(finish_s.max() - req.arrival_s.min())
    # The queue: arrivals and preemptions join it, admissions leave it.
    joins = np.concatenate([req.arrival_s, seg["end_s"][seg["preempted"]]])
    times = np.concatenate([joins, seg["start_s"]])
    change = np.concatenate([np.ones(joins.size), -np.ones(seg["start_s"].size)])
    ordering = np.lexsort((-change, times))  # at one instant, join before leaving
    busy = rebuilt["busy_s"]
    allocated = rebuilt["allocated"]
    kv_bytes = costs.kv_bytes_per_token
    return EngineResult(
        policy=policy,
        kv_layout=layout,
        batch_size=batch,
        requests=n,
        arrival_s=req.arrival_s,
        prompt_tokens=req.prompt_tokens,
        answer_tokens=req.answer_tokens,
        admit_s=admit_s,
        first_token_s=first_token_s,
        finish_s=finish_s,
        ttft_s=ttft,
        token_offsets=offsets,
        token_s=token_s,
        segments=seg,
        steps=int(ends.size),
        output_tokens=output,
        makespan_s=span,
        output_tokens_per_s=output / span if span > 0 else 0.0,
        ttft_p50_s=_percentile(ttft, 50),
        ttft_p95_s=_percentile(ttft, 95),
        ttft_p99_s=_percentile(ttft, 99),
        itl_p50_s=_percentile(gaps, 50),
        itl_p95_s=_percentile(gaps, 95),
        queue_time_s=times[ordering],
        queue_length=np.cumsum(change[ordering]).astype(np.int64),
        kv_used_bytes=rebuilt["used"] / busy * kv_bytes if busy else 0.0,
        kv_allocated_bytes=allocated / busy * kv_bytes if busy else 0.0,
        kv_waste=1.0 - rebuilt["used"] / allocated if allocated > 0 else 0.0,
        kv_budget_bytes=costs.kv_budget_bytes,
        peak_seats=max(runs.seats),
        mean_seats=rebuilt["seat_s"] / busy if busy else 0.0,
        preemptions=int(seg["preempted"].sum()),
        waves=int(seg["wave"].max()) + 1 if policy == "static" else 0,
        idle_seat_s=float((seg["held_s"] - seg["end_s"]).sum()),
        memory_stalls=int(stalls),
    )
