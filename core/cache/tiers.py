"""The KV tiers of one pool: HBM, then host memory and NVMe where offload is on.

HBM holds the running seats' cache (a decode step reads it every step, so it cannot live
further out). What offload moves out is the cache of prefixes no running request needs now:
when a request reuses one, its bytes come back over the tier's link instead of being
prefilled again. Each row says how much the tier holds per node, in sequences of the pool's
length, and what one request's reused prefix costs from it; :func:`offloaded_hits` says what
share of a pool's hits comes back from outside HBM (the LRU rule of :mod:`core.cache.lru`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.cache.lru import growing_entries_held
from core.catalog.tiers import OFFLOAD_TIERS


@dataclass(frozen=True)
class TierRow:
    """One tier: its capacity per node, its rate per card, and one reuse's cost from it."""

    name: str
    capacity_bytes: float
    bytes_per_s: float
    sequences: float  # whole sequences of the pool's length the tier holds
    reuse_s: float  # one request's cached prefix copied back to HBM (HBM: read in place)
    source: str


def tier_rows(offload: str, result) -> list[TierRow]:
    """HBM's KV room and, under ``offload``, each tier it spills to, for an evaluated pool.

    Notes
    -----
    A tier of capacity :math:`C` holds :math:`\\lfloor C / (T_{seat} b_{kv}) \\rfloor`
    sequences; one request's prefix of :math:`h T` tokens comes back in
    :math:`h T b_{kv} / (c\\,B_{tier})` against a prefill of :math:`2 P h T / (c F \\eta)`.
    """
    seat = float(result.seat_kv_bytes)
    hit_bytes = float(result.hit_tokens) * float(result.kv_bytes_per_token)
    cards = float(result.cards)
    held = float(np.floor(result.kv_budget_bytes / seat + 1e-9)) if seat else 0.0
    in_place = float(result.prefix_hbm_read_s)
    rows = [
        TierRow("HBM (KV room)", float(result.kv_budget_bytes), 0.0, held, in_place,
                "the card's datasheet, less the weights and the margin")
    ]  # fmt: skip
    for tier in OFFLOAD_TIERS[offload]:
        held = float(np.floor(tier.capacity_bytes / seat + 1e-9)) if seat else 0.0
        reuse = hit_bytes / (cards * tier.bytes_per_s)
        rows.append(
            TierRow(tier.name, tier.capacity_bytes, tier.bytes_per_s, held, reuse, tier.source)
        )
    return rows


def reprefill_s(result) -> float:
    """Seconds one request's cached prefix would cost prefilled again instead of reused."""
    miss = float(result.miss_tokens)
    if miss <= 0 or float(result.prefill_s) <= 0:
        return 0.0
    return float(result.prefill_s) * float(result.hit_tokens) / miss


def binding_tier(offload: str) -> str:
    """The tier a reused prefix comes back from: HBM when offload is off, else the fastest out."""
    tiers = OFFLOAD_TIERS[offload]
    return tiers[0].name if tiers else "HBM"


def tier_capacities(offload: str, hbm_free_bytes: float) -> list[tuple[str, float]]:
    """Cumulative capacity per node, HBM first, of the tiers a prefix can be found in."""
    capacities, total = [("HBM", max(hbm_free_bytes, 0.0))], max(hbm_free_bytes, 0.0)
    for tier in OFFLOAD_TIERS[offload]:
        total += tier.capacity_bytes
        capacities.append((tier.name, total))
    return capacities


def _served_tokens(count, first_prompt, growth):
    """Tokens of the first ``count`` prefixes :math:`p_j = P + j g`: :math:`cP + g c(c-1)/2`."""
    return count * first_prompt + growth * count * (count - 1.0) / 2.0


def offloaded_hits(offload, turns, think_s, growth, pool, values):
    """The share of a pool's prefix hits that come back from outside HBM, and their rate.

    Parameters
    ----------
    offload : str
        The ``kv_offload`` knob; ``"off"`` keeps every hit in HBM.
    turns, think_s, growth
        The session knobs (turns per session, seconds between turns, tokens a turn adds).
    pool : PoolKnobs
        The resolved knobs (the first prompt, the cards).
    values : dict
        The pool's figures with every hit read in HBM: the free KV room, the cache per
        token, the request time, the arrivals and the nodes.

    Returns
    -------
    share, bytes_per_s : ndarray
        The share of hit tokens copied back from host memory or NVMe, and the rate per card
        they come back at (NaN where none does).

    Notes
    -----
    Each session's history is private and waits between turns, and the one LRU rule holds
    (:func:`core.cache.lru.growing_entries_held`, :func:`core.cache.lru.survives` solved for
    the prefixes a room keeps), as in the session table: prefix :math:`j` of a session
    (:math:`p_j = P + j g`, :math:`j < k - 1`) is found in the first tier whose cumulative room
    :math:`M_t` satisfies :math:`r\\Delta + p_j b \\le M_t`; the share is the tokens found past
    HBM over all tokens found, and the rate :math:`\\sum_t n_t / \\sum_t (n_t / B_t)` over the
    tokens :math:`n_t` each tier serves.
    """
    tiers = OFFLOAD_TIERS[offload]
    per_token = values["kv_bytes_per_token"]
    free = np.maximum(values["free_kv_bytes"], 0.0)
    if not tiers:
        return np.zeros(np.shape(free)), np.full(np.shape(free), np.nan)
    first_prompt = pool.prompt
    reuses = np.maximum(np.asarray(turns, dtype=float), 1.0) - 1.0
    mean_context = first_prompt + growth * reuses / 2.0
    per_node = values["arrivals_per_s"] / np.maximum(values["nodes"], 1.0)
    churn = per_node * mean_context * per_token * (think_s + values["request_s"])
    held = growing_entries_held(free, churn, first_prompt, growth, per_token, reuses)
    in_hbm = _served_tokens(held, first_prompt, growth)
    room, found, seconds_per_byte = free, in_hbm, 0.0
    for tier in tiers:
        room = room + tier.capacity_bytes
        deeper = _served_tokens(
            growing_entries_held(room, churn, first_prompt, growth, per_token, reuses),
            first_prompt,
            growth,
        )
        seconds_per_byte = seconds_per_byte + (deeper - found) / tier.bytes_per_s
        found = deeper
    outside = found - in_hbm
    with np.errstate(divide="ignore", invalid="ignore"):
        share = np.where(found > 0, outside / found, 1.0)
        rate = np.where(outside > 0, outside / seconds_per_byte, tiers[0].bytes_per_s)
    return share, rate
