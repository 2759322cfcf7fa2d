"""How the expert-kernel fits (bench/moe_kernel_fit.py, bench/aiter_moe_fit.py) count experts."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from bench.moe_kernel_fit import shape_columns

_TOKENS = np.array([1.0, 4.0, 16.0, 32.0, 64.0])


def _touched(routing):
    """Experts a DeepSeek-V3-shaped layer (256 experts, 8 a token) touches at each token count."""
    ones = np.ones_like(_TOKENS)
    cols = shape_columns(_TOKENS, 256 * ones, 8 * ones, 7168 * ones, 2048 * ones, ones, 1.0,
                         3.0e12, ones, routing=routing)  # fmt: skip
    return cols[2]


def test_balanced_rows_touch_every_routed_copys_expert_until_all_are_read():
    """aiconfigurator's balanced rows spread T k copies evenly: min(E, T k) experts."""
    assert_allclose(_touched("balanced"), [8, 32, 128, 256, 256])


def test_random_rows_touch_the_expected_count_of_independent_draws():
    """AITER's tuner routes at random: E (1 - (1 - k/E)^T), fewer than balanced below T k = E."""
    expected = 256 * (1 - (1 - 8 / 256) ** _TOKENS)
    assert_allclose(_touched("random"), expected)
    assert np.all(_touched("random")[1:] < _touched("balanced")[1:])


def test_the_catalogs_rocm_triton_rows_are_the_fit_of_amds_tables():
    """vLLM's Triton fused-MoE rows on CDNA3 cards carry bench/rocm_triton_moe_fit.py's figures,
    block fp8 the fp8 table's."""
    from bench.rocm_triton_moe_fit import TABLES, fit
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS

    for weight, table in {"fp8_block": "fp8", "fp8": "fp8", "bf16": "bf16"}.items():
        bandwidth_share, compute_share, pad, decode, every = fit(TABLES[table])
        row = ENGINE_EXPERT_KERNELS[("cdna3", weight, "vllm")]
        assert_allclose([row.bandwidth_share, row.compute_share], [bandwidth_share, compute_share])
        assert row.padding_rows == pad
        assert f"{decode:.0%}, {every:.0%}".replace("%", " %") in row.source
        assert TABLES[table].source.split(" (")[0] in row.source


def test_the_rocm_triton_table_reads_below_the_cards_full_bandwidth():
    """AMD's fp8 table streams an MI300X's experts at well under its measured bandwidth at 64
    tokens."""
    from bench.rocm_triton_moe_fit import columns
    from core.catalog.cards import GPUS

    tokens, _, _, weights, _, _, kernel = columns()
    achieved = (
        weights[tokens == 64] / kernel[tokens == 64] / GPUS["MI300X"].achieved_hbm_bytes_per_s
    )
    assert np.all((achieved > 0.3) & (achieved < 0.6))
