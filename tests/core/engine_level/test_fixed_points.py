"""The engine level's root finders: a loop's request time meets its own image, arrays or floats."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from core.engine_level.fixed_points import (
    CLOSED_SHARE,
    FALSE_POSITION_STEPS,
    SHORTEST_REQUEST_S,
    false_position,
    false_position_scalar,
    own_image,
)

SLOPES = np.array([-300.0, -1.0, 0.0, 0.5, 0.9, 0.99, 0.999])


def test_false_position_finds_where_a_line_meets_its_image():
    """R = 2 + s R at slopes from -300 (a closed loop near saturation) to 0.999: R = 2 / (1 - s),
    to a part in 10^12, and one scenario's floats give the sweep's bits."""
    found = false_position(lambda r: r - (2.0 + SLOPES * r), SHORTEST_REQUEST_S, 1e4)
    assert_allclose(found, 2.0 / (1.0 - SLOPES), rtol=1e-12)
    for slope, swept in zip(SLOPES, found, strict=True):
        residual = lambda r, s=slope: r - (2.0 + s * r)  # noqa: E731
        assert false_position_scalar(residual, SHORTEST_REQUEST_S, 1e4) == swept


def test_false_position_reaches_a_slope_near_one_that_damped_iterations_do_not():
    """g(R) = 1 + 0.999 R + 0.1 sqrt(R): 24 steps land on the fixed point, where 30 damped
    iterations from the low end (the loops' old solver) stop more than 90 % short of it."""
    image = lambda r: 1.0 + 0.999 * r + 0.1 * np.sqrt(r)  # noqa: E731
    found = false_position(lambda r: r - image(r), SHORTEST_REQUEST_S, 1e7)
    assert_allclose(found, image(found), rtol=1e-9)
    damped = SHORTEST_REQUEST_S
    for _ in range(30):
        damped = 0.5 * (damped + image(damped))
    assert damped < 0.1 * found


def test_false_position_closes_on_a_jump_across_zero():
    """A residual that jumps from -1 to +1 at R = 3 (a step priced at a captured graph size):
    both ends close in on the jump."""
    found = false_position(lambda r: np.where(r < 3.0, -1.0, 1.0), 0.0, 10.0, steps=60)
    assert abs(float(found) - 3.0) < 1e-9


def test_one_scenarios_false_position_gives_the_sweeps_bits():
    """Floats and arrays take the same operations: every slope's root is the same to the bit."""
    found = false_position(lambda r: r - (1.0 + SLOPES * r + 0.1 * np.sqrt(r)), 0.0, 1e7)
    for slope, swept in zip(SLOPES, found, strict=True):
        alone = false_position_scalar(
            lambda r, s=slope: r - (1.0 + s * r + 0.1 * np.sqrt(r)), 0.0, 1e7
        )
        assert alone == swept


def test_false_position_stops_where_every_bracket_has_closed():
    """A line's root closes its bracket within a few steps: the floats stop there, after fewer
    residuals than the step count allows, and a sweep stops once every scenario's bracket has
    closed, each scenario keeping the bits it has alone."""
    prices = []

    def residual(r):
        prices.append(r)
        return r - (2.0 + 0.5 * r)

    found = false_position_scalar(residual, SHORTEST_REQUEST_S, 1e4)
    assert abs(found - 4.0) <= CLOSED_SHARE * 4.0
    assert len(prices) < FALSE_POSITION_STEPS + 2
    swept_prices = []

    def swept(r):
        swept_prices.append(r)
        return r - (2.0 + SLOPES[2:5] * r)

    roots = false_position(swept, SHORTEST_REQUEST_S, 1e4)
    assert len(swept_prices) < FALSE_POSITION_STEPS + 2
    for slope, root in zip(SLOPES[2:5], roots, strict=True):
        alone = false_position_scalar(lambda r, s=slope: r - (2.0 + s * r), SHORTEST_REQUEST_S, 1e4)
        assert alone == root


def test_own_image_takes_floats_for_one_scenario_and_arrays_for_a_sweep():
    """A bound and inputs of one scenario give a float; a sweep in any input gives an array of
    its shape, each element the float one scenario gets."""
    alone = own_image(lambda r: r - (1.0 + 0.9 * r), 1e4, 0.9)
    assert isinstance(alone, float) and abs(alone - 10.0) < 1e-9
    swept = own_image(lambda r: r - (1.0 + SLOPES[2:] * r), 1e4, SLOPES[2:])
    assert swept.shape == SLOPES[2:].shape
    for slope, value in zip(SLOPES[2:], swept, strict=True):
        assert own_image(lambda r, s=slope: r - (1.0 + s * r), 1e4, slope) == value
