"""The KV tiers of one pool: HBM, then host memory and NVMe where offload is on.

HBM holds the running seats' cache (a decode step reads it every step, so it cannot live
further out). What offload moves out is the cache of prefixes no running request needs now:
when a request reuses one, its bytes come back over the tier's link instead of being
prefilled again. Each row says how much the tier holds per node, in sequences of the pool's
length, and what one request's reused prefix costs from it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

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
