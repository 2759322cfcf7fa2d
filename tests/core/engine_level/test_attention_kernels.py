"""Decode attention's measured floor and cost per request (issue 37, item 2)."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace

from numpy.testing import assert_allclose

from core.catalog.attention_kernels import ATTENTION_KERNELS, attention_kernel
from core.engine_level.kernels import _attention_flops
from core.engine_level.terms import ALL_TERMS
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
