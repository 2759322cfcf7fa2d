"""Prefill/decode disaggregation: a prefill pool, a KV transfer over a link, a decode pool."""

from __future__ import annotations

import heapq

import numpy as np

from core.catalog import INFINIBAND_NDR_BYTES_PER_S
from core.simulator.requests import Requests
from core.simulator.result import Part
from core.simulator.scheduler import Scheduler
from core.simulator.steps import StepCosts

LINKS = ("nvlink", "infiniband")


def link_bytes_per_s(costs: StepCosts, link: str) -> float:
    """Bytes per second one card sends the other pool: its NVLink, or one NDR InfiniBand port."""
    return costs.link_bytes_per_s if link == "nvlink" else INFINIBAND_NDR_BYTES_PER_S


def transfer_seconds(costs: StepCosts, tokens, link: str):
    """Seconds to ship ``tokens`` tokens of cache from a prefill node to a decode node.

    Notes
    -----
    Each of the node's :math:`c` cards holds its share of the cache and sends it over its own
    link (NVLink inside a server, one InfiniBand port between servers):

    .. math:: t_{KV} = \\frac{T\\,b_{kv}}{c\\,\\beta_{link}}
    """
    return np.multiply(tokens, costs.kv_bytes_per_token) / (
        costs.cards * link_bytes_per_s(costs, link)
    )


def prefill_pool(costs: StepCosts, req: Requests, nodes: int, link: str) -> dict:
    """Prefill every prompt on the first free prefill node, then ship its cache.

    A prefill node runs one prompt at a time, first come first served (prefill is bound by
    arithmetic, so batching prompts would finish the last no sooner). The prompt's last pass
    writes the first token; the cache then waits for the node's link and crosses it.
    """
    n = len(req)
    arrival = req.arrival_s.tolist()
    duration = np.asarray(costs.prefill_s(req.prompt_tokens), dtype=float).tolist()
    shipping = np.asarray(
        transfer_seconds(costs, req.prompt_tokens + 1, link), dtype=float
    ).tolist()
    free = [(0.0, node) for node in range(nodes)]
    link_free = [0.0] * nodes
    start, end, sent, node_of = [0.0] * n, [0.0] * n, [0.0] * n, [0] * n
    for request in range(n):
        ready, node = heapq.heappop(free)
        start[request] = max(arrival[request], ready)
        end[request] = start[request] + duration[request]
        heapq.heappush(free, (end[request], node))
        leaves = max(end[request], link_free[node])
        sent[request] = link_free[node] = leaves + shipping[request]
        node_of[request] = node
    return {
        "start_s": np.asarray(start),
        "end_s": np.asarray(end),
        "sent_s": np.asarray(sent),
        "node": np.asarray(node_of, dtype=np.int64),
        "duration_s": np.asarray(duration),
    }


def prefill_parts(req: Requests, stage: dict, nodes: int) -> list[Part]:
    """The prefill nodes as traces: one stay per prompt, writing its first token."""
    parts = []
    for node in range(nodes):
        ids = np.flatnonzero(stage["node"] == node)
        count = ids.size
        busy = stage["duration_s"][ids]
        cached = float(busy @ req.prompt_tokens[ids])
        trace = {
            "ends": stage["end_s"][ids],
            "busy_s": float(busy.sum()),
            "used": cached,
            "allocated": cached,
            "seat_s": float(busy.sum()),
            "request": np.arange(count, dtype=np.int64),
            "seat": np.zeros(count, dtype=np.int64),
            "start_s": stage["start_s"][ids],
            "end_s": stage["end_s"][ids],
            "first_step": np.arange(count, dtype=np.int64),
            "tokens": np.ones(count, dtype=np.int64),
            "preempted": np.zeros(count, dtype=bool),
            "wave": np.full(count, -1, dtype=np.int64),
            "admit_s": stage["start_s"][ids],
            "peak_seats": int(count > 0),
            "stalls": 0,
        }
        parts.append(Part(trace, ids, np.ones(count, dtype=np.int64), 0, "prefill", 1))
    return parts


def decode_parts(
    costs: StepCosts, req: Requests, stage: dict, nodes: int, layout: str, batch: int
) -> tuple[list[Part], np.ndarray]:
    """The decode nodes: requests join round-robin as their cache lands, and decode on.

    Returns the parts and the moments requests joined a decode node's queue.
    """
    going = np.flatnonzero(req.answer_tokens > 1)
    going = going[np.argsort(stage["sent_s"][going], kind="stable")]
    parts = []
    for node in range(nodes):
        ids = going[node::nodes]
        landed = Requests(
            arrival_s=stage["sent_s"][ids],
            prompt_tokens=req.prompt_tokens[ids] + 1,
            answer_tokens=req.answer_tokens[ids] - 1,
            max_answer_tokens=np.maximum(req.max_answer_tokens[ids] - 1, 1),
        )
        if ids.size:
            trace = Scheduler(costs, landed, "continuous", layout, batch, 0.0, prefilled=True).run()
        else:
            trace = empty_trace()
        parts.append(Part(trace, ids, landed.answer_tokens, 1, "decode", batch))
    return parts, stage["sent_s"][going]


def empty_trace() -> dict:
    """A node that served nothing."""
    none = np.zeros(0, dtype=np.int64)
    return {
        "ends": np.zeros(0),
        "busy_s": 0.0,
        "used": 0.0,
        "allocated": 0.0,
        "seat_s": 0.0,
        "request": none,
        "seat": none,
        "start_s": np.zeros(0),
        "end_s": np.zeros(0),
        "first_step": none,
        "tokens": none,
        "preempted": np.zeros(0, dtype=bool),
        "wave": none,
        "admit_s": np.zeros(0),
        "peak_seats": 0,
        "stalls": 0,
    }
