"""A step's dense GEMMs at the rate measured for their shapes (the ``gemm_shapes`` term)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.gemm_shapes import penalty_grid
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

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
