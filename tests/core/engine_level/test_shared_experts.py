"""A shared expert on a second stream beside the routed experts (issue 37, eighteenth round)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core.catalog import KERNEL_FLOOR_S
from core.catalog.layer_kernels import BLOCK_FP8_MLP_INPUTS, SHARED_EXPERT_KERNELS
from core.engine_level.shared_experts import shared_stream_tokens
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.scenario.knobs import Scenario


@pytest.mark.parametrize(
    ("gpu", "engine", "version", "tokens"),
    [
        ("H200", "tensorrt-llm", "1.0", 128),  # no limit of its own: its CUDA graph's 128
        ("B200", "tensorrt-llm", "0.20", 128),
        ("B200", "vllm", "0.19", 256),  # VLLM_SHARED_EXPERTS_STREAM_TOKEN_THRESHOLD
        ("H100 SXM", "vllm", "0.14", 256),
        ("H200", "sglang", "0.5", 512),  # 1,024 within its CUDA graph's 512
        ("H200", "vllm", "0.10", 0),  # before PR #26440
        ("H200", "tensorrt-llm", "0.17", 0),  # the C++ runtime
        ("MI300X", "vllm", "0.19", 0),  # each path asks for CUDA
        ("MI355X", "sglang", "0.5", 0),
    ],
)
def test_each_release_streams_up_to_its_own_tokens_within_its_graph(gpu, engine, version, tokens):
    """A release streams a shared expert only on NVIDIA cards, up to the smaller of its own
    limit and its CUDA graph's largest batch; one without the rule never does."""
    assert shared_stream_tokens(gpu, engine, version) == tokens


def _deepseek_node(**knobs):
    scenario = Scenario(model="DeepSeek-R1", gpu="B200", cards=8, weight_dtype="nvfp4",
                        kv_dtype="fp8", concurrency=1, engine="tensorrt-llm",
                        engine_version="1.0", realism="engine", **knobs)  # fmt: skip
    return engine_node(scenario)


def test_the_shared_expert_hides_its_floors_up_to_the_routed_experts_time():
    """A DeepSeek layer's shared expert hides its kernels' and GEMMs' floors (with what its
    gate-up and down pay for their inputs) where the routed experts take longer, and no more
    than their time where they take less."""
    node = _deepseek_node()
    layers = node.expert_geometry[1]
    quantise = float(node.block_fp8) * BLOCK_FP8_MLP_INPUTS
    inputs = node.hidden + node.intermediate / node.cards  # gate-up reads d, down its slice
    floors = (
        (SHARED_EXPERT_KERNELS + quantise) * KERNEL_FLOOR_S
        + 2 * (node.gemm_floor_s - KERNEL_FLOOR_S)
        + node.gemm_input_cost_s * inputs
    )
    assert node.shared_stream_tokens == 128 and not node.shared_expert_fused
    assert_allclose(node.shared_stream_s(1.0, layers * 1.0), layers * floors)
    assert_allclose(node.shared_stream_s(1.0, layers * 5e-6), layers * 5e-6)
    assert node.shared_stream_s(129.0, layers * 1.0) == 0.0


def test_a_decode_step_is_shorter_by_what_the_stream_hides_a_prompts_step_is_not():
    """At one user the decode step is shorter by exactly the hidden floors; a step that carries a
    prompt (its requests given apart) runs eagerly, one stream."""
    node = _deepseek_node()
    serial = dataclasses.replace(node, shared_stream_tokens=0.0)
    streamed = node.step_s(1.0, 1000.0, ALL_TERMS)
    routed = node.expert_seconds(1.0, ALL_TERMS)
    assert_allclose(
        serial.step_s(1.0, 1000.0, ALL_TERMS) - streamed, node.shared_stream_s(1, routed)
    )
    assert streamed < serial.step_s(1.0, 1000.0, ALL_TERMS)
    with_prompt = node.step_s(1.0, 1000.0, ALL_TERMS, requests=1.0)
    assert_allclose(with_prompt, serial.step_s(1.0, 1000.0, ALL_TERMS, requests=1.0))


def test_a_fused_or_unlatent_shared_expert_hides_nothing():
    """A shared expert already inside the routed kernel, or a model without latent attention
    (Llama 4, whose engines' code is not read for this), hides nothing."""
    node = _deepseek_node()
    fused = dataclasses.replace(node, shared_expert_fused=True)
    plain = dataclasses.replace(node, latent_attention=False)
    assert fused.shared_stream_s(1.0, 1.0) == 0.0 and plain.shared_stream_s(1.0, 1.0) == 0.0
    vector = dataclasses.replace(node, shared_stream_tokens=np.array([0.0, 128.0]))
    hidden = vector.shared_stream_s(np.array([1.0, 1.0]), np.array([1.0, 1.0]))
    assert hidden[0] == 0.0 and hidden[1] > 0.0


def test_the_sources_page_cites_each_streaming_release_and_the_nvfp4_checkpoint():
    """Every release with the rule has a sources row with its limit and its code; NVIDIA's
    NVFP4 DeepSeek checkpoint's bf16 tensors have theirs."""
    from core.evidence.sources import sources

    rows = {row.constant: row for row in sources()}
    vllm = rows["shared expert on a second stream, vllm 0.14"]
    assert vllm.value == "256" and "PR #26440" in vllm.source
    assert (
        "maybe_execute_in_parallel"
        in rows["shared expert on a second stream, tensorrt-llm 1.0"].source
    )
    assert (
        "DUAL_STREAM_TOKEN_THRESHOLD" in rows["shared expert on a second stream, sglang 0.5"].source
    )
    nvfp4 = rows["DeepSeek-R1 NVFP4 checkpoint"]
    assert nvfp4.value == "13.4B parameters in bf16" and "TensorRT-Model-Optimizer" in nvfp4.source


def test_under_dep_the_limit_is_each_ranks_share_of_the_step():
    """Attention data parallelism on eight cards: each rank replays its own CUDA graph, so a step
    of 1,024 requests (128 a rank) still streams and one of 1,032 (129 a rank) does not."""
    node = dataclasses.replace(_deepseek_node(layout="dep"), shared_stream_tokens=128.0)
    assert node.cards == 8 and bool(node.data_parallel_attention)
    assert node.shared_stream_s(1024.0, 1.0) > 0.0
    assert node.shared_stream_s(1032.0, 1.0) == 0.0
    tp = dataclasses.replace(node, data_parallel_attention=False)
    assert tp.shared_stream_s(1024.0, 1.0) == 0.0
