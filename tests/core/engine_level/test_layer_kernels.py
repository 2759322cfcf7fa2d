"""Kernels a forward pass launches by layer kind, and the shared expert an engine fuses away."""

from __future__ import annotations

import numpy as np

from core import Scenario, evaluate
from core.catalog import KERNEL_FLOOR_S, MODELS
from core.catalog.engine_versions import engine_version, newest_version
from core.catalog.layer_kernels import BLOCK_FP8_MLP_INPUTS, SHARED_EXPERT_KERNELS
from core.catalog.release_kernels import SHARED_EXPERT_FUSION_ROUTED
from core.engine_level.kernels import shared_expert_fused
from core.engine_level.terms import block_fp8_quantise_kernels, layer_kernels

DEEPSEEK = MODELS["DeepSeek-R1"]
R1 = dict(realism="engine", model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
          kv_dtype="bf16", prompt_tokens=1024, answer_tokens=1024, seats=64, concurrency=4,
          engine="sglang")  # fmt: skip


def test_block_fp8_quantises_each_gemm_input_once():
    """A DeepSeek expert layer quantises 7 GEMM inputs, its dense layer 5, a Qwen3 layer 4."""
    latent_expert = block_fp8_quantise_kernels(1, 1, True, 1)
    latent_dense = block_fp8_quantise_kernels(1, 0, True, 1)
    plain_expert = block_fp8_quantise_kernels(1, 1, False, 0)
    np.testing.assert_allclose([latent_expert, latent_dense, plain_expert], [7, 5, 4])


def test_a_shared_expert_run_on_its_own_launches_its_mlp_and_quantisers():
    """Each expert layer's own shared expert adds its 3 kernels and, in block fp8, 2 quantisers."""
    without = layer_kernels(61, 58, True, 0, block_fp8=True)
    with_shared = layer_kernels(61, 58, True, 1, block_fp8=True)
    assert with_shared - without == 58 * (SHARED_EXPERT_KERNELS + BLOCK_FP8_MLP_INPUTS)


def test_sglang_fuses_only_a_deepseek_shaped_shared_expert():
    """SGLang 0.5 fuses 256 routed + 1 shared; other engines, releases and shapes do not."""
    routed, shared = SHARED_EXPERT_FUSION_ROUTED, DEEPSEEK.shared_experts
    assert DEEPSEEK.experts == routed and shared == 1
    assert shared_expert_fused("sglang", "0.5", "H200", routed, shared, False)
    assert not shared_expert_fused("sglang", "0.4", "H200", routed, shared, False)
    assert not shared_expert_fused("vllm", newest_version("vllm"), "H200", routed, shared, False)
    assert not shared_expert_fused(
        "tensorrt-llm", newest_version("tensorrt-llm"), "H200", routed, shared, False
    )
    assert not shared_expert_fused("sglang", "0.5", "H200", 128, 0, False)
    assert not shared_expert_fused("sglang", "0.5", "H200", 128, 1, False)


def test_expert_parallelism_keeps_the_shared_expert_apart_on_nvidia_only():
    """Under expert parallelism NVIDIA cards run it on its own; MI300-class cards still fuse."""
    args = (SHARED_EXPERT_FUSION_ROUTED, 1, True)
    assert not shared_expert_fused("sglang", "0.5", "H200", *args)
    assert shared_expert_fused("sglang", "0.5", "MI325X", *args)
    assert engine_version("sglang", "0.5").fuses_shared_expert


def test_fusing_saves_the_shared_experts_launches_not_their_weights():
    """SGLang 0.5 steps faster than 0.4 on DeepSeek by the kernels it fuses, reading as much."""
    fused = evaluate(Scenario(**R1, engine_version="0.5"))
    apart = evaluate(Scenario(**R1, engine_version="0.4"))
    assert float(fused.weight_bytes_read) == float(apart.weight_bytes_read)
    saved = float(apart.itl_s) - float(fused.itl_s)
    launches = 58 * (SHARED_EXPERT_KERNELS + BLOCK_FP8_MLP_INPUTS) * KERNEL_FLOOR_S
    assert saved >= launches * 0.99  # and the two GEMMs' floors above the kernel floor
