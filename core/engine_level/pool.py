"""The pool's figures at the engine level: memory, time, sizing and verdicts as engines measure.

:func:`engine_values` returns, for the fields of :class:`core.scenario.result.Result` that the engine
level changes, what ``realism="engine"`` reports; :func:`core.evaluate.evaluate` lays them over
the whiteboard's. The shape of the argument follows the whiteboard's: the same knobs, already
resolved to numbers (scalars or broadcastable arrays). It runs in stages:

1. :func:`_memory_figures`: the engine's memory accounting and the seats it holds;
2. :func:`_open_queue`: nodes for the peak, each node's open loop, the seat and prefill queues;
3. :func:`_load_figures`: the load one node carries, a benchmark's closed loop where set;
4. :func:`_step_tails`: the ITL tail, and chunked prefill's changes to ITL and first token;
5. :func:`_sizing_figures`: step and prefill times, the queue, the bill and the verdicts;

and, where the mode is disaggregated, :func:`core.engine_level.serving_modes.disaggregated_values`
replaces what separate prefill and decode pools change.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from core.catalog import HOURS_PER_MONTH
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S
from core.engine_level.load import (
    SATURATED,
    closed_loop,
    decode_context,
    finite_run,
    open_loop,
    opening_burst,
    prefill_wait_quantile,
)
from core.engine_level.node import Node
from core.engine_level.serving_modes import (
    aggregated_itl_tail,
    chunked_figures,
    disaggregated_values,
)
from core.engine_level.terms import ALL_TERMS
from core.foundation.vector import any_true, where
from core.traffic import queueing
from core.traffic.queueing import UNBOUNDED_WAIT_S
from core.whiteboard.memory import seats_that_fit


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
    run_requests=np.inf,
    batch_limit=np.inf,
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
        Closed-loop users (``concurrency``); NaN where the load is open-loop arrivals.
    terms : frozenset of str
        The physical terms in force (:data:`core.engine_level.terms.TERMS`).
    run_requests : float or ndarray
        The requests a closed loop sends in all (inf: it never stops): its output throughput
        is the run's, waves and the last partial one (:func:`~core.engine_level.load.finite_run`),
        and its first token averages in the run's opening burst
        (:func:`~core.engine_level.load.opening_burst`).
    batch_limit : float or ndarray
        The most requests a closed loop's command lets the engine run at once (inf: the larger
        of ``seats`` and the release's default, below what trtllm-bench sizes for itself).
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
    hit_tokens = prompt * hit_rate
    values = _memory_figures(node, terms, prompt + answer, seats)
    granted = values["seats_granted"]
    queue = _open_queue(node, terms, prompt, answer, hit_tokens, arrivals_per_s, granted)
    load, steps_alone, company, burst = _load_figures(node, terms, prompt, answer, hit_tokens,
                                                      users, seats, values, queue, run_requests,
                                                      batch_limit)  # fmt: skip
    values.update(load)
    closed = np.isfinite(users)
    chunked = chunked & (granted >= 1)
    tails, shift = _step_tails(
        node, terms, prompt, answer, hit_tokens, chunked, closed, values, queue, steps_alone,
        company,
    )  # fmt: skip
    values.update(tails)
    if burst is not None:  # a run that ends: its opening burst, over the steady state's figures
        values.update(_burst_figures(*burst, shift, run_requests, queue.added, closed, values))
    values.update(
        _sizing_figures(
            node, terms, prompt, hit_tokens, seats, arrivals_per_s, price, values, queue
        )
    )
    if any_true(disaggregated):
        apart = disaggregated_values(
            node, prompt, answer, hit_rate, granted, arrivals_per_s, price, terms, link_bytes_per_s
        )
        for name, figure in apart.items():
            # A benchmark's closed loop drives one node: its figures stay the aggregated node's.
            use = disaggregated & ~closed if name in _LOAD_FIELDS else disaggregated
            values[name] = np.where(use, figure, values[name])
        # The verdict reads the first token and the queue that stand: a closed loop's own.
        values["latency_ok"] = ~values["queue_unbounded"] & (values["ttft_p95_s"] < TTFT_SLO_S)
    return values


# The figures of the load one node carries, which a closed loop sets for itself.
_LOAD_FIELDS = {
    "throughput_tokens_per_s", "itl_s", "itl_p99_s", "ttft_p50_s", "ttft_p95_s", "queue_wait_p95_s",
    "running_requests",
}  # fmt: skip


class _OpenQueue(NamedTuple):
    """The aggregated pool at the peak's arrivals: sizing, one node's open loop, the queues."""

    step_full: object  # a decode step with every seat busy
    cold_request: object  # a request on a full node with a cold prefix cache
    nodes: object
    per_node: object  # arrivals per second at each node
    running: object
    itl: object
    request: object
    busy: object  # the share of time the cards prefill
    company: object  # the chance a new prompt finds others running
    added: object  # a prefill riding in a step with running decodes
    servers: object
    seat_wait: object  # p95 Erlang C wait for a seat
    tail_prefill_wait: object  # p95 prefill-stage wait
    unbounded: object
    ttft_p50: object
    ttft_p95: object


def _memory_figures(node: Node, terms, seat_tokens, seats) -> dict:
    """The node's memory as the engine accounts it, and the seats its KV budget holds."""
    node_memory, budget = node.kv_budget(terms)
    # what a seat holds as the engine stores it (a read still touches only the windows)
    stored = node.kv_stored_share if "engine_memory" in terms else 1.0
    kv_per_token = node.kv_bytes_per_token * stored
    room = seats_that_fit(budget, seat_tokens, kv_per_token)
    granted = np.minimum(seats, room)
    kv_in_use = granted * seat_tokens * kv_per_token
    # What the engine holds: bf16 tensors at 2 bytes, DEP's shared weights on every card.
    weights = node.engine_weight_bytes(terms)
    return {
        "weight_bytes": weights,
        "weight_bytes_per_card": weights / node.cards,
        "node_memory_bytes": node_memory,
        "kv_budget_bytes": budget,
        "kv_budget_tokens": np.floor(budget / kv_per_token + 1e-9),
        "margin_bytes": np.maximum(0.0, node_memory - weights - budget),
        "seats_room": room,
        "seats_granted": granted,
        "seats_waiting": seats - granted,
        "kv_tokens_in_use": granted * seat_tokens,
        "kv_bytes_in_use": kv_in_use,
        "free_kv_bytes": np.maximum(0.0, budget - kv_in_use),
        "kv_share_of_weights": kv_in_use / weights,
    }


def _open_queue(node: Node, terms, prompt, answer, hit_tokens, arrivals_per_s, granted):
    """Nodes for a cold cache with every seat busy, each node's open loop, and both queues.

    Notes
    -----
    :math:`n = \\lceil \\lambda R_{full} / s \\rceil`. Each percentile of the first token swaps
    the mean M/M/1 prefill wait inside the open loop's typical TTFT for that percentile of the
    wait, and adds the same percentile of the Erlang C wait for a seat over every node. A mean
    is no percentile: most prompts wait for no prefill at all, so at a light prefill load the
    mean wait exceeds even the 95th percentile's (zero).
    """
    serving = granted >= 1
    full = np.maximum(granted, 1.0)
    step_full = node.step_s(full, decode_context(prompt, answer, terms), terms)
    cold_request = closed_loop(node, full, full, prompt, answer, 0.0, terms).request
    nodes = where(
        serving, np.maximum(1.0, np.ceil(arrivals_per_s * cold_request / full - 1e-9)), 1.0
    )
    per_node = arrivals_per_s / nodes
    # added: what one prompt's prefill holds the cards for while others decode
    running, itl, ttft, request, busy, company, added = open_loop(
        node, per_node, granted, prompt, answer, hit_tokens, terms
    )
    servers = nodes * granted
    seat_tail = queueing.wait_tail(servers, arrivals_per_s, request)
    seat_wait, unbounded = queueing.tail_quantile(seat_tail, TTFT_PERCENTILE)
    unbounded = unbounded | (busy >= SATURATED) | ~serving
    mean_prefill_wait = company * added * busy / (1.0 - np.minimum(busy, SATURATED))
    tail_prefill_wait = company * prefill_wait_quantile(added, busy, TTFT_PERCENTILE)
    ttft_p95 = where(
        unbounded,
        UNBOUNDED_WAIT_S,
        np.minimum(ttft - mean_prefill_wait + tail_prefill_wait + seat_wait, UNBOUNDED_WAIT_S),
    )
    seat_median, _ = queueing.tail_quantile(seat_tail, 0.5)
    median_prefill_wait = company * prefill_wait_quantile(added, busy, 0.5)
    ttft_p50 = where(
        unbounded,
        UNBOUNDED_WAIT_S,
        np.minimum(ttft - mean_prefill_wait + median_prefill_wait + seat_median, UNBOUNDED_WAIT_S),
    )
    return _OpenQueue(
        step_full, cold_request, nodes, per_node, running, itl, request, busy, company,
        added, servers, seat_wait, tail_prefill_wait, unbounded, ttft_p50, ttft_p95,
    )  # fmt: skip


def _load_figures(node, terms, prompt, answer, hit_tokens, users, seats, values, queue,
                  run_requests=np.inf, batch_limit=np.inf):  # fmt: skip
    """The load one node carries: the peak's arrivals, or a benchmark's closed loop of ``users``.

    Returns the load's fields (both first-token percentiles among them, a closed loop's its
    steady state's), the decode step without prompts and the chance a prompt joins running
    decodes, that the tails are built on, and, for a run that ends, its steady loop and the
    spread of its first token (None otherwise: :func:`_burst_figures`).
    """
    unbounded, running, request = queue.unbounded, queue.running, queue.request
    load = {
        "throughput_tokens_per_s": np.where(
            unbounded, running * answer / request, queue.per_node * answer
        ),
        "itl_s": queue.itl,
        "ttft_p50_s": queue.ttft_p50,
        "ttft_p95_s": queue.ttft_p95,
        "queue_wait_p95_s": queue.seat_wait + queue.tail_prefill_wait,
        "request_s": request,
        "running_requests": running,
    }
    step, company = queue.itl * (1.0 - queue.busy), queue.company
    burst = None
    closed = np.isfinite(users)
    if any_true(closed):
        # A benchmark drives the engine at its configured batch limit, not the pool's dial:
        # the one its command sets, else the release's (trtllm-bench sizes its own, from its
        # estimate of the KV room), within what memory holds.
        configured = np.where(
            np.isfinite(batch_limit),
            batch_limit,
            np.minimum(np.maximum(seats, node.max_running), node.bench_batch),
        )
        batch_limit = np.minimum(values["seats_room"], configured)
        users = np.where(closed, users, 1.0)
        counted = "finite_run" in terms and any_true(np.isfinite(run_requests))
        if counted:  # a run never holds more requests than it sends
            users = np.minimum(users, run_requests)
        loop = closed_loop(node, users, batch_limit, prompt, answer, hit_tokens, terms)
        throughput = loop.throughput
        if counted:
            throughput = finite_run(
                loop, run_requests, batch_limit, node, prompt, answer, hit_tokens, terms
            )
        # The closed loop's typical first token, which benchmarks' averages calibrate, stands
        # as its median; its p95 lies the prefill wait's spread from median to p95 above.
        spread = loop.company * (
            prefill_wait_quantile(queue.added, loop.busy, TTFT_PERCENTILE)
            - prefill_wait_quantile(queue.added, loop.busy, 0.5)
        )
        if counted:  # its first prompts all arrive at once: counted in after the tails
            burst = (loop, spread)
        closed_load = {
            "throughput_tokens_per_s": throughput,
            "itl_s": loop.itl,
            "ttft_p50_s": np.minimum(loop.ttft, UNBOUNDED_WAIT_S),
            "ttft_p95_s": np.minimum(loop.ttft + spread, UNBOUNDED_WAIT_S),
            # What a closed loop's first token waits for: a seat, then the prompts ahead.
            "queue_wait_p95_s": loop.seat_wait
            + loop.company * prefill_wait_quantile(queue.added, loop.busy, TTFT_PERCENTILE),
            "request_s": loop.request,
            "running_requests": loop.running,
        }
        load = {name: where(closed, closed_load[name], load[name]) for name in load}
        step = where(closed, loop.step, step)
        company = where(closed, loop.company, company)
    serving = values["seats_granted"] >= 1
    fields = {name: where(serving, value, 0.0) for name, value in load.items()}
    return fields, where(serving, step, 0.0), company, burst


def _burst_figures(loop, spread, shift, run_requests, added, closed, values) -> dict:
    """A closed loop's first tokens over a run that ends, its opening burst counted in.

    The burst (:func:`~core.engine_level.load.opening_burst`) mixes the opening prompts, which
    start on an idle node, with the steady state's first tokens, ``loop.ttft`` and its
    ``spread`` to the p95 moved by chunked prefill's ``shift`` (:func:`_step_tails`): the shift
    replaces a steady prompt's wait and prefill, which the opening prompts never had.
    """
    steady = loop.ttft + shift
    mean, p95 = opening_burst(loop._replace(ttft=steady), run_requests, added, steady + spread)
    keep = closed & (values["seats_granted"] >= 1)
    bounded = keep & ~values["queue_unbounded"]
    return {
        "ttft_p50_s": np.where(keep, np.minimum(mean, UNBOUNDED_WAIT_S), values["ttft_p50_s"]),
        "ttft_p95_s": np.where(bounded, np.minimum(p95, UNBOUNDED_WAIT_S), values["ttft_p95_s"]),
    }


def _step_tails(
    node, terms, prompt, answer, hit_tokens, chunked, closed, load, queue, steps_alone, company
) -> dict:
    """ITL p99 from the steps that carry prompts, and chunked prefill's changes to the figures.

    Whole prompts join decode steps (:func:`aggregated_itl_tail`) unless ``chunked``, where
    they ride in chunks (:func:`chunked_figures`): ITL, its tail and the first token shift.
    ``steps_alone`` is a decode step without prompts and ``company`` the chance a prompt joins
    running decodes, for the load in force (the peak's arrivals or the closed loop). Returns
    the figures and the first token's shift (0 where not chunked).
    """
    itl_load, ttft_typical, ttft_p95 = load["itl_s"], load["ttft_p50_s"], load["ttft_p95_s"]
    unbounded, added = queue.unbounded, queue.added
    joining = np.where(
        closed, load["running_requests"] / np.maximum(load["request_s"], 1e-12), queue.per_node
    )
    itl_tail = aggregated_itl_tail(steps_alone, added, joining, itl_load)
    shift = 0.0
    if any_true(chunked):
        chunk_itl, chunk_tail, chunk_shift, starved = chunked_figures(
            node, terms, decode_context(prompt, answer, terms), steps_alone, added,
            prompt - hit_tokens, load["running_requests"], joining, company,
        )  # fmt: skip
        itl_load = np.where(chunked, chunk_itl, itl_load)
        itl_tail = np.where(chunked, chunk_tail, itl_tail)
        ttft_p95 = np.where(chunked, np.minimum(ttft_p95 + chunk_shift, UNBOUNDED_WAIT_S), ttft_p95)
        ttft_typical = np.where(
            chunked, np.minimum(ttft_typical + chunk_shift, UNBOUNDED_WAIT_S), ttft_typical
        )
        unbounded = unbounded | (chunked & starved)
        shift = np.where(chunked, chunk_shift, 0.0)
    return {
        "itl_s": itl_load,
        "itl_p99_s": itl_tail,
        "ttft_p50_s": ttft_typical,
        "ttft_p95_s": np.where(unbounded, UNBOUNDED_WAIT_S, ttft_p95),
        "queue_unbounded": unbounded,
    }, shift


def _sizing_figures(node, terms, prompt, hit_tokens, seats, arrivals_per_s, price, values, queue):
    """Time per step and prefill, the nodes, the queue, the bill and the verdicts."""
    granted, unbounded = values["seats_granted"], values["queue_unbounded"]
    serving = granted >= 1
    step_full, request, servers = queue.step_full, queue.request, queue.servers
    monthly = queue.nodes * node.cards * price * HOURS_PER_MONTH
    return {
        "prefill_s": node.prefill_s(prompt - hit_tokens, hit_tokens, terms, alone=True),
        "decode_step_s": step_full,
        "decode_tokens_per_s": np.where(serving, granted / step_full, 0.0),
        "stream_tokens_per_s": np.where(serving, 1.0 / step_full, 0.0),
        "sizing_request_s": queue.cold_request,
        "offered_load": arrivals_per_s * request,
        "nodes": queue.nodes,
        "servers": servers,
        "utilization": where(unbounded, 1.0, arrivals_per_s * request / np.maximum(servers, 1.0)),
        "queue_wait_p95_s": where(
            unbounded,
            UNBOUNDED_WAIT_S,
            np.minimum(values["queue_wait_p95_s"], UNBOUNDED_WAIT_S),
        ),
        "monthly_usd": monthly,
        "latency_ok": ~unbounded & (values["ttft_p95_s"] < TTFT_SLO_S),
        "capacity_ok": granted >= seats,
        "cost_ok": serving & (monthly <= BUDGET_USD_PER_MONTH),
        "kv_transfer_s": 0.0,
        "prefill_nodes": 0.0,
    }
