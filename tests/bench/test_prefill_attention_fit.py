"""Tests for bench/prefill_attention_fit.py: prompt attention's share, extra keys and floor."""

import numpy as np
from numpy.testing import assert_allclose

from bench.prefill_attention_fit import LATENT_WIDTH, fit
from core.catalog import MODELS
from core.whiteboard.attention import prefill_head_width


def test_fit_recovers_a_known_kernel():
    """Rows made of a 12 us floor, a 0.78 share of the rate and 350 extra keys are fitted back."""
    tokens = np.array([256, 512, 1024, 2048, 4096, 8192, 16384] * 3, dtype=float)
    per_pair = 4.0 * 32 * 128 * np.repeat([1.0, 4.0, 16.0], 7)
    pairs, per_key = per_pair * tokens**2 / 2, per_pair * tokens
    rate = 794.5e12
    latency = 12e-6 + (pairs + 350.0 * per_key) / (0.78 * rate)
    floor, share, keys, error = fit(pairs, per_key, latency, rate)
    assert_allclose((floor, share, keys), (12e-6, 0.78, 350.0), rtol=1e-6, atol=1e-9)
    assert error < 1e-6


def test_latent_rows_count_the_engine_levels_own_prompt_head_width():
    """The script's width for DeepSeek's unabsorbed heads is the one the engine level prices."""
    assert prefill_head_width(MODELS["DeepSeek-V3"]) == LATENT_WIDTH
