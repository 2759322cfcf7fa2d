"""The engine level's 2026 physics: expert kernels, layer kinds, checkpoint formats, engines."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import GPUS, MODELS, Scenario, evaluate
from core.catalog import BYTES_PER_WEIGHT, GB, GIB, WEIGHT_FORMATS
from core.catalog.attention_kernels import attention_kernel
from core.catalog.dense_gemms import dense_gemm_cost
from core.catalog.engines import ENGINES
from core.catalog.kernels import (
    BORROWED_FAMILY,
    CARD_FAMILIES,
    EXPERT_KERNELS,
    expert_kernel,
)
from core.engine_level.joining import coalesced
from core.engine_level.kernels import max_running
from core.engine_level.memory import sglang_reserve_bytes
from core.engine_level.terms import ALL_TERMS, chunk_local_mean, kv_replication
from core.evaluate import engine_node, evaluate_terms
from core.evidence.cases_2026 import SECOND
from core.evidence.level_gap import rate_provenance, trust_band

ENGINE_LEVEL = {"realism": "engine", "prefix_hit_rate": 0.0, "seats": 4096}


def engine(**knobs):
    return evaluate(Scenario(**{**ENGINE_LEVEL, **knobs}))


def test_every_card_and_format_has_an_expert_kernel():
    """Each card family, measured or borrowed, prices experts in every weight format."""
    for gpu in [*GPUS, "custom"]:
        for weight in WEIGHT_FORMATS:
            kernel, measured = expert_kernel(gpu, weight)
            assert kernel.fixed_s > 0 and 0 < kernel.bandwidth_share <= 1.0
            assert measured in {family for family, _ in EXPERT_KERNELS}
            assert kernel.source


def test_cards_without_kernel_tables_say_whose_they_borrow():
    """An AMD card's expert kernels are another family's, named as borrowed."""
    _, measured = expert_kernel("MI300X", "bf16")
    assert CARD_FAMILIES["MI300X"] != measured == BORROWED_FAMILY[CARD_FAMILIES["MI300X"]]


def test_a_mixture_at_one_user_pays_the_expert_kernels_floor():
    """gpt-oss-120b at one user is slower per token than its expert weights streamed alone."""
    shape = MODELS["gpt-oss-120b"]
    result = engine(model="gpt-oss-120b", gpu="H100 SXM", cards=1, weight_dtype="mxfp4",
                    concurrency=1, prompt_tokens=1000, answer_tokens=1000)  # fmt: skip
    kernel, _ = expert_kernel("H100 SXM", "mxfp4")
    floors = kernel.fixed_s * round(
        (shape.params - shape.active_params)
        / (shape.experts - shape.experts_per_token)
        / (3 * shape.hidden * shape.intermediate)
    )
    stream = (
        shape.active_params * BYTES_PER_WEIGHT["mxfp4"] / GPUS["H100 SXM"].achieved_hbm_bytes_per_s
    )
    assert result.itl_s > stream + floors


def _attention_gap(knobs, layers, requests):
    """vLLM's decode attention and dense GEMM floors over TensorRT-LLM's on ``knobs``' card and
    cache, ``layers`` deep (four dense GEMMs a layer: query/key/value, output, gate and up, down;
    bf16 weights, each engine's newest release)."""
    cache = "fp8" if Scenario(**knobs).kv_dtype == "fp8" else "bf16"
    vllm, trt = (attention_kernel(knobs["gpu"], cache, name) for name in ("vllm", "tensorrt-llm"))
    gemms = [dense_gemm_cost(knobs["gpu"], "bf16", name) for name in ("vllm", "tensorrt-llm")]
    shape = MODELS[knobs["model"]]  # one card: QKV and gate-up read d, out h d_h, down the width
    inputs = 2 * shape.hidden + shape.query_heads * shape.head_dim + shape.intermediate
    return layers * (
        vllm.floor_s
        - trt.floor_s
        + requests * (vllm.per_request_s - trt.per_request_s)
        + 4 * (gemms[0].floor_s - gemms[1].floor_s)
        + inputs * (gemms[0].per_input_s - gemms[1].per_input_s)
    )


def test_engines_differ_in_a_decode_step_by_their_own_measured_kernels():
    """One user's time between tokens under vLLM and TensorRT-LLM differs by their attention
    kernels and dense GEMM floors."""
    knobs = {"model": "Llama-3-8B", "gpu": "H100 SXM", "concurrency": 1, "prompt_tokens": 1000,
             "answer_tokens": 500}  # fmt: skip
    trt, vllm = engine(**knobs), engine(**knobs, engine="vllm")
    layers = MODELS["Llama-3-8B"].layers
    assert vllm.itl_s != trt.itl_s
    assert_allclose(vllm.itl_s - trt.itl_s, _attention_gap(knobs, layers, 1.0))


def test_a_server_engine_adds_its_dispatch_to_the_first_token():
    """vLLM's first token at one user comes 0.8 ms per layer (and its kernels' costs) after TensorRT-LLM's."""
    knobs = {"model": "Llama-3-8B", "gpu": "H100 SXM", "concurrency": 1, "prompt_tokens": 1000,
             "answer_tokens": 100}  # fmt: skip
    trt, vllm = engine(**knobs), engine(**knobs, engine="vllm")
    layers = MODELS["Llama-3-8B"].layers
    dispatch = layers * ENGINES["vllm"].request_overhead_per_layer_s
    # and the prompt's attention runs in each engine's own measured prompt-attention kernel
    nodes = [engine_node(Scenario(**knobs, engine=name)) for name in ("vllm", "tensorrt-llm")]
    prompt = [node.prompt_attention_s(1000.0, 0.0, node.measured_bf16_flops) for node in nodes]
    expected = dispatch + _attention_gap(knobs, layers, 0.0) + prompt[0] - prompt[1]
    assert_allclose(vllm.ttft_p50_s - trt.ttft_p50_s, expected)


def test_vllms_dispatch_holds_the_cards_so_every_stream_waits_for_it():
    """Under load vLLM's per-request dispatch stretches every stream's time between tokens by
    the share of the time the arriving prompts' dispatches hold the cards, not the first token
    alone (V1 runs a step carrying a prompt past its captured graphs at its host's pace)."""
    knobs = {"model": "Llama-3-8B", "gpu": "H100 SXM", "concurrency": 64, "prompt_tokens": 1000,
             "answer_tokens": 500, "engine": "vllm", "engine_version": "0.10"}  # fmt: skip
    scenario = Scenario(**{**ENGINE_LEVEL, **knobs})
    held = evaluate_terms(scenario, ALL_TERMS)
    apart = evaluate_terms(scenario, ALL_TERMS - {"server_overheads"})
    dispatch = MODELS["Llama-3-8B"].layers * ENGINES["vllm"].request_overhead_per_layer_s
    rate = held.throughput_tokens_per_s / knobs["answer_tokens"]
    share = rate * coalesced(dispatch, rate)
    assert share > 0.1
    assert_allclose(held.itl_s, apart.itl_s / (1.0 - share), rtol=0.01)


def test_prompts_that_arrive_together_share_one_dispatch():
    """A dispatch is shared by the prompts arriving while it runs: 1 + rate x overhead of them."""
    assert coalesced(0.03, 0.0) == 0.03
    assert_allclose(coalesced(0.03, 100.0), 0.03 / 4.0)
    assert coalesced(0.03, 1000.0) < coalesced(0.03, 10.0)


def test_engine_names_are_read_as_people_write_them():
    """'vLLM', 'SGLang' and 'TRT-LLM' name the engines; an unknown engine is refused by name."""
    assert Scenario(engine="vLLM").engine == "vllm"
    assert Scenario(engine="SGLang").engine == "sglang"
    assert Scenario(engine="TRT-LLM").engine == "tensorrt-llm"
    assert (
        evaluate(Scenario(), engine="vLLM").ttft_p50_s
        == evaluate(Scenario(engine="vllm")).ttft_p50_s
    )
    with pytest.raises(ValueError, match="engine"):
        evaluate(Scenario(), engine="ollama")


def test_the_whiteboard_has_no_engine():
    """At the whiteboard level the engine knob changes nothing."""
    assert evaluate(Scenario(engine="sglang")) == evaluate(Scenario())


def test_tensor_parallelism_copies_kv_heads_it_cannot_split():
    """Four KV heads over eight cards are kept twice; latent attention's latent on every card."""
    assert kv_replication(8, 8, False) == 1
    assert kv_replication(4, 8, False) == 2
    assert kv_replication(1, 8, True) == 8
    assert kv_replication(128, 2, True) == 2


def test_latent_attention_under_tensor_parallelism_holds_far_fewer_seats():
    """DeepSeek-R1 on 8 cards grants a seat per 8 copies of its latent cache."""
    knobs = {"model": "DeepSeek-R1", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
             "prompt_tokens": 3200, "answer_tokens": 800}  # fmt: skip
    result = engine(**knobs)
    whiteboard = evaluate(Scenario(**{**knobs, "seats": 4096, "prefix_hit_rate": 0.0}))
    per_seat = whiteboard.kv_bytes_per_token * 4000 * 8
    assert result.seats_granted == np.floor(result.kv_budget_bytes / per_seat + 1e-9)


def test_a_mixed_format_checkpoint_counts_its_bf16_tensors():
    """gpt-oss keeps attention, embeddings and router in bf16: the engine holds those bytes."""
    shape = MODELS["gpt-oss-120b"]
    knobs = {"model": "gpt-oss-120b", "gpu": "H200", "cards": 1, "weight_dtype": "mxfp4",
             "prompt_tokens": 1000, "answer_tokens": 1000}  # fmt: skip
    result = engine(**knobs)
    extra = shape.bf16_params * (BYTES_PER_WEIGHT["bf16"] - BYTES_PER_WEIGHT["mxfp4"])
    whiteboard = evaluate(Scenario(**knobs))
    memory = GPUS["H200"].memory_bytes / GB * GIB
    assert_allclose(result.weight_bytes, whiteboard.weight_bytes + extra)
    assert result.margin_bytes + result.kv_budget_bytes + result.weight_bytes == pytest.approx(
        memory
    )


def test_engines_size_the_cache_by_their_own_rules():
    """vLLM takes 90 % of all memory, TensorRT-LLM 90 % of what is free, SGLang a static share."""
    knobs = {"model": "Llama-3-70B", "gpu": "H100 SXM", "cards": 2, "prompt_tokens": 1000,
             "answer_tokens": 1000}  # fmt: skip
    trt, vllm, sglang = (
        engine(**knobs, engine=name) for name in ("tensorrt-llm", "vllm", "sglang")
    )
    memory = 2 * GPUS["H100 SXM"].memory_bytes / GB * GIB
    assert vllm.kv_budget_bytes < trt.kv_budget_bytes
    reserve = 2 * sglang_reserve_bytes(GPUS["H100 SXM"].memory_bytes, 2)
    assert_allclose(sglang.kv_budget_bytes, memory - reserve - sglang.weight_bytes)


def test_sglang_reserve_follows_its_documented_example():
    """SGLang's static fraction on one H100 is 1 - 13,440 / 81,559 MB, as its rule gives."""
    reserve = sglang_reserve_bytes(80e9, 1) / 2**20
    assert_allclose(reserve, 512 + 1.5 * 8192 + 2 * 256 + 1024 / 8)


def test_engines_cap_the_running_batch_by_card():
    """vLLM runs 1,024 requests on a 70 GiB card, 256 on smaller cards and on A100s."""
    for gpu, cap in (("H100 SXM", 1024), ("L40S", 256), ("A100 80GB SXM", 256)):
        assert max_running(gpu, "vllm", GPUS[gpu].memory_bytes) == cap
    assert max_running("L40S", "tensorrt-llm", GPUS["L40S"].memory_bytes) == 2048


def test_chunked_attention_sees_only_its_chunk():
    """The mean chunk-local context over an answer matches a count position by position."""
    for prompt, answer, chunk in ((8192, 1024, 8192), (500, 500, 8192), (7000, 3000, 4096)):
        positions = np.arange(prompt, prompt + answer)
        assert_allclose(
            chunk_local_mean(prompt, answer, chunk), np.mod(positions + 0.5, chunk).mean(),
            rtol=2e-3,
        )  # fmt: skip


def test_chunked_attention_reads_less_than_a_sliding_window_would():
    """Llama 4's decode past its first chunk reads less cache than its held cache implies."""
    knobs = {"model": "Llama-4-Maverick", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
             "kv_dtype": "fp8", "prompt_tokens": 8192, "answer_tokens": 1024, "concurrency": 64}  # fmt: skip
    chunked = engine(**knobs)
    assert chunked.itl_s < engine(**{**knobs, "prompt_tokens": 8192 + 4096}).itl_s


@pytest.mark.parametrize("gpu", ["H100 SXM", "B200", "MI300X"])
def test_every_mixture_evaluates_finite_on_every_engine(gpu):
    """Every catalog mixture evaluates to finite figures on each engine and card."""
    for name, shape in MODELS.items():
        if shape.experts <= 1:
            continue
        for engine_name in ENGINES:
            result = engine(model=name, gpu=gpu, weight_dtype="fp8", concurrency=16,
                            engine=engine_name, prompt_tokens=1000, answer_tokens=500)  # fmt: skip
            for field in ("itl_s", "ttft_p50_s", "throughput_tokens_per_s", "decode_step_s"):
                value = float(getattr(result, field))
                assert np.isfinite(value) and value >= 0, (name, engine_name, field)


def test_the_trust_band_is_read_from_the_scenarios_family():
    """A dense model on an H100 and a mixture on an H100 get their own families' bands."""
    dense = trust_band(Scenario())
    mixture = trust_band(Scenario(model="gpt-oss-120b"))
    assert dense.family == "dense models on NVIDIA cards"
    assert mixture.family.startswith("mixtures of experts")
    assert dense.low < 1.0 < dense.high and dense.cases >= 5
    assert (dense.low, dense.high, dense.cases) != (mixture.low, mixture.high, mixture.cases)


def test_borrowed_rates_are_named():
    """The MI300X's rates are measured on it (its fp8 by AMD's MAF table) but it borrows Hopper's
    kernel tables; the H100's are its own; the B200 borrows its bandwidth and fp4 rate."""
    own, amd = rate_provenance(Scenario()), rate_provenance(Scenario(gpu="MI300X"))
    assert not own.rates_borrowed and not own.kernels_borrowed
    assert not amd.rates_borrowed and amd.kernels_borrowed and amd.kernels_from == "hopper"
    assert rate_provenance(Scenario(gpu="B200")).borrowed_rates == "bandwidth and fp4 matmul"


def test_an_amd_card_under_sglang_prices_its_experts_from_its_own_tables():
    """SGLang's block-fp8 experts on an MI325X are AITER's measured there, so the note names no
    borrowed kernel tables; vLLM's are its Triton kernel's, measured on the MI300X, but on an
    MI355X Blackwell's. Its rates are measured: bf16 (MAMF), fp8 (AMD's MAF) and bandwidth (a
    stream benchmark's read kernel, SC '25)."""
    knobs = {"model": "DeepSeek-R1", "gpu": "MI325X", "cards": 8, "weight_dtype": "fp8"}
    sglang = rate_provenance(Scenario(**knobs, engine="sglang"))
    assert sglang.kernels_from == "cdna3" and not sglang.kernels_borrowed
    vllm = rate_provenance(Scenario(**knobs, engine="vllm"))
    assert vllm.kernels_from == "cdna3" and not vllm.kernels_borrowed
    newer = rate_provenance(Scenario(**{**knobs, "gpu": "MI355X"}, engine="vllm"))
    assert newer.kernels_from == "blackwell" and newer.kernels_borrowed
    assert not sglang.rates_borrowed
    atom = rate_provenance(Scenario(**knobs, engine="vllm", engine_version="0.17-atom"))
    assert atom.kernels_from == "cdna3" and not atom.kernels_borrowed  # AITER's, via ATOM


def test_the_engine_note_carries_the_band_and_the_borrowed_rates():
    """The pool lab's engine note shows its family's band, the first token's, and on an MI300X
    what it borrows."""
    from labs.pool import PoolLab

    lab = PoolLab(scenario=Scenario(gpu="MI300X", realism="engine"))
    text = lab.engine_note.__panel__().object
    assert "data-trust-band" in text and "published cases of dense models" in text
    assert "data-first-token-band" in text and "published first tokens" in text
    assert "data-borrowed-rates" in text
    assert "Not measured on the MI300X: its expert kernels are priced from" in text


def test_routing_imbalance_spares_dense_models_and_grows_with_expert_parallelism():
    """A dense model pays no routing imbalance; a mixture pays more over more expert cards."""
    from core.catalog.routing_imbalance import ROUTING_IMBALANCE_FLOOR
    from core.engine_level.terms import routing_imbalance

    assert_allclose(routing_imbalance(1, 8), 1.0)
    assert_allclose(routing_imbalance(128, 1), 1.0 + ROUTING_IMBALANCE_FLOOR)
    by_ranks = routing_imbalance(128, np.array([1, 2, 4, 8]))
    assert np.all(np.diff(by_ranks) > 0)
    # the same cards holding more experts each average the hot ones out
    assert routing_imbalance(256, 8) < routing_imbalance(128, 8) < routing_imbalance(8, 8)


def test_expert_parallel_layouts_pay_the_imbalance_on_a_loaded_mixture():
    """Spreading experts over the cards (EP) slows a loaded mixture's steps more than TP does."""
    from core.evidence.fidelity import with_terms

    case = next(case for case in SECOND if case.key == "D04")
    on = with_terms([case], ALL_TERMS)[0]
    off = with_terms([case], ALL_TERMS - {"routing_imbalance"})[0]
    assert on < off


def test_cards_on_pcie_all_reduce_at_the_share_pcie_systems_reach():
    """L40S all-reduces run at PCIe's measured share, lower on 8 cards than on 4; NVLink's stays."""
    from core.catalog import GPUS as CARDS
    from core.catalog import NVLINK_PROTOCOL_EFFICIENCY
    from core.engine_level.terms import link_share

    assert CARDS["L40S"].link_over_pcie and not CARDS["H100 SXM"].link_over_pcie
    assert link_share(8, True) < link_share(4, True) < NVLINK_PROTOCOL_EFFICIENCY
    assert link_share(8, False) == NVLINK_PROTOCOL_EFFICIENCY
    four, eight = (engine(model="Llama-3-70B", gpu="L40S", cards=n, weight_dtype="fp8",
                          concurrency=100_000) for n in (4, 8))  # fmt: skip
    # over PCIe the eighth card adds less than it adds over NVLink
    nv4, nv8 = (engine(model="Llama-3-70B", gpu="H100 SXM", cards=n, weight_dtype="fp8",
                       concurrency=100_000) for n in (4, 8))  # fmt: skip
    pcie_gain = float(eight.throughput_tokens_per_s / four.throughput_tokens_per_s)
    assert pcie_gain < float(nv8.throughput_tokens_per_s / nv4.throughput_tokens_per_s)


def test_amd_cards_all_reduce_at_the_share_rccl_reaches_over_infinity_fabric():
    """An AMD card's all-reduce runs at RCCL's measured share of its Infinity Fabric (the
    MI355X's own), below NVLink's; the same node with NVLink's share would read faster at a
    large batch."""
    from dataclasses import replace

    from core.catalog import GPUS as CARDS
    from core.catalog import NVLINK_PROTOCOL_EFFICIENCY
    from core.catalog.cards import INFINITY_FABRIC_ALLREDUCE_SHARE, MI355X_ALLREDUCE_SHARE
    from core.engine_level.terms import link_share

    for name in ("MI300X", "MI325X"):
        assert CARDS[name].link_collective_share == INFINITY_FABRIC_ALLREDUCE_SHARE
    assert CARDS["MI355X"].link_collective_share == MI355X_ALLREDUCE_SHARE
    assert CARDS["H100 SXM"].link_collective_share == NVLINK_PROTOCOL_EFFICIENCY
    assert max(INFINITY_FABRIC_ALLREDUCE_SHARE, MI355X_ALLREDUCE_SHARE) < NVLINK_PROTOCOL_EFFICIENCY
    assert link_share(8, False, INFINITY_FABRIC_ALLREDUCE_SHARE) == INFINITY_FABRIC_ALLREDUCE_SHARE
    knobs = {"model": "Llama-3-70B", "gpu": "MI300X", "cards": 8, "weight_dtype": "fp8",
             "concurrency": 100_000}  # fmt: skip
    measured = engine(**knobs)
    nvlink_card = replace(CARDS["MI300X"], link_collective_share=NVLINK_PROTOCOL_EFFICIENCY)
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(CARDS, "MI300X", nvlink_card)
        as_nvlink = engine(**knobs)
    assert measured.throughput_tokens_per_s < as_nvlink.throughput_tokens_per_s


def test_tensorrt_llm_stores_sliding_window_layers_whole():
    """TensorRT-LLM's cache keeps every token of gpt-oss's windowed layers; vLLM keeps the window."""

    def per_seat(**knobs):
        result = engine(prompt_tokens=1024, answer_tokens=8192, concurrency=100_000, **knobs)
        return float(result.kv_budget_bytes / result.seats_room)

    oss = dict(model="gpt-oss-20b", gpu="H100 SXM", weight_dtype="mxfp4")
    # half of gpt-oss's layers keep 128 tokens: stored whole, a seat costs about twice as much
    assert per_seat(**oss) > 1.5 * per_seat(**oss, engine="vllm")
    # a model without windows costs the same per seat in either engine
    llama = dict(model="Llama-3-8B", gpu="H100 SXM", weight_dtype="bf16")
    assert_allclose(per_seat(**llama), per_seat(**llama, engine="vllm"), rtol=0.02)
