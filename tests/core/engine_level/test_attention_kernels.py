"""Decode attention's measured floor and cost per request (issue 37, item 2)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import KERNEL_FLOOR_S
from core.catalog.attention_kernels import (
    ATTENTION_KERNELS,
    LATENT_BLOCKS,
    attention_kernel,
    latent_block,
)
from core.catalog.layer_kernels import (
    BLOCK_FP8_LATENT_ATTENTION_INPUTS,
    LATENT_ATTENTION_GEMMS,
    LATENT_ATTENTION_KERNELS,
)
from core.engine_level.attention_fields import _attention_flops
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from tests.core.engine_level.test_engine_versions import _tiny_node


def test_an_engine_runs_its_own_attention_and_a_borrowed_family_tensorrt_llms():
    """vLLM on an H100 runs its FlashAttention; an MI300X borrows TensorRT-LLM's Hopper kernel."""
    assert (
        attention_kernel("H100 SXM", "bf16", "vllm")
        is ATTENTION_KERNELS[("hopper", "bf16", "vllm")]
    )
    assert attention_kernel("MI300X", "bf16", "vllm") is ATTENTION_KERNELS[("hopper", "bf16", "")]
    assert (
        attention_kernel("B200", "fp8", "tensorrt-llm")
        is ATTENTION_KERNELS[("blackwell", "fp8", "")]
    )


def test_an_a100_runs_each_engines_bf16_attention_measured_on_an_a100():
    """On an A100 each engine's bf16-cache attention is its own row measured there (cited to the
    A100 tables); an fp8 cache, which no A100 table measures, borrows TensorRT-LLM's Hopper row."""
    from core.evidence.attention_sources import attention_kernel_rows

    rows = {row.constant: row for row in attention_kernel_rows()}
    for engine in ("tensorrt-llm", "vllm", "sglang"):
        own = ATTENTION_KERNELS[("ampere", "bf16", engine)]
        assert attention_kernel("A100 80GB SXM", "bf16", engine) is own
        assert own.floor_s > attention_kernel("H100 SXM", "bf16", engine).floor_s
        assert "a100_sxm" in rows[f"decode attention, ampere bf16, {engine}"].source
    assert (
        attention_kernel("A100 80GB SXM", "fp8", "vllm") is ATTENTION_KERNELS[("hopper", "fp8", "")]
    )


def test_every_request_adds_its_cost_in_every_attention_layer():
    """A decode step of b requests pays b x layers x the per-request cost, beside the floor."""
    node = _tiny_node()
    costly = dataclasses.replace(node, attention_per_request_s=50e-9)
    batch = 512.0
    extra = costly.step_s(batch, 1000.0, ALL_TERMS) - node.step_s(batch, 1000.0, ALL_TERMS)
    assert_allclose(extra, batch * node.layers * 50e-9)


def test_under_attention_data_parallelism_a_card_pays_for_its_own_requests():
    """With DEP each card's attention holds 1/c of the requests, so pays 1/c of the cost."""
    node = dataclasses.replace(_tiny_node(), cards=4.0, attention_per_request_s=50e-9)
    spread = dataclasses.replace(node, data_parallel_attention=True)
    assert_allclose(spread._attention_requests_s(512.0), node._attention_requests_s(512.0) / 4)


def test_a_measured_attention_floor_replaces_the_two_kernel_floors_it_is_counted_at():
    """Each attention layer's fixed time grows by the floor over its two counted kernels."""
    node = _tiny_node()
    floored = dataclasses.replace(node, attention_floor_s=node.attention_floor_s + 4e-6)
    extra = floored.fixed_seconds(ALL_TERMS) - node.fixed_seconds(ALL_TERMS)
    assert_allclose(extra, node.layers * 4e-6)


def test_attention_math_counts_only_where_its_cache_read_cannot_hide_it():
    """Grouped-query decode attention hides its math in its cache read; latent attention's does not."""
    node = _tiny_node()
    batch, context = 64.0, 8000.0
    base = node.step_s(batch, context, ALL_TERMS)
    light = dataclasses.replace(node, attention_flops_per_token=1.0)
    assert light.step_s(batch, context, ALL_TERMS) == base
    heavy = dataclasses.replace(node, attention_flops_per_token=1e7 / node.layers)
    reads = batch * context * 1e7 / node.measured_bf16_flops  # 1e7 FLOPs a token over the layers
    stream = batch * context * node.kv_bytes_per_token / node.measured_bandwidth
    assert_allclose(heavy.step_s(batch, context, ALL_TERMS) - base, reads - stream)


def test_latent_attention_reads_its_cache_with_128_absorbed_heads():
    """DeepSeek-R1's decode attention: 2 x 128 x (576 + 512) FLOPs a layer per context token."""
    pool = SimpleNamespace(kv_lora_rank=512, qk_rope_head_dim=64, head_dim=128)
    assert_allclose(_attention_flops(pool, 128), 2 * 128 * (576 + 512))
    grouped = SimpleNamespace(kv_lora_rank=0, qk_rope_head_dim=0, head_dim=128)
    assert_allclose(_attention_flops(grouped, 32), 2 * 32 * 256)


def test_only_the_engines_whose_latent_attention_module_was_measured_have_a_block():
    """vLLM and TensorRT-LLM on NVIDIA's measured families price DeepSeek's attention block as
    measured; SGLang and AMD cards keep the counted kernels."""
    assert (
        latent_block("H200", "fp8", "fp8_block", "vllm")
        is LATENT_BLOCKS[("hopper", "fp8", "fp8_block", "vllm")]
    )
    assert latent_block("B200", "bf16", "bf16", "tensorrt-llm") is not None
    assert latent_block("H200", "fp8", "fp8_block", "sglang") is None
    assert latent_block("MI300X", "fp8", "fp8_block", "vllm") is None
    assert latent_block("H100 SXM", "fp8", "nvfp4", "vllm") is None  # no fp4 on Hopper


def _latent_node(**fields):
    return dataclasses.replace(_tiny_node(), latent_attention=True, **fields)


def test_a_measured_latent_block_replaces_its_counted_kernels_and_gemm_floors():
    """Each latent layer's fixed time becomes the block's floor in place of its 10 kernels (13
    in block fp8) and 3 projection GEMM floors; the rest of the layer keeps its count."""
    for block_fp8 in (False, True):
        counted = _latent_node(block_fp8=block_fp8, gemm_floor_s=8e-6)
        measured = dataclasses.replace(counted, latent_block_floor_s=100e-6)
        kernels = LATENT_ATTENTION_KERNELS + block_fp8 * BLOCK_FP8_LATENT_ATTENTION_INPUTS
        block = kernels * KERNEL_FLOOR_S + LATENT_ATTENTION_GEMMS * (8e-6 - KERNEL_FLOOR_S)
        extra = measured.fixed_seconds(ALL_TERMS) - counted.fixed_seconds(ALL_TERMS)
        assert_allclose(extra, counted.layers * (100e-6 - block))


def test_a_latent_block_without_a_measured_module_keeps_its_count_and_pays_nothing_per_request():
    """NaN floor: no change to the fixed time; per-request cost only where the block has one."""
    node = _latent_node(attention_per_request_s=50e-9)
    assert node._latent_block_extra == 0.0
    assert node._attention_requests_s(512.0) == 0.0
    measured = _latent_node(latent_block_floor_s=60e-6, latent_block_per_request_s=200e-9)
    assert_allclose(measured._attention_requests_s(512.0), 512.0 * node.layers * 200e-9)


def test_the_engine_level_prices_vllms_deepseek_block_and_leaves_sglangs_counted():
    """DeepSeek-R1 on eight H200: vLLM's block floor is its measured module's; SGLang's is NaN."""
    knobs = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8", kv_dtype="bf16",
                 layout="tp", realism="engine")  # fmt: skip
    vllm = engine_node(Scenario(**knobs, engine="vllm"))
    row = LATENT_BLOCKS[("hopper", "bf16", "fp8_block", "vllm")]
    assert_allclose(vllm.latent_block_floor_s, row.floor_s)
    assert_allclose(vllm.latent_block_per_request_s, row.per_request_s)
    sglang = engine_node(Scenario(**knobs, engine="sglang"))
    assert np.isnan(sglang.latent_block_floor_s)
    assert sglang.latent_block_per_request_s == 0.0


def test_the_module_fit_takes_off_deepseeks_whole_attention_block_per_card():
    """bench/mla_module_fit.py's block weights on a card holding all 128 heads are DeepSeek-V3's
    attention parameters (q_a, kv_a, q_b, kv_b, o_proj) at two bytes each in bf16, and its FLOPs
    per request at no context two per parameter."""
    from bench.mla_module_fit import block_flops, block_weight_bytes

    hidden, q_rank, kv_rank, rope, nope, v_head, heads = 7168, 1536, 512, 64, 128, 128, 128
    params = (
        hidden * (q_rank + kv_rank + rope)  # q_a and kv_a (with the rotary key)
        + q_rank * heads * (nope + rope)  # q_b
        + kv_rank * heads * (nope + v_head)  # kv_b, absorbed into the k and v products
        + heads * v_head * hidden  # o_proj
    )
    assert_allclose(block_weight_bytes(heads, "bfloat16"), 2 * params)
    assert_allclose(block_flops(heads, 1, 0), 2 * params)
    # each card of eight holds q_a and kv_a whole and a sixteenth of the rest
    shared = hidden * (q_rank + kv_rank + rope)
    assert_allclose(block_weight_bytes(16, "bfloat16"), 2 * (shared + (params - shared) / 8))
