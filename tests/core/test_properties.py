"""Invariants of the capacity model over every valid scenario."""

import math

import numpy as np
from hypothesis import example, given
from hypothesis import strategies as st

from core import GPUS, RESULT_FIELDS, Scenario, evaluate
from tests import strategies


@given(strategies.scenario_knobs())
def test_granted_never_exceeds_requested(knobs):
    """Memory can refuse seats but never grants more than the scheduler asks for."""
    r = evaluate(Scenario(**knobs))
    assert 0 <= r.seats_granted <= r.seats_requested


@given(strategies.scenario_knobs(), st.integers(1, 100_000))
def test_longer_context_never_grants_more_seats(knobs, extra):
    """Adding prompt tokens never adds seats."""
    shorter = evaluate(Scenario(**knobs))
    knobs["prompt_tokens"] = min(knobs["prompt_tokens"] + extra, 4_000_000)
    longer = evaluate(Scenario(**knobs))
    assert longer.seats_granted <= shorter.seats_granted


@given(strategies.scenario_knobs())
def test_fp8_cache_never_grants_fewer_seats(knobs):
    """Halving the bytes per cached number never costs a seat."""
    bf16 = evaluate(Scenario(**{**knobs, "kv_dtype": "bf16"}))
    fp8 = evaluate(Scenario(**{**knobs, "kv_dtype": "fp8"}))
    assert fp8.seats_granted >= bf16.seats_granted


@given(strategies.scenario_knobs(), strategies.hit_rates)
def test_more_hit_rate_never_raises_ttft(knobs, other_rate):
    """A higher prefix hit rate never makes the first token later, typical or 95th percentile."""
    low, high = sorted([knobs["prefix_hit_rate"], other_rate])
    slower = evaluate(Scenario(**{**knobs, "prefix_hit_rate": low}))
    faster = evaluate(Scenario(**{**knobs, "prefix_hit_rate": high}))
    assert faster.ttft_p95_s <= slower.ttft_p95_s * (1 + 1e-9)
    assert faster.ttft_p50_s <= slower.ttft_p50_s * (1 + 1e-9)


@given(strategies.scenario_knobs())
def test_bill_is_a_whole_number_of_nodes(knobs):
    """The bill is nodes x cards x price x 730 for a whole, positive node count."""
    r = evaluate(Scenario(**knobs))
    price = GPUS[knobs["gpu"]].usd_per_hour
    assert isinstance(r.nodes, int) and r.nodes >= 1
    assert math.isclose(r.monthly_usd, r.nodes * r.cards * price * 730)


@given(strategies.every_knob())
def test_every_output_is_finite_and_non_negative(knobs):
    """No NaN, infinity or negative quantity ever leaves the model, whatever knob is turned."""
    r = evaluate(Scenario(**knobs))
    for name in RESULT_FIELDS:
        value = getattr(r, name)
        if isinstance(value, bool):
            continue
        assert math.isfinite(value), name
        assert value >= 0, name


# Each pair is (lower percentile or mean, higher percentile) of one figure.
PERCENTILE_PAIRS = [("ttft_p50_s", "ttft_p95_s"), ("itl_s", "itl_p99_s")]


@given(strategies.every_knob())
def test_every_percentile_pair_is_ordered(knobs):
    """A figure's p95 (ITL: p99) is never below its p50 (ITL: mean): one load, one distribution."""
    r = evaluate(Scenario(**knobs))
    for low, high in PERCENTILE_PAIRS:
        assert getattr(r, high) >= getattr(r, low), (low, high)


# A closed loop near saturation: its quadratic's root grew a last-bit difference between a
# numpy scalar's ``** 2`` and an array's square into 1.5e-11 of the request time.
_NEAR_SATURATION = [
    dict(workload="chat", tier="small", model=None, gpu="H100 SXM", cards=None,
         weight_dtype="bf16", kv_dtype="bf16", seats=1, prompt_tokens=1, answer_tokens=None,
         prefix_hit_rate=0.0, arrivals_per_min=None, realism="whiteboard", concurrency=None),
    dict(workload="chat", tier="small", model="Qwen2-72B", gpu="MI355X", cards=16,
         weight_dtype="int4", kv_dtype="fp8", seats=77, prompt_tokens=174653, answer_tokens=0,
         prefix_hit_rate=0.0, arrivals_per_min=None, realism="engine", concurrency=None),
]  # fmt: skip


@given(st.lists(strategies.scenario_knobs(), min_size=2, max_size=6))
@example(rows=_NEAR_SATURATION)
def test_a_vectorised_sweep_equals_scalar_evaluations(rows):
    """One array call gives the same figures as evaluating each scenario alone."""
    names = list(rows[0])
    overrides = {}
    for name in names:
        values = [row[name] for row in rows]
        overrides[name] = np.array(values, dtype=object if None in values else None)
    swept = evaluate(Scenario(), **overrides)
    for index, row in enumerate(rows):
        alone = evaluate(Scenario(**row))
        for name in RESULT_FIELDS:
            np.testing.assert_allclose(
                getattr(swept, name)[index], getattr(alone, name), rtol=1e-12
            )
