"""What a simulated run served: the result record and how node traces become one."""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.simulator.requests import Requests
from core.simulator.steps import StepCosts

# A gap this many times the median ITL is drawn as a stall (a display threshold, not a constant
# of the model: at 3x no ordinary step, whose read grows slowly, comes close).
STALL_FACTOR = 3.0


@dataclass(frozen=True)
class SimulationResult:
    """What one simulated run served: per-request records and the run's aggregates.

    Times are seconds from time 0. Per request (arrays of length ``requests``):
    ``arrival_s``, ``admit_s`` (first admission), ``first_token_s``, ``finish_s``,
    ``ttft_s``, ``transfer_s`` (seconds its cache spent on the link between a prefill and a
    decode node; 0 unless disaggregated); every token's time is in ``token_s``, request
    ``i``'s tokens at ``token_s[token_offsets[i]:token_offsets[i + 1]]`` (see
    :meth:`token_times`).

    ``segments`` holds one row per stay of a request in a seat: ``request``, ``node``,
    ``seat`` (numbered across the nodes: node ``k``'s seats follow node ``k - 1``'s),
    ``start_s`` (admission), ``first_token_s`` (its first token there: the end of the step
    that finished its prompt), ``end_s`` (its last token there, or its preemption),
    ``held_s`` (when the seat was free again: the wave's end under static batching),
    ``tokens``, ``preempted`` and ``wave`` (static waves, numbered from 0; -1 otherwise).
    ``node_roles`` names each node's job ("serve", "prefill" or "decode") and
    ``node_seats`` its seats.

    ``peak_seats`` is the most seats that ran at once on one node; ``memory_stalls`` counts
    the step boundaries at which a waiting request found a free seat but no memory (the
    memory wall); ``idle_seat_s`` is the seat-seconds static waves held idle behind their
    stragglers.

    Notes
    -----
    Output throughput is the answer tokens over the span from the first arrival to the last
    token. TTFT is first token minus arrival; inter-token latency is the gap between a
    request's consecutive tokens, pooled over every request (under disaggregation the gap
    after the first token includes the cache's transfer). KV waste is time-averaged:

    .. math:: w = 1 - \\frac{\\int K_{used}\\,dt}{\\int K_{allocated}\\,dt}

    where :math:`K_{used}` counts the cache of requests still writing and
    :math:`K_{allocated}` what the layout has set aside: every reservation (under static
    batching a wave's reservations are held until the wave ends) or every allocated block.
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
    transfer_s: np.ndarray
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
    itl_p99_s: float
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
    mode: str = "aggregated"
    chunk_tokens: int = 0
    node_roles: tuple = ("serve",)
    node_seats: tuple = ()

    def token_times(self, request: int) -> np.ndarray:
        """The time of every token request ``request`` wrote, in order."""
        return self.token_s[self.token_offsets[request] : self.token_offsets[request + 1]]

    def itl_s(self) -> np.ndarray:
        """Every gap between two consecutive tokens of one request, pooled over the requests."""
        return token_gaps(self.token_s, self.token_offsets)

    def stalls(self, factor: float = STALL_FACTOR) -> dict:
        """Gaps of at least ``factor`` times the median ITL inside one stay, with their seats.

        A stay's tokens come one a step, so such a gap is a step some other work stretched:
        a whole prompt's prefill on an aggregated node, a chunk on a chunked one. Returns
        arrays ``request``, ``seat``, ``start_s`` and ``end_s``, longest first.
        """
        gaps = np.diff(self.token_s)
        within = np.ones(gaps.size, dtype=bool)
        within[self.token_offsets[1:-1] - 1] = False
        index = np.flatnonzero(within & (gaps >= factor * self.itl_p50_s) & (gaps > 0))
        request = np.searchsorted(self.token_offsets, index, side="right") - 1
        start, end = self.token_s[index], self.token_s[index + 1]
        seg = self.segments
        order = np.lexsort((seg["start_s"], seg["request"]))
        stay_request, stay_start = seg["request"][order], seg["start_s"][order]
        # The stay holding the gap: the request's last stay admitted before the gap began.
        last = np.searchsorted(stay_request, request, side="right") - 1
        first = np.searchsorted(stay_request, request, side="left")
        seat = np.full(index.size, -1, dtype=np.int64)
        for k in range(index.size):
            stays = slice(first[k], last[k] + 1)
            here = np.searchsorted(stay_start[stays], start[k], side="right") - 1
            if here >= 0:
                stay = order[first[k] + here]
                if seg["first_token_s"][stay] <= start[k]:
                    seat[k] = seg["seat"][stay]
        keep = seat >= 0
        longest = np.argsort(-(end - start)[keep], kind="stable")
        return {
            "request": request[keep][longest],
            "seat": seat[keep][longest],
            "start_s": start[keep][longest],
            "end_s": end[keep][longest],
        }

    def mean_ttft(self, min_prompt_tokens: int = 0) -> float:
        """Mean TTFT of the requests whose prompt has at least ``min_prompt_tokens`` (0: none)."""
        chosen = self.prompt_tokens >= min_prompt_tokens
        return float(self.ttft_s[chosen].mean()) if chosen.any() else 0.0

    def time_split(self) -> dict:
        """Mean seconds of a request's life by phase: waiting, first token, transfer, decoding.

        Notes
        -----
        Waiting ends at the first admission (to a seat, or to a prefill node); the first token
        follows its prompt's prefill; the transfer is the cache's time on the link; decoding
        is the rest, up to the last token.
        """
        waiting = self.admit_s - self.arrival_s
        first = self.first_token_s - self.admit_s
        decoding = self.finish_s - self.first_token_s - self.transfer_s
        return {
            "waiting": float(waiting.mean()),
            "first token": float(first.mean()),
            "KV transfer": float(self.transfer_s.mean()),
            "decoding": float(np.maximum(decoding, 0.0).mean()),
        }


def token_gaps(token_s: np.ndarray, offsets: np.ndarray) -> np.ndarray:
    """The gaps between consecutive tokens of each request (none across two requests)."""
    gaps = np.diff(token_s)
    within = np.ones(gaps.size, dtype=bool)
    within[offsets[1:-1] - 1] = False
    return gaps[within]


def percentiles(values: np.ndarray, qs: tuple) -> list[float]:
    """The ``qs``-th percentiles of ``values`` (0 for none), in one partition of the array."""
    if not values.size:
        return [0.0] * len(qs)
    return [float(value) for value in np.percentile(values, qs)]


@dataclass(frozen=True)
class Part:
    """One node's trace and where it sits in the whole run.

    ``ids`` maps the node's requests to the run's; ``skip`` is how many of each request's
    tokens came before this node (1 on a decode node: the prefill node wrote the first).
    """

    trace: dict
    ids: np.ndarray
    answers: np.ndarray
    skip: int
    role: str
    seats: int


def node_tokens(trace: dict) -> np.ndarray:
    """Every token's time on one node, its requests in order: a stay writes one per step."""
    ends = trace["ends"]
    order = np.lexsort((trace["first_step"], trace["request"]))
    lengths = trace["tokens"][order]
    starts = np.cumsum(lengths) - lengths
    step_index = np.arange(int(lengths.sum())) - np.repeat(
        starts - trace["first_step"][order], lengths
    )
    return ends[step_index]


SEGMENT_KEYS = ("request", "node", "seat", "start_s", "end_s", "first_step", "tokens",
                "preempted", "wave", "first_token_s", "held_s")  # fmt: skip


def assemble(
    costs: StepCosts,
    req: Requests,
    parts: list[Part],
    *,
    policy: str,
    layout: str,
    batch: int,
    mode: str,
    chunk_tokens: int = 0,
    transfer_s=None,
    joins=None,
) -> SimulationResult:
    """Put the nodes' traces together into one :class:`SimulationResult`.

    ``transfer_s`` is each request's time on the link; ``joins`` the extra moments requests
    join a queue (a decode node's arrivals).
    """
    n = len(req)
    offsets = np.concatenate([[0], np.cumsum(req.answer_tokens)])
    token_s, seg, admit_s, totals = _gather(req, parts, offsets, policy)
    return SimulationResult(
        policy=policy,
        kv_layout=layout,
        batch_size=batch,
        requests=n,
        arrival_s=req.arrival_s,
        prompt_tokens=req.prompt_tokens,
        answer_tokens=req.answer_tokens,
        admit_s=admit_s,
        transfer_s=np.zeros(n) if transfer_s is None else np.asarray(transfer_s, dtype=float),
        token_offsets=offsets,
        token_s=token_s,
        segments=seg,
        **_latencies(req, token_s, offsets),
        **_queue(req, seg, joins),
        **_occupancy(costs, totals, seg, policy),
        mode=mode,
        chunk_tokens=int(chunk_tokens),
        node_roles=tuple(part.role for part in parts),
        node_seats=tuple(part.seats for part in parts),
    )


def _gather(req: Requests, parts: list[Part], offsets: np.ndarray, policy: str):
    """Every token's time, the stays of every node, first admissions and the run totals."""
    n = len(req)
    token_s = np.empty(int(offsets[-1]))
    segments: dict[str, list] = {key: [] for key in SEGMENT_KEYS}
    admit_s = np.full(n, np.inf)
    seat_base = 0
    totals = {"busy_s": 0.0, "used": 0.0, "allocated": 0.0, "seat_s": 0.0}
    totals |= {"steps": 0, "stalls": 0, "peak": 0}
    for node, part in enumerate(parts):
        trace = part.trace
        _place_tokens(token_s, offsets, req, part)
        _add_stays(segments, part, node, seat_base, policy)
        np.minimum.at(admit_s, part.ids, trace["admit_s"])
        seat_base += part.seats
        for key in ("busy_s", "used", "allocated", "seat_s"):
            totals[key] += trace[key]
        totals["steps"] += trace["ends"].size
        totals["stalls"] += trace["stalls"]
        totals["peak"] = max(totals["peak"], trace["peak_seats"])
    seg = {key: np.concatenate(values) for key, values in segments.items()}
    return token_s, seg, admit_s, totals


def _place_tokens(token_s: np.ndarray, offsets: np.ndarray, req: Requests, part: Part) -> None:
    """Write one node's token times into the run's, at its requests' places."""
    n = len(req)
    times = node_tokens(part.trace)
    whole = len(part.ids) == n and np.array_equal(part.answers, req.answer_tokens)
    if part.skip == 0 and whole and np.array_equal(part.ids, np.arange(n)):
        token_s[:] = times
    else:
        local = np.concatenate([[0], np.cumsum(part.answers)])
        base = offsets[part.ids] + part.skip - local[:-1]
        token_s[np.repeat(base, part.answers) + np.arange(int(local[-1]))] = times


def _add_stays(segments: dict, part: Part, node: int, seat_base: int, policy: str) -> None:
    """Append one node's stays, numbered in the run's requests and seats."""
    trace = part.trace
    ends = trace["ends"]
    first_step = np.minimum(trace["first_step"], max(ends.size - 1, 0))
    wave = trace["wave"]
    if policy == "static" and wave.size:
        wave_end = np.zeros(int(wave.max()) + 1)
        np.maximum.at(wave_end, wave, trace["end_s"])
        held_s = wave_end[wave]
    else:
        held_s = trace["end_s"].copy()
    segments["request"].append(part.ids[trace["request"]])
    segments["node"].append(np.full(trace["request"].size, node, dtype=np.int64))
    segments["seat"].append(trace["seat"] + seat_base)
    segments["first_token_s"].append(ends[first_step] if ends.size else trace["end_s"])
    segments["held_s"].append(held_s)
    for key in ("start_s", "end_s", "first_step", "tokens", "preempted", "wave"):
        segments[key].append(trace[key])


def _latencies(req: Requests, token_s: np.ndarray, offsets: np.ndarray) -> dict:
    """First and last tokens, TTFT and ITL percentiles, output and its rate over the span."""
    first_token_s = token_s[offsets[:-1]]
    finish_s = token_s[offsets[1:] - 1]
    gaps = token_gaps(token_s, offsets)
    ttft = first_token_s - req.arrival_s
    output = int(req.answer_tokens.sum())
    span = float(finish_s.max() - req.arrival_s.min())
    ttft_tails = percentiles(ttft, (50, 95, 99))
    itl_tails = percentiles(gaps, (50, 95, 99))
    return {
        "first_token_s": first_token_s,
        "finish_s": finish_s,
        "ttft_s": ttft,
        "output_tokens": output,
        "makespan_s": span,
        "output_tokens_per_s": output / span if span > 0 else 0.0,
        **dict(zip(("ttft_p50_s", "ttft_p95_s", "ttft_p99_s"), ttft_tails, strict=True)),
        **dict(zip(("itl_p50_s", "itl_p95_s", "itl_p99_s"), itl_tails, strict=True)),
    }


def _queue(req: Requests, seg: dict, joins) -> dict:
    """The queue's length over time: arrivals, decode arrivals and preemptions join, admissions leave."""
    extra = np.zeros(0) if joins is None else np.asarray(joins, dtype=float)
    joined = np.concatenate([req.arrival_s, extra, seg["end_s"][seg["preempted"]]])
    times = np.concatenate([joined, seg["start_s"]])
    change = np.concatenate([np.ones(joined.size), -np.ones(seg["start_s"].size)])
    ordering = np.lexsort((-change, times))  # at one instant, join before leaving
    return {
        "queue_time_s": times[ordering],
        "queue_length": np.cumsum(change[ordering]).astype(np.int64),
    }


def _occupancy(costs: StepCosts, totals: dict, seg: dict, policy: str) -> dict:
    """Steps, KV use and waste, seats, preemptions, waves, idle seat time and memory stalls."""
    busy, allocated, used = totals["busy_s"], totals["allocated"], totals["used"]
    kv_bytes = costs.kv_bytes_per_token
    return {
        "steps": int(totals["steps"]),
        "kv_used_bytes": used / busy * kv_bytes if busy else 0.0,
        "kv_allocated_bytes": allocated / busy * kv_bytes if busy else 0.0,
        "kv_waste": 1.0 - used / allocated if allocated > 0 else 0.0,
        "kv_budget_bytes": costs.kv_budget_bytes,
        "peak_seats": int(totals["peak"]),
        "mean_seats": totals["seat_s"] / busy if busy else 0.0,
        "preemptions": int(seg["preempted"].sum()),
        "waves": int(seg["wave"].max()) + 1 if policy == "static" else 0,
        "idle_seat_s": float((seg["held_s"] - seg["end_s"]).sum()),
        "memory_stalls": int(totals["stalls"]),
    }
