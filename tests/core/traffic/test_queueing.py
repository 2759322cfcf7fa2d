"""The Erlang queue against textbook values and the plain recursion."""

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from core.traffic.queueing import erlang_b, erlang_c, tail_quantile, wait_quantile, wait_tail


def plain_erlang_b(servers: int, load: float) -> float:
    blocking = 1.0
    for k in range(1, servers + 1):
        blocking = load * blocking / (k + load * blocking)
    return blocking


def test_textbook_values():
    """B(1, 1) = 1/2 and C(2, 1) = 1/3."""
    assert_allclose(erlang_b(1, 1.0), 0.5)
    assert_allclose(erlang_c(2, 1.0), 1 / 3)


@given(st.integers(1, 3000), st.floats(0.0, 2.0))
def test_windowed_recursion_matches_the_plain_one(servers, ratio):
    """Starting the recursion near the load changes nothing measurable."""
    load = servers * ratio
    assert_allclose(erlang_b(servers, load), plain_erlang_b(servers, load), atol=1e-12)


def test_arrays_broadcast():
    """Servers and loads of different sizes evaluate in one call."""
    servers = np.array([1, 16, 4096])
    loads = np.array([0.5, 7.6, 600.0])
    expected = [plain_erlang_b(int(c), a) for c, a in zip(servers, loads, strict=True)]
    assert_allclose(erlang_b(servers, loads), expected, atol=1e-12)


def test_wait_quantile_is_zero_when_few_wait():
    """When under 5 % of arrivals wait at all, the p95 wait is zero."""
    wait, unbounded = wait_quantile(16, 4.0, 1.9, 0.95)
    assert wait == 0 and not unbounded


def test_wait_quantile_follows_the_exponential_tail():
    """With C = 1/3 for two servers at one Erlang, the p95 wait is ln(C / 0.05) / (c mu - lambda)."""
    wait, _ = wait_quantile(2, 1.0, 1.0, 0.95)
    assert_allclose(wait, math.log((1 / 3) / 0.05) / (2 - 1))


@pytest.mark.parametrize(("servers", "arrivals"), [(4, 4.0), (4, 5.0), (0, 1.0)])
def test_unstable_or_empty_queue_is_flagged(servers, arrivals):
    """Load at or over the servers, or no servers at all, is unbounded and reports no number."""
    wait, unbounded = wait_quantile(servers, arrivals, 1.0, 0.95)
    assert unbounded and wait == 0


def test_one_queue_alone_equals_its_entry_in_a_sweep():
    """Erlang B and C give one queue the same bits alone as inside an array of others, on the
    recursion and on the integral (over 10,000 Erlangs), even a hair below saturation."""
    servers = np.array([7.0, 344_750.0, 9_981.0, 344_750.0, 25.0])
    loads = np.array([6.41, 344_744.31264474156, 10_000.04, 344_000.0, 24.99])
    for function in (erlang_b, erlang_c):
        swept = function(servers, loads)
        alone = [function(s, a) for s, a in zip(servers, loads, strict=True)]
        np.testing.assert_array_equal(swept, alone)


def test_erlang_c_near_saturation_keeps_its_precision():
    """Queues a few Erlangs short of saturation: C is exact to 1e-14 given B (computing
    1 - rho (1 - B) would lose the last bits of 1 - B and miss by 1e-13)."""
    servers = np.array([344_750.0, 9_981.0, 2_000.0])
    loads = np.array([344_744.31264474156, 9_980.2, 1_999.37])
    for c, a in zip(servers, loads, strict=True):
        b = Fraction(float(erlang_b(c, a)))
        exact = b / (1 - Fraction(a) / Fraction(c) * (1 - b))
        assert_allclose(erlang_c(c, a), float(exact), rtol=1e-14)


@pytest.mark.parametrize("quantile", [0.5, 0.95, 0.99])
def test_a_tail_read_twice_gives_each_quantile_as_computed_alone(quantile):
    """tail_quantile on one queue's wait_tail gives wait_quantile's figures, the same bits."""
    servers, arrivals, service = np.array([4.0, 16.0, 3.0]), np.array([2.0, 9.0, 5.0]), 1.5
    tail = wait_tail(servers, arrivals, service)
    wait, unbounded = tail_quantile(tail, quantile)
    alone, alone_unbounded = wait_quantile(servers, arrivals, service, quantile)
    assert np.array_equal(wait, alone) and np.array_equal(unbounded, alone_unbounded)
    assert tail_quantile(wait_tail(8.0, 3.0, 2.0), quantile) == wait_quantile(
        8.0, 3.0, 2.0, quantile
    )
