"""The one LRU survival rule: its doctests, the replay that applies it, the closed form that solves it."""

from __future__ import annotations

import doctest
from types import SimpleNamespace

import numpy as np
import pytest

from core.cache import hit_rate as hit_rate_module
from core.cache import lru
from core.cache import sessions as session_model
from core.cache.hit_rate import hit_rate
from core.cache.lru import lru_hits, survives
from core.cache.session_table import session_cache
from core.catalog.tiers import OFFLOAD_TIERS


@pytest.mark.parametrize("module", [lru, hit_rate_module, session_model])
def test_the_rules_doctest_examples_hold(module):
    """Every example in the LRU rule's and the hit rate's docstrings gives what it shows."""
    failures, tried = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert tried > 0 and failures == 0


def _bytes_since(keys, sizes):
    """For each access, the bytes of the distinct other keys used since its key's last use."""
    since, last, size_now = [], {}, {}
    for i, key in enumerate(keys):
        if key in last:
            others = {k for k in keys[last[key] + 1 : i] if k != key}
            since.append(sum(size_now[k] for k in others))
        else:
            since.append(np.inf)
        last[key], size_now[key] = i, sizes[i]
    return np.array(since)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_replay_finds_exactly_what_survives_says(seed):
    """Replaying an LRU of growing entries hits where B_since + B <= M, access by access."""
    rng = np.random.default_rng(seed)
    keys = rng.integers(0, 6, 200).tolist()
    seen: dict = {}
    sizes = []
    for key in keys:  # each use grows its entry, as a session's context grows
        seen[key] = seen.get(key, 0) + 1
        sizes.append(10.0 + 5.0 * seen[key])
    capacity = float(rng.uniform(40.0, 200.0))
    own_before = []  # the entry's bytes as it waits: its size at its last use
    size_now: dict = {}
    for key, size in zip(keys, sizes, strict=True):
        own_before.append(size_now.get(key, np.inf))
        size_now[key] = size
    expected = survives(_bytes_since(keys, sizes), np.array(own_before), capacity)
    assert lru_hits(keys, sizes, capacity).tolist() == expected.tolist()


def _pool(free_bytes, rate_per_s):
    """An evaluated pool as the session table reads it: one node, 1 byte a token."""
    return SimpleNamespace(
        kv_bytes_per_token=1.0, arrivals_per_s=rate_per_s, nodes=1, request_s=0.0,
        free_kv_bytes=free_bytes,
    )  # fmt: skip


@pytest.mark.parametrize("sessions", [2, 5, 9])
@pytest.mark.parametrize("room", [0.6, 0.99, 1.0, 1.5])
def test_the_session_tables_closed_form_equals_the_fleets_replay(sessions, room):
    """K sessions in turn through one cache: the table's r*Delta rule and the replay agree, tier by tier."""
    prompt, turns, think_s = 1000.0, 6, 10.0
    rate = (sessions - 1) / think_s  # the other sessions' turns between two of one's
    hbm = room * sessions * prompt
    table = session_cache(prompt, 0.0, turns, think_s, "host-pcie", _pool(hbm, rate))
    keys = np.tile(np.arange(sessions), turns)
    host = hbm + OFFLOAD_TIERS["host-pcie"][0].capacity_bytes
    sent = np.full(keys.size, prompt)
    in_hbm = hit_rate(lru_hits(keys, prompt, hbm), prompt, sent)
    anywhere = hit_rate(lru_hits(keys, prompt, host), prompt, sent)
    assert table.tier_shares["HBM"] == pytest.approx(in_hbm)
    assert table.hit_rate == pytest.approx(anywhere)
