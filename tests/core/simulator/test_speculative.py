"""Speculative decoding and the roofline, priced on the same step model as the engine."""

import numpy as np
import pytest

from core import GPUS, TIERS, Scenario
from core.simulator.roofline import (
    attainable_flops,
    decode_intensity,
    prefill_intensity,
    ridge_point,
)
from core.simulator.speculative import expected_tokens_per_pass, pass_seconds, speedup
from core.simulator.steps import step_costs
from core.whiteboard import timing

BATCHES = np.array([1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048, 4096])


@pytest.fixture(scope="module")
def small():
    return step_costs(Scenario())


def test_expected_tokens_match_the_series():
    """(1 - a^(k+1)) / (1 - a) tokens a pass; 1 when nothing is accepted, k + 1 when all is."""
    for k in (1, 4, 8):
        for alpha in (0.3, 0.7, 0.9):
            assert expected_tokens_per_pass(k, alpha) == pytest.approx(
                (1 - alpha ** (k + 1)) / (1 - alpha)
            )
        assert expected_tokens_per_pass(k, 0.0) == 1.0
        assert expected_tokens_per_pass(k, 1.0) == k + 1


def test_expected_tokens_vectorise():
    """Arrays of draft lengths and acceptance rates broadcast together."""
    tokens = expected_tokens_per_pass(np.array([[1], [4]]), np.array([0.5, 0.8]))
    assert tokens.shape == (2, 2)
    assert tokens[1, 1] == pytest.approx(expected_tokens_per_pass(4, 0.8))


def test_a_lone_request_streams_two_to_three_times_faster(small):
    """At batch 1 the verification pass is read-bound: k = 4 at 70-80 % acceptance gives 2-3x."""
    for alpha in (0.7, 0.8):
        assert 2.0 <= speedup(small, 1, 4, alpha, 0.05) <= 3.0


def test_speedup_fades_as_the_batch_grows(small):
    """The speed-up never rises with the batch, and falls to about 1x or below at a large batch."""
    curve = speedup(small, BATCHES, 4, 0.75, 0.05, context_tokens=100)
    assert np.all(np.diff(curve) <= 1e-12)
    assert curve[0] > 2.0
    assert curve[-1] <= 1.0


def test_a_long_cache_keeps_speculation_paying_longer(small):
    """A longer cache keeps the verification pass read-bound to a larger batch."""
    short = speedup(small, 256, 4, 0.75, 0.05, context_tokens=0)
    long = speedup(small, 256, 4, 0.75, 0.05, context_tokens=4000)
    assert long > short


def test_nothing_accepted_only_costs(small):
    """With zero acceptance every pass yields one token and the draft is pure cost."""
    assert np.all(speedup(small, BATCHES, 4, 0.0, 0.05) < 1.0)


def test_pass_costs_at_least_one_plain_step(small):
    """A speculative pass never costs less than one plain decode step at the same batch."""
    plain = small.decode_s(BATCHES, BATCHES * 500)
    assert np.all(pass_seconds(small, BATCHES, 4, 0.0, 500) >= plain * (1 - 1e-12))


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda c: expected_tokens_per_pass(0, 0.5), "draft_tokens"),
        (lambda c: expected_tokens_per_pass(4, 1.5), "acceptance"),
        (lambda c: speedup(c, 0, 4, 0.5, 0.1), "batch"),
        (lambda c: speedup(c, 1, 4, 0.5, -0.1), "draft_cost"),
        (lambda c: decode_intensity(c, 1, -5), "context_tokens"),
        (lambda c: prefill_intensity(c, 0), "prompt_tokens"),
    ],
)
def test_bad_arguments_name_themselves(small, call, named):
    """Bad input raises ValueError naming the argument and its allowed range."""
    with pytest.raises(ValueError, match=rf"^{named}=.* is not allowed"):
        call(small)


def test_h100_ridge_point_is_about_295_flops_per_byte():
    """Peak bf16 FLOP/s over HBM bandwidth puts an H100's ridge at about 295 FLOP/byte."""
    gpu = GPUS["H100 SXM"]
    assert round(float(ridge_point(gpu.bf16_flops, gpu.hbm_bytes_per_s))) == 295


def test_decode_sits_left_of_the_ridge_and_prefill_right(small):
    """A small-batch decode step is bandwidth-bound; a 512-token prefill is compute-bound."""
    ridge = ridge_point(small.peak_flops, small.hbm_bytes_per_s)
    assert decode_intensity(small, 8, 512) < ridge < prefill_intensity(small, 512)


def test_decode_intensity_is_about_the_batch_in_bf16(small):
    """bf16 weights read 2 bytes per parameter, so a decode step's intensity is about its batch."""
    intensity = decode_intensity(small, BATCHES, 0)
    np.testing.assert_allclose(intensity, BATCHES, rtol=1e-12)
    with_cache = decode_intensity(small, BATCHES, 1000)
    assert np.all(np.diff(with_cache) > 0) and np.all(with_cache < BATCHES)


def test_attainable_is_the_lower_of_slope_and_roof(small):
    """Below the ridge the slope binds, above it the roof."""
    ridge = ridge_point(small.peak_flops, small.hbm_bytes_per_s)
    below, above = attainable_flops(
        np.array([ridge / 2, ridge * 2]), small.peak_flops, small.hbm_bytes_per_s
    )
    assert below == pytest.approx(small.peak_flops / 2)
    assert above == small.peak_flops


def test_one_70b_request_streams_about_24_tokens_per_second():
    """70B in bf16 on one card moving 3.35 TB/s: at most about 24 tokens/s, whatever the FLOPs."""
    weights = TIERS["large"].params * 2
    ceiling = timing.single_stream_ceiling(weights, 1, GPUS["H100 SXM"].hbm_bytes_per_s)
    assert round(float(ceiling)) == 24
