"""Mixtures of experts, weight formats and the new cards in the capacity model."""

import numpy as np
import pytest
from hypothesis import given
from numpy.testing import assert_allclose

from core import GPUS, MODELS, Scenario, evaluate
from core.catalog import WEIGHT_FORMATS
from core.simulator import simulate
from core.simulator.steps import step_costs
from core.whiteboard.experts import (
    distinct_experts,
    expert_weight_bytes_read,
    experts_per_card,
    needs_expert_parallelism,
    read_curve,
)
from tests.strategies import batches


@given(batches)
def test_a_batch_touches_between_k_and_all_experts(batch):
    """E(1 - (1 - k/E)^B) lies between k (one token) and E, and never falls as B grows."""
    touched = distinct_experts(256, 8, np.array([batch, batch + 1]))
    assert 8 - 1e-9 <= touched[0] <= touched[1] <= 256


def test_one_token_reads_its_k_experts_and_a_big_batch_reads_nearly_all():
    """A batch of 1 reads k experts; of 1,024 nearly all 256."""
    assert_allclose(distinct_experts(256, 8, 1), 8)
    assert distinct_experts(256, 8, 1024) > 255.9


def test_moe_reads_its_active_weights_at_batch_one_and_nearly_all_at_large_batches():
    """DeepSeek-V3 in fp8: ~37 GB read at batch 1, close to all 671 GB at batch 512."""
    curve = read_curve(MODELS["DeepSeek-V3"], 1.0, np.array([1, 512]))
    assert_allclose(curve.moe_bytes[0], 37e9, rtol=1e-9)
    assert_allclose(curve.active_bytes, 37e9, rtol=1e-9)
    assert curve.moe_bytes[1] > 0.99 * 671e9
    assert np.all(curve.dense_bytes == 671e9)


def test_a_dense_model_reads_every_weight_at_every_batch():
    """The whiteboard's dense figures stay: a dense model's curve is flat at all its weights."""
    curve = read_curve(MODELS["Llama-3-70B"], 2.0, np.arange(1, 65))
    assert np.all(curve.moe_bytes == curve.dense_bytes)


def test_moe_decodes_faster_at_batch_one_than_a_dense_model_of_its_size():
    """gpt-oss-120b at batch 1 reads ~5 GB of 62, so its single stream is far above dense."""
    moe = evaluate(Scenario(model="gpt-oss-120b", weight_dtype="mxfp4", seats=1))
    dense_rate = 3.35e12 / moe.weight_bytes
    assert moe.single_stream_tokens_per_s > 10 * dense_rate
    assert moe.weights_fit


def test_prefill_flops_use_active_parameters():
    """A prompt costs 2 x active parameters per token, not 2 x total."""
    r = evaluate(Scenario(model="DeepSeek-V3", gpu="H200", weight_dtype="fp8", prefix_hit_rate=0))
    assert r.prefill_flops == 2 * 37e9 * 1200


def test_deepseek_v3_on_eight_h200s_in_fp8_fits_and_serves():
    """The issue's first example: 671 GB of fp8 weights on 8 x 141 GB, room for the batch."""
    r = evaluate(Scenario(model="DeepSeek-V3", gpu="H200", cards=8, weight_dtype="fp8"))
    assert r.weights_fit and r.seats_granted == 16 and r.kv_bytes_per_token == 70_272


@pytest.mark.parametrize("dtype", ["int4", "mxfp4", "nvfp4"])
def test_gpt_oss_120b_fits_one_h100_in_four_bits(dtype):
    """The issue's second example: gpt-oss-120b on one H100 in 4 bits holds weights and seats."""
    r = evaluate(Scenario(model="gpt-oss-120b", gpu="H100 SXM", cards=1, weight_dtype=dtype))
    assert r.weights_fit and r.seats_granted >= 1
    assert_allclose(r.weight_bytes, 116.83e9 * WEIGHT_FORMATS[dtype].bits_per_weight / 8)


def test_four_bit_weights_use_the_fp4_peak_only_on_cards_that_have_one():
    """NVFP4 prefill on a B200 runs at its fp4 peak; on an H100 at the bf16 peak."""
    knobs = {"model": "gpt-oss-120b", "weight_dtype": "nvfp4", "prefix_hit_rate": 0.0}
    b200 = evaluate(Scenario(gpu="B200", **knobs))
    h100 = evaluate(Scenario(gpu="H100 SXM", **knobs))
    flops = 2 * 5.13e9 * 1200
    assert_allclose(b200.prefill_s, flops / (GPUS["B200"].fp4_flops * 0.5))
    assert_allclose(h100.prefill_s, flops / (GPUS["H100 SXM"].bf16_flops * 0.5))
    assert GPUS["MI300X"].fp4_flops == 0 and GPUS["MI355X"].fp4_flops > 0


def test_seed_weight_formats_keep_their_bytes():
    """bf16 stays 2 bytes and fp8 1: the seed's figures do not move."""
    assert WEIGHT_FORMATS["bf16"].bytes_per_weight == 2
    assert WEIGHT_FORMATS["fp8"].bytes_per_weight == 1
    assert WEIGHT_FORMATS["int4"].bits_per_weight == 4.25


def test_experts_spread_over_the_cards_when_the_model_needs_several():
    """DeepSeek-V3's 256 experts over 8 cards: 32 each; it needs them, Qwen3-30B-A3B does not."""
    assert experts_per_card(256, 8) == 32
    assert needs_expert_parallelism(671e9, 141e9, 256)
    assert not needs_expert_parallelism(30.5e9, 80e9, 128)
    assert not needs_expert_parallelism(140e9, 80e9, 1)


def test_every_new_card_states_its_figures_and_sources():
    """Each card has positive figures, a datasheet source and a price marked as an assumption."""
    for name in ("B200", "H20", "L4", "MI300X", "MI325X", "MI355X"):
        card = GPUS[name]
        assert min(card.memory_bytes, card.hbm_bytes_per_s, card.bf16_flops, card.fp8_flops) > 0
        assert "datasheet" in card.source or "product brief" in card.source
        assert "assumed" in card.price_source


def test_the_step_engine_reads_only_the_experts_a_lone_request_touches():
    """Alone, an MoE request's decode steps read its k experts: faster than reading them all."""
    scenario = Scenario(model="Mixtral-8x7B", gpu="H100 SXM", cards=2)
    costs = step_costs(scenario)
    r = simulate(scenario, "continuous", "paged", requests=1, answer="fixed", answer_mean=5)
    every_weight = costs.read_s(scenario.prompt_tokens)
    assert np.all(np.diff(r.token_times(0)) < 0.5 * every_weight)


def test_a_large_batch_step_reads_nearly_every_expert():
    """A full batch of an MoE touches nearly all experts: its step reads nearly every weight."""
    costs = step_costs(Scenario(model="Mixtral-8x7B", gpu="H100 SXM", cards=2))
    assert_allclose(costs.read_s(0.0, 256), costs.read_s(0.0), rtol=1e-6)


@pytest.mark.parametrize("batch", [0.0, 0.5, 1.0, 7.0, 64.0, 3000.0])
def test_one_step_in_plain_floats_has_its_sweeps_bits(batch):
    """A scenario's reads and touched experts in plain floats equal its entry in a sweep."""
    shape = MODELS["DeepSeek-R1"]
    moe = (shape.params, shape.active_params, float(shape.experts), float(shape.experts_per_token))
    weights = 2.0 * shape.params
    alone = expert_weight_bytes_read(weights, *moe, batch)
    swept = expert_weight_bytes_read(weights, *moe, np.array([batch, 2.0]))[0]
    assert alone == swept and isinstance(alone, float)
    touched = distinct_experts(moe[2], moe[3], batch)
    assert touched == distinct_experts(moe[2], moe[3], np.array([batch, 2.0]))[0]
