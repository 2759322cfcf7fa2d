"""One session's turn table: where each turn's prefix is found, and the hit rate it adds up to.

The session is :mod:`core.cache.sessions`' model; the rule that decides each turn is
:func:`core.cache.lru.survives`, applied to the bytes a node writes between two turns.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.cache.hit_rate import hit_rate
from core.cache.lru import first_tier
from core.cache.sessions import session_contexts
from core.cache.tiers import tier_capacities

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


def session_cache(
    first_prompt: float, growth: float, turns: int, think_s: float, offload: str, result
) -> SessionCache:
    """Each turn's prefix tier and the hit rates, for one evaluated pool.

    Notes
    -----
    Per node, arrivals :math:`\\lambda / n` each write their whole context, so the cache takes
    :math:`r = (\\lambda / n)\\,\\bar C\\,b_{kv}` bytes a second, and :math:`r\\Delta` pass
    through it between two turns. Turn :math:`k \\ge 2` finds its prefix :math:`C_{k-1}` in
    the first tier whose cumulative capacity :math:`M` keeps it
    (:func:`core.cache.lru.first_tier`: :math:`r\\Delta + C_{k-1} b_{kv} \\le M`); HBM's is the
    KV room the running seats leave free. Hit rate :math:`h = \\sum_{hit} C_{k-1} / \\sum_k C_k`.
    """
    contexts = session_contexts(first_prompt, growth, max(int(turns), 1))
    per_token = float(result.kv_bytes_per_token)
    per_node = float(result.arrivals_per_s) / max(float(result.nodes), 1.0)
    rate = per_node * float(np.mean(contexts)) * per_token
    interval = float(think_s) + float(result.request_s)
    capacities = tier_capacities(offload, float(result.free_kv_bytes))
    names = [name for name, _ in capacities] + [MISS]
    prefixes = contexts[:-1]
    found = first_tier(rate * interval, prefixes * per_token, [room for _, room in capacities])
    total = float(np.sum(contexts))
    shares = {
        name: hit_rate(found == index, prefixes, contexts) for index, name in enumerate(names[:-1])
    }
    shown = [Turn(1, float(contexts[0]), 0.0, "")] + [
        Turn(k + 2, float(contexts[k + 1]), float(prefixes[k]), names[found[k]])
        for k in range(min(len(prefixes), MAX_TURNS_SHOWN - 1))
    ]
    return SessionCache(
        turns=tuple(shown),
        ideal_hit_rate=float(np.sum(prefixes)) / total,
        hit_rate=hit_rate(found < len(capacities), prefixes, contexts),
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


def hit_rate_beyond_sessions(scenario, result) -> float:
    """How far the hit-rate knob claims more than the scenario's sessions' caches keep (0: none)."""
    sessions = scenario_sessions(scenario, result)
    if sessions is None:
        return 0.0
    return float(scenario.prefix_hit_rate) - sessions.hit_rate
