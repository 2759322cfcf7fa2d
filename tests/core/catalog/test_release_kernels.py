"""Kernels a release runs beyond its engine's own: AITER on AMD cards and fused shared experts
(core.catalog.release_kernels, core.catalog.kernels.kernels_engine)."""

from __future__ import annotations

import numpy as np
import pytest

from core.catalog.dense_gemms import ENGINE_DENSE_GEMM_FLOORS, dense_gemm_cost, dense_gemm_floor
from core.catalog.engine_versions import ENGINE_VERSIONS, engine_version, newest_version
from core.catalog.kernels import ENGINE_EXPERT_KERNELS, expert_kernel, kernels_engine
from core.catalog.release_kernels import ATOM_PLUGIN_RELEASE, SHARED_EXPERT_FUSION_ROUTED
from core.engine_level.kernels import shared_expert_fused
from core.evaluate import evaluate
from core.scenario.knobs import Scenario

AMD_CARDS = ("MI300X", "MI325X", "MI355X")


def test_aiter_rows_price_the_releases_that_run_aiter_on_amd_cards_only():
    """SGLang 0.5 and vLLM with ATOM run AITER on AMD cards; plain vLLM, SGLang 0.3 (before
    AITER's first commit) and 0.4 (whose image set no AITER switch before 0.4.9.post3) and every
    release on NVIDIA cards run the engine's own."""
    for gpu in AMD_CARDS:
        assert kernels_engine(gpu, "sglang") == "aiter"
        assert kernels_engine(gpu, "sglang", "0.5") == "aiter"
        assert kernels_engine(gpu, "sglang", "0.4") == "sglang"
        assert kernels_engine(gpu, "sglang", "0.3") == "sglang"
        assert kernels_engine(gpu, "vllm", ATOM_PLUGIN_RELEASE) == "aiter"
        assert kernels_engine(gpu, "vllm") == "vllm"
        assert kernels_engine(gpu, "tensorrt-llm") == "tensorrt-llm"
    assert kernels_engine("H200", "vllm", ATOM_PLUGIN_RELEASE) == "vllm"
    assert kernels_engine("B200", "sglang") == "sglang"


def test_sglang_04_names_the_release_that_switched_aiter_on():
    """SGLang 0.4's AMD kernels cite the pull request that set SGLANG_USE_AITER=1 in its image and
    the switches its earlier releases needed by hand."""
    source = engine_version("sglang", "0.4").amd_kernels_source
    assert "#7902" in source and "0.4.9.post3" in source
    assert all(switch in source for switch in ("CK_MOE", "SGLANG_AITER_MOE", "SGLANG_USE_AITER"))


def test_every_release_that_runs_a_library_names_its_source():
    """A release's AMD kernel library is AITER or nothing, and says where that is read."""
    for releases in ENGINE_VERSIONS.values():
        for release in releases:
            assert release.amd_kernels in ("", "aiter")
            assert len(release.amd_kernels_source) > 20, (release.engine, release.version)
    assert "ROCm/ATOM" in engine_version("vllm", ATOM_PLUGIN_RELEASE).amd_kernels_source


@pytest.mark.parametrize(("gpu", "family"), [("MI325X", "cdna3"), ("MI355X", "cdna4")])
def test_vllm_with_atom_prices_aiters_experts_and_gemms(gpu, family):
    """vLLM with the ATOM plugin takes AITER's expert and block-fp8 GEMM rows on AMD cards, where
    vLLM's newest release prices another kernel (its own Triton's on CDNA3, CDNA4 borrows)."""
    kernel, measured = expert_kernel(gpu, "fp8_block", "vllm", ATOM_PLUGIN_RELEASE)
    assert measured == family and kernel is ENGINE_EXPERT_KERNELS[(family, "fp8_block", "aiter")]
    assert expert_kernel(gpu, "fp8_block", "vllm")[0] is not kernel
    cost = dense_gemm_cost(gpu, "fp8_block", "vllm", ATOM_PLUGIN_RELEASE)
    assert cost == ENGINE_DENSE_GEMM_FLOORS[(family, "fp8_block", "aiter")]


def test_atom_fuses_the_shared_expert_except_under_data_parallel_attention():
    """ATOM runs DeepSeek's shared expert in AITER's fused MoE under TP (with or without EP),
    not under data-parallel attention; SGLang 0.5 keeps it fused on AMD cards either way."""
    routed, shared = SHARED_EXPERT_FUSION_ROUTED, 1
    atom = ("vllm", ATOM_PLUGIN_RELEASE, "MI355X", routed, shared)
    assert shared_expert_fused(*atom, False, False)
    assert shared_expert_fused(*atom, True, False)
    assert not shared_expert_fused(*atom, True, True)
    assert shared_expert_fused("sglang", "0.5", "MI355X", routed, shared, True, True)
    assert not shared_expert_fused("vllm", newest_version("vllm"), "MI355X", routed, shared, False)


def test_a_scenario_on_vllm_with_atom_prices_another_step_on_amd_not_on_nvidia():
    """gpt-oss-120b on an MI355X: vLLM with ATOM prices AITER's MXFP4 experts, so its step
    differs from vLLM's own; on an H200 the plugin release prices as vLLM does, but for the
    dense GEMM floors of the vLLM release it was tested on (0.17: 0.14.0's measured table, a
    few hundredths of a percent of the step)."""
    knobs = {"model": "gpt-oss-120b", "weight_dtype": "mxfp4", "engine": "vllm",
             "realism": "engine", "concurrency": 32, "prompt_tokens": 1000,
             "answer_tokens": 1000}  # fmt: skip
    amd = {
        release: evaluate(Scenario(gpu="MI355X", engine_version=release, **knobs)).itl_s
        for release in (ATOM_PLUGIN_RELEASE, "0.19")
    }
    assert np.isfinite(amd[ATOM_PLUGIN_RELEASE]) and amd[ATOM_PLUGIN_RELEASE] > 0
    assert amd[ATOM_PLUGIN_RELEASE] != pytest.approx(amd["0.19"], rel=1e-3)
    nvidia = {
        release: evaluate(Scenario(gpu="H200", engine_version=release, **knobs)).itl_s
        for release in (ATOM_PLUGIN_RELEASE, "0.19")
    }
    assert nvidia[ATOM_PLUGIN_RELEASE] == pytest.approx(nvidia["0.19"], rel=2e-3)
    floors = [dense_gemm_floor("H200", "bf16", "vllm", r) for r in (ATOM_PLUGIN_RELEASE, "0.14")]
    assert floors[0] == floors[1] != dense_gemm_floor("H200", "bf16", "vllm", "0.19")


def test_vllms_aiter_switch_prices_aiters_experts_on_amd_and_nothing_on_nvidia():
    """gpt-oss-120b at 32 users: vLLM with AITER switched on prices AITER's MXFP4 experts on an
    MI355X, faster than the borrowed kernel vLLM's own default runs; on an H200 the variant is
    vLLM 0.19 itself."""
    from core.catalog.release_kernels import VLLM_AITER_RELEASE

    knobs = {"model": "gpt-oss-120b", "weight_dtype": "mxfp4", "engine": "vllm",
             "realism": "engine", "concurrency": 32, "prompt_tokens": 1000,
             "answer_tokens": 1000}  # fmt: skip

    def itl(gpu, release):
        return evaluate(Scenario(gpu=gpu, engine_version=release, **knobs)).itl_s

    assert 0 < itl("MI355X", VLLM_AITER_RELEASE) < itl("MI355X", "0.19")
    assert itl("H200", VLLM_AITER_RELEASE) == pytest.approx(itl("H200", "0.19"), rel=1e-12)


def test_vllm_without_aiter_runs_its_triton_rows_on_cdna3_cards():
    """vLLM releases without AITER price a CDNA3 card's fp8 and bf16 experts by the Triton fits."""
    for gpu in ("MI300X", "MI325X"):
        for version in ("0.6", "0.8", "0.19"):
            kernel, family = expert_kernel(gpu, "fp8_block", "vllm", version)
            assert family == "cdna3" and "ROCm/triton PR #702" in kernel.source
            kernel, family = expert_kernel(gpu, "bf16", "vllm", version)
            assert family == "cdna3" and "ROCm/triton PR #685" in kernel.source
        kernel, _ = expert_kernel(gpu, "fp8_block", "vllm", "0.19-aiter")
        assert "ROCm/aiter" in kernel.source


def test_a_release_lists_the_gemm_shapes_its_amd_kernels_hold_tuned_tiles_for():
    """SGLang 0.5.10's AITER holds gfx942 tiles for DeepSeek's three TP8 attention GEMMs and no
    other shape; 0.5.6 and every other release list none; the shares count GEMMs and the inputs
    they walk."""
    from core.catalog.release_kernels import amd_tuned_gemm_shapes, tuned_shares

    shapes = amd_tuned_gemm_shapes("sglang", "0.5.10")
    assert shapes == {(2112, 7168), (3072, 1536), (7168, 2048)}
    assert not amd_tuned_gemm_shapes("sglang", "0.5.6")
    assert not amd_tuned_gemm_shapes("vllm", newest_version("vllm"))
    assert tuned_shares(shapes, ((2112.0, 7168.0), (4608.0, 7168.0))) == (0.5, 0.5)
    assert tuned_shares(shapes, ((3072.0, 1536.0), (7168.0, 2304.0))) == (0.5, 1536 / 3840)
    assert tuned_shares(shapes, ()) == (0.0, 0.0)
