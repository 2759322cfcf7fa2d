"""Chunked prefill and prefill/decode disaggregation in the closed form, at the engine level.

:func:`core.engine_level.pool.engine_values` prices an aggregated node: prompts take turns with
decode steps. The two later designs change what a stream and a first token wait for:

- **chunked**: prompts ride in decode steps, at most ``CHUNKED_PREFILL_TOKENS`` tokens a step,
  in the same pass as the decodes (whose weight read their arithmetic can hide behind); the
  worst step carries one chunk instead of whole prompts, and a prompt's first token waits for
  all of its chunks.
- **disaggregated**: prefill nodes prefill alone, the cache crosses a link, decode nodes
  only decode. Each pool is bought for its own load; TTFT depends on the prefill pool only,
  ITL on the decode pool only.

The step-level engine (:mod:`core.simulator`) simulates the same three designs step by step; the
notes of issue 14 compare the two.
"""

from __future__ import annotations

import numpy as np

from core.catalog import CHUNKED_PREFILL_TOKENS, HOURS_PER_MONTH, INFINIBAND_NDR_BYTES_PER_S
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S
from core.engine_level.fixed_points import own_image
from core.engine_level.load import decode_context
from core.traffic import queueing
from core.traffic.queueing import UNBOUNDED_WAIT_S

SERVING_MODES = ("aggregated", "chunked", "disaggregated")
KV_LINKS = ("nvlink", "infiniband")
ITL_TAIL = 0.99  # the inter-token latency percentile reported
_POISSON_TERMS = 64  # prompts joining one step: far more than any step ever admits
_SLO_SEARCH = 16  # prefill pools looked at past the smallest that keeps up


# k and log k! for the terms poisson_quantile sums, built once (read-only: shared by sessions)
_POISSON_K = np.arange(_POISSON_TERMS)
_LOG_FACTORIAL = np.concatenate([[0.0], np.cumsum(np.log(_POISSON_K[1:]))])
_POISSON_K.setflags(write=False)
_LOG_FACTORIAL.setflags(write=False)


def poisson_quantile(mean, quantile):
    """The smallest ``k`` with :math:`P(K \\le k) \\ge q` for :math:`K \\sim` Poisson(mean)."""
    mean = np.maximum(np.asarray(mean, dtype=float), 1e-300)[..., None]
    k, log_factorial = _POISSON_K, _LOG_FACTORIAL
    cdf = np.cumsum(np.exp(k * np.log(mean) - mean - log_factorial), axis=-1)
    reached = cdf >= quantile
    return np.where(reached.any(axis=-1), reached.argmax(axis=-1), _POISSON_TERMS - 1)


def aggregated_itl_tail(step, added, arrivals_per_node, itl):
    """ITL p99 when whole prompts join decode steps.

    Notes
    -----
    A step carries :math:`K \\sim \\mathrm{Poisson}(\\lambda\\,t_{ITL})` new prompts, each
    adding its prefill :math:`t_p`; the tail gap is :math:`t_s + k_{99} t_p`, never below the
    mean ITL.
    """
    joining = poisson_quantile(arrivals_per_node * itl, ITL_TAIL)
    return np.maximum(itl, step + joining * added)


def chunked_figures(node, terms, context, step, added, miss, running, arrivals_per_node, company):
    """(mean ITL, ITL p99, TTFT shift, starved) when prompts ride in decode steps in chunks.

    Notes
    -----
    A step holds :math:`C` tokens, one per running stream, so :math:`c = \\min(C - n, T)`
    prompt tokens ride along in one pass: :math:`t_{mix} = t_{step}(n + c)` reading only the
    :math:`n` streams' cache, plus the chunk's share of the prompt's attention. Each prompt
    token costs :math:`\\delta = (t_{mix} - t_s)/c`, so prompts hold the cards
    :math:`\rho_c = \\lambda T \\delta` of the time and :math:`ITL = t_s/(1 - \rho_c)`
    (the aggregated :math:`\rho = \\lambda t_p` when the read and the arithmetic add up).
    Past 1 % of steps carrying a chunk the tail gap is :math:`t_{mix}`. A prompt takes
    :math:`\\lceil T/c \rceil` mixed steps instead of its prefill and 1.5 steps whole.
    With :math:`C \\le n` prompts never start: the node starves.
    """
    room = CHUNKED_PREFILL_TOKENS - running
    starved = room <= 0
    safe_miss = np.maximum(miss, 1.0)
    chunk = np.clip(room, 1.0, safe_miss)
    batch = np.maximum(running, 1.0)
    # the chunk's tokens are one more request for the attention kernel, not one each
    mixed = node.step_s(batch + chunk, context * batch / (batch + chunk), terms, batch + 1.0)
    if "prefill_shape" in terms:
        attention = added - node.prefill_s(safe_miss, 0.0, terms - {"prefill_shape"}, False)
        mixed = mixed + np.maximum(attention, 0.0) * chunk / safe_miss
    per_token = np.maximum(mixed - step, 0.0) / chunk
    busy = np.minimum(arrivals_per_node * safe_miss * per_token, 0.999)
    itl = step / (1.0 - busy)
    share = arrivals_per_node * safe_miss * itl / chunk
    tail = np.maximum(itl, np.where(share > 1.0 - ITL_TAIL, mixed, step))
    shift = company * (np.ceil(safe_miss / chunk) * mixed - added - 1.5 * step)
    return itl, tail, shift, starved


def link_rate(kv_link):
    """Bytes per second per card for ``kv_link``: NaN for NVLink (the card's own rate)."""
    if isinstance(kv_link, str):
        return np.nan if kv_link == "nvlink" else INFINIBAND_NDR_BYTES_PER_S
    links = np.asarray(kv_link, dtype=object)
    return np.where(links == "nvlink", np.nan, INFINIBAND_NDR_BYTES_PER_S)


def prefill_nodes_for_slo(arrivals_per_s, prefill_s):
    """The fewest prefill nodes whose first token meets the SLO at its percentile.

    Notes
    -----
    Each node prefills one prompt at a time, so the pool is an M/M/c queue of service
    :math:`t_p`: at least :math:`c_0 = \\lceil \\lambda t_p \rceil` nodes keep up, and the
    pool takes the first :math:`c \\ge c_0` with
    :math:`t_p + W_{95}(c) < \\mathrm{SLO}` (Erlang C), looking up to
    ``_SLO_SEARCH`` nodes past :math:`c_0`; where no count can (a prefill alone misses the
    SLO), :math:`c_0`.
    """
    arrivals, service = np.asarray(arrivals_per_s, dtype=float), np.asarray(prefill_s, dtype=float)
    stable = np.maximum(1.0, np.ceil(arrivals * service - 1e-9))
    stable = np.where(arrivals * service >= stable, stable + 1.0, stable)
    candidates = stable[..., None] + np.arange(_SLO_SEARCH)
    wait, unbounded = queueing.wait_quantile(
        candidates, arrivals[..., None], service[..., None], TTFT_PERCENTILE
    )
    meets = ~unbounded & (service[..., None] + wait < TTFT_SLO_S)
    first = np.where(meets.any(axis=-1), meets.argmax(axis=-1), 0)
    return stable + first


def disaggregated_values(
    node, prompt, answer, hit_rate, granted, arrivals_per_s, price, terms, link_bytes_per_s
) -> dict:
    """The pool's figures when prefill and decode run on separate nodes.

    Notes
    -----
    Prefill nodes run one prompt at a time; the pool buys the fewest that meet the first-token
    SLO with a cold cache (:func:`prefill_nodes_for_slo`), and a first token waits the M/M/c
    (Erlang C) wait for one plus its own prefill.
    The cache, :math:`T b_{kv}` bytes, crosses the link at :math:`c\\,\\beta_{link}`. Decode
    nodes hold :math:`s` streams each and never prefill: ITL is one decode step of the
    running batch, :math:`n_d = \\lceil \\lambda (A - 1) t_s(s) / s \\rceil`.
    """
    serving = granted >= 1
    full = np.maximum(granted, 1.0)
    context = decode_context(prompt, answer, terms)
    hit = prompt * hit_rate
    alone = node.prefill_s(prompt - hit, hit, terms, alone=True)
    alone_cold = node.prefill_s(prompt, 0.0, terms, alone=True)
    prefill_nodes = prefill_nodes_for_slo(arrivals_per_s, alone_cold)
    prefill_queue = queueing.wait_tail(prefill_nodes, arrivals_per_s, alone)
    wait_tail, prefill_unbounded = queueing.tail_quantile(prefill_queue, TTFT_PERCENTILE)
    wait_median, _ = queueing.tail_quantile(prefill_queue, 0.5)
    transfer = prompt * node.kv_bytes_per_token / (node.cards * link_bytes_per_s)

    later = np.maximum(answer - 1.0, 1.0)
    step_full = node.step_s(full, context, terms)
    decode_nodes = np.where(
        serving, np.maximum(1.0, np.ceil(arrivals_per_s * later * step_full / full - 1e-9)), 1.0
    )
    per_node = arrivals_per_s / decode_nodes

    def batch(step):  # the running batch a decode step of this length implies
        return np.clip(per_node * later * step, 1.0, full)

    # the step is its own image (core.engine_level.fixed_points): never longer than a full one's
    step = own_image(
        lambda s: s - node.step_s(batch(s), context, terms), 2.0 * step_full, per_node, later
    )
    running = batch(step)
    step = node.step_s(running, context, terms)
    decoding = later * step
    servers = decode_nodes * granted
    _, decode_unbounded = queueing.wait_quantile(servers, arrivals_per_s, decoding, 0.5)
    unbounded = prefill_unbounded | decode_unbounded | ~serving
    ttft_p95 = np.where(
        unbounded, UNBOUNDED_WAIT_S, np.minimum(alone + wait_tail, UNBOUNDED_WAIT_S)
    )
    nodes = prefill_nodes + decode_nodes
    monthly = nodes * node.cards * price * HOURS_PER_MONTH
    return {
        "prefill_s": alone,
        "request_s": alone + transfer + decoding,
        "sizing_request_s": later * step_full,
        "offered_load": arrivals_per_s * decoding,
        "nodes": nodes,
        "prefill_nodes": prefill_nodes,
        "servers": servers,
        "utilization": np.where(unbounded, 1.0, arrivals_per_s * decoding / np.maximum(servers, 1)),
        "queue_wait_p95_s": np.where(unbounded, UNBOUNDED_WAIT_S, wait_tail),
        "queue_unbounded": unbounded,
        "ttft_p95_s": ttft_p95,
        "monthly_usd": monthly,
        "latency_ok": ~unbounded & (ttft_p95 < TTFT_SLO_S),
        "cost_ok": monthly <= BUDGET_USD_PER_MONTH,
        "throughput_tokens_per_s": np.where(serving, per_node * answer, 0.0),
        "itl_s": step,
        "itl_p99_s": step,
        "ttft_p50_s": np.where(
            unbounded, UNBOUNDED_WAIT_S, np.minimum(alone + wait_median, UNBOUNDED_WAIT_S)
        ),
        "running_requests": np.where(serving, running, 0.0),
        "kv_transfer_s": transfer,
    }
