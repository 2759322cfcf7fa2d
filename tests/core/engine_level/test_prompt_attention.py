"""A prompt's attention at its engine's measured prompt-attention kernel (issue 37, item 2)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog.attention_kernels import (
    AITER_PREFILL_ATTENTION,
    LATENT_PREFILL_ATTENTION,
    PREFILL_ATTENTION,
    PREFILL_HEAD_SIZE_SHARES,
    SINK_PREFILL,
    prefill_attention,
    release_prefill_attention,
    sink_prefill_in_triton,
)
from core.engine_level.attention_fields import _head_size_scale
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.whiteboard.attention import causal_pairs
from tests.core.engine_level.test_engine_versions import _tiny_node


def test_each_engine_runs_its_own_kernel_and_a_family_without_tables_borrows():
    """SGLang on an H100 runs its own row; vLLM on an A100 its own row measured there, and
    TensorRT-LLM's A100 row over an fp8 cache (no A100 table holds vLLM's); on an MI300X an
    engine borrows its own Hopper row (TensorRT-LLM's where Hopper's tables hold none of it) and
    on an MI355X its own Blackwell row."""
    expected = {
        ("H100 SXM", "bf16", "sglang", False): ("hopper", "bf16", "sglang"),
        ("H20", "fp8", "tensorrt-llm", False): ("hopper", "fp8", ""),
        ("A100 80GB SXM", "bf16", "vllm", False): ("ampere", "bf16", "vllm"),
        ("A100 80GB SXM", "fp8", "vllm", False): ("ampere", "fp8", ""),
        ("MI300X", "bf16", "sglang", False): ("hopper", "bf16", "sglang"),
        ("MI355X", "fp8", "vllm", False): ("blackwell", "fp8", "vllm"),
        ("MI300X", "fp8", "vllm", True): ("hopper", "fp8", ""),
    }
    for (gpu, cache, engine, latent), row in expected.items():
        table = LATENT_PREFILL_ATTENTION if latent else PREFILL_ATTENTION
        assert prefill_attention(gpu, cache, engine, latent=latent) is table[row], (gpu, engine)


def test_every_measured_kernel_runs_below_twice_the_matmul_rate_and_adds_keys():
    """Each row's share is a plausible fraction of the bf16 rate, its extra keys not negative."""
    for kernel in PREFILL_ATTENTION.values():
        assert 0.3 <= kernel.rate_share <= 1.3
        assert 0.0 <= kernel.extra_keys <= 3000.0


def test_with_no_extra_keys_at_the_full_rate_it_is_the_causal_pairs_flops():
    """Share 1 and no extra keys: the seconds are the causal FLOPs over the cards' rate."""
    node = dataclasses.replace(_tiny_node(), cards=2.0)
    seconds = node.prompt_attention_s(3000.0, 1000.0, 5e14)
    per_pair = 4.0 * node.layers * node.query_heads * node.head_dim
    flops = per_pair * (causal_pairs(4000.0) - causal_pairs(1000.0))
    assert_allclose(seconds, flops / (2.0 * 5e14))


def test_extra_keys_add_work_for_every_uncached_token_and_the_share_divides():
    """k extra keys add 4 L H d k FLOPs per uncached token; a share s takes 1/s as long."""
    node = _tiny_node()
    base = node.prompt_attention_s(3000.0, 1000.0, 5e14)
    keyed = dataclasses.replace(node, prefill_attention_keys=500.0)
    extra = 4.0 * node.layers * node.query_heads * node.head_dim * 500.0 * 3000.0
    assert_allclose(keyed.prompt_attention_s(3000.0, 1000.0, 5e14), base + extra / 5e14)
    halved = dataclasses.replace(node, prefill_attention_share=0.5)
    assert_allclose(halved.prompt_attention_s(3000.0, 1000.0, 5e14), 2.0 * base)


def test_a_prefill_pays_its_prompt_attention_at_the_kernels_rate():
    """A long prompt's prefill grows by exactly the attention the kernel's share and keys add."""
    node = _tiny_node()
    measured = dataclasses.replace(node, prefill_attention_share=0.7, prefill_attention_keys=400.0)
    added = measured.prefill_s(8000.0, 0.0, ALL_TERMS, True) - node.prefill_s(
        8000.0, 0.0, ALL_TERMS, True
    )
    expected = measured.prompt_attention_s(8000.0, 0.0, node.measured_bf16_flops)
    expected -= node.prompt_attention_s(8000.0, 0.0, node.measured_bf16_flops)
    assert added == pytest.approx(expected, rel=1e-9)


def test_the_scenario_carries_its_engines_prompt_attention_kernel():
    """An H100 scenario under SGLang with a bf16 cache prices its prompts with SGLang's row."""
    scenario = Scenario(gpu="H100 SXM", engine="SGLang", kv_dtype="bf16")
    node = engine_node(scenario)
    row = PREFILL_ATTENTION[("hopper", "bf16", "sglang")]
    assert_allclose(node.prefill_attention_share, row.rate_share)
    assert_allclose(node.prefill_attention_keys, row.extra_keys)


def test_latent_attention_prefills_in_its_own_kernel():
    """DeepSeek-R1 under SGLang on an H200 prefills in SGLang's measured MLA kernel, under vLLM
    (no table of its own) in TensorRT-LLM's, and under SGLang on an MI300X (no AMD table) in
    SGLang's Hopper row; a grouped-query model keeps the grouped rows."""
    deepseek = {"model": "DeepSeek-R1", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
                "kv_dtype": "bf16"}  # fmt: skip
    for engine, name in (("SGLang", "sglang"), ("vLLM", "")):
        node = engine_node(Scenario(**deepseek, engine=engine))
        row = LATENT_PREFILL_ATTENTION[("hopper", "bf16", name)]
        assert (node.prefill_attention_share, node.prefill_attention_keys) == (
            row.rate_share,
            row.extra_keys,
        )
    assert (
        prefill_attention("MI300X", "fp8", "sglang", latent=True)
        is (LATENT_PREFILL_ATTENTION[("hopper", "fp8", "sglang")])
    )
    llama = engine_node(Scenario(gpu="H200", engine="SGLang", kv_dtype="bf16"))
    assert (
        llama.prefill_attention_share == PREFILL_ATTENTION[("hopper", "bf16", "sglang")].rate_share
    )


def test_a_narrow_head_runs_its_prompt_below_the_128_wide_share_and_a_wide_one_above():
    """gpt-oss's 64-wide heads on a B200 reach 0.60 of TensorRT-LLM's 128-wide share; a 256-wide
    head on an H100 1.10 of it; a 96-wide head lies between, linear in the size's logarithm."""
    row = PREFILL_ATTENTION[("blackwell", "bf16", "")]
    node = engine_node(Scenario(model="gpt-oss-120b", gpu="B200", kv_dtype="bf16"))
    assert_allclose(node.prefill_attention_share, row.rate_share * 0.60)
    at_64, at_256 = PREFILL_HEAD_SIZE_SHARES["hopper"]
    assert_allclose(_head_size_scale("H100 SXM", 256.0), at_256)
    between = _head_size_scale("H100 SXM", 96.0)
    assert_allclose(between, 1.0 - (1.0 - at_64) * (7.0 - np.log2(96.0)))
    assert at_64 < between < 1.0


def test_vllm_runs_attention_with_sinks_in_triton_only_below_hopper():
    """vLLM on an A100 or an L40S takes the Triton kernel for sinks; on an H100 or a B200, and
    under SGLang or TensorRT-LLM, the engine keeps its own kernel."""
    assert sink_prefill_in_triton("A100 80GB SXM", "vllm")
    assert sink_prefill_in_triton("L40S", "vllm")
    for gpu, engine in (("H100 SXM", "vllm"), ("B200", "vllm"), ("A100 80GB SXM", "sglang"),
                        ("A100 80GB SXM", "tensorrt-llm"), ("MI300X", "vllm")):  # fmt: skip
        assert not sink_prefill_in_triton(gpu, engine), (gpu, engine)


def test_gpt_oss_under_vllm_on_an_a100_prefills_at_the_triton_share_and_keys():
    """gpt-oss-20b under vLLM on an A100 prefills at the Triton kernel's fraction of the A100's
    vLLM share (at its 64-wide heads) and with its extra keys; on an H100, under SGLang, and a
    model without sinks on the A100 keep their rows."""
    row = PREFILL_ATTENTION[("ampere", "bf16", "vllm")]
    at_64 = float(_head_size_scale("A100 80GB SXM", 64.0))
    gpt_oss = {"model": "gpt-oss-20b", "kv_dtype": "bf16"}
    node = engine_node(Scenario(**gpt_oss, gpu="A100 80GB SXM", engine="vLLM"))
    assert_allclose(node.prefill_attention_share, row.rate_share * at_64 * SINK_PREFILL.rate_share)
    assert node.prefill_attention_keys == SINK_PREFILL.extra_keys
    hopper = engine_node(Scenario(**gpt_oss, gpu="H100 SXM", engine="vLLM"))
    assert hopper.prefill_attention_keys == PREFILL_ATTENTION[("hopper", "bf16", "vllm")].extra_keys
    sglang = engine_node(Scenario(**gpt_oss, gpu="A100 80GB SXM", engine="SGLang"))
    assert (
        sglang.prefill_attention_keys == PREFILL_ATTENTION[("ampere", "bf16", "sglang")].extra_keys
    )
    llama = engine_node(Scenario(gpu="A100 80GB SXM", engine="vLLM", kv_dtype="bf16"))
    assert (llama.prefill_attention_share, llama.prefill_attention_keys) == (
        row.rate_share,
        row.extra_keys,
    )


def test_a_sweep_prices_sinks_as_each_scenario_alone_does():
    """A sweep over models and cards gives each scenario's prompt kernel its own evaluation gives."""
    models = np.array(["gpt-oss-20b", "Llama-3-8B", "gpt-oss-120b"], dtype=object)
    gpus = np.array(["A100 80GB SXM", "A100 80GB SXM", "H100 SXM"], dtype=object)
    swept = engine_node(Scenario(engine="vLLM", kv_dtype="bf16"), model=models, gpu=gpus)
    for index, (model, gpu) in enumerate(zip(models, gpus, strict=True)):
        alone = engine_node(Scenario(model=model, gpu=gpu, engine="vLLM", kv_dtype="bf16"))
        assert_allclose(swept.prefill_attention_share[index], alone.prefill_attention_share)
        assert_allclose(swept.prefill_attention_keys[index], alone.prefill_attention_keys)


def test_triton_runs_a_long_prompts_attention_slower_and_a_short_ones_cheaper_per_token():
    """At 32,000 tokens the Triton kernel's lower share makes gpt-oss's prompt attention on an
    A100 slower than FlashAttention 2's would be; the kernel's fewer extra keys make a
    128-token prompt's cheaper."""
    node = engine_node(Scenario(model="gpt-oss-20b", gpu="A100 80GB SXM", engine="vLLM",
                                kv_dtype="bf16"))  # fmt: skip
    row = PREFILL_ATTENTION[("ampere", "bf16", "vllm")]
    flash = dataclasses.replace(
        node,
        prefill_attention_share=node.prefill_attention_share / SINK_PREFILL.rate_share,
        prefill_attention_keys=row.extra_keys,
    )
    rate = node.measured_bf16_flops
    assert node.prompt_attention_s(32000.0, 0.0, rate) > 2.0 * flash.prompt_attention_s(
        32000.0, 0.0, rate
    )
    assert node.prompt_attention_s(128.0, 0.0, rate) < flash.prompt_attention_s(128.0, 0.0, rate)


def test_a_release_running_aiter_prefills_in_aiters_own_kernel_on_amds_cards():
    """ATOM's vLLM and vLLM with AITER on run AITER's MHA forward on an MI355X and an MI300X over
    a bf16 cache; an fp8 cache, latent attention, a release without AITER and an NVIDIA card
    keep the rows they had."""
    for gpu, family in (("MI355X", "cdna4"), ("MI300X", "cdna3")):
        for version in ("0.17-atom", "0.19-aiter"):
            row = release_prefill_attention(gpu, "bf16", "vllm", version)
            assert row is AITER_PREFILL_ATTENTION[(family, "bf16")], (gpu, version)
    kept = {
        ("MI355X", "fp8", "0.17-atom", False): prefill_attention("MI355X", "fp8", "vllm"),
        ("MI355X", "bf16", "0.17-atom", True): prefill_attention("MI355X", "bf16", "vllm", True),
        ("MI300X", "bf16", "0.10", False): prefill_attention("MI300X", "bf16", "vllm"),
        ("H100 SXM", "bf16", "0.19-aiter", False): prefill_attention("H100 SXM", "bf16", "vllm"),
    }
    for (gpu, cache, version, latent), row in kept.items():
        assert release_prefill_attention(gpu, cache, "vllm", version, latent) is row


def test_a_sweep_prices_aiters_kernel_as_each_release_alone_does():
    """A sweep over releases on an MI355X gives each its own prompt kernel, as alone."""
    versions = np.array(["0.17-atom", "0.10", "0.19-aiter"], dtype=object)
    knobs = {"gpu": "MI355X", "engine": "vLLM", "kv_dtype": "bf16", "model": "Llama-3-70B"}
    swept = engine_node(Scenario(**knobs), engine_version=versions)
    for index, version in enumerate(versions):
        alone = engine_node(Scenario(**knobs, engine_version=version))
        assert_allclose(swept.prefill_attention_share[index], alone.prefill_attention_share)
        assert_allclose(swept.prefill_attention_keys[index], alone.prefill_attention_keys)
    assert swept.prefill_attention_share[0] != swept.prefill_attention_share[1]
