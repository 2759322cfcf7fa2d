"""Expert kernels that loop over the card's experts: Marlin's int4 MoE before vLLM 0.8.3
(core.catalog.release_kernels.EXPERT_LAUNCH_LOOPS, ExpertLayers._launch_seconds)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import KERNEL_FLOOR_S
from core.catalog.engine_versions import versions_of
from core.catalog.release_kernels import (
    EXPERT_LAUNCH_LOOPS,
    MARLIN_LOOP_TOKENS,
    expert_launch_tokens,
)
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node


def _node(**knobs):
    base = dict(model="Qwen3-30B-A3B", gpu="H20", cards=1, weight_dtype="int4",
                engine="sglang", engine_version="0.4", realism="engine")  # fmt: skip
    return engine_node(Scenario(**{**base, **knobs}))


def test_the_releases_that_loop_are_those_the_engines_code_names():
    """vLLM 0.6 and 0.8 and SGLang 0.4 (catalog releases all) loop over int4 experts on NVIDIA
    cards; later releases, other formats and AMD cards launch one kernel for every expert."""
    for engine, line in EXPERT_LAUNCH_LOOPS:
        assert expert_launch_tokens(engine, line, "int4", amd=False) == MARLIN_LOOP_TOKENS
        assert expert_launch_tokens(engine, line, "int4", amd=True) == 0.0
        assert expert_launch_tokens(engine, line, "bf16", amd=False) == 0.0
    for engine, line in EXPERT_LAUNCH_LOOPS:
        assert line in versions_of(engine), (engine, line)
    assert expert_launch_tokens("sglang", "0.5", "int4", amd=False) == 0.0
    assert expert_launch_tokens("vllm", "0.10", "int4", amd=False) == 0.0
    assert expert_launch_tokens("tensorrt-llm", "1.0", "int4", amd=False) == 0.0


def test_a_decode_step_launches_each_gemm_once_per_expert_on_the_card():
    """One token through Qwen3-30B-A3B's 48 layers of 128 experts: each layer's two GEMMs launch
    127 more kernels each than the fused kernel's one, every one at least the kernel floor."""
    node = _node()
    assert node.expert_launch_tokens == MARLIN_LOOP_TOKENS
    fused = replace(node, expert_launch_tokens=0.0)
    _, layers = node.expert_geometry
    added = node.expert_seconds(1.0, ALL_TERMS) - fused.expert_seconds(1.0, ALL_TERMS)
    assert_allclose(added, layers * 2 * KERNEL_FLOOR_S * (128 - 1), rtol=1e-12)


def test_a_prompt_launches_once_per_expert_for_every_256_tokens():
    """A 1,000-token prompt runs four rounds of launches (256 tokens each); a token riding in a
    paid step adds its share of one."""
    node = _node()
    fused = replace(node, expert_launch_tokens=0.0)
    _, layers = node.expert_geometry
    added = node.expert_seconds(1000.0, ALL_TERMS) - fused.expert_seconds(1000.0, ALL_TERMS)
    assert_allclose(added, layers * 2 * KERNEL_FLOOR_S * (128 * 4 - 1), rtol=1e-12)
    riding = node.expert_seconds(1.0, ALL_TERMS, alone=False)
    riding_fused = fused.expert_seconds(1.0, ALL_TERMS, alone=False)
    assert_allclose(riding - riding_fused, layers * 2 * KERNEL_FLOOR_S * 128 / 256, rtol=1e-12)


def test_the_loop_is_the_releases_own():
    """SGLang 0.5, vLLM 0.10, bf16 experts and a dense model pay no loop."""
    assert _node(engine_version="0.5").expert_launch_tokens == 0.0
    assert _node(engine="vllm", engine_version="0.10").expert_launch_tokens == 0.0
    assert _node(engine="vllm", engine_version="0.8").expert_launch_tokens == MARLIN_LOOP_TOKENS
    assert _node(weight_dtype="bf16").expert_launch_tokens == 0.0
    dense = _node(model="Llama-3-8B")
    assert np.all(dense.expert_seconds(np.array([1.0, 500.0]), ALL_TERMS) == 0.0)


def test_more_tokens_never_take_less_time_in_a_looping_kernel():
    """The launches grow in steps of 256 tokens, never back."""
    node = _node()
    tokens = np.arange(1.0, 2000.0)
    seconds = node.expert_seconds(tokens, ALL_TERMS)
    assert np.all(np.diff(seconds) >= 0.0)


def test_the_sources_table_names_each_looping_release_and_its_code():
    """Each release that loops over its int4 experts has a sources row citing marlin_mm_moe."""
    from core import sources

    rows = {row.constant: row for row in sources()}
    for engine, line in EXPERT_LAUNCH_LOOPS:
        row = rows[f"int4 experts launched one at a time, {engine} {line}"]
        assert row.value == f"{MARLIN_LOOP_TOKENS:,.0f}" and row.kind == "engine"
        assert "marlin_mm_moe" in row.source
