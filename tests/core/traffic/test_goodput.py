"""One goodput predicate (TTFT and time-per-token targets), applied by the closed form, the
replayed hour and the rent-or-autoscale table alike."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np

from core import Scenario, evaluate
from core.catalog.workloads import TTFT_SLO_S
from core.traffic.goodput import closed_form_goodput, measured_goodput, meets_targets
from core.traffic.rent_or_autoscale import compare_policies


def test_the_predicate_needs_both_targets_and_includes_each_bound():
    """A request counts when TTFT <= its target and TPOT <= its target, element by element."""
    ttft = np.array([1.0, 2.0, 2.0 + 1e-9, 1.0, 1.0])
    tpot = np.array([0.01, 0.05, 0.01, 0.05, 0.05 + 1e-9])
    met = meets_targets(ttft, tpot, 2.0, 0.05)
    assert met.tolist() == [True, True, False, True, False]
    swept = meets_targets(1.0, 0.03, np.array([0.5, 2.0]), np.array([[0.01], [0.05]]))
    assert swept.shape == (2, 2) and swept.tolist() == [[False, False], [False, True]]


def _monte_carlo(first_s, step_s, tpot_slo_s, probability_wait, drain, factor, draws=400_000):
    """The predicate's share over waits drawn from the stretched M/M/c wait distribution."""
    rng = np.random.default_rng(7)
    waits = np.where(
        rng.random(draws) < probability_wait, rng.exponential(factor / drain, draws), 0.0
    )
    return meets_targets(first_s + waits, step_s, TTFT_SLO_S, tpot_slo_s).mean()


def test_the_closed_form_is_the_predicates_probability_under_its_wait():
    """Drawing waits (none with 1 - C, else exponential) and counting the predicate agrees."""
    values = {"prefill_s": 0.3 * TTFT_SLO_S, "prefix_read_s": 0.0, "decode_step_s": 0.02}
    tail = (0.4, 2.0 / TTFT_SLO_S, 1.5)  # C, drain rate r, queue factor k
    for tpot_slo in (0.05, 0.01):
        pool = SimpleNamespace(traffic="poisson", tpot_slo=tpot_slo)
        closed = closed_form_goodput(pool, values, *tail, False)
        drawn = _monte_carlo(values["prefill_s"], values["decode_step_s"], tpot_slo, *tail)
        assert abs(closed - drawn) < 3e-3
    assert closed == 0.0  # a 20 ms step misses a 10 ms token target whatever the wait
    pool = SimpleNamespace(traffic="poisson", tpot_slo=0.05)
    assert closed_form_goodput(pool, values, *tail, True) == 0.0  # an unbounded queue


def test_the_replayed_goodput_counts_the_predicate_on_measured_times():
    """An engine run's goodput is the share meeting both targets on each request's TTFT and TPOT."""
    run = SimpleNamespace(
        ttft_s=np.array([0.1, 0.1, 2 * TTFT_SLO_S, 0.1]),
        first_token_s=np.array([1.0, 1.0, 6.0, 1.0]),
        finish_s=np.array([1.5, 3.0, 6.5, 1.0]),
        answer_tokens=np.array([11, 11, 11, 1]),
    )
    # TPOTs 0.05, 0.2, 0.05 and none (a one-token answer): the second misses, the third is late
    assert measured_goodput(run, 0.05) == 0.5
    assert measured_goodput(run, 0.2) == 0.75


def test_the_autoscale_table_also_judges_the_time_per_token_target():
    """A token target under the node's decode step zeroes every policy's goodput, as in the
    closed form; a loose one leaves the first-token verdicts."""
    knobs = {"traffic": "azure-code", "arrivals_per_min": 152.5}
    step = evaluate(Scenario(**knobs)).decode_step_s
    tight = compare_policies(Scenario(**knobs, tpot_slo_s=step / 2))
    loose = compare_policies(Scenario(**knobs, tpot_slo_s=max(2 * step, 0.001)))
    assert [row.goodput for row in tight] == [0.0, 0.0, 0.0]
    assert evaluate(Scenario(**knobs, tpot_slo_s=step / 2)).goodput == 0.0
    assert all(row.goodput > 0.5 for row in loose)
    assert [row.usd for row in tight] == [row.usd for row in loose]
