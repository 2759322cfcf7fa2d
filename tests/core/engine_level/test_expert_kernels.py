"""The expert layers' grouped GEMMs across the running batch (issue 37, item 1)."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core.catalog import GPUS
from core.catalog.kernels import (
    ENGINE_EXPERT_KERNELS,
    EXPERT_KERNELS,
    PERMUTE_BYTES,
    expert_kernel,
)
from core.engine_level.kernels import expert_rate_code, expert_rate_scale
from core.evaluate import engine_node, evaluate
from core.scenario.knobs import Scenario
from core.scenario.resolve import tensor_peak
from tests.core.engine_level.test_engine_versions import _tiny_node

TERMS = frozenset({"measured_rates"})


def _mixture(padding_rows: float):
    """A small mixture node: 64 experts, 4 a token, kernels with ``padding_rows``."""
    return dataclasses.replace(
        _tiny_node(), experts=64.0, experts_per_token=4.0, params=1e9, weight_bytes=2e9,
        expert_compute_share=0.8, expert_padding_rows=padding_rows,
    )  # fmt: skip


def test_few_tokens_per_expert_reach_less_of_the_card_than_many():
    """With padding rows, the multiplied time per token falls as tokens per expert grow."""
    node = _mixture(128.0)
    tokens = np.array([2_048.0, 8_192.0, 65_536.0])  # compute-bound steps, 128 to 4,096 a expert
    per_token = node.expert_seconds(tokens, TERMS) / tokens
    assert np.all(np.diff(per_token) < 0)
    flat = _mixture(0.0).expert_seconds(tokens, TERMS) / tokens
    assert_allclose(per_token[-1], flat[-1], rtol=0.05)  # thousands a expert: padding is noise


def test_each_touched_expert_pays_its_padding_rows_as_routed_rows():
    """A step's padding costs what h more routed rows for each touched expert would cost."""
    tokens = 65_536.0  # every expert touched, compute-bound
    padded = _mixture(128.0).expert_seconds(tokens, TERMS)
    bare = _mixture(0.0).expert_seconds(tokens, TERMS)
    extra_tokens = 128.0 * 64.0 / 4.0  # h rows for each of the 64 experts, k rows a token
    node = _mixture(0.0)
    more = node.expert_seconds(tokens + extra_tokens, TERMS)
    _, layers = node.expert_geometry
    # the extra tokens would also be permuted; padding rows are not
    permute = layers * extra_tokens * PERMUTE_BYTES * 4.0 * node.hidden / node.measured_bandwidth
    assert_allclose(padded - bare, more - bare - permute)


def test_tokens_riding_with_decodes_pay_no_padding_again():
    """Prompt tokens added to a decode step fill tiles the decodes already opened."""
    tokens = np.array([16.0, 512.0, 4_096.0])
    padded = _mixture(128.0).expert_seconds(tokens, TERMS, alone=False)
    assert_allclose(padded, _mixture(0.0).expert_seconds(tokens, TERMS, alone=False))


def test_every_kernel_pads_at_most_two_tiles_an_expert():
    """Each measured kernel's padding rows are those of a part-filled tile (0-512 rows)."""
    kernels = [*EXPERT_KERNELS.values(), *ENGINE_EXPERT_KERNELS.values()]
    rows = [kernel.padding_rows for kernel in kernels]
    assert min(rows) >= 0 and max(rows) <= 512


def test_a_step_never_pads_more_rows_than_it_routes():
    """With a token or two per expert the padding is capped at the rows routed (smaller tiles)."""
    tokens = np.array([1.0, 4.0, 16.0])  # 4 to 64 rows routed over at most 64 experts
    slow = {"expert_compute_share": 0.001}  # so the multiplied rows, not the stream, set the pace

    def seconds(padding_rows):
        node = dataclasses.replace(_mixture(padding_rows), **slow)
        return node.expert_seconds(tokens, TERMS)

    assert_allclose(seconds(128.0), seconds(1e6))
    bare = seconds(0.0)
    assert np.all(seconds(128.0) > 1.9 * bare) and np.all(seconds(128.0) < 2.0 * bare)


def test_an_engine_runs_its_own_expert_kernel_where_one_was_measured():
    """SGLang's unquantised experts on an H100 are its Triton kernel's, TensorRT-LLM's CUTLASS's."""
    sglang, family = expert_kernel("H100 SXM", "bf16", "sglang")
    assert family == "hopper"
    assert sglang is ENGINE_EXPERT_KERNELS[("hopper", "bf16", "sglang")]
    assert (
        expert_kernel("H100 SXM", "bf16", "tensorrt-llm")[0] is EXPERT_KERNELS[("hopper", "bf16")]
    )
    assert "sglang" in sglang.source and "fused_moe_triton" in sglang.source


def test_tensorrt_llm_runs_its_own_mxfp4_experts():
    """gpt-oss's experts are TensorRT-LLM's measured modules on Hopper and Blackwell, SGLang's
    W4A8 FlashInfer one on Blackwell, vLLM's kernels otherwise."""
    own, _ = expert_kernel("H200", "mxfp4", "tensorrt-llm")
    assert own is ENGINE_EXPERT_KERNELS[("hopper", "mxfp4", "tensorrt-llm")]
    assert "trtllm" in own.source and "w4a16_mxfp4" in own.source
    for engine in ("vllm", "sglang"):
        assert expert_kernel("H100 SXM", "mxfp4", engine)[0] is EXPERT_KERNELS[("hopper", "mxfp4")]
    assert expert_kernel("B200", "mxfp4", "vllm")[0] is EXPERT_KERNELS[("blackwell", "mxfp4")]
    sglang = expert_kernel("B200", "mxfp4", "sglang")[0]
    assert sglang is ENGINE_EXPERT_KERNELS[("blackwell", "mxfp4", "sglang")]
    assert sglang.compute == "fp8" and "w4a8_mxfp4_mxfp8" in sglang.source


def test_vllm_and_sglang_run_their_triton_kernels_for_block_fp8_on_hopper():
    """DeepSeek's block-fp8 experts on an H200: vLLM's and SGLang's Triton rows, TRT's CUTLASS."""
    for engine in ("vllm", "sglang"):
        own = expert_kernel("H200", "fp8_block", engine)[0]
        assert own is ENGINE_EXPERT_KERNELS[("hopper", "fp8_block", engine)]
        assert "triton" in own.source
    neutral = expert_kernel("H200", "fp8_block", "tensorrt-llm")[0]
    assert neutral is EXPERT_KERNELS[("hopper", "fp8_block")]


def test_a_w4a16_kernel_multiplies_at_bf16_even_on_fp4_cards():
    """On a B200 a W4A16 expert kernel's share is of the bf16 rate, a W4A8 one's of fp8's."""
    card = GPUS["B200"]
    own = tensor_peak("B200", GPUS, "mxfp4", "achieved_")  # the node's rate for mxfp4 weights
    assert own == card.achieved_fp4_flops
    w4a16 = expert_rate_scale(expert_rate_code("bf16"), "B200", GPUS, own)
    assert w4a16 == pytest.approx(card.achieved_bf16_flops / card.achieved_fp4_flops)
    w4a8 = expert_rate_scale(expert_rate_code("fp8"), "B200", GPUS, own)
    assert w4a8 == pytest.approx(card.achieved_fp8_flops / card.achieved_fp4_flops)
    assert expert_rate_scale(expert_rate_code(""), "B200", GPUS, own) == pytest.approx(1.0)
    assert expert_kernel("B200", "mxfp4", "tensorrt-llm")[0].compute == "fp8"
    assert EXPERT_KERNELS[("blackwell", "mxfp4")].compute == "bf16"


def test_a_family_without_tables_borrows_the_engine_neutral_kernel():
    """On an MI355X vLLM's bf16 experts are the borrowed family's neutral kernel, not its CUDA
    Triton (AMD's own rows there are AITER's; on CDNA3 vLLM's Triton was measured)."""
    kernel, family = expert_kernel("MI355X", "bf16", "vllm")
    assert family == "blackwell" and kernel is EXPERT_KERNELS[("blackwell", "bf16")]


@pytest.mark.parametrize("weight", ["fp8", "fp8_block", "bf16"])
def test_sglang_04_runs_its_triton_experts_on_cdna3_at_vllms_measured_rows(weight):
    """SGLang 0.4 without AITER runs its Triton fused MoE, a copy of vLLM's: on CDNA3 the shares
    AMD measured for vLLM's, cited as the copy; SGLang 0.5 there keeps AITER's rows."""
    own, family = expert_kernel("MI300X", weight, "sglang", "0.4")
    vllm, _ = expert_kernel("MI300X", weight, "vllm")
    assert family == "cdna3" and own is ENGINE_EXPERT_KERNELS[("cdna3", weight, "sglang")]
    fields = ("fixed_s", "bandwidth_share", "compute_share", "padding_rows")
    assert [getattr(own, name) for name in fields] == [getattr(vllm, name) for name in fields]
    assert "adapted from vLLM's" in own.source and "adapted" not in vllm.source
    newest, _ = expert_kernel("MI300X", weight, "sglang", "0.5")
    if weight != "fp8":  # AITER's rows are block fp8 and bf16
        assert newest is ENGINE_EXPERT_KERNELS[("cdna3", weight, "aiter")]


def test_sglang_runs_aiters_experts_on_amd_cards():
    """SGLang's block-fp8 and bf16 experts on MI300-class and MI355X cards are AITER's rows
    measured on them; vLLM (AITER off by default) runs its Triton rows on CDNA3 and keeps the
    borrowed rows elsewhere."""
    for gpu, family in (("MI300X", "cdna3"), ("MI325X", "cdna3"), ("MI355X", "cdna4")):
        for weight in ("fp8_block", "bf16"):
            kernel, measured = expert_kernel(gpu, weight, "sglang")
            assert measured == family
            assert kernel is ENGINE_EXPERT_KERNELS[(family, weight, "aiter")]
            assert "ROCm/aiter" in kernel.source
            other, lender = expert_kernel(gpu, weight, "vllm")
            if family == "cdna3":
                assert other is ENGINE_EXPERT_KERNELS[(family, weight, "vllm")]
            else:
                assert lender != family and other is EXPERT_KERNELS[(lender, weight)]
    own, family = expert_kernel("MI355X", "mxfp4", "sglang")  # AITER's MXFP4 MoE on gfx950
    assert family == "cdna4" and own is ENGINE_EXPERT_KERNELS[("cdna4", "mxfp4", "aiter")]
    assert expert_kernel("MI300X", "mxfp4", "sglang")[1] == "hopper"  # no fp4 on CDNA 3


def test_aiters_kernels_price_deepseek_on_an_mi325x_from_its_own_rows(monkeypatch):
    """DeepSeek-R1 under SGLang on eight MI325X: without AITER's row the step is another."""
    knobs = {"model": "DeepSeek-R1", "gpu": "MI325X", "cards": 8, "weight_dtype": "fp8",
             "engine": "sglang", "concurrency": 32, "prompt_tokens": 1000,
             "answer_tokens": 1000}  # fmt: skip
    own = evaluate(Scenario(**knobs), realism="engine").itl_s
    monkeypatch.delitem(ENGINE_EXPERT_KERNELS, ("cdna3", "fp8_block", "aiter"))
    borrowed = evaluate(Scenario(**knobs), realism="engine").itl_s
    assert np.isfinite(own) and own > 0 and own != pytest.approx(borrowed, rel=1e-3)


def test_the_engine_sets_the_expert_layers_of_a_mixture_step():
    """Qwen3-30B-A3B on an H100: vLLM's and SGLang's Triton experts differ from TensorRT-LLM's."""
    knobs = {"model": "Qwen3-30B-A3B", "gpu": "H100 SXM", "weight_dtype": "bf16",
             "concurrency": 64, "prompt_tokens": 1000, "answer_tokens": 500}  # fmt: skip
    itl = {
        name: evaluate(Scenario(realism="engine", engine=name, **knobs)).itl_s
        for name in ("tensorrt-llm", "vllm", "sglang")
    }
    assert len({round(value, 9) for value in itl.values()}) == 3
    # the Triton kernels reach less of the card than CUTLASS (aiconfigurator's tables)
    assert itl["sglang"] > itl["tensorrt-llm"]


def test_sglang_before_flashinfer_trtllm_runs_its_triton_experts_on_blackwell():
    """SGLang's 0.4 line prices block-fp8 experts on a B200 with its Triton fused MoE (its
    default until PR #11816); the 0.5 line, Hopper and bf16 keep their rows, and an MI355X runs
    AITER's under 0.5 only (0.4's image switched no AITER on: the borrowed Blackwell row)."""
    triton = ENGINE_EXPERT_KERNELS[("blackwell", "fp8_block", "sglang-triton")]
    assert expert_kernel("B200", "fp8_block", "sglang", "0.4")[0] is triton
    assert expert_kernel("B200", "fp8_block", "sglang", "0.5")[0] is not triton
    assert (
        expert_kernel("B200", "fp8_block", "sglang", "0.5")[0]
        is (EXPERT_KERNELS[("blackwell", "fp8_block")])
    )
    assert (
        expert_kernel("H200", "fp8_block", "sglang", "0.4")[0]
        is (ENGINE_EXPERT_KERNELS[("hopper", "fp8_block", "sglang")])
    )
    assert (
        expert_kernel("B200", "bf16", "sglang", "0.4")[0]
        is (ENGINE_EXPERT_KERNELS[("blackwell", "bf16", "sglang")])
    )
    assert (
        expert_kernel("MI355X", "fp8_block", "sglang", "0.5")[0]
        is (ENGINE_EXPERT_KERNELS[("cdna4", "fp8_block", "aiter")])
    )
    assert expert_kernel("MI355X", "fp8_block", "sglang", "0.4") == (
        EXPERT_KERNELS[("blackwell", "fp8_block")],
        "blackwell",
    )


def test_an_expert_layers_floor_holds_its_kernels_cost_for_the_inputs_it_walks():
    """SGLang's Triton bf16 experts on a B200 pay their floor and their cost for each input a
    layer's GEMMs walk (gate-up the hidden size, down the expert's width, sliced over eight cards
    under TP, whole under EP); TensorRT-LLM's CUTLASS block-fp8 experts keep their floor alone."""
    from core.evaluate import engine_node
    from core.scenario.knobs import Scenario

    knobs = {"model": "Qwen3-235B-A22B", "gpu": "B200", "cards": 8, "weight_dtype": "bf16",
             "concurrency": 1, "realism": "engine"}  # fmt: skip
    row = ENGINE_EXPERT_KERNELS[("blackwell", "bf16", "sglang")]
    assert row.per_input_s > 0
    tp = engine_node(Scenario(engine="sglang", layout="tp", **knobs))
    ep = engine_node(Scenario(engine="sglang", layout="ep", **knobs))
    assert_allclose(tp.expert_fixed_s, row.fixed_s + row.per_input_s * (4096 + 1536 / 8))
    assert_allclose(ep.expert_fixed_s, row.fixed_s + row.per_input_s * (4096 + 1536))
    fp8 = {**knobs, "model": "DeepSeek-R1", "gpu": "H200", "weight_dtype": "fp8"}
    trt = engine_node(Scenario(engine="tensorrt-llm", layout="tp", **fp8))
    assert EXPERT_KERNELS[("hopper", "fp8_block")].per_input_s == 0.0
    assert trt.expert_fixed_s == EXPERT_KERNELS[("hopper", "fp8_block")].fixed_s


def test_vllm_and_sglang_bf16_experts_on_an_a100_run_the_a100s_own_triton_row():
    """On an A100, vLLM's and SGLang's bf16 experts take the row fitted to the A100's Triton
    fused-MoE table (the family it was measured on, Ampere); TensorRT-LLM there keeps Hopper's
    neutral row, and an H100 keeps its own rows."""
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS, expert_kernel

    for engine in ("vllm", "sglang"):
        kernel, family = expert_kernel("A100 80GB SXM", "bf16", engine)
        assert (kernel, family) == (ENGINE_EXPERT_KERNELS[("ampere", "bf16", engine)], "ampere")
    assert (
        expert_kernel("A100 80GB SXM", "bf16", "tensorrt-llm")[0]
        is EXPERT_KERNELS[("hopper", "bf16")]
    )
    assert (
        expert_kernel("H100 SXM", "bf16", "vllm")[0]
        is ENGINE_EXPERT_KERNELS[("hopper", "bf16", "vllm")]
    )


def test_a_slower_triton_row_makes_an_a100_mixtures_prefill_slower_under_vllm():
    """Qwen3-235B-A22B on eight A100 under vLLM prefills 4,096 tokens more slowly with the
    A100's Triton row (a smaller compute share than the borrowed CUTLASS row's) than under
    TensorRT-LLM's borrowed row, the same cards and layout."""
    from core.engine_level.terms import ALL_TERMS

    knobs = {"model": "Qwen3-235B-A22B", "gpu": "A100 80GB SXM", "cards": 8,
             "weight_dtype": "bf16", "kv_dtype": "bf16"}  # fmt: skip
    vllm = engine_node(Scenario(**knobs, engine="vLLM")).expert_seconds(4096.0, ALL_TERMS)
    trt = engine_node(Scenario(**knobs, engine="TensorRT-LLM")).expert_seconds(4096.0, ALL_TERMS)
    assert vllm > trt


def test_vllms_mxfp4_experts_on_an_a100_run_its_marlin_moe():
    """vLLM's gpt-oss experts on an A100 take the A100's Marlin row (vLLM runs MXFP4 experts
    with Marlin below SM90), multiplied at the bf16 rate; on an H100 they keep Hopper's W4A16
    row, and SGLang on the A100 the borrowed one."""
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS, expert_kernel

    marlin = ENGINE_EXPERT_KERNELS[("ampere", "mxfp4", "vllm")]
    assert expert_kernel("A100 80GB SXM", "mxfp4", "vllm") == (marlin, "ampere")
    assert marlin.compute == "bf16"
    assert expert_kernel("H100 SXM", "mxfp4", "vllm")[0] is EXPERT_KERNELS[("hopper", "mxfp4")]
    assert (
        expert_kernel("A100 80GB SXM", "mxfp4", "sglang")[0] is EXPERT_KERNELS[("hopper", "mxfp4")]
    )
