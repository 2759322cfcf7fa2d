"""The fleet's replicas hold the student's sessions: fleet and session knobs compose, one model."""

from __future__ import annotations

import pytest

from core import Scenario, evaluate
from core.cache.session_table import scenario_sessions
from core.cache.sessions import hour_sessions, turn_numbers
from core.studies.fleet import affinity_ceiling

ROOMY = {"router": "prefix-affinity", "kv_offload": "host-nvme", "think_time_s": 30.0}


def test_sessions_have_the_knobs_turns_and_are_drawn_the_same_way_off():
    """With turns set every session has exactly that many; off, the seeded draw of n/5 sessions stays."""
    sessions = hour_sessions(1000, 7, 120.0)
    turn = turn_numbers(sessions)
    counts = {}
    for session in sessions.tolist():
        counts[session] = counts.get(session, 0) + 1
    assert max(counts.values()) <= 7 and turn.max() == 7 and turn.min() == 1
    off = hour_sessions(1000)
    assert off.max() < 200 and turn_numbers(off).min() == 1


@pytest.mark.parametrize(
    "knobs",
    [
        {"session_turns": 6, "think_time_s": 5.0},
        {"session_turns": 20, "turn_growth_tokens": 2000},
        {"session_turns": 3, "think_time_s": 0.0, "turn_growth_tokens": 200},
    ],
)
def test_where_nothing_is_evicted_the_fleet_finds_the_session_tables_rate(knobs):
    """Derived on one replica with room to spare, the fleet's rate is the table's, within the hour's edges."""
    scenario = Scenario(**{**ROOMY, **knobs})
    table = scenario_sessions(scenario, evaluate(scenario))
    derived = evaluate(scenario, prefix_source="derived")
    assert table.hit_rate == pytest.approx(table.ideal_hit_rate)
    assert derived.hit_rate == pytest.approx(table.hit_rate, abs=0.01)
    assert derived.hit_rate <= affinity_ceiling(scenario) + 1e-12


def test_with_sessions_on_the_fleet_reads_the_sessions_not_the_knob():
    """Sessions on: the derived rate ignores the hit-rate knob and grows with the turns a session has."""
    base = {**ROOMY, "prefix_source": "derived"}
    rates = [evaluate(Scenario(**base, session_turns=t)).hit_rate for t in (2, 4, 16)]
    assert rates[0] < rates[1] < rates[2]
    low = evaluate(Scenario(**base, session_turns=4, prefix_hit_rate=0.05)).hit_rate
    assert low == pytest.approx(rates[1])


def test_offload_raises_the_fleets_derived_rate_where_hbm_evicts():
    """Sessions 60 s apart lose most prefixes in HBM; host memory keeps them for the fleet too."""
    knobs = {"session_turns": 8, "think_time_s": 60.0, "turn_growth_tokens": 2000,
             "router": "prefix-affinity", "prefix_source": "derived"}  # fmt: skip
    hbm_only = evaluate(Scenario(**knobs)).hit_rate
    host = evaluate(Scenario(**knobs, kv_offload="host-pcie")).hit_rate
    assert hbm_only < 0.5 * host
    assert host == pytest.approx(affinity_ceiling(Scenario(**knobs)), abs=0.01)
