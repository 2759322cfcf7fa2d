"""The pool's figures at the engine level: memory, time, sizing and verdicts as engines measure.

:func:`engine_values` returns, for the fields of :class:`core.whiteboard.result.Result` that the engine
level changes, what ``realism="engine"`` reports; :func:`core.evaluate.evaluate` lays them over
the whiteboard's. The shape of the argument follows the whiteboard's: the same knobs, already
resolved to numbers (scalars or broadcastable arrays).
"""

from __future__ import annotations

import numpy as np

from core.catalog import HOURS_PER_MONTH
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S
from core.engine_level.node import (
    SATURATED,
    Node,
    closed_loop,
    decode_context,
    open_loop,
    prefill_wait_quantile,
)
from core.engine_level.serving_modes import (
    aggregated_itl_tail,
    chunked_figures,
    disaggregated_values,
)
from core.engine_level.terms import ALL_TERMS
from core.foundation.vector import where
from core.whiteboard import queueing
from core.whiteboard.memory import seats_that_fit
from core.whiteboard.queueing import UNBOUNDED_WAIT_S


def engine_values(
    node: Node,
    prompt,
    answer,
    hit_rate,
    seats,
    arrivals_per_s,
    users,
    price,
    terms=ALL_TERMS,
    chunked=False,
    disaggregated=False,
    link_bytes_per_s=np.nan,
) -> dict:
    """The engine level's figures for one node design under open-loop peak traffic.

    Parameters
    ----------
    node : Node
        The model, cards and storage.
    prompt, answer, hit_rate, seats, arrivals_per_s, price
        Resolved knobs, as in the whiteboard.
    users : float or ndarray
        Closed-loop users (``concurrency``); NaN where the load is open-loop arrivals. A
        benchmark drives the engine at its own batch limit: the larger of ``seats`` and
        TensorRT-LLM's default ``max_batch_size``, within what memory holds.
    terms : frozenset of str
        The physical terms in force (:data:`core.engine_level.terms.TERMS`).
    chunked, disaggregated : bool or ndarray of bool
        The serving mode (:mod:`core.engine_level.serving_modes`); neither is aggregated.
    link_bytes_per_s : float or ndarray
        Disaggregated: each card's link to the decode pool.

    Notes
    -----
    Sizing buys nodes for a cold prefix cache, as the whiteboard does, at the request time a
    full node reaches: :math:`n = \\lceil \\lambda R_{full} / s \\rceil`. The p95 first token adds
    the Erlang C wait for a seat over every node and the M/M/1 p95 wait for the prefill stage.
    """
    node_memory, budget = node.kv_budget(terms)
    kv_per_token = node.kv_bytes_per_token
    seat_tokens = prompt + answer
    room = seats_that_fit(budget, seat_tokens, kv_per_token)
    granted = np.minimum(seats, room)
    serving = granted >= 1
    full = np.maximum(granted, 1.0)
    hit_tokens = prompt * hit_rate
    step_full = node.step_s(full, decode_context(prompt, answer, terms), terms)

    # Size for a cold cache with every seat busy, then run each node at its share of traffic.
    _, _, _, cold_request, _ = closed_loop(node, full, full, prompt, answer, 0.0, terms)
    nodes = where(
        serving, np.maximum(1.0, np.ceil(arrivals_per_s * cold_request / full - 1e-9)), 1.0
    )
    per_node = arrivals_per_s / nodes
    running, itl, ttft, request, busy, company = open_loop(
        node, per_node, granted, prompt, answer, hit_tokens, terms
    )
    added = node.prefill_s(prompt - hit_tokens, hit_tokens, terms, alone=False)
    servers = nodes * granted
    seat_wait, unbounded = queueing.wait_quantile(servers, arrivals_per_s, request, TTFT_PERCENTILE)
    unbounded = unbounded | (busy >= SATURATED) | ~serving
    mean_prefill_wait = company * added * busy / (1.0 - np.minimum(busy, SATURATED))
    tail_prefill_wait = company * prefill_wait_quantile(added, busy, TTFT_PERCENTILE)
    ttft_p95 = where(
        unbounded,
        UNBOUNDED_WAIT_S,
        np.minimum(ttft - mean_prefill_wait + tail_prefill_wait + seat_wait, UNBOUNDED_WAIT_S),
    )
    seat_median, _ = queueing.wait_quantile(servers, arrivals_per_s, request, 0.5)
    open_values = (
        np.where(unbounded, running * answer / request, per_node * answer),
        itl,
        np.where(unbounded, UNBOUNDED_WAIT_S, np.minimum(ttft + seat_median, UNBOUNDED_WAIT_S)),
        request,
        running,
    )
    closed = np.isfinite(users)
    if np.any(closed):
        # A benchmark drives the engine at its configured batch limit, not the pool's dial.
        batch_limit = np.minimum(room, np.maximum(seats, node.max_running))
        closed_values = closed_loop(
            node, np.where(closed, users, 1.0), batch_limit, prompt, answer, hit_tokens, terms
        )
        load = [np.where(closed, c, o) for c, o in zip(closed_values, open_values, strict=True)]
    else:
        load = open_values
    throughput, itl_load, ttft_typical, request_load, running_load = (
        np.where(serving, value, 0.0) for value in load
    )
    # The tail of ITL: the steps that carry prompts, whole or in chunks.
    steps_alone = itl_load * (1.0 - np.where(closed, 0.0, busy))
    joining = np.where(closed, running_load / np.maximum(request_load, 1e-12), per_node)
    itl_tail = aggregated_itl_tail(steps_alone, added, joining, itl_load)
    chunked = chunked & serving
    if np.any(chunked):
        chunk_itl, chunk_tail, chunk_shift, starved = chunked_figures(
            node,
            terms,
            decode_context(prompt, answer, terms),
            steps_alone,
            added,
            prompt - hit_tokens,
            running_load,
            joining,
            company,
        )
        itl_load = np.where(chunked, chunk_itl, itl_load)
        itl_tail = np.where(chunked, chunk_tail, itl_tail)
        ttft_p95 = np.where(chunked, np.minimum(ttft_p95 + chunk_shift, UNBOUNDED_WAIT_S), ttft_p95)
        ttft_typical = np.where(
            chunked, np.minimum(ttft_typical + chunk_shift, UNBOUNDED_WAIT_S), ttft_typical
        )
        unbounded = unbounded | (chunked & starved)
    ttft_p95 = np.where(unbounded, UNBOUNDED_WAIT_S, ttft_p95)
    monthly = nodes * node.cards * price * HOURS_PER_MONTH
    kv_in_use = granted * seat_tokens * kv_per_token
    prefill_alone = node.prefill_s(prompt - hit_tokens, hit_tokens, terms, alone=True)
    values = {
        "node_memory_bytes": node_memory,
        "kv_budget_bytes": budget,
        "kv_budget_tokens": np.floor(budget / kv_per_token + 1e-9),
        "margin_bytes": np.maximum(0.0, node_memory - node.weight_bytes - budget),
        "seats_room": room,
        "seats_granted": granted,
        "seats_waiting": seats - granted,
        "kv_tokens_in_use": granted * seat_tokens,
        "kv_bytes_in_use": kv_in_use,
        "free_kv_bytes": np.maximum(0.0, budget - kv_in_use),
        "kv_share_of_weights": kv_in_use / node.weight_bytes,
        "prefill_s": prefill_alone,
        "decode_step_s": step_full,
        "decode_tokens_per_s": np.where(serving, granted / step_full, 0.0),
        "stream_tokens_per_s": np.where(serving, 1.0 / step_full, 0.0),
        "request_s": request_load,
        "sizing_request_s": cold_request,
        "offered_load": arrivals_per_s * request,
        "nodes": nodes,
        "servers": servers,
        "utilization": where(unbounded, 1.0, arrivals_per_s * request / np.maximum(servers, 1.0)),
        "queue_wait_p95_s": where(
            unbounded, UNBOUNDED_WAIT_S, np.minimum(seat_wait + tail_prefill_wait, UNBOUNDED_WAIT_S)
        ),
        "queue_unbounded": unbounded,
        "ttft_p95_s": ttft_p95,
        "monthly_usd": monthly,
        "latency_ok": ~unbounded & (ttft_p95 < TTFT_SLO_S),
        "capacity_ok": granted >= seats,
        "cost_ok": serving & (monthly <= BUDGET_USD_PER_MONTH),
        "throughput_tokens_per_s": throughput,
        "itl_s": itl_load,
        "ttft_p50_s": ttft_typical,
        "running_requests": running_load,
        "itl_p99_s": itl_tail,
        "kv_transfer_s": 0.0,
        "prefill_nodes": 0.0,
    }
    if np.any(disaggregated):
        apart = disaggregated_values(
            node,
            prompt,
            answer,
            hit_rate,
            granted,
            arrivals_per_s,
            price,
            terms,
            link_bytes_per_s,
        )
        # A benchmark's closed loop drives one node: its figures stay the aggregated node's.
        load_only = {
            "throughput_tokens_per_s",
            "itl_s",
            "itl_p99_s",
            "ttft_p50_s",
            "running_requests",
        }
        for name, figure in apart.items():
            use = disaggregated & ~closed if name in load_only else disaggregated
            values[name] = np.where(use, figure, values[name])
    return values
