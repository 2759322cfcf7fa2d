"""Core resolves the knobs (price, arrivals, answer, margin) once, and the labs quote core's values."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import GPUS, WORKLOADS, Scenario, evaluate
from core.catalog import MEMORY_MARGIN
from labs.pool.lab import PoolLab, explanations
from labs.prefix.lab import PrefixLab, prefix_results


def test_result_carries_the_resolved_knobs():
    """A None knob takes its card's or workload's default; a set knob is kept as given."""
    default = evaluate(Scenario())
    assert default.usd_per_gpu_hour == GPUS["H100 SXM"].usd_per_hour
    assert default.arrivals_per_min == WORKLOADS["chat"].arrivals_per_min
    assert default.answer_tokens == WORKLOADS["chat"].answer_tokens
    assert default.margin_share == MEMORY_MARGIN
    set_ = evaluate(Scenario(usd_per_gpu_hour=1.5, arrivals_per_min=90, answer_tokens=40))
    assert (set_.usd_per_gpu_hour, set_.arrivals_per_min, set_.answer_tokens) == (1.5, 90, 40)


def test_resolved_knobs_broadcast_over_a_sweep():
    """Resolved knobs are arrays of the sweep's shape, like every other field."""
    result = evaluate(Scenario(), seats=np.arange(1, 5))
    assert result.usd_per_gpu_hour.shape == (4,)
    assert_allclose(result.usd_per_gpu_hour, GPUS["H100 SXM"].usd_per_hour)


def test_a_free_card_bills_nothing_in_core_and_in_the_pool_lab():
    """usd_per_gpu_hour=0 bills $0, and the pool's bill sentence quotes $0.00, not the card's price."""
    scenario = Scenario(usd_per_gpu_hour=0)
    result = evaluate(scenario)
    assert result.monthly_usd == 0.0
    bill = next(line for line in explanations(scenario, result) if "per GPU-hour" in line)
    assert "$0.00 per GPU-hour" in bill
    assert f"{GPUS['H100 SXM'].usd_per_hour:.2f}" not in bill
    lab = PoolLab(scenario)
    lab._refresh_details()
    assert "$0.00 per GPU-hour" in lab.facts.object


def test_a_free_card_spends_nothing_on_prefill_in_the_prefix_lab():
    """With a $0 price the prefix lab's prefill spend reads $0.00 for both columns."""
    lab = PrefixLab(Scenario(usd_per_gpu_hour=0))
    lab._refresh_details()
    spend_row = next(
        row for row in lab.compare.object.split("<tr") if "prefill spend per peak hour" in row
    )
    assert spend_row.count("$0.00") == 2


@pytest.mark.parametrize("arrivals", [None, 600])
def test_prefix_spend_uses_the_arrivals_core_used(arrivals):
    """The prefix lab's card-hours follow the arrivals core resolved (workload default or knob)."""
    scenario = Scenario(arrivals_per_min=arrivals)
    lab = PrefixLab(scenario)
    lab._refresh_details()
    result, _ = prefix_results(
        scenario, lab.preamble_tokens, lab.question_tokens, lab.edit_position
    )
    per_min = WORKLOADS["chat"].arrivals_per_min if arrivals is None else arrivals
    hours = per_min * 60 * result.prefill_s[0] * result.cards[0] / 3600
    row = next(r for r in lab.compare.object.split("<tr") if "card-hours per peak hour" in r)
    assert f"{hours:,.3f}" in row
