"""A fleet: N replicas behind a router, each with a prefix cache of finite size (LRU).

The hit-rate knob says what share of a prompt is a reusable prefix (a session's system
preamble and earlier turns). Whether a replica still holds that prefix when the session's
next request comes depends on where the router sends it and how many sessions the replica's
spare KV room keeps: the *derived* hit rate is the knob's share times the share of requests
whose session prefix was cached on the replica that served them.

Sessions are an assumption (the traces carry no session ids): request ``i`` continues session
``s_i``, drawn uniformly from :math:`S = \\lceil n / T \\rceil` sessions, :math:`T` =
:data:`TURNS_PER_SESSION` turns each, with a fixed seed.
"""

from __future__ import annotations

import functools
import heapq
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from core.traffic.arrivals import hour_arrivals

TURNS_PER_SESSION = 5  # turns of one conversation (an assumption: the traces have no sessions)


@dataclass(frozen=True)
class FleetRun:
    """Where each request went and whether its session's prefix was cached there."""

    router: str
    replicas: int
    capacity_sessions: int
    replica: np.ndarray
    cached: np.ndarray

    @property
    def cached_share(self) -> float:
        """Share of requests that found their session's prefix on their replica."""
        return float(self.cached.mean()) if self.cached.size else 0.0

    @property
    def load_spread(self) -> float:
        """Most requests on one replica over the mean per replica (1 is perfectly even)."""
        counts = np.bincount(self.replica, minlength=self.replicas)
        return float(counts.max() / max(counts.mean(), 1e-12))


def sessions_of(count: int) -> np.ndarray:
    """Each request's session, seeded: :math:`\\lceil n / T \\rceil` sessions drawn uniformly."""
    sessions = max(1, -(-count // TURNS_PER_SESSION))
    return np.random.default_rng(7).integers(0, sessions, count)


def route(router: str, arrival_s: np.ndarray, service_s: float, replicas: int,
          sessions: np.ndarray) -> np.ndarray:  # fmt: skip
    """The replica each request goes to.

    Notes
    -----
    *round-robin*: request :math:`i` to replica :math:`i \\bmod N`. *least-outstanding*: to the
    replica with the fewest requests still in flight at its arrival, each holding its replica
    for ``service_s`` (ties to the lowest number). *prefix-affinity*: a session always to
    replica :math:`s \\bmod N` (a consistent hash of its prefix).
    """
    count = len(arrival_s)
    if router == "round-robin" or replicas == 1:
        return np.arange(count) % replicas
    if router == "prefix-affinity":
        return sessions % replicas
    ends: list[list[float]] = [[] for _ in range(replicas)]
    chosen = np.empty(count, dtype=np.int64)
    for i, now in enumerate(arrival_s.tolist()):
        for heap in ends:
            while heap and heap[0] <= now:
                heapq.heappop(heap)
        best = min(range(replicas), key=lambda r: len(ends[r]))
        heapq.heappush(ends[best], now + service_s)
        chosen[i] = best
    return chosen


def cache_hits(
    replica: np.ndarray, sessions: np.ndarray, replicas: int, capacity: int
) -> np.ndarray:
    """Whether each request found its session's prefix in its replica's LRU of ``capacity`` sessions."""
    caches = [OrderedDict() for _ in range(replicas)]
    hits = np.zeros(len(replica), dtype=bool)
    if capacity < 1:
        return hits
    for i, (node, session) in enumerate(zip(replica.tolist(), sessions.tolist(), strict=True)):
        cache = caches[node]
        if session in cache:
            hits[i] = True
            cache.move_to_end(session)
        else:
            cache[session] = None
            if len(cache) > capacity:
                cache.popitem(last=False)
    return hits


@functools.lru_cache(maxsize=64)
def fleet_run(router: str, traffic: str, rate_per_min: float, burstiness: float,
              service_s: float, replicas: int, capacity: int) -> FleetRun:  # fmt: skip
    """Route the hour's requests (:func:`core.traffic.arrivals.hour_arrivals`) and replay
    every replica's prefix cache; cached per process by its arguments."""
    arrivals = hour_arrivals(traffic, rate_per_min, burstiness)
    sessions = sessions_of(len(arrivals))
    replica = route(router, arrivals, service_s, replicas, sessions)
    hits = cache_hits(replica, sessions, replicas, capacity)
    for array in (replica, hits):
        array.setflags(write=False)
    return FleetRun(router, replicas, capacity, replica, hits)


def fleet_for(pool, values, router: str) -> list[FleetRun]:
    """One fleet run per entry of a (possibly swept) evaluation, for ``router``.

    Notes
    -----
    Each replica keeps the sessions its spare KV room holds,
    :math:`C = \\lfloor (R_{tokens} - K_{in\\,use}) / (h P) \\rfloor`, with :math:`h P`
    the reusable prefix of a prompt (the hit-rate knob times the prompt).
    """
    free = np.maximum(values["kv_budget_tokens"] - values["kv_tokens_in_use"], 0.0)
    prefix = np.maximum(pool.prompt * pool.hit_rate, 1.0)
    columns = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (pool.arrivals_per_min, pool.burstiness,
                                                values["request_s"], values["nodes"],
                                                np.floor(free / prefix)))
    )  # fmt: skip
    runs = []
    for rate, burst, service, nodes, capacity in zip(*(c.ravel() for c in columns), strict=True):
        runs.append(fleet_run(router, pool.traffic, float(rate), float(burst), float(service),
                              int(nodes), int(capacity)))  # fmt: skip
    return runs


def derived_hit_rate(pool, values):
    """The hit rate the fleet finds: the knob's reusable share times the share of cached prefixes.

    Notes
    -----
    :math:`h_{derived} = h \\cdot \\frac{1}{n} \\sum_i [\\text{session } s_i \\text{ cached on its
    replica}]`, the first turn of every session a miss on each replica it reaches.
    """
    runs = fleet_for(pool, values, pool.router)
    shares = np.array([run.cached_share for run in runs])
    shape = np.broadcast(pool.hit_rate, values["request_s"], values["nodes"]).shape
    share = shares.reshape(shape) if shape else shares[0]
    return pool.hit_rate * share
