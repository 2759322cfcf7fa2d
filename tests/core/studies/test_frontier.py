"""The frontier in core: the sweep's figures, the Pareto frontier, and cost per token on Result."""

import numpy as np
import pytest
from hypothesis import given
from numpy.testing import assert_allclose

from core import GPUS, Scenario, evaluate
from core.studies.frontier import (
    FRONTIER_CARDS,
    FRONTIER_SEATS,
    best_within_slo,
    frontiers,
    pareto,
    sweep,
    sweep_axes,
    sweeps,
)
from tests.strategies import point_clouds


def _row(points, **where):
    """The index of the one point matching every ``name=value``."""
    match = np.ones(len(points), dtype=bool)
    for name, value in where.items():
        match &= getattr(points, name) == value
    (index,) = np.flatnonzero(match)
    return index


def test_pareto_small_example():
    """Of (1,3), (2,2), (3,1), (1,1), (2,1) the first three are the frontier."""
    mask = pareto([1, 2, 3, 1, 2], [3, 2, 1, 1, 1], [True] * 5)
    assert mask.tolist() == [True, True, True, False, False]


def test_pareto_respects_direction_and_eligibility():
    """Lower-is-better flips an axis; an ineligible point never joins even when it would win."""
    assert pareto([1, 2], [5, 5], [True, True], x_higher=False).tolist() == [True, False]
    assert pareto([9, 1], [9, 1], [False, True]).tolist() == [False, True]
    assert not pareto([], [], []).any()


@given(point_clouds())
def test_pareto_points_are_undominated_and_the_rest_dominated(cloud):
    """No eligible point beats a frontier point; every other eligible point is matched or beaten."""
    x, y = np.asarray(cloud[0], dtype=float), np.asarray(cloud[1], dtype=float)
    eligible = np.asarray(cloud[2], dtype=bool)
    mask = pareto(x, y, eligible)
    assert not (mask & ~eligible).any()
    for i in np.flatnonzero(eligible):
        others = eligible & (np.arange(len(x)) != i)
        beaten = others & (x >= x[i]) & (y >= y[i]) & ((x > x[i]) | (y > y[i]))
        if mask[i]:
            assert not beaten.any()
        else:
            on = mask & (x >= x[i]) & (y >= y[i])
            assert on.any()


def test_sweep_point_is_the_pool_run_as_a_benchmark():
    """Each point's figures are evaluate()'s with as many closed-loop users as seats."""
    scenario = Scenario()
    points = sweep(scenario)
    formats = len(Scenario.param.weight_dtype.objects)
    assert len(points) == len(FRONTIER_SEATS) * len(FRONTIER_CARDS) * formats * 2 * 2
    for level in ("whiteboard", "engine"):
        i = _row(points, seats=16, cards=1, weight_dtype="bf16", kv_dtype="bf16", realism=level)
        result = evaluate(scenario, concurrency=16, realism=level)
        assert_allclose(points.gpu_tokens_per_s[i], result.throughput_tokens_per_s / result.cards)
        assert_allclose(points.user_tokens_per_s[i], 1 / result.itl_s)
        assert_allclose(points.ttft_p95_s[i], result.ttft_p95_s)
        price = GPUS[scenario.gpu].usd_per_hour
        assert_allclose(
            points.usd_per_million_output[i],
            1e6 * price * result.cards / (3600 * result.throughput_tokens_per_s),
        )


def test_weights_that_do_not_fit_are_not_feasible():
    """The 70B class in bf16 on one card cannot load, so none of those points is drawn."""
    points = sweep(Scenario(tier="large"))
    one_card_bf16 = (points.cards == 1) & (points.weight_dtype == "bf16")
    assert one_card_bf16.any()
    assert not points.feasible[one_card_bf16].any()
    assert not frontiers(points)[one_card_bf16].any()


def test_each_level_draws_its_own_frontier():
    """Whiteboard and engine both have frontier points, and they differ."""
    points = sweep(Scenario())
    mask = frontiers(points)
    white = mask & (points.realism == "whiteboard")
    engine = mask & (points.realism == "engine")
    assert white.any() and engine.any()
    assert points.user_tokens_per_s[white].max() != points.user_tokens_per_s[engine].max()


def _frontier_figures(scenario, **held):
    points = sweep(scenario, sweep_axes(scenario, **held))
    mask = frontiers(points)
    return np.sort(points.gpu_tokens_per_s[mask])


def test_held_axes_take_the_scenario_value_and_the_frontier_moves():
    """With cache storage (or cards) held, changing that knob moves the frontier."""
    for knob, new, held in (("kv_dtype", "fp8", "cache"), ("cards", 4, "cards")):
        before = _frontier_figures(Scenario(), **{held: False})
        after = _frontier_figures(Scenario(**{knob: new}), **{held: False})
        assert before.shape != after.shape or not np.allclose(before, after)


def test_sweeps_split_back_into_their_own_sweeps():
    """Two sweeps in one call equal each evaluated alone."""
    scenario = Scenario(tier="large")
    first, second = (
        sweep_axes(scenario),
        {**sweep_axes(scenario, False, False, False), "seats": (7,)},
    )
    together = sweeps(scenario, first, second)
    for combined, alone in zip(
        together, (sweep(scenario, first), sweep(scenario, second)), strict=True
    ):
        for name, values in alone.as_dict().items():
            if values.dtype.kind == "U":
                assert getattr(combined, name).tolist() == values.tolist()
            else:
                assert_allclose(getattr(combined, name), values)
    assert together[1].seats.tolist() == [7, 7]


def test_best_within_slo_meets_it_and_beats_the_rest():
    """The best point meets the SLO, and no other point meeting it earns more per GPU."""
    points = sweep(Scenario())
    best = best_within_slo(points, "whiteboard")
    ok = points.feasible & points.latency_ok & (points.realism == "whiteboard")
    assert ok[best]
    assert points.gpu_tokens_per_s[best] == points.gpu_tokens_per_s[ok].max()
    assert best_within_slo(sweep(Scenario(tier="large", prompt_tokens=4_000_000)), "engine") == -1


def test_result_prices_tokens_at_the_modelled_load():
    """$ per million output (input) tokens is the monthly bill over a month of peak tokens."""
    result = evaluate(Scenario())
    month_s = 3600 * 730
    output = result.arrivals_per_s * result.answer_tokens * month_s
    assert_allclose(result.usd_per_million_output_tokens, 1e6 * result.monthly_usd / output)
    assert_allclose(
        result.usd_per_million_input_tokens,
        1e6 * result.monthly_usd / (result.arrivals_per_s * 1200 * month_s),
    )
    engine = evaluate(Scenario(realism="engine"))
    assert_allclose(
        engine.usd_per_million_output_tokens,
        1e6 * engine.monthly_usd / (engine.arrivals_per_s * engine.answer_tokens * month_s),
    )


def test_no_answer_tokens_has_no_output_price():
    """A zero-token answer gives 0, never inf or NaN, in scalars and arrays alike."""
    assert evaluate(Scenario(answer_tokens=0)).usd_per_million_output_tokens == 0.0
    prices = evaluate(Scenario(), answer_tokens=np.array([0, 200])).usd_per_million_output_tokens
    assert np.isfinite(prices).all() and prices[0] == 0.0 and prices[1] > 0


@pytest.mark.parametrize(("x", "y"), [("user", "gpu"), ("ttft", "gpu"), ("user", "cost")])
def test_the_best_point_of_a_tie_is_the_frontier_tables_row(x, y):
    """At the defaults eight configurations tie on per-GPU rate: the summary names the table's."""
    from core.studies.frontier import frontiers, sweep_axes, sweeps

    s = Scenario()
    axes = sweep_axes(s, True, True, True)
    points, _ = sweeps(s, axes, sweep_axes(s, cards=False, weights=False, cache=False))
    best = best_within_slo(points, "whiteboard", y, x)
    assert frontiers(points, x, y)[best]
