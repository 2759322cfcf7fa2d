"""The kernel fits' cost per input: recovered where the rows carry one, kept only where it holds."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from bench.dense_gemm_fit import fit_floor
from bench.moe_kernel_fit import held_out_errors, shape_columns


def test_the_dense_fit_recovers_a_floor_and_a_cost_per_input():
    """Rows made as 4 µs + 0.8 ns an input + the weights' stream give back those figures, and a
    floor alone fits them worse."""
    rng = np.random.default_rng(0)
    inputs = rng.choice([512.0, 2048.0, 7168.0, 16384.0], 400)
    weights = inputs * rng.choice([1024.0, 4096.0, 16384.0], 400)
    tokens = rng.choice([1.0, 4.0, 16.0], 400)
    latency = 4e-6 + 0.8e-9 * inputs + weights / 3e12
    found = fit_floor(tokens, weights, inputs, latency, 3e12)
    assert_allclose((found.floor, found.per_input), (4e-6, 0.8e-9), rtol=0.03)
    assert found.error < 0.01 < found.alone_error


def _expert_rows(per_input: float):
    """(columns, inputs, shapes) of three expert shapes' decode rows whose floor is 20 µs plus
    ``per_input`` an input (bench/moe_kernel_fit.py's columns, one card's shapes)."""
    shapes = [(2048.0, 768.0), (4096.0, 1536.0), (7168.0, 2048.0)]
    rows = [(hidden, width, tokens) for hidden, width in shapes for tokens in (1, 4, 16, 64, 256)]
    hidden, width, tokens = (np.array(column) for column in zip(*rows, strict=True))
    experts, top = np.full(hidden.shape, 128.0), np.full(hidden.shape, 8.0)
    inputs = hidden + width
    cols = shape_columns(tokens, experts, top, hidden, width, 1.0, 1.0, 3e12, np.zeros_like(hidden))
    latency = 20e-6 + per_input * inputs + cols[3] / (0.9 * 3e12) + cols[5]
    return (*cols[:-1], latency), inputs, np.stack([hidden, width, experts, top], axis=1)


def test_a_cost_per_input_holds_on_left_out_shapes_only_where_the_kernel_has_one():
    """Shapes left out in turn read closer with a cost per input when the rows carry one, and
    no closer when they do not (the rule that keeps it in bench/moe_kernel_fit.py)."""
    cols, inputs, shapes = _expert_rows(3e-9)
    alone, walked = held_out_errors(cols, 3e12, inputs, shapes)
    assert walked < alone - 0.01
    cols, inputs, shapes = _expert_rows(0.0)
    alone, walked = held_out_errors(cols, 3e12, inputs, shapes)
    assert walked >= alone - 0.01
