"""One capacity model: from the knobs of a scenario to every figure the labs show."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from core.cache.hit_rate import derived_hit_rate
from core.cache.tiers import offloaded_hits
from core.catalog import BYTES_PER_NUMBER, GPUS, HOURS_PER_MONTH, WEIGHT_FORMATS
from core.catalog.custom import custom_gpu, with_custom
from core.catalog.traces import load_trace
from core.catalog.workloads import WORKLOADS
from core.engine_level.kernels import expert_rate_scale, kernel_fields
from core.engine_level.node import Node
from core.engine_level.pool import engine_values
from core.engine_level.serving_modes import link_rate
from core.engine_level.terms import ALL_TERMS
from core.foundation.vector import any_true, as_number, where
from core.scenario.knobs import Scenario
from core.scenario.resolve import (
    SHAPES,
    checked_knobs,
    closed_loop_users,
    factorize,
    is_named,
    or_default,
    pick,
    run_length,
    shape_keys,
    stated_batch_limit,
    stated_memory_share,
    stated_recv_interval,
    tensor_peak,
    with_default,
)
from core.scenario.result import Result, package
from core.traffic.arrivals import trace_lengths
from core.traffic.queueing import UNBOUNDED_WAIT_S
from core.whiteboard.attention import indexer_bytes_per_layer, prefill_head_width
from core.whiteboard.pool import PoolKnobs, whiteboard_values

__all__ = ["UNBOUNDED_WAIT_S", "evaluate", "evaluate_terms", "token_prices"]


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
    after a cache flush and makes a better hit rate never slow the first token. Under a
    closed loop (``concurrency``) the load figures and both first-token percentiles are that
    loop's, so each percentile pair describes one load; the nodes and the bill stay the peak's.

    The stages, each a function to open: :func:`resolve_knobs`, then
    :func:`core.whiteboard.pool.whiteboard_values` (memory, time, traffic and verdicts, the
    closed loop), :func:`engine_overlay` where ``realism="engine"``, and :func:`token_prices`.
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
    """The pipeline: resolve the knobs, the whiteboard's figures, the engine level's, the prices."""
    pool, catalog = resolve_knobs(knobs)
    if knobs["prefix_source"] == "derived":  # the fleet's caches decide what is found
        pool = replace(pool, hit_rate=derived_hit_rate(pool, whiteboard_values(pool), knobs))
    offload = np.asarray(knobs["kv_offload"], dtype=object)
    if knobs["session_turns"] is not None and any_true(offload != "off"):
        pool = _offloaded(pool, knobs, offload)
    values = whiteboard_values(pool)
    values["hit_rate"] = pool.hit_rate
    engine = is_named(knobs["realism"], "engine")
    if any_true(engine):
        overlay = engine_overlay(knobs, pool, catalog, values, terms)
        for name, figure in overlay.items():
            values[name] = where(engine, figure, values[name])
    values.update(
        token_prices(values["monthly_usd"], values["arrivals_per_s"], pool.prompt, pool.answer)
    )
    return package(values)


def _offloaded(pool: PoolKnobs, knobs: dict, offload: np.ndarray) -> PoolKnobs:
    """``pool`` with the share of its sessions' prefix hits that wait outside HBM, and their rate.

    Only sessions' histories leave HBM: without sessions the cached prefix is the shared one
    (a system preamble, a document) that every running request's blocks hold, so offload
    changes nothing and this is not called. Where the hits wait follows from the pool with
    every hit in HBM (:func:`core.cache.tiers.offloaded_hits`): its free KV room and
    the cache traffic between a session's turns.
    """
    first = whiteboard_values(pool)
    share, rate = np.zeros(np.shape(first["free_kv_bytes"])), np.nan
    for choice in np.unique(offload):
        choice_share, choice_rate = offloaded_hits(
            str(choice), knobs["session_turns"], as_number(knobs["think_time_s"]),
            as_number(knobs["turn_growth_tokens"]), pool, first,
        )  # fmt: skip
        share = where(offload == choice, choice_share, share)
        rate = where(offload == choice, choice_rate, rate)
    return replace(pool, prefix_offloaded_share=share, prefix_tier_bytes_per_s=rate)


def resolve_knobs(knobs: dict) -> tuple[PoolKnobs, tuple]:
    """The knobs as numbers, defaults filled in from the model, the card and the workload.

    Returns
    -------
    pool : PoolKnobs
        What the whiteboard's stages read.
    catalog : tuple
        ``(shape, shapes, gpu, gpus, weight)``: the factorized catalog keys and tables (custom
        entries included) that the engine level looks further into.
    """
    shape = factorize(shape_keys(knobs["model"], knobs["tier"]))
    shapes = with_custom(SHAPES, shape, knobs)
    gpu = factorize(knobs["gpu"])
    gpus = with_custom(GPUS, gpu, knobs, custom_gpu)
    weight = factorize(knobs["weight_dtype"])
    workload = factorize(knobs["workload"])
    lengths = trace_lengths(knobs["traffic"])
    prompt = as_number(knobs["prompt_tokens"])
    answer = or_default(knobs["answer_tokens"], workload, WORKLOADS, "answer_tokens")
    arrivals = or_default(knobs["arrivals_per_min"], workload, WORKLOADS, "arrivals_per_min")
    if lengths is not None:  # a trace's lengths replace the knobs'; its peak minute is the rate
        prompt, answer = np.float64(lengths[0]), np.float64(lengths[1])
        peak = float(load_trace(knobs["traffic"]).peak_minute)
        arrivals = with_default(knobs["arrivals_per_min"], peak)
    fp8_cache = is_named(knobs["kv_dtype"], "fp8")
    bytes_kv = where(fp8_cache, float(BYTES_PER_NUMBER["fp8"]), float(BYTES_PER_NUMBER["bf16"]))
    pool = PoolKnobs(
        prompt=prompt,
        answer=answer,
        hit_rate=as_number(knobs["prefix_hit_rate"]),
        seats=as_number(knobs["seats"]),
        arrivals_per_min=arrivals,
        users=closed_loop_users(knobs["concurrency"]),
        run_requests=run_length(knobs["run_requests"]),
        batch_limit=stated_batch_limit(knobs["batch_limit"]),
        memory_share=stated_memory_share(knobs["memory_share"]),
        recv_interval=stated_recv_interval(knobs["recv_interval"]),
        price=or_default(knobs["usd_per_gpu_hour"], gpu, gpus, "usd_per_hour"),
        layers=pick(shape, shapes, "layers"),
        kv_heads=pick(shape, shapes, "kv_heads"),
        head_dim=pick(shape, shapes, "head_dim"),
        kv_lora_rank=pick(shape, shapes, "kv_lora_rank"),
        qk_rope_head_dim=pick(shape, shapes, "qk_rope_head_dim"),
        sliding_window=pick(shape, shapes, "sliding_window"),
        window_layers=pick(shape, shapes, "window_layers"),
        params=pick(shape, shapes, "params"),
        active_params=pick(shape, shapes, "active_params"),
        experts=pick(shape, shapes, "experts"),
        experts_per_token=pick(shape, shapes, "experts_per_token"),
        cards=or_default(knobs["cards"], shape, shapes, "cards"),
        card_memory=pick(gpu, gpus, "memory_bytes"),
        bandwidth=pick(gpu, gpus, "hbm_bytes_per_s"),
        peak_flops=tensor_peak(gpu, gpus, weight, ""),
        bytes_kv=bytes_kv,
        bytes_weight=pick(weight, WEIGHT_FORMATS, "bytes_per_weight"),
        traffic=knobs["traffic"],
        burstiness=as_number(knobs["burstiness"]),
        tpot_slo=as_number(knobs["tpot_slo_s"]),
        replicas=with_default(knobs["replicas"], np.nan),
        router=knobs["router"],
        cacheless_layers=pick(shape, shapes, "cacheless_layers"),
        state_bytes=bytes_kv * pick(shape, shapes, "state_numbers_per_sequence"),
        indexer_bytes=indexer_bytes_per_layer(pick(shape, shapes, "indexer_dim")),
        sparse_top_k=pick(shape, shapes, "sparse_top_k"),
    )
    return pool, (shape, shapes, gpu, gpus, weight)


def engine_overlay(knobs: dict, pool: PoolKnobs, catalog: tuple, values: dict, terms) -> dict:
    """The fields the engine level changes, for one node priced as engines measure it."""
    node = _engine_node(knobs, pool, catalog, values)
    link = link_rate(knobs["kv_link"])
    return engine_values(
        node, pool.prompt, pool.answer, pool.hit_rate, pool.seats, values["arrivals_per_s"],
        pool.users, pool.price, terms,
        run_requests=pool.run_requests,
        batch_limit=pool.batch_limit,
        chunked=is_named(knobs["serving_mode"], "chunked"),
        disaggregated=is_named(knobs["serving_mode"], "disaggregated"),
        link_bytes_per_s=where(np.isnan(link), node.link_bytes_per_s, link),
    )  # fmt: skip


def engine_node(scenario: Scenario | None = None, **overrides) -> Node:
    """The engine level's :class:`~core.engine_level.node.Node` for ``scenario``'s knobs.

    Takes the same arguments as :func:`evaluate`; a step or a prefill priced on it
    (:meth:`~core.engine_level.node.Node.step_s`) is the one :func:`evaluate` prices, for
    comparing with a kernel or a step measured alone (``bench/measured_here.py``).
    """
    knobs = checked_knobs(scenario, overrides)
    pool, catalog = resolve_knobs(knobs)
    return _engine_node(knobs, pool, catalog, whiteboard_values(pool))


def _engine_node(knobs: dict, pool: PoolKnobs, catalog: tuple, values: dict) -> Node:
    """The node: the whiteboard's weights and cache per token (copied where tensor parallelism
    cannot split it); the rest of its shape, the card's measured rates and link, the kernel
    tables and the engine's costs from the catalog."""
    shape, shapes, gpu, gpus, weight = catalog
    kernels = kernel_fields(
        pool, gpu, weight, knobs["engine"], factorize(knobs["layout"]), shape, shapes,
        knobs["engine_version"],
    )  # fmt: skip
    # a prompt chunked into the running steps rides in them, whatever the engine's default
    chunked = is_named(knobs["serving_mode"], "chunked")
    kernels["separate_prefill"] = kernels["separate_prefill"] & ~np.asarray(chunked)
    measured_flops = tensor_peak(gpu, gpus, weight, "achieved_")
    rate_scale = expert_rate_scale(kernels.pop("expert_rate_code"), gpu, gpus, measured_flops)
    kernels["expert_compute_share"] = kernels["expert_compute_share"] * rate_scale
    return Node(
        layers=pool.layers,
        kv_heads=pool.kv_heads,
        head_dim=pool.head_dim,
        query_heads=pick(shape, shapes, "query_heads"),
        hidden=pick(shape, shapes, "hidden"),
        intermediate=pick(shape, shapes, "intermediate"),
        params=pool.params,
        active_params=pool.active_params,
        experts=pool.experts,
        experts_per_token=pool.experts_per_token,
        cards=pool.cards,
        card_memory_bytes=pool.card_memory,
        weight_bytes=values["weight_bytes"],
        kv_bytes_per_token=values["kv_bytes_per_token"] * kernels.pop("kv_copies"),
        peak_bandwidth=pool.bandwidth,
        peak_flops=pool.peak_flops,
        measured_bandwidth=pick(gpu, gpus, "achieved_hbm_bytes_per_s"),
        measured_flops=measured_flops,
        measured_bf16_flops=pick(gpu, gpus, "achieved_bf16_flops"),
        link_bytes_per_s=pick(gpu, gpus, "link_bytes_per_s"),
        link_over_pcie=pick(gpu, gpus, "link_over_pcie") > 0,
        link_fabric_share=pick(gpu, gpus, "link_collective_share"),
        prefix_offloaded_share=pool.prefix_offloaded_share,
        prefix_tier_bytes_per_s=pool.prefix_tier_bytes_per_s,
        attention_layers=pool.layers - pool.cacheless_layers,
        window_layers=pool.window_layers,
        attention_window=pool.sliding_window,
        window_chunked=pick(shape, shapes, "chunked_attention"),
        prefill_head_width=prefill_head_width(pool),
        **kernels,
    )


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
