"""The dense layers' GEMM floors at decode size, by card, format and engine (issue 37, item 2)."""

from __future__ import annotations

import dataclasses

from numpy.testing import assert_allclose

from core.catalog import KERNEL_FLOOR_S
from core.catalog.dense_gemms import (
    DENSE_GEMM_FLOORS,
    ENGINE_DENSE_GEMM_FLOORS,
    dense_gemm_floor,
)
from core.engine_level.terms import ALL_TERMS, dense_gemms
from core.evaluate import evaluate
from core.scenario.knobs import Scenario
from tests.core.engine_level.test_engine_versions import _tiny_node


def test_an_fp8_gemm_pays_more_than_a_bf16_one_before_its_weights():
    """On every measured family and engine, fp8's floor (quantise, then scale) exceeds bf16's."""
    for family in ("hopper", "blackwell"):
        assert DENSE_GEMM_FLOORS[(family, "fp8")] > 2 * DENSE_GEMM_FLOORS[(family, "bf16")]
        for engine in ("vllm", "sglang"):
            own = ENGINE_DENSE_GEMM_FLOORS
            assert own[(family, "fp8", engine)] > own[(family, "bf16", engine)]


def test_an_engine_uses_its_own_floor_and_a_borrowed_family_the_neutral_one():
    """vLLM's CUTLASS fp8 on an H100 is its own; an MI300X borrows TensorRT-LLM's Hopper floor."""
    assert (
        dense_gemm_floor("H100 SXM", "fp8", "vllm")
        == ENGINE_DENSE_GEMM_FLOORS[("hopper", "fp8", "vllm")]
    )
    assert dense_gemm_floor("MI300X", "fp8", "vllm") == DENSE_GEMM_FLOORS[("hopper", "fp8")]
    assert dense_gemm_floor("H100 SXM", "int4", "vllm") == KERNEL_FLOOR_S


def test_sglang_on_amd_cards_pays_aiters_block_fp8_floor_measured_there():
    """SGLang's block-fp8 GEMMs on MI300-class and MI355X cards pay AITER's floors, cited to
    AITER on the Sources page; vLLM there keeps the borrowed Hopper floor."""
    from core.evidence.engine_sources import dense_gemm_rows

    for gpu, family in (("MI300X", "cdna3"), ("MI325X", "cdna3"), ("MI355X", "cdna4")):
        own = ENGINE_DENSE_GEMM_FLOORS[(family, "fp8_block", "aiter")]
        assert dense_gemm_floor(gpu, "fp8_block", "sglang") == own
        assert dense_gemm_floor(gpu, "fp8_block", "vllm") != own
    rows = {row.constant: row for row in dense_gemm_rows()}
    assert "ROCm/aiter" in rows["dense GEMM floor, cdna3 fp8_block, aiter"].source
    assert "aiconfigurator" in rows["dense GEMM floor, hopper fp8_block, sglang"].source


def test_each_dense_gemm_pays_its_floor_in_place_of_the_kernel_floor():
    """A step's fixed time grows by the GEMMs a pass runs times the floor over the kernel floor."""
    node = _tiny_node()
    floored = dataclasses.replace(node, gemm_floor_s=KERNEL_FLOOR_S + 10e-6)
    extra = floored.fixed_seconds(ALL_TERMS) - node.fixed_seconds(ALL_TERMS)
    assert_allclose(extra, dense_gemms(node.layers, 0.0, False, 0) * 10e-6)
    assert dense_gemms(node.layers, 0.0, False, 0) == 4 * node.layers


def test_fp8_weights_at_one_user_pay_their_gemm_floors_on_eight_cards():
    """Llama-3-70B on eight H100s at one user: fp8 halves the stream but not the step."""
    knobs = {"model": "Llama-3-70B", "gpu": "H100 SXM", "cards": 8, "concurrency": 1,
             "prompt_tokens": 128, "answer_tokens": 2048, "realism": "engine"}  # fmt: skip
    fp8 = evaluate(Scenario(weight_dtype="fp8", **knobs)).itl_s
    bf16 = evaluate(Scenario(weight_dtype="bf16", **knobs)).itl_s
    assert fp8 > 0.75 * bf16  # the weights' stream alone would make it near half
