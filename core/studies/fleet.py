"""The fleet's routers side by side: the hit rate each one's caches find, and what it buys."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.evaluate import evaluate
from core.scenario.knobs import ROUTERS, Scenario
from core.traffic.arrivals import hour_arrivals
from core.whiteboard.fleet import sessions_of


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
    No router beats :func:`affinity_ceiling`, about the knob's reusable share times
    :math:`(T - 1) / T`: the first of a session's
    :data:`core.whiteboard.fleet.TURNS_PER_SESSION` turns finds nothing cached.
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
    :math:`h (1 - S_{seen} / n)`: each of the :math:`S_{seen}` sessions the hour's
    :math:`n` requests reach misses once, wherever it is sent.
    """
    result = evaluate(scenario)
    arrivals = hour_arrivals(scenario.traffic, float(result.arrivals_per_min),
                             float(scenario.burstiness))  # fmt: skip
    sessions = sessions_of(len(arrivals))
    return scenario.prefix_hit_rate * (1.0 - len(np.unique(sessions)) / len(sessions))
