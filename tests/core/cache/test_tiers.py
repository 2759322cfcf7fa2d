"""KV offload tiers: a reused prefix comes back at its tier's rate instead of being prefilled."""

from __future__ import annotations

import pytest

from core import Scenario, evaluate
from core.cache.tiers import binding_tier, reprefill_s, tier_rows
from core.catalog.tiers import HOST_C2C, HOST_PCIE, NVME
from core.evidence.sources import sources
from labs.frame.shell import lab_bindings
from labs.page.links import query_for, restore
from labs.pool.lab import PoolLab
from labs.widgets.tiers import tier_sentence

# Multi-turn sessions whose histories are private: between turns they need free room or a tier.
SESSIONS = {"session_turns": 5, "think_time_s": 30.0, "turn_growth_tokens": 1000}


def test_offload_off_is_the_default_and_changes_nothing():
    """kv_offload defaults to off, and off gives the very figures of a scenario without it."""
    assert Scenario().kv_offload == "off"
    assert evaluate(Scenario()).ttft_p95_s == evaluate(Scenario(), kv_offload="off").ttft_p95_s


def test_a_prefix_from_host_memory_costs_its_bytes_over_pcie():
    """90,000 cached tokens of 131,072 B over one card's 63 GB/s PCIe Gen5: 187 ms."""
    knobs = {"prompt_tokens": 100_000, "prefix_hit_rate": 0.9, **SESSIONS}
    result = evaluate(Scenario(kv_offload="host-pcie", **knobs))
    assert result.prefix_read_s == pytest.approx(90_000 * 131_072 / 63e9)
    # slower than reading it in HBM, far faster than prefilling it again
    hbm = evaluate(Scenario(**knobs))
    assert hbm.prefix_read_s < result.prefix_read_s < reprefill_s(result)
    assert reprefill_s(result) == pytest.approx(2 * 8e9 * 90_000 / (989e12 * 0.5), rel=1e-3)


def test_nvlink_c2c_brings_it_back_seven_times_faster_than_pcie():
    """Grace's NVLink-C2C (450 GB/s each way) against PCIe Gen5 (63 GB/s)."""
    knobs = {"prompt_tokens": 50_000, "prefix_hit_rate": 0.5, **SESSIONS}
    pcie = evaluate(Scenario(kv_offload="host-pcie", **knobs)).prefix_read_s
    c2c = evaluate(Scenario(kv_offload="host-c2c", **knobs)).prefix_read_s
    assert pcie / c2c == pytest.approx(450 / 63)


def test_the_ledger_grows_host_and_nvme_rows_and_the_sentence_names_the_tier():
    """host-nvme lists HBM, host memory and NVMe with what each holds; the sentence names host."""
    result = evaluate(Scenario(kv_offload="host-nvme", prompt_tokens=100_000, **SESSIONS))
    rows = tier_rows("host-nvme", result)
    assert [row.name for row in rows] == ["HBM (KV room)", HOST_PCIE.name, NVME.name]
    assert rows[1].sequences == 2000e9 // (100_000 * 131_072 + 0)
    assert binding_tier("host-nvme") == HOST_PCIE.name
    assert HOST_PCIE.name in tier_sentence("host-nvme", result)
    assert tier_sentence("off", result) == ""


def test_every_tier_is_in_the_sources_table():
    """Each tier's capacity and rate is a row of the sources table, with its spec sheet."""
    names = {row.constant for row in sources()}
    for tier in (HOST_PCIE, HOST_C2C, NVME):
        assert f"{tier.name}, capacity" in names and f"{tier.name}, rate" in names


def test_the_offload_knob_lives_in_the_link():
    """?kv_offload=host-c2c restores the knob; a bad value is refused and the default kept."""
    scenario = Scenario()
    view = PoolLab(scenario)
    restore(lab_bindings(view, scenario), "?kv_offload=host-c2c")
    assert scenario.kv_offload == "host-c2c"
    assert "kv_offload=host-c2c" in query_for(lab_bindings(view, scenario))
    other = Scenario()
    restore(lab_bindings(PoolLab(other), other), "?kv_offload=floppy")
    assert other.kv_offload == "off"


def test_the_engine_level_pays_the_copy_before_its_prefill():
    """At the engine level too, a prefix from host memory adds its copy to prefill."""
    knobs = {"prompt_tokens": 100_000, "prefix_hit_rate": 0.9, "realism": "engine", **SESSIONS}
    hbm = evaluate(Scenario(**knobs))
    host = evaluate(Scenario(kv_offload="host-pcie", **knobs))
    assert host.prefill_s - hbm.prefill_s == pytest.approx(90_000 * 131_072 / 63e9, rel=0.05)
    assert host.ttft_p95_s > hbm.ttft_p95_s


def test_the_pool_story_prices_a_hit_by_where_it_waited():
    """With offload off a hit is a memory read; with it on the story sends the student to the tiers."""
    from labs.pool import PoolLab

    assert "costs only a memory read" in PoolLab(scenario=Scenario()).facts.object
    long_sessions = Scenario(kv_offload="host-pcie", prompt_tokens=100_000, **SESSIONS)
    offloaded = PoolLab(scenario=long_sessions).facts.object
    assert "copied back from the tier" in offloaded and "only a memory read" not in offloaded


def test_a_shared_prefix_never_leaves_hbm_so_offload_alone_changes_nothing():
    """Without sessions the cached prefix is shared by the running seats: offload moves no figure."""
    for knobs in ({}, {"prompt_tokens": 200_000, "prefix_hit_rate": 0.95, "seats": 2}):
        off, on = evaluate(Scenario(**knobs)), evaluate(Scenario(kv_offload="host-pcie", **knobs))
        assert on.prefix_offloaded_share == 0.0
        assert on.ttft_p95_s == off.ttft_p95_s and on.seats_granted == off.seats_granted
        assert "HBM keeps every hit" in tier_sentence("host-pcie", on)


@pytest.mark.parametrize(
    "knobs",
    [
        {"seats": 1},
        {"seats": 16},
        {"prompt_tokens": 20_000, "seats": 2, "session_turns": 20, "turn_growth_tokens": 2000},
        {"prompt_tokens": 200_000, "seats": 2, "arrivals_per_min": 2, "session_turns": 20},
        {"arrivals_per_min": 2000, "session_turns": 40, "think_time_s": 300.0},
    ],
)
def test_the_share_copied_back_is_the_session_tables_share(knobs):
    """The evaluated share of hits from outside HBM is what the session's turn table shows."""
    from core.cache.session_table import scenario_sessions

    scenario = Scenario(kv_offload="host-nvme", **{**SESSIONS, **knobs})
    result = evaluate(scenario)
    table = scenario_sessions(scenario, result)
    outside = table.hit_rate - table.tier_shares["HBM"]
    expected = outside / table.hit_rate if table.hit_rate else 1.0
    assert result.prefix_offloaded_share == pytest.approx(expected)


def test_offload_raises_the_derived_hit_rate_and_the_derived_rate_lowers_ttft():
    """Sessions HBM cannot keep: offload finds their prefixes, and at that rate the first token is sooner."""
    from core.cache.session_table import scenario_sessions

    knobs = {"prompt_tokens": 100_000, **SESSIONS}
    rates = {}
    for offload in ("off", "host-pcie"):
        scenario = Scenario(kv_offload=offload, **knobs)
        rates[offload] = scenario_sessions(scenario, evaluate(scenario)).hit_rate
    assert rates["off"] < rates["host-pcie"]
    cold = evaluate(Scenario(prefix_hit_rate=rates["off"], **knobs))
    warm = evaluate(Scenario(kv_offload="host-pcie", prefix_hit_rate=rates["host-pcie"], **knobs))
    assert warm.ttft_p95_s < cold.ttft_p95_s
    assert warm.prefix_offloaded_share == 1.0
