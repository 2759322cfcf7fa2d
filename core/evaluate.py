"""One capacity model: from the knobs of a scenario to every figure the labs show."""

from __future__ import annotations

import numpy as np

from core.catalog import (
    BYTES_PER_NUMBER,
    ENGINE_KV_FRACTION,
    GPUS,
    HOURS_PER_MONTH,
    MEMORY_MARGIN,
    WEIGHT_FORMATS,
)
from core.catalog.custom import custom_gpu, with_custom
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S, WORKLOADS
from core.engine_level.kernels import kernel_fields
from core.engine_level.node import Node
from core.engine_level.pool import engine_values
from core.engine_level.serving_modes import link_rate
from core.engine_level.terms import ALL_TERMS
from core.foundation.vector import as_number, where
from core.whiteboard import memory, queueing, timing
from core.whiteboard.attention import kv_bytes_per_token, kv_numbers_per_layer
from core.whiteboard.experts import expert_weight_bytes_read
from core.whiteboard.knobs import (
    SHAPES,
    checked_knobs,
    closed_loop_users,
    factorize,
    is_named,
    or_default,
    pick,
    shape_keys,
    tensor_peak,
)
from core.whiteboard.queueing import UNBOUNDED_WAIT_S
from core.whiteboard.result import Result, package
from core.whiteboard.scenario import Scenario


def evaluate(scenario: Scenario | None = None, **overrides) -> Result:
    """Evaluate the capacity model for ``scenario``, with any knob overridden by value or array.

    Parameters
    ----------
    scenario : Scenario, optional
        The knobs; ``Scenario()`` when omitted.
    **overrides
        Any knob of :class:`Scenario`, as a scalar or an array. Arrays broadcast together,
        so ``evaluate(s, seats=np.arange(1, 257))`` sweeps the batch size in one call.

    Returns
    -------
    Result
        Plain Python scalars for a scalar scenario, arrays of the broadcast shape otherwise.

    Raises
    ------
    ValueError
        For an unknown knob, or a value outside a knob's range, naming both and the range.

    Notes
    -----
    Memory first: weights :math:`W = P b_w`, KV room :math:`R = (cM - W)(1 - m)`, seats
    granted :math:`\\min(s, \\lfloor R / (T_{seat} b_{kv}) \\rfloor)`. Then time: prefill of the
    cache-miss tokens at 50 % of dense peak, decode steps re-reading weights and running
    cache at 60 % of HBM bandwidth. The first token needs at least one step, however much of
    the prompt is cached: :math:`t_{first} = \\max(t_{prefill} + t_{prefix}, t_{step})`, and the
    request lasts :math:`D = t_{first} + A\\,t_{step}`.
    Then traffic: nodes :math:`n = \\lceil \\lambda D_{cold} / s_{granted} \\rceil`, sized with
    every prompt token prefilled (a cold prefix cache), TTFT p95 = :math:`t_{first}` + the
    95th-percentile Erlang C wait over :math:`n\\,s_{granted}` seats at the actual hit rate,
    and the bill :math:`n \\cdot c \\cdot p \\cdot 730`. Sizing cold keeps the bill honest
    after a cache flush and makes a better hit rate never slow the first token.
    """
    return _evaluate(checked_knobs(scenario, overrides))


def evaluate_terms(scenario: Scenario, terms: frozenset, **overrides) -> Result:
    """Evaluate at the engine level with only ``terms`` of :data:`core.engine_level.terms.TERMS` in force.

    Takes the same arguments as :func:`evaluate`. With every term this is
    ``realism="engine"``; the waterfall of :mod:`core.evidence.fidelity` adds them one at a time.
    """
    knobs = checked_knobs(scenario, overrides)
    knobs["realism"] = "engine"
    return _evaluate(knobs, frozenset(terms))


def _evaluate(knobs: dict, terms: frozenset = ALL_TERMS) -> Result:
    shape = factorize(shape_keys(knobs["model"], knobs["tier"]))
    shapes = with_custom(SHAPES, shape, knobs)
    layers = pick(shape, shapes, "layers")
    kv_heads = pick(shape, shapes, "kv_heads")
    head_dim = pick(shape, shapes, "head_dim")
    params = pick(shape, shapes, "params")
    active_params = pick(shape, shapes, "active_params")
    experts = pick(shape, shapes, "experts")
    experts_per_token = pick(shape, shapes, "experts_per_token")
    cards = or_default(knobs["cards"], shape, shapes, "cards")

    gpu = factorize(knobs["gpu"])
    gpus = with_custom(GPUS, gpu, knobs, custom_gpu)
    card_memory = pick(gpu, gpus, "memory_bytes")
    bandwidth = pick(gpu, gpus, "hbm_bytes_per_s")
    weight = factorize(knobs["weight_dtype"])
    peak_flops = tensor_peak(gpu, gpus, weight, "")
    price = or_default(knobs["usd_per_gpu_hour"], gpu, gpus, "usd_per_hour")

    workload = factorize(knobs["workload"])
    answer = or_default(knobs["answer_tokens"], workload, WORKLOADS, "answer_tokens")
    arrivals_per_min = or_default(
        knobs["arrivals_per_min"], workload, WORKLOADS, "arrivals_per_min"
    )
    prompt = as_number(knobs["prompt_tokens"])
    hit_rate = as_number(knobs["prefix_hit_rate"])
    seats = as_number(knobs["seats"])

    bytes_kv = where(is_named(knobs["kv_dtype"], "fp8"), float(BYTES_PER_NUMBER["fp8"]),
                     float(BYTES_PER_NUMBER["bf16"]))  # fmt: skip
    bytes_weight = pick(weight, WEIGHT_FORMATS, "bytes_per_weight")

    # Memory, weights first. A token's cache is averaged over a seat's whole length, since
    # sliding-window layers stop growing once the window is full.
    seat_tokens = prompt + answer
    numbers_per_layer = kv_numbers_per_layer(
        kv_heads, head_dim, pick(shape, shapes, "kv_lora_rank"),
        pick(shape, shapes, "qk_rope_head_dim"),
    )  # fmt: skip
    kv_per_token = kv_bytes_per_token(
        layers, numbers_per_layer, bytes_kv, seat_tokens,
        pick(shape, shapes, "sliding_window"), pick(shape, shapes, "window_layers"),
    )  # fmt: skip
    weights = memory.weight_bytes(params, bytes_weight)
    node_memory = cards * card_memory
    budget = memory.kv_budget_bytes(cards, card_memory, weights)
    margin = np.maximum(0.0, node_memory - weights) * MEMORY_MARGIN
    seat_bytes = seat_tokens * kv_per_token
    room = memory.seats_that_fit(budget, seat_tokens, kv_per_token)
    granted = np.minimum(seats, room)
    tokens_in_use = granted * seat_tokens
    kv_in_use = tokens_in_use * kv_per_token

    # Time on the cards.
    hit_tokens = prompt * hit_rate
    miss_tokens = prompt - hit_tokens
    prefill_s = timing.prefill_seconds(active_params, miss_tokens, cards, peak_flops)
    prefix_read_s = timing.kv_read_seconds(hit_tokens * kv_per_token, cards, bandwidth)

    # A mixture of experts reads the experts its batch touches; a dense model reads them all.
    def weights_read(batch):
        return expert_weight_bytes_read(
            weights, params, active_params, experts, experts_per_token, batch
        )

    step_s = timing.decode_step_seconds(
        weights_read(granted), kv_in_use, active_params, granted, cards, bandwidth, peak_flops
    )

    # Traffic at the peak minute.
    arrivals_per_s = arrivals_per_min / 60.0
    # The first token leaves a forward pass like any other: even a fully cached prompt
    # waits for one step's read of the weights and the running cache.
    first_token_work_s = np.maximum(prefill_s + prefix_read_s, step_s)
    request_s = first_token_work_s + answer * step_s
    load = arrivals_per_s * request_s
    # Nodes are bought for a cold prefix cache: a deploy or an eviction empties it, and a
    # fleet sized on cache hits fails the morning after. The cache buys first-token time.
    cold_prefill_s = timing.prefill_seconds(active_params, prompt, cards, peak_flops)
    sizing_request_s = cold_prefill_s + answer * step_s
    serving = granted >= 1
    sizing_load = arrivals_per_s * sizing_request_s
    nodes = where(
        serving, np.maximum(1.0, np.ceil(sizing_load / np.maximum(granted, 1.0) - 1e-9)), 1.0
    )
    servers = nodes * granted
    wait_s, unbounded = queueing.wait_quantile(servers, arrivals_per_s, request_s, TTFT_PERCENTILE)
    ttft_s = where(
        unbounded, UNBOUNDED_WAIT_S, np.minimum(first_token_work_s + wait_s, UNBOUNDED_WAIT_S)
    )
    monthly = nodes * cards * price * HOURS_PER_MONTH

    # The load a benchmark measures: closed-loop users on one node, or the peak's arrivals.
    # The whiteboard treats prefill as free: the cards only ever decode.
    users = closed_loop_users(knobs["concurrency"])
    closed = np.isfinite(users)
    running = where(closed, np.minimum(users, granted), granted)
    running_step_s = timing.decode_step_seconds(
        weights_read(running), running * seat_bytes, active_params, running, cards, bandwidth,
        peak_flops,
    )  # fmt: skip
    closed_request_s = first_token_work_s + answer * running_step_s
    closed_wait_s = np.maximum(users - running, 0.0) * closed_request_s / np.maximum(running, 1.0)
    seat_median_s, _ = queueing.wait_quantile(servers, arrivals_per_s, request_s, 0.5)
    open_throughput = where(unbounded, granted / step_s, arrivals_per_s / nodes * answer)
    open_ttft = where(
        unbounded,
        UNBOUNDED_WAIT_S,
        np.minimum(first_token_work_s + seat_median_s, UNBOUNDED_WAIT_S),
    )
    load_fields = {
        "throughput_tokens_per_s": where(
            serving, where(closed, running / running_step_s, open_throughput), 0.0
        ),
        "itl_s": where(closed, running_step_s, step_s),
        "ttft_p50_s": where(closed, first_token_work_s + closed_wait_s, open_ttft),
        "running_requests": where(
            closed, running, np.minimum(granted, arrivals_per_s / nodes * request_s)
        ),
        "request_s": where(closed, closed_request_s + closed_wait_s, request_s),
    }
    # The whiteboard's prefill is free: no stream ever waits for one, whatever the mode.
    load_fields["itl_p99_s"] = load_fields["itl_s"]
    load_fields["kv_transfer_s"] = 0.0
    load_fields["prefill_nodes"] = 0.0

    values = {
        "cards": cards,
        "kv_bytes_per_token": kv_per_token,
        "weight_bytes": weights,
        "weight_bytes_per_card": weights / cards,
        "node_memory_bytes": node_memory,
        "weights_fit": weights <= node_memory,
        "cards_needed": memory.cards_needed(weights, seat_bytes, card_memory),
        "kv_budget_bytes": budget,
        "kv_budget_tokens": np.floor(budget / kv_per_token + 1e-9),
        "margin_bytes": margin,
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
        "miss_tokens": miss_tokens,
        "hit_tokens": hit_tokens,
        "prefill_flops": timing.prefill_flops(active_params, miss_tokens),
        "prefill_s": prefill_s,
        "prefix_read_s": prefix_read_s,
        "decode_step_s": step_s,
        "decode_tokens_per_s": granted / step_s,
        "stream_tokens_per_s": where(serving, 1.0 / step_s, 0.0),
        "single_stream_tokens_per_s": timing.single_stream_ceiling(
            weights_read(1.0), cards, bandwidth
        ),
        "weight_bytes_read": weights_read(granted),
        "arrivals_per_s": arrivals_per_s,
        "answer_tokens": answer,
        "request_s": request_s,
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
        "usd_per_gpu_hour": price,
        "arrivals_per_min": arrivals_per_min,
        "hours_per_month": HOURS_PER_MONTH,
        "card_memory_bytes": card_memory,
        "kv_bytes_per_number": bytes_kv,
        "weight_bytes_per_number": bytes_weight,
        "margin_share": MEMORY_MARGIN,
        "kv_reserve_share": 1.0 - ENGINE_KV_FRACTION,
        "latency_ok": ~unbounded & (ttft_s < TTFT_SLO_S),
        "capacity_ok": granted >= seats,
        # A node that serves nothing is never worth its bill.
        "cost_ok": serving & (monthly <= BUDGET_USD_PER_MONTH),
    }
    values.update(load_fields)
    engine = is_named(knobs["realism"], "engine")
    if np.any(engine):
        kernels = kernel_fields(
            gpu, weight, factorize(knobs["engine"]), factorize(knobs["layout"]), shape, shapes,
            card_memory, cards, prompt, answer,
        )  # fmt: skip
        node = Node(
            layers=layers,
            kv_heads=kv_heads,
            head_dim=head_dim,
            query_heads=pick(shape, shapes, "query_heads"),
            hidden=pick(shape, shapes, "hidden"),
            intermediate=pick(shape, shapes, "intermediate"),
            params=params,
            active_params=active_params,
            experts=experts,
            experts_per_token=experts_per_token,
            cards=cards,
            card_memory_bytes=card_memory,
            weight_bytes=weights,
            kv_bytes_per_token=kv_per_token * kernels.pop("kv_copies"),
            peak_bandwidth=bandwidth,
            peak_flops=peak_flops,
            measured_bandwidth=pick(gpu, gpus, "achieved_hbm_bytes_per_s"),
            measured_flops=tensor_peak(gpu, gpus, weight, "achieved_"),
            measured_bf16_flops=pick(gpu, gpus, "achieved_bf16_flops"),
            link_bytes_per_s=pick(gpu, gpus, "link_bytes_per_s"),
            **kernels,
        )
        link = link_rate(knobs["kv_link"])
        overlay = engine_values(
            node, prompt, answer, hit_rate, seats, arrivals_per_s, users, price, terms,
            chunked=is_named(knobs["serving_mode"], "chunked"),
            disaggregated=is_named(knobs["serving_mode"], "disaggregated"),
            link_bytes_per_s=where(np.isnan(link), node.link_bytes_per_s, link),
        )  # fmt: skip
        for name, figure in overlay.items():
            values[name] = where(engine, figure, values[name])
    values.update(token_prices(values["monthly_usd"], arrivals_per_s, prompt, answer))
    return package(values)


def token_prices(monthly_usd, arrivals_per_s, prompt_tokens, answer_tokens) -> dict:
    """Dollars per million output tokens and per million input tokens at the modelled load.

    Notes
    -----
    The pool carries the peak minute's :math:`\\lambda` requests a second; held all month it
    serves :math:`N = 3600 \\cdot 730 \\cdot \\lambda \\cdot T` tokens of each kind (:math:`T` the
    answer or the prompt length), and each price is the whole bill over them,
    :math:`10^6 \\cdot \\text{bill} / N`, the way serving benchmarks quote cost per million
    tokens. Real traffic sits below its peak most of the month, so a real price per token is
    higher. Zero tokens of a kind have no price: 0 is returned.
    """
    monthly_seconds = 3600.0 * HOURS_PER_MONTH
    prices = {}
    for name, tokens in (("output", answer_tokens), ("input", prompt_tokens)):
        per_month = arrivals_per_s * tokens * monthly_seconds
        prices[f"usd_per_million_{name}_tokens"] = where(
            per_month > 0, 1e6 * monthly_usd / where(per_month > 0, per_month, 1.0), 0.0
        )
    return prices
