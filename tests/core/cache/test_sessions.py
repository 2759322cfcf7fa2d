"""Multi-turn sessions: the hit rate that follows from capacity, traffic and think time."""

from __future__ import annotations

import pytest

from core import Scenario, evaluate
from core.cache.session_table import MISS, scenario_sessions, session_cache
from core.cache.sessions import session_contexts
from core.catalog.tiers import HOST_PCIE
from labs.pool.lab import PoolLab
from labs.prefix.lab import PrefixLab
from labs.widgets.sessions import derived_sentence


def test_no_sessions_by_default_and_the_hit_rate_knob_stays():
    """Without turns set there is nothing derived, and the evaluation reads the knob's 30 %."""
    scenario = Scenario()
    assert (
        scenario.session_turns is None and scenario_sessions(scenario, evaluate(scenario)) is None
    )
    assert evaluate(Scenario(session_turns=8)).hit_tokens == evaluate(scenario).hit_tokens


def test_an_endless_cache_reuses_every_turn_but_the_newest_tokens():
    """Turns of 1,000 + 500 (k - 1) tokens: the ideal hit rate is sum C_{k-1} / sum C_k."""
    contexts = session_contexts(1000, 500, 4)
    assert list(contexts) == [1000, 1500, 2000, 2500]
    result = evaluate(Scenario(kv_offload="host-nvme"))
    cache = session_cache(1000, 500, 4, 0.0, "host-nvme", result)
    assert cache.ideal_hit_rate == pytest.approx((1000 + 1500 + 2000) / 7000)


def test_lru_keeps_a_prefix_while_the_bytes_passing_through_fit():
    """HBM keeps the prefix when r x (think + request) + its bytes fit the free KV room."""
    result = evaluate(Scenario())
    free, per_token = float(result.free_kv_bytes), float(result.kv_bytes_per_token)
    per_node = float(result.arrivals_per_s) / float(result.nodes)
    rate = per_node * 1500 * per_token  # mean context of turns 1,000 and 2,000
    fits = (free - 1000 * per_token) / rate - float(result.request_s)
    kept = session_cache(1000, 1000, 2, fits * 0.99, "off", result)
    lost = session_cache(1000, 1000, 2, fits * 1.01, "off", result)
    assert [turn.tier for turn in kept.turns] == ["", "HBM"]
    assert [turn.tier for turn in lost.turns] == ["", MISS]
    assert lost.hit_rate == 0.0 and kept.hit_rate == pytest.approx(1000 / 3000)


def test_offload_catches_what_hbm_evicts():
    """Sessions 60 s apart: HBM loses every prefix; host memory over PCIe keeps them all."""
    knobs = {"session_turns": 8, "think_time_s": 60.0, "turn_growth_tokens": 2000}
    off = Scenario(**knobs)
    host = Scenario(kv_offload="host-pcie", **knobs)
    lost = scenario_sessions(off, evaluate(off))
    kept = scenario_sessions(host, evaluate(host))
    assert lost.hit_rate == 0.0 and kept.hit_rate == pytest.approx(kept.ideal_hit_rate)
    assert kept.tier_shares[HOST_PCIE.name] == pytest.approx(kept.hit_rate)
    assert "evicted" in derived_sentence(lost) and HOST_PCIE.name in derived_sentence(kept)


def test_the_labs_show_the_derived_rate_and_the_turns():
    """The pool lab's button copies the derived rate into the knob; the prefix lab lists turns."""
    scenario = Scenario(session_turns=6, kv_offload="host-pcie", think_time_s=60.0)
    pool = PoolLab(scenario)
    pool._refresh_details()
    assert "data-derived-hit" in pool.sessions.sentence.object
    pool.sessions.use.clicks += 1
    assert scenario.prefix_hit_rate == pytest.approx(0.72, abs=0.01)
    prefix = PrefixLab(scenario)
    prefix._refresh_details()
    assert prefix.turns.object.count("data-turn=") == 6
    assert HOST_PCIE.name in prefix.turns.object


def test_the_agent_preset_fails_by_eviction_and_offload_fixes_it():
    """The agent preset derives a 0 % hit rate; with host offload it derives 95 %, the fix's."""
    from labs.pool.presets import POOL_PRESETS

    preset = next(p for p in POOL_PRESETS if p.key == "agent-rereads")
    broken = Scenario(**preset.knobs)
    fixed = Scenario(**{**preset.knobs, **preset.fix})
    assert scenario_sessions(broken, evaluate(broken)).hit_rate == 0.0
    derived = scenario_sessions(fixed, evaluate(fixed)).hit_rate
    assert round(derived, 2) == preset.fix["prefix_hit_rate"]
