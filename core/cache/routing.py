"""The fleet's routers: which replica each request of the hour goes to, one function a router.

Every router takes the arrival times, the seconds a request holds its replica, the replicas
and each request's session (:func:`core.cache.sessions.hour_sessions`), and returns each
request's replica; :data:`ROUTE` names them as :data:`core.scenario.knobs.ROUTERS` does.
"""

from __future__ import annotations

import heapq

import numpy as np


def round_robin(arrival_s: np.ndarray, service_s: float, replicas: int, sessions) -> np.ndarray:
    """Request :math:`i` to replica :math:`i \\bmod N`, in turn."""
    return np.arange(len(arrival_s)) % replicas


def prefix_affinity(arrival_s: np.ndarray, service_s: float, replicas: int, sessions) -> np.ndarray:
    """A session always to replica :math:`s \\bmod N` (a consistent hash of its prefix)."""
    return np.asarray(sessions) % replicas


def least_outstanding(
    arrival_s: np.ndarray, service_s: float, replicas: int, sessions
) -> np.ndarray:
    """To the replica with the fewest requests in flight at the arrival (ties to the lowest).

    Each request holds its replica for ``service_s`` seconds.
    """
    ends: list[list[float]] = [[] for _ in range(replicas)]
    chosen = np.empty(len(arrival_s), dtype=np.int64)
    for i, now in enumerate(np.asarray(arrival_s).tolist()):
        for heap in ends:
            while heap and heap[0] <= now:
                heapq.heappop(heap)
        best = min(range(replicas), key=lambda r: len(ends[r]))
        heapq.heappush(ends[best], now + service_s)
        chosen[i] = best
    return chosen


ROUTE = {
    "round-robin": round_robin,
    "least-outstanding": least_outstanding,
    "prefix-affinity": prefix_affinity,
}


def route(router: str, arrival_s: np.ndarray, service_s: float, replicas: int,
          sessions: np.ndarray) -> np.ndarray:  # fmt: skip
    """The replica each request goes to under ``router`` (one replica takes everything)."""
    if replicas == 1:
        return round_robin(arrival_s, service_s, replicas, sessions)
    return ROUTE[router](arrival_s, service_s, replicas, sessions)
