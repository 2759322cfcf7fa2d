"""The fleet's routers side by side: the hit rate each one's caches find, and what it buys."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.cache.hit_rate import hit_rate
from core.cache.sessions import hour_sessions, turn_numbers, turn_tokens
from core.evaluate import evaluate
from core.scenario.knobs import ROUTERS, Scenario
from core.traffic.arrivals import hour_arrivals


@dataclass(frozen=True)
class RouterRow:
    """One router on the scenario's fleet: derived hit rate, first-token p95, prefill time."""

    router: str
    hit_rate: float
    ttft_p95_s: float
    prefill_s: float
    goodput: float
    nodes: int


def compare_routers(scenario: Scenario) -> list[RouterRow]:
    """Each router of :data:`core.scenario.knobs.ROUTERS` with the hit rate derived for it.

    Notes
    -----
    No router beats :func:`affinity_ceiling`: the first turn of every session finds nothing
    cached, wherever it is sent.
    """
    rows = []
    for router in ROUTERS:
        result = evaluate(scenario, router=router, prefix_source="derived")
        rows.append(
            RouterRow(
                router,
                result.hit_rate,
                result.ttft_p95_s,
                result.prefill_s,
                result.goodput,
                result.nodes,
            )
        )
    return rows


def affinity_ceiling(scenario: Scenario) -> float:
    """The best derived hit rate any router reaches: every turn after a session's first.

    Notes
    -----
    :func:`core.cache.hit_rate.hit_rate` with every later turn found. With the session knobs
    off that is :math:`h (1 - S_{seen} / n)`: each of the :math:`S_{seen}` sessions the hour's
    :math:`n` requests reach misses once; with them on, turn :math:`k` finds its
    :math:`C_{k-1}` of :math:`C_k`.
    """
    result = evaluate(scenario)
    arrivals = hour_arrivals(scenario.traffic, float(result.arrivals_per_min),
                             float(scenario.burstiness))  # fmt: skip
    gap_s = float(scenario.think_time_s) + float(result.request_s)
    turn = turn_numbers(hour_sessions(len(arrivals), scenario.session_turns, gap_s))
    if scenario.session_turns is None:
        return scenario.prefix_hit_rate * hit_rate(turn > 1, 1.0, np.ones(len(turn)))
    sent, reused = turn_tokens(turn, float(result.prompt_tokens),
                               float(scenario.turn_growth_tokens))  # fmt: skip
    return hit_rate(turn > 1, reused, sent)
