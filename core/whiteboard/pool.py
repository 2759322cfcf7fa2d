"""The pool's figures on the whiteboard, in four stages: memory, time, traffic, closed loop.

:func:`whiteboard_values` runs them in order. Each stage reads the resolved knobs (a
:class:`PoolKnobs`) and the figures of the stages before it, by their
:class:`core.scenario.result.Result` names, and returns its own fields:

1. :func:`memory_figures`: weights, the KV budget and the seats it holds;
2. :func:`time_figures`: prefill, the prefix read and one decode step of the granted batch;
3. :func:`traffic_figures`: nodes for the peak minute, the Erlang C queue, the bill and the
   verdicts, and the load the peak's arrivals put on a node;
4. :func:`closed_loop_figures`: where ``concurrency`` is set, the load a benchmark's closed
   loop of users puts on one node instead.

:func:`core.evaluate.evaluate` resolves the knobs first and lays the engine level and the
price per token over these.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog import ENGINE_KV_FRACTION, HOURS_PER_MONTH, MEMORY_MARGIN
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S
from core.foundation.vector import any_true, is_array, where
from core.traffic import queueing
from core.traffic.goodput import closed_form_goodput
from core.traffic.queueing import UNBOUNDED_WAIT_S
from core.whiteboard import memory, timing
from core.whiteboard.attention import kv_bytes_per_token, kv_numbers_per_layer, sparse_read_share
from core.whiteboard.experts import expert_weight_bytes_read


@dataclass(frozen=True)
class PoolKnobs:
    """The knobs of one evaluation resolved to numbers (scalars or broadcastable arrays).

    Defaults are already filled in from the workload, the model and the card; ``users`` is
    NaN where the load is open-loop arrivals.
    """

    prompt: object
    answer: object
    hit_rate: object
    seats: object
    arrivals_per_min: object
    users: object
    price: object
    run_requests: object  # a closed loop's requests in all (inf: it never stops)
    # the most requests a closed loop's engine runs at once, where its command says (inf: its own)
    batch_limit: object
    # the share of each card's memory the engine may keep, where its command says (NaN: its own)
    memory_share: object
    layers: object
    kv_heads: object
    head_dim: object
    kv_lora_rank: object
    qk_rope_head_dim: object
    sliding_window: object
    window_layers: object
    params: object
    active_params: object
    experts: object
    experts_per_token: object
    cards: object
    card_memory: object
    bandwidth: object
    peak_flops: object
    bytes_kv: object
    bytes_weight: object
    traffic: str = "poisson"
    burstiness: object = 1.0
    tpot_slo: object = 0.1
    replicas: object = np.nan  # nodes bought; NaN sizes them for the peak minute
    router: str = "round-robin"
    # hybrid models: layers with no per-token cache, and the constant state of one sequence
    cacheless_layers: object = 0.0
    state_bytes: object = 0.0
    # KV offload: the share of prefix hits copied back from host memory or NVMe (the rest are
    # read in HBM), and the bytes per second per card they come back at (NaN: offload off)
    prefix_offloaded_share: object = 0.0
    prefix_tier_bytes_per_s: object = float("nan")
    # DeepSeek sparse attention: indexer bytes per token per layer, tokens each query picks
    indexer_bytes: object = 0.0
    sparse_top_k: object = 0.0
    # the decode steps between SGLang's polls for new requests (its command's; 1: every step)
    recv_interval: object = 1.0

    def weights_read(self, weights, batch):
        """Bytes of weights one decode step of ``batch`` reads.

        A mixture of experts reads the experts its batch touches; a dense model reads them all.
        """
        return expert_weight_bytes_read(
            weights, self.params, self.active_params, self.experts, self.experts_per_token, batch
        )


def whiteboard_values(pool: PoolKnobs) -> dict:
    """Every field of :class:`core.scenario.result.Result` but the prices per token."""
    values = memory_figures(pool)
    values.update(time_figures(pool, values))
    values.update(traffic_figures(pool, values))
    values.update(closed_loop_figures(pool, values))
    return values


def memory_figures(pool: PoolKnobs) -> dict:
    """Weights first, then the KV budget beside them and the seats it holds.

    Notes
    -----
    Weights :math:`W = P b_w`, KV room :math:`R = (cM - W)(1 - m)`, seats granted
    :math:`\\min(s, \\lfloor R / (T_{seat} b_{kv}) \\rfloor)`. A token's cache is averaged over
    a seat's whole length, since sliding-window layers stop growing once the window is full.
    """
    cards, card_memory, seats = pool.cards, pool.card_memory, pool.seats
    seat_tokens = pool.prompt + pool.answer
    numbers_per_layer = kv_numbers_per_layer(
        pool.kv_heads, pool.head_dim, pool.kv_lora_rank, pool.qk_rope_head_dim
    )
    kv_per_token = kv_bytes_per_token(
        pool.layers, numbers_per_layer, pool.bytes_kv, seat_tokens,
        pool.sliding_window, pool.window_layers, pool.cacheless_layers, pool.state_bytes,
        pool.indexer_bytes,
    )  # fmt: skip
    weights = memory.weight_bytes(pool.params, pool.bytes_weight)
    node_memory = cards * card_memory
    budget = memory.kv_budget_bytes(cards, card_memory, weights)
    seat_bytes = seat_tokens * kv_per_token
    room = memory.seats_that_fit(budget, seat_tokens, kv_per_token)
    granted = np.minimum(seats, room)
    tokens_in_use = granted * seat_tokens
    kv_in_use = tokens_in_use * kv_per_token
    return {
        "cards": cards,
        "kv_bytes_per_token": kv_per_token,
        "weight_bytes": weights,
        "weight_bytes_per_card": weights / cards,
        "node_memory_bytes": node_memory,
        "weights_fit": weights <= node_memory,
        "cards_needed": memory.cards_needed(weights, seat_bytes, card_memory),
        "kv_budget_bytes": budget,
        "kv_budget_tokens": np.floor(budget / kv_per_token + 1e-9),
        "margin_bytes": np.maximum(0.0, node_memory - weights) * MEMORY_MARGIN,
        "seat_tokens": seat_tokens,
        "seat_kv_bytes": seat_bytes,
        "seats_requested": seats,
        "seats_room": room,
        "seats_granted": granted,
        "seats_waiting": seats - granted,
        "kv_tokens_in_use": tokens_in_use,
        "kv_bytes_in_use": kv_in_use,
        "free_kv_bytes": np.maximum(0.0, budget - kv_in_use),
        "kv_share_of_weights": kv_in_use / weights,
        "outweigh_tokens": np.floor(weights / kv_per_token) + 1,
        "card_memory_bytes": card_memory,
        "kv_bytes_per_number": pool.bytes_kv,
        "weight_bytes_per_number": pool.bytes_weight,
        "margin_share": MEMORY_MARGIN,
        "kv_reserve_share": 1.0 - ENGINE_KV_FRACTION,
    }


def time_figures(pool: PoolKnobs, values: dict) -> dict:
    """Time on the cards: the cache-miss prefill, the prefix read, one step of the granted batch.

    Notes
    -----
    Prefill of the cache-miss tokens at 50 % of dense peak; decode steps re-read the weights
    and the running cache at 60 % of HBM bandwidth. ``request_s`` here is one request's time
    alone in its seat, :math:`D = t_{first} + A\\,t_{step}` (:func:`first_token_s`).
    """
    prompt, cards, bandwidth, peak_flops = pool.prompt, pool.cards, pool.bandwidth, pool.peak_flops
    granted, weights = values["seats_granted"], values["weight_bytes"]
    hit_tokens = prompt * pool.hit_rate
    miss_tokens = prompt - hit_tokens
    prefill_s = timing.prefill_seconds(pool.active_params, miss_tokens, cards, peak_flops)
    prefix_read_s = timing.kv_read_seconds(
        hit_tokens * values["kv_bytes_per_token"], cards, bandwidth
    )
    in_place_s = prefix_read_s
    share = pool.prefix_offloaded_share
    offloaded = np.asarray(share) > 0
    if any_true(offloaded):  # that share comes back from host memory or NVMe, the rest from HBM
        rate = np.where(offloaded, pool.prefix_tier_bytes_per_s, 1.0)
        copy_s = hit_tokens * values["kv_bytes_per_token"] / (cards * rate)
        prefix_read_s = where(
            offloaded, share * copy_s + (1.0 - share) * prefix_read_s, prefix_read_s
        )
    weights_read = pool.weights_read(weights, granted)
    step_s = timing.decode_step_seconds(
        weights_read, values["kv_bytes_in_use"] * decode_read_share(pool), pool.active_params,
        granted, cards, bandwidth, peak_flops,
    )  # fmt: skip
    first_token = np.maximum(prefill_s + prefix_read_s, step_s)
    return {
        "prompt_tokens": prompt,
        "miss_tokens": miss_tokens,
        "hit_tokens": hit_tokens,
        "prefill_flops": timing.prefill_flops(pool.active_params, miss_tokens),
        "prefill_s": prefill_s,
        "prefix_read_s": prefix_read_s,
        "prefix_offloaded_share": share * np.ones_like(prefix_read_s),
        "prefix_hbm_read_s": in_place_s,
        "decode_step_s": step_s,
        "decode_tokens_per_s": granted / step_s,
        "stream_tokens_per_s": where(granted >= 1, 1.0 / step_s, 0.0),
        "single_stream_tokens_per_s": timing.single_stream_ceiling(
            pool.weights_read(weights, 1.0), cards, bandwidth
        ),
        "weight_bytes_read": weights_read,
        "answer_tokens": pool.answer,
        "request_s": first_token + pool.answer * step_s,
    }


def decode_read_share(pool: PoolKnobs):
    """Share of the running cache a decode step reads: 1, or less under sparse attention."""
    if not any_true(np.asarray(pool.sparse_top_k) > 0):
        return 1.0
    numbers = kv_numbers_per_layer(
        pool.kv_heads, pool.head_dim, pool.kv_lora_rank, pool.qk_rope_head_dim
    )
    return sparse_read_share(
        numbers, pool.bytes_kv, pool.indexer_bytes, pool.sparse_top_k, pool.prompt + pool.answer
    )


def first_token_s(values: dict):
    """Seconds of work before a request's first token: :math:`\\max(t_{prefill} + t_{prefix}, t_{step})`.

    The first token leaves a forward pass like any other: even a fully cached prompt waits
    for one step's read of the weights and the running cache.
    """
    return np.maximum(values["prefill_s"] + values["prefix_read_s"], values["decode_step_s"])


def traffic_figures(pool: PoolKnobs, values: dict) -> dict:
    """Nodes for the peak minute, the wait for a seat, the bill and the verdicts.

    Notes
    -----
    Nodes :math:`n = \\lceil \\lambda D_{cold} / s_{granted} \\rceil`, sized with every prompt
    token prefilled (a cold prefix cache: a deploy or an eviction empties it, and a fleet
    sized on cache hits fails the morning after; the cache buys first-token time). TTFT p95
    is :math:`t_{first}` plus the 95th-percentile Erlang C wait over :math:`n\\,s_{granted}`
    seats at the actual hit rate, and the bill :math:`n \\cdot c \\cdot p \\cdot 730`. The load
    figures are the peak's arrivals spread over the nodes. Traffic other than Poisson stretches
    the wait by its queue factor (:func:`core.traffic.queueing.queue_factor`), and goodput
    is :func:`core.traffic.goodput.closed_form_goodput`.
    """
    answer, granted, step_s = pool.answer, values["seats_granted"], values["decode_step_s"]
    request_s, first_token = values["request_s"], first_token_s(values)
    arrivals_per_s = pool.arrivals_per_min / 60.0
    load = arrivals_per_s * request_s
    cold_prefill_s = timing.prefill_seconds(
        pool.active_params, pool.prompt, pool.cards, pool.peak_flops
    )
    sizing_request_s = cold_prefill_s + answer * step_s
    serving = granted >= 1
    sizing_load = arrivals_per_s * sizing_request_s
    nodes = where(
        serving, np.maximum(1.0, np.ceil(sizing_load / np.maximum(granted, 1.0) - 1e-9)), 1.0
    )
    nodes = where(np.isfinite(pool.replicas), pool.replicas, nodes)
    servers = nodes * granted
    tail = queueing.wait_tail(servers, arrivals_per_s, request_s)
    wait_s, unbounded = queueing.tail_quantile(tail, TTFT_PERCENTILE)
    factor = queueing.queue_factor(pool, values)
    wait_s = wait_s * factor
    ttft_s = where(unbounded, UNBOUNDED_WAIT_S, np.minimum(first_token + wait_s, UNBOUNDED_WAIT_S))
    monthly = nodes * pool.cards * pool.price * HOURS_PER_MONTH
    seat_median_s, _ = queueing.tail_quantile(tail, 0.5)
    seat_median_s = seat_median_s * factor
    open_throughput = where(unbounded, granted / step_s, arrivals_per_s / nodes * answer)
    return {
        "arrivals_per_s": arrivals_per_s,
        "sizing_request_s": sizing_request_s,
        "offered_load": load,
        "nodes": nodes,
        "servers": servers,
        "utilization": where(unbounded, 1.0, load / np.maximum(servers, 1.0)),
        "queue_wait_p95_s": where(
            unbounded, UNBOUNDED_WAIT_S, np.minimum(wait_s, UNBOUNDED_WAIT_S)
        ),
        "queue_unbounded": unbounded,
        "ttft_p95_s": ttft_s,
        "monthly_usd": monthly,
        "usd_per_gpu_hour": pool.price,
        "arrivals_per_min": pool.arrivals_per_min,
        "hours_per_month": HOURS_PER_MONTH,
        "latency_ok": ~unbounded & (ttft_s < TTFT_SLO_S),
        "capacity_ok": granted >= pool.seats,
        # A node that serves nothing is never worth its bill.
        "cost_ok": serving & (monthly <= BUDGET_USD_PER_MONTH),
        "throughput_tokens_per_s": where(serving, open_throughput, 0.0),
        "itl_s": step_s,
        "ttft_p50_s": where(
            unbounded,
            UNBOUNDED_WAIT_S,
            np.minimum(first_token + seat_median_s, UNBOUNDED_WAIT_S),
        ),
        "running_requests": np.minimum(granted, arrivals_per_s / nodes * request_s),
        # The whiteboard's prefill is free: no stream ever waits for one, whatever the mode.
        "itl_p99_s": step_s,
        "kv_transfer_s": 0.0,
        "prefill_nodes": 0.0,
        "goodput": closed_form_goodput(pool, values, *tail[:2], factor, unbounded),
        "queue_factor": factor,
    }


def closed_loop_figures(pool: PoolKnobs, values: dict) -> dict:
    """The load a benchmark measures where ``concurrency`` is set: closed-loop users on one node.

    Notes
    -----
    :math:`n = \\min(N, s_{granted})` requests run; each step takes :math:`t_{step}(n)`, a
    request :math:`D = t_{first} + A\\,t_{step}(n)`, and users beyond the seats wait
    :math:`(N - n) D / n` for one. The whiteboard treats prefill as free: the cards only
    ever decode. Both first-token percentiles and the wait before a request starts are the
    closed loop's, so they describe one load; the nodes and the bill stay those bought for
    the peak.
    """
    users = pool.users
    closed = np.isfinite(users)
    if not (is_array(closed) or closed):
        return {}
    answer, cards, granted = pool.answer, pool.cards, values["seats_granted"]
    running = where(closed, np.minimum(users, granted), granted)
    running_step_s = timing.decode_step_seconds(
        pool.weights_read(values["weight_bytes"], running), running * values["seat_kv_bytes"],
        pool.active_params, running, cards, pool.bandwidth, pool.peak_flops,
    )  # fmt: skip
    closed_request_s = first_token_s(values) + answer * running_step_s
    closed_wait_s = np.maximum(users - running, 0.0) * closed_request_s / np.maximum(running, 1.0)
    serving = granted >= 1
    itl_s = where(closed, running_step_s, values["itl_s"])
    # Every closed-loop request is alike, so its first token has one time, at every percentile.
    ttft_s = np.minimum(first_token_s(values) + closed_wait_s, UNBOUNDED_WAIT_S)
    unbounded = values["queue_unbounded"]
    ttft_p95_s = where(closed, where(unbounded, UNBOUNDED_WAIT_S, ttft_s), values["ttft_p95_s"])
    return {
        "throughput_tokens_per_s": where(
            closed, where(serving, running / running_step_s, 0.0), values["throughput_tokens_per_s"]
        ),
        "itl_s": itl_s,
        "itl_p99_s": itl_s,
        "ttft_p50_s": where(closed, ttft_s, values["ttft_p50_s"]),
        "ttft_p95_s": ttft_p95_s,
        "queue_wait_p95_s": where(
            closed,
            where(unbounded, UNBOUNDED_WAIT_S, np.minimum(closed_wait_s, UNBOUNDED_WAIT_S)),
            values["queue_wait_p95_s"],
        ),
        "latency_ok": ~unbounded & (ttft_p95_s < TTFT_SLO_S),
        "goodput": where(
            closed,
            where(~unbounded & (ttft_s < TTFT_SLO_S) & (itl_s <= pool.tpot_slo), 1.0, 0.0),
            values["goodput"],
        ),
        "running_requests": where(closed, running, values["running_requests"]),
        "request_s": where(closed, closed_request_s + closed_wait_s, values["request_s"]),
    }
