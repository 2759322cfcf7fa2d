"""core/catalog/h20_tables.py: the H20's measured GEMM tables and the rates read off them."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from core.catalog.cards import GPUS
from core.catalog.h20_tables import (
    FP8_BACKENDS,
    H20_BLOCK_FP8_GEMMS,
    H20_FP8_FLOPS,
    deepgemm_tile_flops,
    h20_fp8_flops,
)


def test_the_h20s_fp8_rate_is_its_best_large_gemm_in_the_table():
    """The H20's achieved fp8 rate is the fastest backend's 8,192-token GEMM of the table, near
    its 296 TFLOP/s peak and above the H100's share of it the card borrowed before."""
    rates = [
        2.0 * 8192 * n * k / (times[8192][column] * 1e-6)
        for (n, k), times in H20_BLOCK_FP8_GEMMS.items()
        for column in range(len(FP8_BACKENDS))
    ]
    assert_allclose(h20_fp8_flops(), max(rates))
    assert GPUS["H20"].achieved_fp8_flops == H20_FP8_FLOPS == h20_fp8_flops()
    assert 296e12 * 1402.6 / 1979 < H20_FP8_FLOPS < GPUS["H20"].fp8_flops


def test_deepgemms_few_token_tile_runs_below_the_cards_large_gemm_rate():
    """Read as 64 rows of arithmetic, DeepGEMM's 16- and 64-token rows run at their median's
    rate, below the card's large-GEMM rate: a few tokens' tile is not a large GEMM."""
    rows = [
        2.0 * 64 * n * k / (times[m][FP8_BACKENDS.index("deepgemm")] * 1e-6)
        for (n, k), times in H20_BLOCK_FP8_GEMMS.items()
        for m in (16, 64)
    ]
    assert_allclose(deepgemm_tile_flops(), np.median(rows))
    assert 0.5 * H20_FP8_FLOPS < deepgemm_tile_flops() < H20_FP8_FLOPS


def test_every_shape_is_timed_at_every_token_count_in_every_backend():
    """Each shape of the table has all five token counts and four backends, every time positive
    and growing with the tokens from 1,024 on."""
    for times in H20_BLOCK_FP8_GEMMS.values():
        assert sorted(times) == [16, 64, 1024, 4096, 8192]
        for row in times.values():
            assert len(row) == len(FP8_BACKENDS) and min(row) > 0
        for column in range(len(FP8_BACKENDS)):
            assert times[1024][column] < times[4096][column] < times[8192][column]
