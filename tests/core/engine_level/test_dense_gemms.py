"""The dense layers' GEMM floors at decode size, by card, format and engine (issue 37, item 2)."""

from __future__ import annotations

import dataclasses

from numpy.testing import assert_allclose

from core.catalog import KERNEL_FLOOR_S
from core.catalog.dense_gemms import (
    DENSE_GEMM_FLOORS,
    ENGINE_DENSE_GEMM_FLOORS,
    RELEASE_DENSE_GEMM_FLOORS,
    TRITON_DEFAULT_TILE_TIMES_S,
    UNMEASURED,
    dense_gemm_cost,
    dense_gemm_floor,
)
from core.engine_level.terms import ALL_TERMS, attention_gemms, dense_gemms
from core.evaluate import evaluate
from core.scenario.knobs import Scenario
from tests.core.engine_level.test_engine_versions import _tiny_node


def test_an_fp8_gemm_pays_more_than_a_bf16_one_before_its_weights():
    """On every measured family, engine and release, fp8's floor (quantise, then scale) exceeds
    bf16's; TensorRT-LLM's by more than twice."""
    for family in ("hopper", "blackwell"):
        fp8, bf16 = DENSE_GEMM_FLOORS[(family, "fp8")], DENSE_GEMM_FLOORS[(family, "bf16")]
        assert fp8.floor_s > 2 * bf16.floor_s
    own = ENGINE_DENSE_GEMM_FLOORS
    assert own[("hopper", "fp8", "sglang")].floor_s > own[("hopper", "bf16", "sglang")].floor_s
    rows = RELEASE_DENSE_GEMM_FLOORS
    for (family, kind, engine, release), floor in rows.items():
        if kind == "fp8":
            assert floor.floor_s > rows[(family, "bf16", engine, release)].floor_s


def test_an_engine_uses_its_own_floor_and_a_borrowed_family_the_neutral_one():
    """vLLM's fp8 on an H100 is its own; an MI300X borrows TensorRT-LLM's Hopper floor."""
    assert (
        dense_gemm_cost("H100 SXM", "fp8", "vllm")
        == RELEASE_DENSE_GEMM_FLOORS[("hopper", "fp8", "vllm", "0.19.0")]
    )
    assert dense_gemm_cost("MI300X", "fp8", "vllm") == DENSE_GEMM_FLOORS[("hopper", "fp8")]
    assert dense_gemm_cost("B200", "int4", "vllm") == UNMEASURED
    assert dense_gemm_floor("B200", "int4", "vllm") == KERNEL_FLOOR_S


def test_hopper_int4_pays_tensorrt_llms_weight_only_gemm_measured_on_an_h200():
    """Every Hopper card's int4 GEMMs, in every engine, pay TensorRT-LLM's weight-only int4 floor
    measured on the H200, above the bf16 floor and cited to that table."""
    from core.evidence.engine_sources import dense_gemm_rows

    int4 = DENSE_GEMM_FLOORS[("hopper", "int4")]
    for gpu in ("H100 SXM", "H200", "H20"):
        for engine in ("tensorrt-llm", "vllm", "sglang"):
            assert dense_gemm_cost(gpu, "int4", engine) == int4
    assert int4.floor_s > DENSE_GEMM_FLOORS[("hopper", "bf16")].floor_s
    rows = {row.constant: row for row in dense_gemm_rows()}
    assert "h200_sxm" in rows["dense GEMM floor, hopper int4"].source


def test_sglang_on_amd_cards_pays_aiters_block_fp8_floor_measured_there():
    """SGLang's block-fp8 GEMMs on MI300-class and MI355X cards pay AITER's floors (its 0.5 line,
    before Triton's), cited to AITER on the Sources page; vLLM there keeps the borrowed Hopper
    floor."""
    from core.evidence.engine_sources import dense_gemm_rows

    for gpu, family in (("MI300X", "cdna3"), ("MI325X", "cdna3"), ("MI355X", "cdna4")):
        own = ENGINE_DENSE_GEMM_FLOORS[(family, "fp8_block", "aiter")]
        assert dense_gemm_cost(gpu, "fp8_block", "sglang", "0.5") == own
        assert dense_gemm_cost(gpu, "fp8_block", "vllm") != own
    rows = {row.constant: row for row in dense_gemm_rows()}
    assert "ROCm/aiter" in rows["dense GEMM floor, cdna3 fp8_block, aiter"].source
    assert "aiconfigurator" in rows["dense GEMM floor, hopper fp8_block, sglang"].source


def test_sglang_056_and_on_walk_the_default_triton_tile_on_cdna3_only():
    """SGLang 0.5.6-0.5.9's block-fp8 GEMMs on MI300-class cards, and 0.5.10's of a shape it
    holds no tile for, pay AITER's Triton default tile (a cost an input one workgroup's walk
    takes, from AITER's timed rows), cited on the Sources page; the same releases on an MI355X
    or an H100, and the 0.5 line on an MI300X, keep their line's rows."""
    from core.evidence.engine_sources import dense_gemm_rows

    triton = ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter-triton")]
    times = list(TRITON_DEFAULT_TILE_TIMES_S.values())
    assert_allclose(triton.per_input_s, sum(times) / len(times) / 7168)
    for gpu in ("MI300X", "MI325X"):
        for release in ("0.5.6", "0.5.10"):
            assert dense_gemm_cost(gpu, "fp8_block", "sglang", release) == triton
        assert (
            dense_gemm_cost(gpu, "fp8_block", "sglang", "0.5")
            == ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter")]
        )
    for gpu in ("MI355X", "H100 SXM", "B200"):
        assert dense_gemm_cost(gpu, "fp8_block", "sglang", "0.5.6") == dense_gemm_cost(
            gpu, "fp8_block", "sglang", "0.5"
        )
    rows = {row.constant: row for row in dense_gemm_rows()}
    assert "PR #1232" in rows["dense GEMM floor, cdna3 fp8_block, aiter-triton"].source


def test_a_patch_release_prices_nvidia_cards_as_its_line():
    """SGLang's patch releases change nothing off AMD cards: DeepSeek-R1 on eight B200 and
    Llama on eight H100 decode and prefill alike under 0.5, 0.5.6 and 0.5.10."""
    for knobs in (dict(model="DeepSeek-R1", gpu="B200", weight_dtype="fp8"),
                  dict(model="Llama-3-70B", gpu="H100 SXM")):  # fmt: skip
        common = dict(cards=8, engine="sglang", realism="engine", concurrency=16)
        found = [evaluate(Scenario(**knobs, **common, engine_version=release))
                 for release in ("0.5", "0.5.6", "0.5.10")]  # fmt: skip
        for result in found[1:]:
            assert float(result.itl_s) == float(found[0].itl_s)
            assert float(result.ttft_p50_s) == float(found[0].ttft_p50_s)


def test_an_a100_pays_the_floors_measured_on_an_a100():
    """On both A100s vLLM's and SGLang's bf16 GEMMs pay their own floors measured there, every
    other engine TensorRT-LLM's A100 floor, all above their Hopper ones; int4 pays TensorRT-LLM's
    weight-only GEMM measured there (no Marlin table), fp8 the borrowed Hopper floor; each row
    is cited to the A100 tables."""
    from core.evidence.engine_sources import dense_gemm_rows

    rows = {row.constant: row for row in dense_gemm_rows()}
    neutral = DENSE_GEMM_FLOORS[("ampere", "bf16")]
    for engine in ("tensorrt-llm", "vllm", "sglang"):
        own = ENGINE_DENSE_GEMM_FLOORS.get(("ampere", "bf16", engine), neutral)
        for gpu in ("A100 80GB SXM", "A100 40GB SXM"):
            assert dense_gemm_cost(gpu, "bf16", engine) == own
            assert dense_gemm_cost(gpu, "int4", engine) == DENSE_GEMM_FLOORS[("ampere", "int4")]
        assert own.floor_s > dense_gemm_floor("H100 SXM", "bf16", engine)
    for name in ("ampere bf16", "ampere bf16, vllm", "ampere bf16, sglang", "ampere int4"):
        assert "a100_sxm" in rows[f"dense GEMM floor, {name}"].source
    assert dense_gemm_cost("A100 80GB SXM", "fp8", "vllm") == DENSE_GEMM_FLOORS[("hopper", "fp8")]


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


def test_nvidias_nvfp4_deepseek_keeps_attention_head_embeddings_and_router_in_bf16():
    """DeepSeek-R1 in nvfp4 keeps the recipe's bf16 tensors (61 latent-attention layers, the
    embeddings and head, 58 routers); its own fp8 checkpoint and other formats keep none."""
    from core.catalog import MODELS
    from core.catalog.checkpoints import kept_bf16_params

    shape = MODELS["DeepSeek-R1"]
    attention = 7168 * 1536 + 1536 * 128 * 192 + 7168 * 576 + 512 * 128 * 256 + 16384 * 7168
    kept = 61 * attention + 2 * 129280 * 7168 + 58 * 256 * 7168
    assert_allclose(kept_bf16_params(shape, "nvfp4"), kept)
    assert kept_bf16_params(shape, "fp8") == kept_bf16_params(shape, "bf16") == 0.0
    oss = MODELS["gpt-oss-120b"]
    assert kept_bf16_params(oss, "nvfp4") == kept_bf16_params(oss, "mxfp4") == oss.bf16_params


def test_attention_projections_pay_their_own_floor_the_other_gemms_theirs():
    """A node whose attention projections have their own floor pays it on 2 L (3 L with latent
    attention) GEMMs and the dense floor on the rest."""
    node = dataclasses.replace(_tiny_node(), gemm_floor_s=KERNEL_FLOOR_S + 10e-6)
    split = dataclasses.replace(node, attention_gemm_floor_s=KERNEL_FLOOR_S + 1e-6)
    saved = node.fixed_seconds(ALL_TERMS) - split.fixed_seconds(ALL_TERMS)
    assert_allclose(saved, attention_gemms(node.layers, False) * 9e-6)
    assert attention_gemms(61, True) == 183 and attention_gemms(32, False) == 64


def test_deepseek_in_nvfp4_holds_bf16_attention_and_pays_bf16_floors_for_it():
    """DeepSeek-R1 nvfp4 on eight B200: the weights grow by the kept tensors' extra bytes, the
    attention projections pay Blackwell's bf16 floor and the other dense GEMMs nvfp4's."""
    from core.catalog import MODELS
    from core.catalog.checkpoints import kept_bf16_params
    from core.evaluate import engine_node

    knobs = {"model": "DeepSeek-R1", "gpu": "B200", "cards": 8, "weight_dtype": "nvfp4",
             "kv_dtype": "fp8", "concurrency": 1, "engine": "tensorrt-llm", "realism": "engine"}  # fmt: skip
    node = engine_node(Scenario(**knobs))
    kept = kept_bf16_params(MODELS["DeepSeek-R1"], "nvfp4")
    fp4 = (4 + 8 / 16) / 8
    assert_allclose(node.bf16_extra_bytes, kept * (2 - fp4))
    assert_allclose(evaluate(Scenario(**knobs)).weight_bytes, 671e9 * fp4 + kept * (2 - fp4))
    assert_allclose(node.gemm_floor_s, DENSE_GEMM_FLOORS[("blackwell", "nvfp4")].floor_s)
    assert_allclose(node.attention_gemm_floor_s, DENSE_GEMM_FLOORS[("blackwell", "bf16")].floor_s)
    assert_allclose(node.gemm_input_cost_s, DENSE_GEMM_FLOORS[("blackwell", "nvfp4")].per_input_s)
    assert_allclose(
        node.attention_gemm_input_cost_s, DENSE_GEMM_FLOORS[("blackwell", "bf16")].per_input_s
    )
    fp8 = engine_node(Scenario(**{**knobs, "weight_dtype": "fp8"}))
    shape = MODELS["DeepSeek-R1"]  # its own fp8 checkpoint keeps embeddings and head in bf16
    assert_allclose(fp8.bf16_extra_bytes, 2 * shape.vocab * shape.hidden * (2 - 1))
    assert fp8.attention_gemm_floor_s == fp8.gemm_floor_s


def test_each_release_pays_the_floors_of_the_release_measured_nearest_before_it():
    """Where an engine was measured at several releases, a release line takes the table of the
    release measured nearest at or before its first release, else the earliest: vLLM 0.19 its
    0.19.0 table, older vLLM lines 0.14.0's, every TensorRT-LLM line 1.2.0rc5's (also every
    engine's without its own), SGLang's 0.5 line on a B200 0.5.9's; a release named in full
    takes its own. vLLM's block-scaled fp8 layer on Hopper pays several times TensorRT-LLM's
    floor. Each row is on the Sources page, cited to its table."""
    from core.evidence.engine_sources import dense_gemm_rows

    rows = RELEASE_DENSE_GEMM_FLOORS
    expected = (
        ("H100 SXM", "vllm", "0.6", "0.14.0"), ("H200", "vllm", "0.10", "0.14.0"),
        ("H100 SXM", "vllm", "0.14", "0.14.0"), ("H20", "vllm", "0.19", "0.19.0"),
        ("H100 SXM", "vllm", None, "0.19.0"), ("H100 SXM", "vllm", "0.24.0", "0.24.0"),
        ("H100 SXM", "tensorrt-llm", "0.17", "1.2.0rc5"),
        ("B200", "tensorrt-llm", "1.0", "1.2.0rc5"), ("B200", "sglang", "0.5", "0.5.9"),
        ("B200", "sglang", "0.5.14", "0.5.14"), ("B200", "vllm", "0.19", "0.19.0"),
    )  # fmt: skip
    for gpu, engine, line, release in expected:
        family = "blackwell" if gpu == "B200" else "hopper"
        for kind in ("bf16", "fp8"):
            assert dense_gemm_cost(gpu, kind, engine, line) == rows[(family, kind, engine, release)]
    for family in ("hopper", "blackwell"):
        for kind in ("bf16", "fp8", "fp8_block"):
            trt = rows[(family, kind, "tensorrt-llm", "1.2.0rc5")]
            assert DENSE_GEMM_FLOORS[(family, kind)] == trt
    assert (
        rows[("hopper", "fp8_block", "vllm", "0.14.0")].floor_s
        > 3 * DENSE_GEMM_FLOORS[("hopper", "fp8_block")].floor_s
    )
    assert (
        dense_gemm_cost("H100 SXM", "fp8", "sglang", "0.5")
        == ENGINE_DENSE_GEMM_FLOORS[("hopper", "fp8", "sglang")]
    )
    assert dense_gemm_cost("L40S", "fp8", "vllm", "0.19") == DENSE_GEMM_FLOORS[("hopper", "fp8")]
    sources = {row.constant: row.source for row in dense_gemm_rows()}
    for name in ("hopper fp8_block, vllm 0.14.0", "blackwell fp8, sglang 0.5.9"):
        assert "@4fabb773" in sources[f"dense GEMM floor, {name}"]


def test_a_gemm_pays_for_each_input_its_kernel_walks():
    """A step's fixed time grows by the cost per input times every input its dense GEMMs walk:
    a layer's QKV and gate-up read the hidden state, out the heads, down the MLP's width."""
    node = _tiny_node()
    walked = dataclasses.replace(node, gemm_input_cost_s=1e-9)
    extra = walked.fixed_seconds(ALL_TERMS) - node.fixed_seconds(ALL_TERMS)
    per_layer = 2 * node.hidden + node.query_heads * node.head_dim + node.intermediate
    assert_allclose(extra, node.layers * per_layer * 1e-9)
    split = dataclasses.replace(walked, attention_gemm_input_cost_s=0.0)
    attention = node.layers * (node.hidden + node.query_heads * node.head_dim)
    assert_allclose(walked.fixed_seconds(ALL_TERMS) - split.fixed_seconds(ALL_TERMS),
                    attention * 1e-9)  # fmt: skip


def test_deepseeks_gemms_walk_its_hidden_state_query_rank_and_slices():
    """DeepSeek-R1 on eight cards: fused q_a/kv_a and gate-up read 7,168 inputs, q_b the query's
    1,536-wide rank, o_proj its 16 heads of 128, a shared expert's down its 256-wide slice; a
    shared expert fused into the routed kernel walks nothing of its own."""
    from types import SimpleNamespace

    from core.engine_level.gemm_shapes import gemm_inputs

    deepseek = SimpleNamespace(data_parallel_attention=False, cards=8, hidden=7168,
                               query_heads=128, head_dim=128, intermediate=2048, experts=256,
                               shared_experts=1)  # fmt: skip
    attention, mlps = gemm_inputs(deepseek, (61, 58, True, 1))
    assert_allclose(attention, 61 * (7168 + 1536 + 128 * 128 / 8))
    assert_allclose(mlps, 3 * (7168 + 2048 / 8) + 58 * (7168 + 2048 / 8))
    _, fused = gemm_inputs(deepseek, (61, 58, True, 0))
    assert_allclose(fused, 3 * (7168 + 2048 / 8))


def test_quantised_kernels_pay_more_per_input_than_bf16_ones():
    """Block-scaled fp8 and fp4 kernels rescale each block of inputs: TensorRT-LLM's pay five
    times or more bf16's cost per input, and AITER's block-fp8 GEMMs on AMD cards pay one."""
    for family, kind in (("hopper", "fp8_block"), ("blackwell", "fp8_block"),
                         ("blackwell", "nvfp4")):  # fmt: skip
        quantised = DENSE_GEMM_FLOORS[(family, kind)].per_input_s
        assert quantised > 5 * DENSE_GEMM_FLOORS[(family, "bf16")].per_input_s
    for family in ("cdna3", "cdna4"):
        assert ENGINE_DENSE_GEMM_FLOORS[(family, "fp8_block", "aiter")].per_input_s > 0.5e-9


def test_a_measured_latent_block_holds_its_projections_cost_per_input():
    """Where the engine's whole latent-attention block was measured (vLLM on Hopper), what its
    projections pay per input is inside the block's floor: changing it moves nothing."""
    from core.evaluate import engine_node

    knobs = {"model": "DeepSeek-R1", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
             "concurrency": 1, "engine": "vllm", "realism": "engine"}  # fmt: skip
    node = engine_node(Scenario(**knobs))
    assert node.latent_block_floor_s > 0
    cheaper = dataclasses.replace(node, attention_gemm_input_cost_s=0.0)
    assert_allclose(cheaper.fixed_seconds(ALL_TERMS), node.fixed_seconds(ALL_TERMS))
    assert float(node.attention_gemm_input_cost_s) > 0  # there was a cost to hold


def test_sglang_0510_prices_the_shapes_its_aiter_tuned_with_the_tuned_rows():
    """SGLang 0.5.10 on an MI300-class card prices DeepSeek's three TP8 attention GEMMs (AITER's
    tuned gfx942 tiles) with AITER's tuned row; a mix of a tuned and an untuned shape takes the
    tuned row's floor for half the GEMMs and its cost per input for the tuned one's inputs; 0.5.6,
    which pins no tuned tile, walks the default tile for all."""
    tuned = ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter")]
    triton = ENGINE_DENSE_GEMM_FLOORS[("cdna3", "fp8_block", "aiter-triton")]
    attention = ((2112, 7168), (3072, 1536), (7168, 2048))
    assert dense_gemm_cost("MI325X", "fp8_block", "sglang", "0.5.10", attention) == tuned
    assert dense_gemm_cost("MI325X", "fp8_block", "sglang", "0.5.6", attention) == triton
    mixed = dense_gemm_cost("MI300X", "fp8_block", "sglang", "0.5.10", ((2112, 7168), (512, 7168)))
    assert_allclose(mixed.floor_s, (tuned.floor_s + triton.floor_s) / 2)
    assert_allclose(mixed.per_input_s, (tuned.per_input_s + triton.per_input_s) / 2)
    assert dense_gemm_cost("MI355X", "fp8_block", "sglang", "0.5.10", attention) == (
        dense_gemm_cost("MI355X", "fp8_block", "sglang", "0.5")
    )


def test_sglang_block_fp8_on_blackwell_is_the_table_collected_without_the_scale_packing():
    """Every SGLang release's block-fp8 GEMM on a B200 pays the corrected table's floor (5.7 µs,
    not the 16.5-23.1 µs of the tables that timed the weights' scale packing in every call),
    cited to the aiconfigurator commit that collected it again; its bf16 and fp8 keep their
    releases' own."""
    from core.evidence.engine_sources import dense_gemm_rows

    corrected = RELEASE_DENSE_GEMM_FLOORS[("blackwell", "fp8_block", "sglang", "0.5.14")]
    assert_allclose(corrected.floor_s, 5.7e-6)
    assert ("blackwell", "fp8_block", "sglang", "0.5.9") not in RELEASE_DENSE_GEMM_FLOORS
    for release in ("0.4", "0.5", "0.5.6", "0.5.10", None):
        assert dense_gemm_cost("B200", "fp8_block", "sglang", release) == corrected
    assert (
        dense_gemm_cost("B200", "bf16", "sglang", "0.5")
        == (RELEASE_DENSE_GEMM_FLOORS[("blackwell", "bf16", "sglang", "0.5.9")])
    )
    rows = {row.constant: row for row in dense_gemm_rows()}
    source = rows["dense GEMM floor, blackwell fp8_block, sglang 0.5.14"].source
    assert "1c99f788f" in source and "packing" in source
