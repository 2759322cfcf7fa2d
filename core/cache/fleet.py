"""A fleet: N replicas behind a router, each holding the sessions it served in a finite LRU.

Whether a replica still holds a session's prefix when the session's next turn comes depends
on where the router sends it and how much of the replica's spare KV room the other sessions
passing through it take: :func:`core.cache.lru.lru_hits` replays every replica's cache over
the hour's requests, each a turn of one of the hour's sessions
(:func:`core.cache.sessions.hour_sessions`: the session knobs' sessions, or
:data:`core.cache.sessions.DEFAULT_TURNS` turns when they are off). The hit rate this adds up
to is :func:`core.cache.hit_rate.derived_hit_rate`.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from core.cache.lru import lru_hits
from core.cache.routing import route
from core.cache.sessions import hour_sessions, turn_numbers, turn_tokens
from core.cache.tiers import tier_capacities
from core.traffic.arrivals import hour_arrivals


@dataclass(frozen=True)
class FleetRun:
    """Where each request went and whether its session's prefix was cached there.

    ``reused`` and ``sent`` are each request's reusable prefix and whole prompt, in tokens
    with the session knobs on, in units of the knob's reusable prefix with them off (1 each).
    """

    router: str
    replicas: int
    capacity: float
    replica: np.ndarray
    cached: np.ndarray
    reused: np.ndarray
    sent: np.ndarray

    @property
    def load_spread(self) -> float:
        """Most requests on one replica over the mean per replica (1 is perfectly even)."""
        counts = np.bincount(self.replica, minlength=self.replicas)
        return float(counts.max() / max(counts.mean(), 1e-12))


@functools.lru_cache(maxsize=64)
def fleet_run(router: str, traffic: str, rate_per_min: float, burstiness: float,
              service_s: float, replicas: int, capacity: float,
              session: tuple | None = None) -> FleetRun:  # fmt: skip
    """Route the hour's requests and replay every replica's prefix cache; cached per process.

    Parameters
    ----------
    capacity : float
        Each replica's room: sessions (of the knob's reusable prefix each) when ``session`` is
        None, tokens (HBM's free room and the offload tiers') otherwise.
    session : tuple, optional
        ``(turns, gap_s, first_prompt, growth)`` from the session knobs; None when they are off.

    Notes
    -----
    With the knobs on, turn :math:`k` sends :math:`C_k = P + (k-1) g` tokens, reuses
    :math:`C_{k-1}` and leaves :math:`C_k` cached; off, every turn reuses and leaves one
    reusable prefix.
    """
    arrivals = hour_arrivals(traffic, rate_per_min, burstiness)
    if session is None:
        sessions = hour_sessions(len(arrivals))
        sent = reused = sizes = np.ones(len(arrivals))
    else:
        turns, gap_s, first_prompt, growth = session
        sessions = hour_sessions(len(arrivals), turns, gap_s)
        sent, reused = turn_tokens(turn_numbers(sessions), first_prompt, growth)
        sizes = sent  # a turn leaves its whole context cached
    replica = route(router, arrivals, service_s, replicas, sessions)
    hits = lru_hits(sessions, sizes, capacity, caches=replica)
    for array in (replica, hits, reused, sent):
        array.setflags(write=False)
    return FleetRun(router, replicas, capacity, replica, hits, reused, sent)


def fleet_for(pool, values, router: str, knobs: dict) -> tuple[list[FleetRun], tuple]:
    """One fleet run per entry of a (possibly swept) evaluation, for ``router``, and their shape.

    Notes
    -----
    With the session knobs off each replica keeps the sessions its spare KV room holds,
    :math:`C = \\lfloor (R_{tokens} - K_{in\\,use}) / (h P) \\rfloor`, with :math:`h P`
    the reusable prefix of a prompt (the hit-rate knob times the prompt). With them on it
    keeps tokens: that spare room plus the offload tiers' (:func:`tier_capacities`, in tokens
    of :math:`b_{kv}` bytes), and a session's turns come :math:`\\Delta = \\theta + D` apart.
    """
    free = np.maximum(values["kv_budget_tokens"] - values["kv_tokens_in_use"], 0.0)
    sessions_on = knobs["session_turns"] is not None
    if sessions_on:
        per_token = np.maximum(values["kv_bytes_per_token"], 1e-300)
        room = np.vectorize(lambda offload, free_bytes: tier_capacities(offload, free_bytes)[-1][1])
        capacity = room(np.asarray(knobs["kv_offload"], dtype=object), free * per_token) / per_token
        extra = (knobs["session_turns"], knobs["think_time_s"], pool.prompt,
                 knobs["turn_growth_tokens"])  # fmt: skip
    else:
        capacity = np.floor(free / np.maximum(pool.prompt * pool.hit_rate, 1.0))
        extra = (0, 0.0, 0.0, 0.0)
    columns = np.broadcast_arrays(
        *(np.asarray(x, dtype=float) for x in (pool.arrivals_per_min, pool.burstiness,
                                                values["request_s"], values["nodes"], capacity,
                                                *extra))
    )  # fmt: skip
    runs = []
    for rate, burst, service, nodes, room, turns, think, first, growth in zip(
        *(c.ravel() for c in columns), strict=True
    ):
        session = (int(turns), float(think + service), float(first), float(growth))
        runs.append(fleet_run(router, pool.traffic, float(rate), float(burst),
                              float(service), int(nodes), float(room) if sessions_on else int(room),
                              session if sessions_on else None))  # fmt: skip
    return runs, columns[0].shape
