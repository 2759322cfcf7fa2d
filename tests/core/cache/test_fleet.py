"""The fleet: routers, finite per-replica prefix caches (LRU), and the derived hit rate."""

from __future__ import annotations

import numpy as np

from core import Scenario, evaluate
from core.cache.lru import lru_hits
from core.cache.routing import route
from core.studies.fleet import affinity_ceiling, compare_routers


def test_the_knob_hit_rate_is_used_unless_derived():
    """By default Result.hit_rate is the knob's; the router alone changes nothing."""
    assert evaluate().hit_rate == 0.30
    assert evaluate(router="prefix-affinity").ttft_p95_s == evaluate().ttft_p95_s


def test_prefix_affinity_raises_the_derived_hit_rate_over_round_robin_on_three_replicas():
    """On three replicas of the code hour, affinity's caches find more than round-robin's, up to the ceiling."""
    scenario = Scenario(traffic="azure-code", replicas=3)
    rows = {row.router: row for row in compare_routers(scenario)}
    affinity, spread = rows["prefix-affinity"], rows["round-robin"]
    assert affinity.hit_rate > 2 * spread.hit_rate
    assert affinity.hit_rate <= affinity_ceiling(scenario) + 1e-12
    assert affinity.prefill_s < spread.prefill_s


def test_routers_send_requests_where_they_say():
    """Round-robin takes turns, affinity keeps a session on one replica, least-outstanding balances."""
    arrivals = np.arange(12) * 0.1
    sessions = np.array([0, 1, 2, 0, 1, 2, 3, 3, 3, 0, 0, 0])
    assert route("round-robin", arrivals, 1.0, 3, sessions).tolist() == [0, 1, 2] * 4
    assert (route("prefix-affinity", arrivals, 1.0, 3, sessions) == sessions % 3).all()
    busy = route("least-outstanding", arrivals, 10.0, 3, sessions)
    assert np.bincount(busy).tolist() == [4, 4, 4]


def test_an_lru_cache_keeps_only_its_capacity_of_sessions():
    """With room for one session, alternating sessions never hit; repeating one always does after its first."""
    alternating = np.array([0, 1, 0, 1])
    one = np.zeros(4, dtype=np.int64)
    assert not lru_hits(alternating, 1.0, 1, caches=one).any()
    assert lru_hits(one, 1.0, 1, caches=one).tolist() == [False, True, True, True]
    assert lru_hits(alternating, 1.0, 2, caches=one).tolist() == [False, False, True, True]
