"""A node's memory: weights, the activations of the step the engine profiles, then the cache."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy.testing import assert_allclose

import core.engine_level.memory as memory
from core import Scenario
from core.catalog import (
    ACTIVATION_BYTES,
    ENGINE_KV_FRACTION,
    ENGINE_MAX_NUM_TOKENS,
    GIB,
    OUTSIDE_ALLOCATOR_BYTES_ONE_CARD,
    OUTSIDE_ALLOCATOR_BYTES_SHARDED,
)
from core.engine_level.memory import (
    activation_workspace_bytes,
    expert_workspace_bytes,
    outside_allocator_bytes,
)
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

# Qwen3-235B-A22B's expert layer: hidden 4,096, experts 1,536 wide, 8 of 128 per token.
HIDDEN, WIDTH, TOP_K = 4096.0, 1536.0, 8.0
DEP = dict(model="Qwen3-235B-A22B", gpu="H100 SXM", cards=8, weight_dtype="fp8", kv_dtype="fp8",
           layout="dep", engine="tensorrt-llm", prompt_tokens=1000, answer_tokens=1000,
           realism="engine")  # fmt: skip


def _kernels_own_buffers(rows, hidden, width, input_bytes):
    """The CUTLASS MoE runner's two overlapped regions, as getWorkspaceDeviceBufferSizes sizes
    them for a gated activation: inputs max(permuted, fc2 result, fc1 result), outputs max(gated
    fc1 result, fc2 result); GEMM results in bf16, the permuted input at the input's bytes."""
    permuted = rows * hidden * input_bytes
    fc1_result = rows * width * input_bytes
    glu_result = 2 * rows * width * ACTIVATION_BYTES
    fc2_result = rows * hidden * ACTIVATION_BYTES
    return max(permuted, fc2_result, fc1_result) + max(glu_result, fc2_result, fc1_result)


def test_the_expert_workspace_is_the_kernels_two_regions_and_the_layers_tensors():
    """Per routed row, the kernel's regions whatever the input's format (fp4, fp8, bf16), plus
    the gathered input and the bf16 output of every gathered token."""
    tokens, ranks = 2048.0, 8.0
    gathered = tokens * ranks
    for input_bytes in (0.5, 1.0, 2.0):
        kernel = _kernels_own_buffers(gathered * TOP_K, HIDDEN, WIDTH, input_bytes)
        tensors = gathered * HIDDEN * (input_bytes + ACTIVATION_BYTES)
        found = expert_workspace_bytes(tokens, ranks, TOP_K, HIDDEN, WIDTH, input_bytes)
        assert_allclose(found, kernel + tensors)


def test_a_wide_expert_slice_sizes_the_output_region():
    """Where the gated result outgrows the second GEMM's (2 w > d), it sets the region."""
    narrow = expert_workspace_bytes(1.0, 1.0, 1.0, HIDDEN, HIDDEN / 4)
    wide = expert_workspace_bytes(1.0, 1.0, 1.0, HIDDEN, 2 * HIDDEN)
    assert_allclose(narrow, 2 * (HIDDEN + HIDDEN) + HIDDEN * 4)
    assert_allclose(wide, 2 * (HIDDEN + 4 * HIDDEN) + HIDDEN * 4)


def test_gathering_every_ranks_tokens_multiplies_the_workspace():
    """Under attention data parallelism each card's expert layer holds every rank's tokens."""
    one = expert_workspace_bytes(4096.0, 1.0, TOP_K, HIDDEN, WIDTH)
    assert_allclose(expert_workspace_bytes(4096.0, 8.0, TOP_K, HIDDEN, WIDTH), 8 * one)


def test_the_layers_workspace_grows_with_the_profiled_step():
    """A step of twice the tokens keeps twice the activations; the default is 8,192 tokens."""
    default = activation_workspace_bytes(HIDDEN, WIDTH, 5120.0, 8.0)
    assert_allclose(activation_workspace_bytes(HIDDEN, WIDTH, 5120.0, 8.0, 16384.0), 2 * default)
    assert_allclose(
        activation_workspace_bytes(HIDDEN, WIDTH, 5120.0, 8.0, ENGINE_MAX_NUM_TOKENS), default
    )


def test_tensorrt_llms_cache_loses_the_profiled_expert_workspace():
    """On TensorRT-LLM under DEP the cache's room is 90 % of the workspace smaller than it would
    be without the expert layer's share; vLLM and SGLang size theirs without it."""
    node = engine_node(Scenario(**DEP))
    assert node.expert_workspace and node.data_parallel_attention
    without = replace(node, expert_workspace=False)
    lost = without.kv_budget(ALL_TERMS)[1] - node.kv_budget(ALL_TERMS)[1]
    per_card = expert_workspace_bytes(node.profile_tokens, 8.0, TOP_K, HIDDEN, WIDTH,
                                      node.gathered_bytes)  # fmt: skip
    assert_allclose(lost, ENGINE_KV_FRACTION * 8 * per_card)
    for engine in ("vllm", "sglang"):
        assert not engine_node(Scenario(**{**DEP, "engine": engine})).expert_workspace


def test_a_dense_model_keeps_no_expert_workspace():
    """Llama-3-70B on TensorRT-LLM: the same room with or without the expert layer's share."""
    knobs = {**DEP, "model": "Llama-3-70B", "layout": "tp", "cards": 4}
    node = engine_node(Scenario(**knobs))
    assert (
        node.kv_budget(ALL_TERMS)[1]
        == replace(node, expert_workspace=False).kv_budget(ALL_TERMS)[1]
    )


def test_the_profiled_step_is_the_one_trtllm_bench_sized():
    """TensorRT-LLM profiles the tokens trtllm-bench chose, at least a whole prompt beside a
    rank's batch (its releases prefill whole prompts); an engine it does not size, 8,192."""
    node = engine_node(Scenario(**DEP))
    assert node.profile_tokens >= 1000 + node.bench_batch / 8
    vllm = engine_node(Scenario(**{**DEP, "engine": "vllm"}))
    assert np.all(vllm.profile_tokens == ENGINE_MAX_NUM_TOKENS)


def test_a_card_holds_vllms_profiled_memory_outside_the_allocator():
    """1.79 GiB on one card and 3.58 GiB on each card of a node of several (vLLM PR #10511's
    profile), for a number and for an array of node sizes alike."""
    assert outside_allocator_bytes(1) == OUTSIDE_ALLOCATOR_BYTES_ONE_CARD == 1.79 * GIB
    assert outside_allocator_bytes(2) == OUTSIDE_ALLOCATOR_BYTES_SHARDED == 3.58 * GIB
    assert_allclose(
        outside_allocator_bytes(np.array([1.0, 2.0, 8.0])),
        [1.79 * GIB, 3.58 * GIB, 3.58 * GIB],
    )


@pytest.mark.parametrize(
    ("engine", "version", "cards", "lost_share"),
    [
        ("tensorrt-llm", None, 8, ENGINE_KV_FRACTION),
        ("tensorrt-llm", "0.17", 2, ENGINE_KV_FRACTION),
        ("vllm", "0.6", 4, 1.0),
        ("vllm", "0.6", 1, 1.0),
        ("vllm", None, 4, 0.0),
        ("sglang", None, 8, 0.0),
    ],
)
def test_the_cache_loses_what_each_card_holds_outside_the_allocator(
    monkeypatch, engine, version, cards, lost_share
):
    """TensorRT-LLM's room is 90 % of what is left after it (its share is of the free memory),
    vLLM 0.6's is short by all of it (its share is of the whole card); vLLM from 0.7 counts only
    what grows after its snapshot, and SGLang's reserve, a share of the card by its own rule,
    holds it: their rooms do not move."""
    knobs = {**DEP, "model": "Llama-3-8B", "engine": engine, "cards": cards, "layout": "tp",
             "engine_version": version}  # fmt: skip
    room = engine_node(Scenario(**knobs)).kv_budget(ALL_TERMS)[1]
    assert room > 0
    monkeypatch.setattr(memory, "OUTSIDE_ALLOCATOR_BYTES_ONE_CARD", 0.0)
    monkeypatch.setattr(memory, "OUTSIDE_ALLOCATOR_BYTES_SHARDED", 0.0)
    without = engine_node(Scenario(**knobs)).kv_budget(ALL_TERMS)[1]
    per_card = 1.79 * GIB if cards == 1 else 3.58 * GIB
    assert_allclose(without - room, lost_share * cards * per_card, rtol=1e-9)


@pytest.mark.parametrize("engine", ["tensorrt-llm", "vllm", "sglang"])
def test_a_stated_memory_share_sets_each_engines_own_share(engine):
    """memory_share is vLLM's and SGLang's share of the whole card (weights inside it) and
    TensorRT-LLM's share of what weights, activations and the runtime leave: raising it from
    0.80 to 0.95 grows the cache by 0.15 of the card on vLLM and SGLang, and by 0.15 / 0.80 of
    the room at 0.80 on TensorRT-LLM (within 1 %: its tool sizes the profiled step by the
    share too)."""
    knobs = {**DEP, "model": "Llama-3-8B", "engine": engine, "cards": 2, "layout": "tp"}
    low = engine_node(Scenario(**knobs, memory_share=0.80))
    high = engine_node(Scenario(**knobs, memory_share=0.95))
    memory, low_room = low.kv_budget(ALL_TERMS)
    high_room = high.kv_budget(ALL_TERMS)[1]
    if engine == "tensorrt-llm":
        assert_allclose(high_room - low_room, 0.15 / 0.80 * low_room, rtol=0.01)
    else:
        assert_allclose(high_room - low_room, 0.15 * memory)


def test_no_stated_share_is_the_releases_own():
    """Without memory_share the engines keep their own: 0.9 for TensorRT-LLM and vLLM (the same
    room as stating 0.9), SGLang's reserve by its own rule (not 0.9 of the card)."""
    for engine in ("tensorrt-llm", "vllm"):
        knobs = {**DEP, "model": "Llama-3-8B", "engine": engine, "cards": 2, "layout": "tp"}
        own = engine_node(Scenario(**knobs)).kv_budget(ALL_TERMS)[1]
        stated = engine_node(Scenario(**knobs, memory_share=ENGINE_KV_FRACTION))
        assert_allclose(own, stated.kv_budget(ALL_TERMS)[1])
    knobs = {**DEP, "model": "Llama-3-8B", "engine": "sglang", "cards": 2, "layout": "tp"}
    own = engine_node(Scenario(**knobs)).kv_budget(ALL_TERMS)[1]
    assert own != engine_node(Scenario(**knobs, memory_share=0.9)).kv_budget(ALL_TERMS)[1]


def test_trtllm_bench_sizes_its_batch_with_the_commands_share():
    """trtllm-bench passes --kv_cache_free_gpu_mem_fraction to its own sizing (get_settings):
    a smaller share sizes a batch no larger."""
    knobs = {**DEP, "prompt_tokens": 1024, "answer_tokens": 2048}
    small = engine_node(Scenario(**knobs, memory_share=0.5)).bench_batch
    large = engine_node(Scenario(**knobs, memory_share=0.95)).bench_batch
    assert small < large


def test_a_memory_share_out_of_range_names_the_knob():
    """A share outside 0.05-1 is refused with the knob, the value and the range."""
    with pytest.raises(ValueError, match=r"memory_share.*1\.5"):
        Scenario(memory_share=1.5)
