"""Multi-turn sessions: each turn's prefix is the last turn's context, if the cache kept it.

A chat or an agent resends its whole history every turn. Turn :math:`k` of a session carries
:math:`C_k = P + (k-1) g` tokens (the first prompt, then ``g`` new tokens a turn: the last
answer and the next message), and all but the newest ``g`` of them were the previous turn's
context. Whether that prefix is still cached when the turn arrives depends on what else went
through the cache meanwhile: under least-recently-used eviction, a prefix of :math:`B` bytes
last used :math:`\\Delta` seconds ago survives in a cache of :math:`M` bytes when the bytes
written since, :math:`r \\Delta`, plus its own, fit: :math:`r \\Delta + B \\le M`. Tiers
cascade (HBM evicts into host memory, host memory into NVMe), so a prefix that falls out of
HBM is found in the next tier whose cumulative capacity still holds it. The hit rate then
follows from capacity and traffic instead of being typed in.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog.tiers import OFFLOAD_TIERS

MISS = "prefilled again"
MAX_TURNS_SHOWN = 64  # a session's turn table lists at most this many turns


@dataclass(frozen=True)
class Turn:
    """One turn of a session: its context, the prefix it reuses, and where that came from."""

    turn: int
    context_tokens: float
    prefix_tokens: float
    tier: str  # "HBM", a tier's name, MISS, or "" for the first turn (nothing to reuse)


@dataclass(frozen=True)
class SessionCache:
    """A session's turns, and the hit rate they add up to, overall and tier by tier.

    ``ideal_hit_rate`` is what an endless cache would give; ``hit_rate`` what this pool's
    caches give; ``tier_shares`` maps each tier to the share of all prompt tokens it serves.
    """

    turns: tuple[Turn, ...]
    ideal_hit_rate: float
    hit_rate: float
    tier_shares: dict
    write_bytes_per_s: float
    interval_s: float


def session_contexts(first_prompt: float, growth: float, turns: int) -> np.ndarray:
    """Tokens each turn of a session sends: :math:`C_k = P + (k-1) g`."""
    return first_prompt + growth * np.arange(int(turns), dtype=float)


def tier_capacities(offload: str, hbm_free_bytes: float) -> list[tuple[str, float]]:
    """Cumulative capacity per node, HBM first, of the tiers a prefix can be found in."""
    capacities, total = [("HBM", max(hbm_free_bytes, 0.0))], max(hbm_free_bytes, 0.0)
    for tier in OFFLOAD_TIERS[offload]:
        total += tier.capacity_bytes
        capacities.append((tier.name, total))
    return capacities


def session_cache(
    first_prompt: float, growth: float, turns: int, think_s: float, offload: str, result
) -> SessionCache:
    """Each turn's prefix tier and the hit rates, for one evaluated pool.

    Notes
    -----
    Per node, arrivals :math:`\\lambda / n` each write their whole context, so the cache takes
    :math:`r = (\\lambda / n)\\,\\bar C\\,b_{kv}` bytes a second. A turn comes
    :math:`\\Delta = \\theta + D` after the last (think time plus the last request's own time).
    Turn :math:`k \\ge 2` finds its prefix :math:`C_{k-1}` in the first tier whose cumulative
    capacity :math:`M` satisfies :math:`r\\Delta + C_{k-1} b_{kv} \\le M`; HBM's is the KV room
    the running seats leave free. Hit rate :math:`h = \\sum_{hit} C_{k-1} / \\sum_k C_k`.
    """
    contexts = session_contexts(first_prompt, growth, max(int(turns), 1))
    per_token = float(result.kv_bytes_per_token)
    per_node = float(result.arrivals_per_s) / max(float(result.nodes), 1.0)
    rate = per_node * float(np.mean(contexts)) * per_token
    interval = float(think_s) + float(result.request_s)
    capacities = tier_capacities(offload, float(result.free_kv_bytes))
    total = float(np.sum(contexts))
    shown, served = [Turn(1, float(contexts[0]), 0.0, "")], {name: 0.0 for name, _ in capacities}
    for k in range(1, len(contexts)):
        prefix = float(contexts[k - 1])
        need = rate * interval + prefix * per_token
        tier = next((name for name, room in capacities if need <= room), MISS)
        if tier != MISS:
            served[tier] += prefix
        if k < MAX_TURNS_SHOWN:
            shown.append(Turn(k + 1, float(contexts[k]), prefix, tier))
    ideal = float(np.sum(contexts[:-1])) / total
    shares = {name: tokens / total for name, tokens in served.items()}
    return SessionCache(
        turns=tuple(shown),
        ideal_hit_rate=ideal,
        hit_rate=float(sum(shares.values())),
        tier_shares=shares,
        write_bytes_per_s=rate,
        interval_s=interval,
    )


def scenario_sessions(scenario, result) -> SessionCache | None:
    """:func:`session_cache` for a scenario's session knobs; None when it has no sessions.

    The session's first turn is the scenario's prompt.
    """
    if scenario.session_turns is None:
        return None
    return session_cache(
        float(scenario.prompt_tokens), float(scenario.turn_growth_tokens),
        int(scenario.session_turns), float(scenario.think_time_s), scenario.kv_offload, result,
    )  # fmt: skip


def _served_tokens(count, first_prompt, growth):
    """Tokens of the first ``count`` prefixes :math:`p_j = P + j g`: :math:`cP + g c(c-1)/2`."""
    return count * first_prompt + growth * count * (count - 1.0) / 2.0


def _prefixes_held(room, churn_bytes, first_prompt, growth, per_token, reuses):
    """How many of a session's prefixes, shortest first, a cumulative room of ``room`` keeps.

    Prefix :math:`j` survives while :math:`r\\Delta + (P + j g) b \\le M`; the prefixes grow
    with :math:`j`, so the ones kept are the first :math:`J` (all or none when :math:`g = 0`).
    """
    spare_tokens = (room - churn_bytes) / np.maximum(per_token, 1e-300) - first_prompt
    with np.errstate(divide="ignore", invalid="ignore"):
        counted = np.floor(spare_tokens / np.where(growth > 0, growth, 1.0) + 1e-9) + 1.0
    counted = np.where(growth > 0, counted, np.where(spare_tokens >= 0, reuses, 0.0))
    return np.clip(np.nan_to_num(counted, nan=0.0, posinf=0.0, neginf=0.0), 0.0, reuses)


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
    Each session's history is private and waits between turns, and :func:`session_cache`'s
    rule holds, in closed form: prefix :math:`j` of a session
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
    held = _prefixes_held(free, churn, first_prompt, growth, per_token, reuses)
    in_hbm = _served_tokens(held, first_prompt, growth)
    room, found, seconds_per_byte = free, in_hbm, 0.0
    for tier in tiers:
        room = room + tier.capacity_bytes
        deeper = _served_tokens(
            _prefixes_held(room, churn, first_prompt, growth, per_token, reuses),
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


def hit_rate_beyond_sessions(scenario, result) -> float:
    """How far the hit-rate knob claims more than the scenario's sessions' caches keep (0: none)."""
    sessions = scenario_sessions(scenario, result)
    if sessions is None:
        return 0.0
    return float(scenario.prefix_hit_rate) - sessions.hit_rate
