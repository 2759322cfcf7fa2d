"""Tests for bench/gemm_overlap_fit.py: the stream and the arithmetic of a GEMM, combined."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from bench.gemm_overlap_fit import TOKENS, Rows, best_power, combined, errors, joined
from core.catalog.gemm_tables import token_grid


def test_the_power_norm_runs_from_the_sum_to_the_larger():
    """At p = 1 the two add (the engine level's stream_then_math); as p grows the combination
    falls toward the larger, which it reaches at p = infinity."""
    stream, arithmetic = np.array([3.0, 1.0, 2.0]), np.array([1.0, 3.0, 2.0])
    assert_allclose(combined(stream, arithmetic, 1.0), stream + arithmetic)
    assert_allclose(combined(stream, arithmetic, np.inf), np.maximum(stream, arithmetic))
    middle = [combined(stream, arithmetic, p) for p in (1.25, 1.5, 2.0, 3.0)]
    for lower, higher in zip(middle[1:], middle[:-1], strict=True):
        assert np.all(lower < higher)
    assert np.all(middle[-1] > np.maximum(stream, arithmetic))


def _rows(power: float) -> Rows:
    """Rows whose latency is a 5 µs floor plus their stream and arithmetic at ``power``."""
    rng = np.random.default_rng(1)
    stream = rng.uniform(5e-6, 100e-6, 300)
    arithmetic = stream * rng.uniform(0.1, 3.0, 300)
    fixed = np.full(300, 5e-6)
    return Rows(fixed, stream, arithmetic, fixed + combined(stream, arithmetic, power))


def test_the_rows_own_power_prices_them_exactly_and_is_found():
    """Rows made at p = 1.5 read without error at 1.5, too slow at the sum, too fast at the
    larger alone, and the search picks 1.5."""
    rows = _rows(1.5)
    rms, bias = errors(rows, 1.5)
    assert rms < 1e-12 and abs(bias) < 1e-12
    assert errors(rows, 1.0)[1] > 0.0 > errors(rows, np.inf)[1]
    assert best_power(rows) == 1.5
    assert best_power(joined([_rows(1.0), _rows(1.0)])) == 1.0


def test_the_range_ends_where_the_measured_shares_begin():
    """The rows read run up to the first token count the shares' tables measure (above it the
    engine level prices arithmetic at each shape's measured share)."""
    assert TOKENS[1] == 2.0 ** token_grid()[0]
