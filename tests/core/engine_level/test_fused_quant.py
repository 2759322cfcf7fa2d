"""A release that fuses a per-tensor fp8 GEMM's input quantiser into the kernel before it."""

from __future__ import annotations

import dataclasses

from numpy.testing import assert_allclose

from core.catalog import KERNEL_FLOOR_S
from core.catalog.dense_gemms import STATIC_QUANT_S, dense_gemm_floor, static_quant_s
from core.catalog.engine_versions import ENGINE_VERSIONS
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.scenario.knobs import Scenario

LLAMA_8B = dict(model="Llama-3-8B", gpu="B200", cards=1, kv_dtype="fp8", realism="engine")


def _unfused(node):
    return dataclasses.replace(node, fused_quant_s=0.0, attention_fused_quant_s=0.0)


def test_the_quantiser_is_the_one_timed_beside_the_table_that_priced_the_floor():
    """vLLM's own rows on a B200 hold vLLM's quantiser; TensorRT-LLM's rows, and the neutral
    ones an MI300X borrows from Hopper, TensorRT-LLM's; an engine whose quantiser no table
    timed on the family keeps it all (0)."""
    assert static_quant_s("B200", "vllm", "0.19") == STATIC_QUANT_S[("blackwell", "vllm")]
    assert static_quant_s("H100 SXM", "vllm", "0.10") == STATIC_QUANT_S[("hopper", "vllm")]
    trt = STATIC_QUANT_S[("blackwell", "tensorrt-llm")]
    assert static_quant_s("B200", "tensorrt-llm", "1.0") == trt
    assert static_quant_s("MI300X", "vllm", "0.8") == STATIC_QUANT_S[("hopper", "tensorrt-llm")]
    assert static_quant_s("B200", "sglang", "0.5") == 0.0
    for (family, _), seconds in STATIC_QUANT_S.items():
        assert seconds < dense_gemm_floor({"hopper": "H100 SXM"}.get(family, "B200"), "fp8")


def test_only_vllms_compiled_v1_releases_fuse_the_quantiser():
    """V1 from 0.8 fuses it (Inductor, its custom ops off); V0, the ATOM plugin, SGLang and
    TensorRT-LLM launch it on its own."""
    fusing = {(v.engine, v.version) for vs in ENGINE_VERSIONS.values() for v in vs
              if v.fuses_input_quant}  # fmt: skip
    assert fusing == {("vllm", "0.8"), ("vllm", "0.10"), ("vllm", "0.14"),
                      ("vllm", "0.19-aiter"), ("vllm", "0.19")}  # fmt: skip


def test_llama_8b_in_fp8_on_vllm_v1_spares_its_qkv_and_mlp_gemms_the_quantiser():
    """Llama-3-8B (32 layers) in per-tensor fp8 under vLLM 0.19 on a B200: each layer's QKV,
    gate-up and down GEMMs pay their floor less the quantiser, the output projection all of it:
    the step's floors are 3 x 32 quantisers shorter than unfused."""
    node = engine_node(Scenario(**LLAMA_8B, weight_dtype="fp8", engine="vllm",
                                engine_version="0.19"))  # fmt: skip
    saved = _unfused(node).fixed_seconds(ALL_TERMS) - node.fixed_seconds(ALL_TERMS)
    assert_allclose(saved, 3 * 32 * STATIC_QUANT_S[("blackwell", "vllm")], rtol=1e-9)
    assert node.gemm_floor_s - node.fused_quant_s > KERNEL_FLOOR_S


def test_no_other_format_or_engine_changes_its_floors():
    """bf16 and block-scaled fp8 under vLLM 0.19, and per-tensor fp8 under vLLM 0.6 (V0), SGLang
    and TensorRT-LLM, fuse nothing: their nodes carry no fused quantiser."""
    cases = [("bf16", "vllm", "0.19"), ("fp8", "vllm", "0.6"), ("fp8", "sglang", "0.5"),
             ("fp8", "tensorrt-llm", "1.0")]  # fmt: skip
    for weights, engine, version in cases:
        node = engine_node(Scenario(**LLAMA_8B, weight_dtype=weights, engine=engine,
                                    engine_version=version))  # fmt: skip
        assert node.fused_quant_s == node.attention_fused_quant_s == 0.0, (weights, engine)
    deepseek = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8,
                                    weight_dtype="fp8", engine="vllm", engine_version="0.19",
                                    realism="engine"))  # fmt: skip
    assert deepseek.fused_quant_s == 0.0  # DeepSeek's FP8 checkpoint is block-scaled


def test_a_floor_below_the_quantiser_spares_no_more_than_it_adds():
    """A GEMM whose measured floor exceeds the kernel floor by less than the quantiser is spared
    only that excess: fusing never takes a step below its kernel floors."""
    node = engine_node(Scenario(**LLAMA_8B, weight_dtype="fp8", engine="vllm",
                                engine_version="0.19"))  # fmt: skip
    thin = dataclasses.replace(node, gemm_floor_s=KERNEL_FLOOR_S + 1e-6,
                               attention_gemm_floor_s=KERNEL_FLOOR_S + 1e-6)  # fmt: skip
    saved = _unfused(thin).fixed_seconds(ALL_TERMS) - thin.fixed_seconds(ALL_TERMS)
    assert_allclose(saved, 3 * 32 * 1e-6, rtol=1e-9)
