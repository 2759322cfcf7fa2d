"""A step's dense GEMMs at the rate measured for their shapes (the ``gemm_shapes`` term)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog.cards import GPUS
from core.catalog.gemm_tiles import (
    GEMM_TILE_SHARES,
    deepgemm_tile_share,
    gemm_tile_rows,
    skinny_tile_share,
)
from core.catalog.h20_tables import H20_SKINNY_GEMMS, deepgemm_tile_flops
from core.engine_level.gemm_shapes import penalty_grid
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.evidence.configs import QWEN3_32B_FP8

LLAMA_FP8 = dict(model="Llama-3-70B", gpu="H100 SXM", weight_dtype="fp8", kv_dtype="fp8",
                 realism="engine", prompt_tokens=128, answer_tokens=2048)  # fmt: skip


def test_the_term_off_or_no_table_leaves_a_step_as_it_was():
    """Without the term a step takes what it takes on a card no table measures."""
    node = engine_node(Scenario(cards=8, **LLAMA_FP8))
    unmeasured = replace(node, gemm_table=-1)
    off = ALL_TERMS - {"gemm_shapes"}
    for batch in (1.0, 300.0, 3000.0):
        assert node.step_s(batch, 1000.0, off) == unmeasured.step_s(batch, 1000.0, ALL_TERMS)
        assert node.step_s(batch, 1000.0, ALL_TERMS) >= node.step_s(batch, 1000.0, off)


def test_eight_way_slices_cost_more_than_two_way_ones():
    """fp8 on H100s: the step's GEMMs lose more of the card's rate split eight ways than two."""
    two, eight = (penalty_grid(engine_node(Scenario(cards=c, **LLAMA_FP8))) for c in (2, 8))
    assert np.all(two >= 1.0) and np.all(eight > two)


def test_an_amd_card_outside_aiter_keeps_its_achieved_rate():
    """No table measures per-tensor fp8 on an MI300X: the term changes none of its figures."""
    node = engine_node(Scenario(**{**LLAMA_FP8, "gpu": "MI300X"}, cards=8))
    assert np.all(penalty_grid(node) == 1.0) and node._gemm_grid is None


def test_a_block_fp8_prefill_on_amd_cards_multiplies_at_aiters_measured_rate():
    """DeepSeek-R1 on eight MI325X: under SGLang (AITER's kernels) its 8k prompt's dense GEMMs
    pay AITER's measured shares, so the prefill takes longer with the term than without; vLLM
    0.6, which runs no AITER, keeps the card's achieved rate."""
    deepseek = dict(model="DeepSeek-R1", gpu="MI325X", cards=8, weight_dtype="fp8",
                    realism="engine")  # fmt: skip
    sglang = engine_node(Scenario(**deepseek, engine="sglang", engine_version="0.5"))
    off = ALL_TERMS - {"gemm_shapes"}
    assert sglang.prefill_s(8192.0, 0.0, ALL_TERMS, True) > sglang.prefill_s(8192.0, 0.0, off, True)
    assert np.all(penalty_grid(sglang) > 1.0)
    vllm = engine_node(Scenario(**deepseek, engine="vllm", engine_version="0.6"))
    assert vllm._gemm_grid is None


def test_a_sweep_prices_each_scenario_as_it_alone_is_priced():
    """Cards 1, 2, 4 and 8 in one array call equal four scalar calls (two code paths)."""
    cards = np.array([1, 2, 4, 8])
    swept = evaluate(Scenario(**LLAMA_FP8), cards=cards)
    for index, count in enumerate(cards):
        alone = evaluate(Scenario(cards=int(count), **LLAMA_FP8))
        for field in ("throughput_tokens_per_s", "itl_s", "ttft_p95_s"):
            assert_allclose(getattr(swept, field)[index], getattr(alone, field), rtol=1e-12)


def test_a_scenario_reads_the_same_penalty_bits_alone_as_in_a_sweep():
    """Plain floats for one scenario, arrays for a sweep: the same numbers to the last bit, at
    any token count, split or data-parallel (a last-bit difference can grow in a queue near
    saturation, so the two paths must agree exactly)."""
    rng = np.random.default_rng(7)
    tokens = np.exp(rng.uniform(6.0, 10.5, 3000))
    qwen_dep = dict(model="Qwen3-235B-A22B", gpu="H200", weight_dtype="fp8", kv_dtype="fp8",
                    realism="engine", layout="dep")  # fmt: skip
    for base in (LLAMA_FP8, qwen_dep):
        cards = np.array([1, 2, 4, 8])
        swept = engine_node(Scenario(**base), cards=cards[:, None])
        penalties = swept._gemm_penalty(tokens[None, :], ALL_TERMS)
        for row, count in enumerate(cards):
            alone = engine_node(Scenario(**base, cards=int(count)))
            found = [alone._gemm_penalty(float(t), ALL_TERMS) for t in tokens]
            np.testing.assert_array_equal(penalties[row], found)


def _qwen3_32b_fp8(**knobs):
    """Qwen3-32B-FP8 (its config.json, block-scaled fp8) on one card under SGLang."""
    knobs = dict(dict(engine="sglang", weight_dtype="fp8", cards=1), **knobs)
    return Scenario(model="custom", model_config=QWEN3_32B_FP8, realism="engine", **knobs)


def test_a_card_holds_the_four_dense_gemms_of_every_layer():
    """Qwen3-32B's dense GEMM parameters on one card are its layers' QKV, out, gate-up and down,
    without the output head and the embedding; tensor parallelism splits them over the cards."""
    c = json.loads(QWEN3_32B_FP8)
    d, size = c["hidden_size"], c["head_dim"]
    heads, kv, width = c["num_attention_heads"], c["num_key_value_heads"], c["intermediate_size"]
    per_layer = (heads + 2 * kv) * size * d + d * heads * size + 3 * d * width
    one = engine_node(_qwen3_32b_fp8(gpu="H20"))
    assert_allclose(one.dense_gemm_params, c["num_hidden_layers"] * per_layer)
    four = engine_node(_qwen3_32b_fp8(gpu="H20", cards=4))
    assert_allclose(four.dense_gemm_params, one.dense_gemm_params / 4)


def test_on_an_h20_a_decode_step_takes_at_least_its_64_row_tiles_arithmetic():
    """SGLang's block-fp8 GEMMs on an H20 multiply 64 rows whatever the step's tokens: a step of
    a few requests takes at least that arithmetic at the rate DeepGEMM's measured tile reaches,
    and more than the same node priced without tiles (at 32 requests the cache and weights'
    stream outlast them)."""
    node = engine_node(_qwen3_32b_fp8(gpu="H20"))
    assert_allclose(node.gemm_tile_rows, 64.0 / deepgemm_tile_share())
    tiles = 2.0 * node.dense_gemm_params * 64.0 / deepgemm_tile_flops()
    untiled = replace(node, gemm_tile_rows=0.0)
    for batch in (1.0, 4.0, 8.0):
        step = node.step_s(batch, 1000.0, ALL_TERMS)
        assert step >= tiles and step > untiled.step_s(batch, 1000.0, ALL_TERMS)
        off = ALL_TERMS - {"gemm_shapes"}
        assert node.step_s(batch, 1000.0, off) == untiled.step_s(batch, 1000.0, off)


def test_the_tile_adds_nothing_where_the_weights_stream_hides_it():
    """On an H100 or H200 the 64 rows' arithmetic hides under the weights' stream, and at 64
    requests or more the rows are the step's own: the tiles change no step there."""
    for gpu, batch in (("H100 SXM", 1.0), ("H200", 4.0), ("H20", 100.0), ("H20", 300.0)):
        node = engine_node(_qwen3_32b_fp8(gpu=gpu))
        assert node.gemm_tile_rows >= 64.0
        untiled = replace(node, gemm_tile_rows=0.0)
        assert node.step_s(batch, 1000.0, ALL_TERMS) == untiled.step_s(batch, 1000.0, ALL_TERMS)


def test_only_block_fp8_gemms_on_hopper_in_releases_read_are_tiled():
    """AMD's family, bf16 under SGLang's newest line, per-tensor fp8 and vLLM's newest release
    (its code unread) have no tile rows: nothing known pads their rows."""
    assert engine_node(_qwen3_32b_fp8(gpu="H20", engine="vllm")).gemm_tile_rows == 0.0
    assert engine_node(_qwen3_32b_fp8(gpu="MI300X")).gemm_tile_rows == 0.0
    assert engine_node(_qwen3_32b_fp8(gpu="H20", weight_dtype="bf16")).gemm_tile_rows == 0.0
    assert engine_node(Scenario(cards=8, engine="sglang", **LLAMA_FP8)).gemm_tile_rows == 0.0


def test_sglang_04s_bf16_gemms_on_an_h20_take_their_64_row_tiles():
    """SGLang 0.4's bf16 GEMMs (cuBLAS 12.4's kernels, 64-row tiles) on an H20: a step of one
    request takes at least 64 rows' arithmetic at the rate the card's measured few-token GEMMs
    multiply them (more than at its achieved rate) and more than untiled; the 0.5 line's cuBLAS
    has narrower kernels and is not tiled."""
    node = engine_node(_qwen3_32b_fp8(gpu="H20", weight_dtype="bf16", engine_version="0.4"))
    share = GEMM_TILE_SHARES[("hopper", "bf16", "sglang", "0.4")]
    assert_allclose(node.gemm_tile_rows, 64.0 / share)
    _, flops, _ = node.rates(ALL_TERMS)
    step = node.step_s(1.0, 1000.0, ALL_TERMS)
    assert step >= 2.0 * node.dense_gemm_params * 64.0 / (share * flops)
    assert step > replace(node, gemm_tile_rows=0.0).step_s(1.0, 1000.0, ALL_TERMS)
    newer = engine_node(_qwen3_32b_fp8(gpu="H20", weight_dtype="bf16", engine_version="0.5"))
    assert newer.gemm_tile_rows == 0.0


def test_sglang_04s_bf16_tiles_hide_under_the_stream_of_other_cards():
    """On an H100 or an H200 the same 64 rows' bf16 arithmetic hides under the weights' stream,
    so the tile changes no step; an A100's kernels are not Hopper's and are not tiled."""
    for gpu in ("H100 SXM", "H200"):
        node = engine_node(_qwen3_32b_fp8(gpu=gpu, weight_dtype="bf16", engine_version="0.4"))
        assert node.gemm_tile_rows > 64.0  # counted over the measured share, still hidden
        untiled = replace(node, gemm_tile_rows=0.0)
        assert node.step_s(1.0, 1000.0, ALL_TERMS) == untiled.step_s(1.0, 1000.0, ALL_TERMS)
    a100 = _qwen3_32b_fp8(gpu="A100 80GB SXM", weight_dtype="bf16", engine_version="0.4")
    assert engine_node(a100).gemm_tile_rows == 0.0


def test_under_sglang_04_the_output_heads_bf16_gemm_takes_its_tile_in_every_format():
    """SGLang 0.4 on an H20: the output head (bf16 in an fp8 checkpoint too) multiplies 64 rows
    at the card's bf16 rate beside the layers' own tiles, so a step of one request takes at least
    both; under 0.5 the head is not tiled and the layers' tile is the whole floor."""
    old = engine_node(_qwen3_32b_fp8(gpu="H20", engine_version="0.4"))
    vocab, hidden = (json.loads(QWEN3_32B_FP8)[name] for name in ("vocab_size", "hidden_size"))
    share = GEMM_TILE_SHARES[("hopper", "bf16", "sglang", "0.4")]
    assert_allclose(old.head_tile_rows, 64.0 / share)
    assert old.head_params == vocab * hidden
    _, flops, bf16 = old.rates(ALL_TERMS)
    layers = 2.0 * old.dense_gemm_params * 64.0 / flops
    head = 2.0 * old.head_params * 64.0 / (share * bf16)
    step = old.step_s(1.0, 1000.0, ALL_TERMS)
    assert step >= layers + head
    assert step > replace(old, head_tile_rows=0.0).step_s(1.0, 1000.0, ALL_TERMS)
    new = engine_node(_qwen3_32b_fp8(gpu="H20", engine_version="0.5"))
    assert new.head_tile_rows == 0.0
    assert new.step_s(1.0, 1000.0, ALL_TERMS) == replace(new, head_params=0.0).step_s(
        1.0, 1000.0, ALL_TERMS
    )


def test_vllms_releases_read_tile_128_rows_and_the_later_ones_none():
    """vLLM's CUTLASS block-fp8 kernel tiles 128 rows in the releases whose code was read (0.8,
    0.10; 0.6's Triton kernel 64); the later lines, unread, are not tiled; on an H20 a step of
    one request under 0.10 takes at least its 128 rows' arithmetic."""
    rows = {
        version: engine_node(_qwen3_32b_fp8(gpu="H20", engine="vllm", engine_version=version))
        for version in ("0.6", "0.8", "0.10", "0.14", "0.19")
    }
    assert {v: node.gemm_tile_rows for v, node in rows.items()} == {
        "0.6": 64.0, "0.8": 128.0, "0.10": 128.0, "0.14": 0.0, "0.19": 0.0
    }  # fmt: skip
    node = rows["0.10"]
    _, flops, _ = node.rates(ALL_TERMS)
    assert node.step_s(1.0, 1000.0, ALL_TERMS) >= 2.0 * node.dense_gemm_params * 128.0 / flops


def test_a_sweep_over_cards_prices_the_tiles_as_each_scenario_alone():
    """An H20, an H100 and four H20s in one array call equal three scalar calls: the tile floor
    binds on the one H20, not on the H100, and each scenario reads the same time per token."""
    base = _qwen3_32b_fp8(prompt_tokens=1, answer_tokens=2048, concurrency=1)
    gpus, cards = np.array(["H20", "H100 SXM", "H20"]), np.array([1, 1, 4])
    swept = evaluate(base, gpu=gpus, cards=cards)
    for index, (gpu, count) in enumerate(zip(gpus, cards, strict=True)):
        alone = evaluate(base, gpu=str(gpu), cards=int(count))
        assert_allclose(swept.itl_s[index], alone.itl_s, rtol=1e-12)


def test_the_h20s_few_token_gemms_multiply_64_rows_below_its_achieved_rate():
    """Read as 64 rows of arithmetic, the H20's measured few-token GEMMs run at their median's
    share of its achieved bf16 rate, below 1 and above half; block-fp8 tiles (SGLang's Triton
    kernel, another kernel) keep the card's rate."""
    shapes = np.array(H20_SKINNY_GEMMS, dtype=float)
    rates = 128.0 * shapes[:, 0] * shapes[:, 1] / (shapes[:, 2] * 1e-6)
    share = skinny_tile_share()
    assert_allclose(share, np.median(rates) / GPUS["H20"].achieved_bf16_flops)
    assert 0.5 < share < 1.0
    assert GEMM_TILE_SHARES[("hopper", "bf16", "sglang", "0.4")] == share
    assert_allclose(gemm_tile_rows("H20", "bf16", "sglang", "0.4"), 64.0 / share)


def test_sglangs_block_fp8_tile_takes_deepgemms_measured_rate_from_04():
    """SGLang's block-fp8 tile multiplies at the rate the H20's table times DeepGEMM at a few
    tokens (its default from 0.4.6), a share below 1 of the card's own fp8 rate; the 0.3 line
    (Triton only) and vLLM's CUTLASS tile keep the card's rate."""
    share = deepgemm_tile_share()
    assert 0.5 < share < 1.0
    assert_allclose(share * GPUS["H20"].achieved_fp8_flops, deepgemm_tile_flops())
    for line in ("0.4", "0.5"):
        assert_allclose(gemm_tile_rows("H20", "fp8_block", "sglang", line), 64.0 / share)
    assert gemm_tile_rows("H20", "fp8_block", "sglang", "0.3") == 64.0
    assert gemm_tile_rows("H20", "fp8_block", "vllm", "0.10") == 128.0


def test_a_layers_gemms_on_one_card_are_its_projections_and_mlp_split_over_the_cards():
    """DeepSeek-V3's latent attention at TP8 is the fused q_a/kv_a (2,112 x 7,168), q_b
    (3,072 x 1,536) and o_proj (7,168 x 2,048), whole under attention data parallelism; its MLP
    GEMMs are its shared expert's; Llama-3-70B's are QKV and out, gate-up and down; a mixture
    without shared experts has no dense MLP GEMM."""
    from core.catalog.models import MODELS
    from core.engine_level.gemm_shapes import card_gemms

    deepseek = MODELS["DeepSeek-V3"]
    assert card_gemms(deepseek, True, 8) == ((2112, 7168), (3072, 1536), (7168, 2048))
    assert card_gemms(deepseek, True, 1) == ((2112, 7168), (24576, 1536), (7168, 16384))
    assert card_gemms(deepseek, False, 8) == ((512, 7168), (7168, 256))
    assert card_gemms(MODELS["Llama-3-70B"], True, 4) == ((2560, 8192), (8192, 2048))
    assert card_gemms(MODELS["Llama-3-70B"], False, 4) == ((14336, 8192), (8192, 7168))
    assert card_gemms(MODELS["Qwen3-235B-A22B"], False, 8) == ()


def test_sglang_0510_on_an_mi325x_tunes_deepseeks_attention_but_not_its_mlps():
    """Under SGLang 0.5.10 on eight MI325X, DeepSeek-R1's attention projections pay AITER's tuned
    row and its dense MLPs the default tile's cost per input; under data-parallel attention the
    unsplit q_b and o_proj walk the default tile too, the fused q_a/kv_a (the same shape either
    way) keeping its tuned tile for its 7,168 of the three's inputs."""
    from core.catalog.dense_gemms import ENGINE_DENSE_GEMM_FLOORS

    tuned = ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter")].per_input_s
    triton = ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter-triton")].per_input_s
    knobs = dict(model="DeepSeek-R1", gpu="MI325X", weight_dtype="fp8", realism="engine",
                 engine="sglang", engine_version="0.5.10", cards=8)  # fmt: skip
    node = engine_node(Scenario(**knobs))
    assert_allclose(node.attention_gemm_input_cost_s, tuned)
    assert_allclose(node.gemm_input_cost_s, triton)
    node = engine_node(Scenario(**knobs, layout="dep"))
    tuned_share = 7168 / (7168 + 1536 + 16384)
    assert_allclose(node.attention_gemm_input_cost_s, triton + tuned_share * (tuned - triton))
