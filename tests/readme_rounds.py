"""The figures each issue-37 round's README paragraph quotes, as the code gives them today.

`tests/test_readme_figures.py` reads the README and checks each against these.
"""

from __future__ import annotations

import re
from dataclasses import replace
from functools import cache

import numpy as np

from bench.aiter_attention_fit import CHART_TFLOPS, without_aiter_prompt
from bench.aiter_moe_fit import gpt_oss_long_steps
from bench.corrected_tables import EARLIER_BLACKWELL_ROWS
from bench.corrected_tables import figures as corrected_table_figures
from bench.cublas_tiles import (
    BORROWED_H20_FP8_FLOPS,
    fp8_figures,
    fp8_tile_ms,
    head_tile_and_stream_ms,
    share_figures,
    share_tile_ms,
    step_splits,
    tile_and_stream_ms,
)
from bench.cublas_tiles import figures as cublas_tile_figures
from bench.cublas_tiles import head_figures as cublas_head_figures
from bench.first_token_checks import borrowed_sglang_path, deepseek_launch_s
from bench.fused_quant import llama_step_spared_s, moved, scored_figures, unfused_input_quant
from bench.gpustack_bursts import A100_MARLIN, marlin_figures
from bench.h20_batch_one import (
    dense_one_token_rows,
    is_mixture,
    measured_and_priced,
    skinny_gemm_rates,
    weight_format,
)
from bench.outside_allocator import figures as outside_allocator_figures
from bench.outside_allocator import inside_allocator_only
from bench.prompt_dispatch import figures as prompt_dispatch_figures
from bench.prompt_dispatch import prompt_peak_shares
from bench.riding_prompts import SHOWN, first_token_table
from bench.riding_prompts import figures as riding_figures
from bench.rounds import as_round, before_riding_prompts
from bench.sc25_first_token import priced as first_token_priced
from bench.sc25_first_token import split as first_token_split
from bench.scheduler_polls import figures as scheduler_poll_figures
from bench.scheduler_polls import row_ratios
from bench.triton_gemm_tiles import PR_1930_SHAPE, pr_1930_check
from bench.triton_gemm_tiles import figures as triton_tile_figures
from bench.triton_kernels import ALL_LAYOUT_INT4, ALL_LAYOUT_ROWS, before_the_round
from bench.triton_kernels import figures as round_figures
from core import Scenario, evaluate
from core.catalog import (
    BYTES_PER_WEIGHT,
    GIB,
    GPUS,
    KERNEL_FLOOR_S,
    MODELS,
    NVLINK_PROTOCOL_EFFICIENCY,
    OUTSIDE_ALLOCATOR_BYTES_ONE_CARD,
    OUTSIDE_ALLOCATOR_BYTES_SHARDED,
)
from core.catalog.attention_kernels import (
    AITER_PREFILL_ATTENTION,
    LATENT_BLOCKS,
    LATENT_PREFILL_ATTENTION,
    PREFILL_ATTENTION,
    PREFILL_HEAD_SIZE_SHARES,
    SINK_PREFILL,
    attention_kernel,
)
from core.catalog.cards import H20_SMS, H100_MEASURED_SHARES, HOPPER_SMS, HOPPER_STREAM_PER_SM
from core.catalog.checkpoints import kept_embedding_params
from core.catalog.collective_tables import (
    allreduce_seconds,
    allreduce_table_index,
    collective_seconds,
    gather_table_index,
)
from core.catalog.dense_gemms import (
    DENSE_GEMM_FLOORS,
    ENGINE_DENSE_GEMM_FLOORS,
    RELEASE_DENSE_GEMM_FLOORS,
    STATIC_QUANT_S,
    TRITON_DEFAULT_TILE_INPUT_S,
    TRITON_DEFAULT_TILE_OUTPUTS,
    TRITON_DEFAULT_TILE_TIMES_S,
    dense_gemm_cost,
    dense_gemm_floor,
)
from core.catalog.eager_dispatch import (
    PIECEWISE_PAIR_GRAPHED_LAUNCHES,
    PIECEWISE_PAIR_LAYERS,
    PIECEWISE_PAIR_PRICED_PREFILL_S,
    SGLANG_EAGER_LAUNCH_S,
    SGLANG_SERVER_PATH_S,
)
from core.catalog.engine_versions import engine_version
from core.catalog.gemm_tiles import (
    GEMM_TILE_ROWS,
    GEMM_TILE_SHARES,
    MMA_SYNC_SHARE_ON_HOPPER,
    gemm_tile_rows,
)
from core.catalog.h20_tables import H20_FP8_FLOPS, deepgemm_tile_flops, skinny_tile_rates
from core.catalog.host_costs import VLLM_V0_HOST_PER_REQUEST_S, VLLM_V1_HOST_PER_REQUEST_S
from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS
from core.catalog.layer_kernels import (
    BLOCK_FP8_LATENT_ATTENTION_INPUTS,
    LATENT_ATTENTION_GEMMS,
    LATENT_ATTENTION_KERNELS,
)
from core.engine_level.terms import TERMS
from core.evaluate import engine_node
from core.evidence.cases import DEVELOPMENT
from core.evidence.cases_atom_dashboard import ATOM_DASHBOARD, ATOM_DASHBOARD_FIRST_TOKENS
from core.evidence.cases_azure import AZURE
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS
from core.evidence.cases_inferencex_b200 import INFERENCEX_B200
from core.evidence.cases_qwen25_speed import QWEN25_SPEED
from core.evidence.cases_qwen_speed import QWEN_SPEED
from core.evidence.cases_rocm_page import ROCM_PAGE
from core.evidence.cases_sglang_cookbook import SGLANG_COOKBOOK
from core.evidence.cases_sglang_cookbook_mi300x import SGLANG_COOKBOOK_MI300X
from core.evidence.cases_sglang_prs import SGLANG_HYBRID_PRS, SGLANG_PRS
from core.evidence.cases_trtllm_blog import TRTLLM_BLOG
from core.evidence.cases_vllm_latency import VLLM_LATENCY
from core.evidence.cases_vllm_prs import VLLM_PRS
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.check_cases_sc25 import CHECK_SC25
from core.evidence.crossval import cross_validated, held_out_ratios
from core.evidence.families import family_rows, vendor
from core.evidence.fidelity import PUBLISHED, predictions, report, score
from core.evidence.level_gap import first_token_band
from core.evidence.scores import summarise
from core.whiteboard.attention import prefill_head_width

# the fortieth round's rows, typed blind: NVIDIA's recipe page and a run of ATOM's dashboard
FORTIETH_ROUND = [*TRTLLM_BLOG, *ATOM_DASHBOARD]
# the forty-eighth round's rows, typed blind: GPUStack's random bursts (D369-D412); the rounds
# before it quote both sets as they stood without them
FORTY_EIGHTH_ROUND = GPUSTACK_BURSTS
# the sixtieth round's rows: InferenceX's bot on eight B200 (D443-D452); the sixty-second's: two
# more cookbook pages (D453-D469); the sixty-third's: the cookbook on eight MI300X (D470-D479).
# Every round quotes both sets as they stood without the rows typed after it.
SIXTIETH_ROUND = INFERENCEX_B200
SIXTY_SECOND_ROUND = SGLANG_COOKBOOK
SIXTY_THIRD_ROUND = SGLANG_COOKBOOK_MI300X
# the sixty-sixth's: a vLLM contributor's bf16 baselines (D480-D487)
SIXTY_SIXTH_ROUND = VLLM_LATENCY
BEFORE_SIXTY_SIXTH = frozenset(case.key for case in SIXTY_SIXTH_ROUND)
BEFORE_SIXTY_THIRD = frozenset(case.key for case in SIXTY_THIRD_ROUND) | BEFORE_SIXTY_SIXTH
BEFORE_SIXTY_SECOND = frozenset(case.key for case in SIXTY_SECOND_ROUND) | BEFORE_SIXTY_THIRD
BEFORE_SIXTIETH = frozenset(case.key for case in SIXTIETH_ROUND) | BEFORE_SIXTY_SECOND
BEFORE_FORTY_EIGHTH = frozenset(case.key for case in FORTY_EIGHTH_ROUND) | BEFORE_SIXTIETH


@cache
def _before_the_round() -> np.ndarray:
    """Each report case's engine-level ratio as the forty-eighth round left the model (the
    forty-ninth round's rules switched off, :func:`bench.triton_kernels.before_the_round`):
    the figures the earlier rounds' paragraphs quote."""
    whole = report()
    with before_the_round():
        priced = predictions(whole.cases)
    return np.array([value / case.measured for value, case in zip(priced, whole.cases,
                                                                  strict=True)])  # fmt: skip


def engine_ratios() -> dict[str, float]:
    """Each development case's engine-level ratio (predicted over measured) by its key, as the
    earlier rounds quote it (the model before the forty-ninth round's rules)."""
    ratios = _before_the_round()
    return {case.key: ratios[i] for i, case in enumerate(report().cases)}


def _kept(rounds) -> list[int]:
    """Both sets' indices in the report, less the cases ``rounds`` of rows typed (and the
    sixtieth round's and later, which every caller's round came before)."""
    whole = report()
    later = (SIXTIETH_ROUND, SIXTY_SECOND_ROUND, SIXTY_THIRD_ROUND, SIXTY_SIXTH_ROUND)
    left = {case.key for cases in (*rounds, *later) for case in cases}
    return [i for i in whole.sets["both"] if whole.cases[i].key not in left]


def amd_family_before_later_rows():
    """The AMD family's row over both sets as the model prices it now, less the rows typed from
    the sixtieth round on (which every caller's round came before): in-sample and held out."""
    whole = report()
    sets = {"both": tuple(_kept(()))}
    rows = family_rows(whole.cases, {"engine": whole.steps[:, -1]}, sets, whole.held_out)
    return next(row for row in rows if row.family == "AMD")


def both_sets_without(*rounds, now: bool = False) -> object:
    """Both sets' engine-level score over the cases they held before ``rounds`` of rows (lists
    of cases) were typed: the figure a round's paragraph quotes as it stood (the model before
    the forty-ninth round's rules), or (``now``) a tripwire on the model as it is."""
    ratios = report().steps[:, -1] if now else _before_the_round()
    return summarise(ratios[_kept(rounds)])


def held_out_without(*rounds) -> object:
    """Both sets' publisher-held-out score over the cases they held before ``rounds``, on the
    model before the forty-ninth round's rules."""
    whole = report()
    kept = _kept(rounds)
    publishers = [whole.cases[i].publisher for i in kept]
    return cross_validated(held_out_ratios(publishers, _before_the_round()[kept]), publishers)


def ratio_span(found: dict, keys) -> tuple[float, float]:
    """The lowest and highest ratio (two decimals) of the cases ``keys`` in a round's priced
    figures (:func:`bench.fused_quant.scored_figures`)."""
    ratios = [found["ratios"][key] for key in keys]
    return round(min(ratios), 2), round(max(ratios), 2)


def spans_before_after(before: dict, after: dict, *key_lists) -> list[float]:
    """:func:`ratio_span` of each of ``key_lists`` before a round's rule and after it, in turn:
    (lowest, highest) before, then after, for the first list, then the next."""
    return [bound for keys in key_lists
            for bound in (*ratio_span(before, keys), *ratio_span(after, keys))]  # fmt: skip


def twenty_third_round_figures() -> tuple:
    """The engine-level ratios of Qwen's H20 rows (D31, D30, D29), two decimals."""
    ratio = engine_ratios()
    return tuple(round(ratio[key], 2) for key in ("D31", "D30", "D29"))


def twenty_sixth_round_figures() -> tuple:
    """vLLM V0's host seconds per running request (µs); the lowest and highest engine-level
    ratio of EmbeddedLLM's MI300X runs (one decimal); Argonne's error now (whole per cent);
    Oracle's and AMD's V0 rows at 128-256 users (throughput, then a request's time: lowest and
    highest, two decimals); V1's host seconds per request (µs, one decimal); the rocm/vllm
    image's V1 throughput rows (lowest and highest); the round's totals are history."""
    ratio, whole = engine_ratios(), report()
    runs = [ratio[case.key] for case in VLLM_PRS if case.gpu == "MI300X"]
    throughput = [ratio[key] for key in ("D35", "D36")]
    request = [ratio[key] for key in ("D85", "D86")]
    page = [ratio[case.key] for case in ROCM_PAGE if case.metric == "throughput"]
    return (
        round(VLLM_V0_HOST_PER_REQUEST_S * 1e6), round(min(runs), 1), round(max(runs), 1),
        round(100 * whole.check_argonne["engine"].geometric_mean_error),
        round(min(throughput), 2), round(max(throughput), 2),
        round(min(request), 2), round(max(request), 2),
        round(VLLM_V1_HOST_PER_REQUEST_S * 1e6, 1), round(min(page), 2), round(max(page), 2),
    )  # fmt: skip


def twenty_seventh_round_figures() -> tuple:
    """DeepSeek-R1's key width a head, its own and rotary parts, its value width, the mean the
    prefill multiplies at; Qwen3-Next's two H20 rows (D249-D250; the round's total is history)."""
    deepseek = MODELS["DeepSeek-R1"]
    keys = deepseek.head_dim + deepseek.qk_rope_head_dim
    ratio = engine_ratios()
    return (
        round(keys), deepseek.head_dim, deepseek.qk_rope_head_dim, deepseek.head_dim,
        round(float(prefill_head_width(deepseek))), round(ratio["D249"], 2),
        round(ratio["D250"], 2),
    )  # fmt: skip


def twenty_eighth_round_figures() -> tuple:
    """Qwen's 41 H20 rows (D251-D291): their error and cases within; the ranges of the dense
    models' ratios at a one-token prompt by format (FP8, bf16, AWQ), the GPTQ-Marlin mixtures';
    the engine level's own split of the SC '25 one-user first tokens (its fixed ms and µs a
    token, lowest and highest of the two cards; ns a token squared)."""
    rows = summarise(np.array([engine_ratios()[case.key] for case in QWEN_SPEED]))
    short = {}
    for case, ratio in zip(QWEN_SPEED, rows.ratios, strict=True):
        fmt = weight_format(case)
        if case.prompt_tokens == 1 and is_mixture(case) == (fmt == "GPTQ"):  # dense; GPTQ's MoE
            short.setdefault(fmt, []).append(ratio)
    spans = [
        round(bound(short[fmt]), 2)
        for fmt in ("FP8", "bf16", "AWQ", "GPTQ")
        for bound in (min, max)
    ]
    prompts = [100, 200, 400, 800, 1600, 3200, 6400, 12800]
    parts = np.array([first_token_split(prompts, first_token_priced(gpu, prompts))
                      for gpu in ("MI300X", "MI325X")])  # fmt: skip
    return (
        round(100 * rows.geometric_mean_error), rows.within_band, rows.cases, *spans,
        round(parts[:, 0].min() * 1e3), round(parts[:, 0].max() * 1e3),
        round(parts[:, 1].min() * 1e6), round(parts[:, 1].max() * 1e6),
        round(parts[:, 2].mean() * 1e9, 1),
    )  # fmt: skip


def twenty_ninth_round_figures() -> tuple:
    """Hopper's prompt-attention kernels over a bf16 cache (SGLang's, TensorRT-LLM's, vLLM's share
    of the bf16 rate and extra keys); the share SGLang's reaches on a 2,048-token prompt, in %;
    SGLang's and TensorRT-LLM's latent-attention prompt kernels' shares;
    the ranges of Qwen's dense and its bf16/FP8 mixtures' rows at 129,024 prompt tokens; the SC '25
    check set's error; both sets' error, within and cases; the 181 held before the 28th round;
    the share a 64-wide head reaches over a 128-wide one's on Hopper and on Blackwell."""
    kernels = [PREFILL_ATTENTION[("hopper", "bf16", name)] for name in ("sglang", "", "vllm")]
    sglang = kernels[0]
    at_2048 = sglang.rate_share * 1024 / (1024 + sglang.extra_keys)
    latent = [
        LATENT_PREFILL_ATTENTION[("hopper", "bf16", name)].rate_share for name in ("sglang", "")
    ]
    ratio = engine_ratios()
    longest, prompt = {True: [], False: []}, max(case.prompt_tokens for case in QWEN_SPEED)
    for case in QWEN_SPEED:
        if case.prompt_tokens == prompt and weight_format(case) != "GPTQ":
            longest[is_mixture(case)].append(ratio[case.key])
    whole = report()
    both = both_sets_without(QWEN25_SPEED, FORTIETH_ROUND, FORTY_EIGHTH_ROUND)
    held = both_sets_without(QWEN_SPEED, QWEN25_SPEED, FORTIETH_ROUND, FORTY_EIGHTH_ROUND)
    return (
        *(value for kernel in kernels for value in (kernel.rate_share, kernel.extra_keys)),
        round(100 * at_2048), *latent,
        *(round(bound(longest[mixture]), 2) for mixture in (False, True) for bound in (min, max)),
        round(100 * whole.check_sc25["engine"].geometric_mean_error, 1),
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases, held.cases,
        round(100 * held.geometric_mean_error, 1),
        *(PREFILL_HEAD_SIZE_SHARES[family][0] for family in ("hopper", "blackwell")),
    )  # fmt: skip


def h20_stream_figures() -> tuple:
    """The rates bf16's and AWQ's dense H20 steps stream their weights at, measured and priced
    (bench/h20_batch_one.py), the H20's bandwidth, its SMs and the H100's share of its peak that
    it borrowed before the thirty-eighth round, in TB/s."""
    rows = dense_one_token_rows()
    with as_round(54):  # before the fifty-fifth round's bf16 tiles (its own figures quote them)
        rates = {fmt: measured_and_priced(rows[fmt]) for fmt in ("bf16", "AWQ")}
    return (
        *(round(rates[fmt][name][1] / 1e12, 2) for name in ("measured", "engine")
          for fmt in ("bf16", "AWQ")),
        round(GPUS["H20"].achieved_hbm_bytes_per_s / 1e12, 2), H20_SMS,
        round(GPUS["H20"].hbm_bytes_per_s * H100_MEASURED_SHARES["bw"] / 1e12, 2),
    )  # fmt: skip


def h20_skinny_figures() -> tuple:
    """Qwen's dense bf16 rows on the H20 at a one-token prompt, lowest and highest ratio; the
    rate their steps stream at (bench/h20_batch_one.py); the median rate of ROCm's H20 skinny
    GEMMs and how many shapes it is over (TB/s)."""
    ratio = engine_ratios()
    bf16 = [ratio[case.key] for case in dense_one_token_rows()["bf16"]]
    measured = measured_and_priced(dense_one_token_rows()["bf16"])["measured"][1]
    rates = skinny_gemm_rates()
    return (
        round(min(bf16), 2), round(max(bf16), 2), round(measured / 1e12, 2),
        round(float(np.median(rates)) / 1e12, 2), rates.size,
    )  # fmt: skip


def twenty_fifth_round_figures() -> tuple:
    """vLLM's and TensorRT-LLM's measured latent-attention block on Hopper (block-fp8
    projections, bf16 cache) and vLLM's counted kernels there (µs), D108's and D245's ratios,
    D243's ratio and D246-D248's (the round's totals are history, quoted as they stood)."""
    vllm, trtllm = (
        LATENT_BLOCKS[("hopper", "bf16", "fp8_block", engine)].floor_s
        for engine in ("vllm", "tensorrt-llm")
    )
    kernels = LATENT_ATTENTION_KERNELS + BLOCK_FP8_LATENT_ATTENTION_INPUTS
    gemm = dense_gemm_floor("H200", "fp8_block", "vllm")
    counted = kernels * KERNEL_FLOOR_S + LATENT_ATTENTION_GEMMS * (gemm - KERNEL_FLOOR_S)
    ratio = engine_ratios()
    return (
        round(vllm * 1e6), round(counted * 1e6), round(trtllm * 1e6),
        round(ratio["D108"], 2), round(ratio["D245"], 2), round(ratio["D243"], 2),
        *(round(ratio[key], 2) for key in ("D246", "D247", "D248")),
    )  # fmt: skip


def thirty_first_round_figures() -> tuple:
    """The microseconds TensorRT-LLM's measured all-reduce of 8 MiB takes on eight H100s and
    the line's (NVLink at NCCL's share, its latency left out), the same of NCCL's all-gather of
    32 MiB on eight H200s; the check set's error and the two TensorRT-LLM check sets' errors."""
    mib = 2.0**20
    reduced = allreduce_seconds(allreduce_table_index("H100 SXM", "tensorrt-llm"), 8, 8 * mib)
    reduce_line = (
        2 * 7 / 8 * 8 * mib / (NVLINK_PROTOCOL_EFFICIENCY * GPUS["H100 SXM"].link_bytes_per_s)
    )
    table = gather_table_index("H200", "tensorrt-llm")
    gathered = collective_seconds(table, 8, "all_gather", 32 * mib)
    gather_line = 7 / 8 * 32 * mib / (NVLINK_PROTOCOL_EFFICIENCY * GPUS["H200"].link_bytes_per_s)
    whole = report()
    errors = [100 * getattr(whole, field)["engine"].geometric_mean_error
              for field in ("check", "check_second", "check_trt10")]  # fmt: skip
    return (
        *(round(seconds * 1e6) for seconds in (reduced, reduce_line, gathered, gather_line)),
        *(round(error, 1) for error in errors),
    )  # fmt: skip


def thirty_second_round_figures() -> tuple:
    """Qwen3-30B-A3B's expert layers and experts, the ms its Marlin loop's launches take a token
    (each GEMM once per expert beyond one); the same of Qwen3-235B-A22B's layers over four
    cards; Qwen's two GPTQ rows at a one-token prompt in ms a token (request time over 2,048
    tokens); their ratios (D283, D288), at the longest prompt (D286, D291); both sets' error
    (one decimal), within and cases, before the thirty-fourth round's rows."""
    small, large = MODELS["Qwen3-30B-A3B"], MODELS["Qwen3-235B-A22B"]

    def launch_ms(model):  # each layer's two GEMMs, once per expert beyond the fused one
        return round(model.layers * 2 * KERNEL_FLOOR_S * (model.experts - 1) * 1e3, 1)

    cases = {case.key: case for case in QWEN_SPEED}
    measured = [round(cases[key].measured / 2048 * 1e3, 1) for key in ("D283", "D288")]
    ratio = engine_ratios()
    both = both_sets_without(QWEN25_SPEED, FORTIETH_ROUND, FORTY_EIGHTH_ROUND)
    return (
        small.layers, small.experts, launch_ms(small), large.layers, launch_ms(large), *measured,
        *(round(ratio[key], 2) for key in ("D283", "D288", "D286", "D291")),
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases,
    )  # fmt: skip


def thirty_fourth_round_figures() -> tuple:
    """Qwen2.5's A100 rows (D292-D335): their error, scored cases within and scored cases, their
    lowest and highest ratio; the dense bf16 and AWQ steps at a one-token prompt split into
    fixed ms and TB/s, measured and priced (bench/h20_batch_one.py)."""
    ratio = engine_ratios()
    scored = [case for case in QWEN25_SPEED if case.scored]
    rows = summarise(np.array([ratio[case.key] for case in scored]))
    split = dense_one_token_rows(QWEN25_SPEED)
    parts = {fmt: measured_and_priced(split[fmt]) for fmt in ("bf16", "AWQ")}
    return (
        round(100 * rows.geometric_mean_error), rows.within_band, rows.cases,
        round(float(rows.ratios.min()), 2), round(float(rows.ratios.max()), 2),
        *(value for fmt in ("bf16", "AWQ") for name in ("measured", "engine")
          for value in (round(parts[fmt][name][0] * 1e3, 2), round(parts[fmt][name][1] / 1e12, 2))),
    )  # fmt: skip


def blackwell_block_fp8_floor(release: str, number: int) -> float:
    """SGLang's block-fp8 GEMM floor on a B200 at ``release`` as round ``number`` priced it (the
    sixty-fifth round read a corrected table)."""
    with as_round(number):
        return dense_gemm_floor("B200", "fp8_block", "sglang", release)


def thirty_fifth_round_figures() -> tuple:
    """The A100's dense GEMM floors in bf16 (TensorRT-LLM's, vLLM's, SGLang's) and the H100's
    (µs); int4's on the A100 and on Hopper; the A100's decode attention floors (TensorRT-LLM,
    vLLM, SGLang, µs); Qwen2.5's int4 rows at a one-token prompt, lowest and highest ratio;
    SGLang 0.5.14's block-fp8 floor on the B200 (µs); both sets' error, within and cases as they
    stood after the round (history: the thirty-sixth round moved them). The H100's floors are
    those of the releases the round priced (vLLM's 0.24.0 table, the newest then)."""
    engines = ("tensorrt-llm", "vllm", "sglang")
    ratio = engine_ratios()
    int4 = [ratio[case.key] for case in QWEN25_SPEED
            if case.scored and case.dtype == "int4" and case.prompt_tokens == 1]  # fmt: skip
    h100 = {"tensorrt-llm": "1.3.0rc20", "vllm": "0.24.0", "sglang": None}
    return (
        *(round(dense_gemm_floor("A100 80GB SXM", "bf16", name) * 1e6, 1) for name in engines),
        *(round(dense_gemm_floor("H100 SXM", "bf16", name, h100[name]) * 1e6, 1)
          for name in engines),
        round(dense_gemm_floor("A100 80GB SXM", "int4", "vllm") * 1e6, 1),
        round(dense_gemm_floor("H20", "int4", "sglang") * 1e6, 1),
        *(round(attention_kernel("A100 80GB SXM", "bf16", name).floor_s * 1e6, 1)
          for name in engines),
        round(float(min(int4)), 2), round(float(max(int4)), 2),
        round(blackwell_block_fp8_floor("0.5.14", 35) * 1e6, 1),
        17.2, 212, 263,
    )  # fmt: skip


def thirty_sixth_round_figures() -> tuple:
    """Marlin's prompt share of torch's fp16 GEMM at 1,024, 2,048 and 4,000 tokens; Qwen2.5's
    int4 rows at the longest prompt, lowest and highest ratio; vLLM's block-fp8 floor on an H100
    in 0.14.0's and 0.19.0's tables and TensorRT-LLM 1.3.0rc20's (µs); D108's ratio; an fp8
    GEMM's floor on an H100 under TensorRT-LLM 1.2.0rc5 and 1.3.0rc20, and SGLang's block-fp8
    floor on a B200 in 0.5.9's and 0.5.14's tables (µs); both sets' error, within and cases as
    they stood after the round (history: the thirty-seventh round moved them)."""
    from core.catalog.gemm_tables import MARLIN_PROMPT_SHARE

    ratio = engine_ratios()
    longest = max(case.prompt_tokens for case in QWEN25_SPEED)
    int4 = [ratio[case.key] for case in QWEN25_SPEED
            if case.scored and case.dtype == "int4" and case.prompt_tokens == longest]  # fmt: skip
    floors = (("H100 SXM", "fp8_block", "vllm", "0.14.0"),
              ("H100 SXM", "fp8_block", "vllm", "0.19.0"),
              ("H100 SXM", "fp8_block", "tensorrt-llm", "1.3.0rc20"))  # fmt: skip
    later = (("H100 SXM", "fp8", "tensorrt-llm", "1.2.0rc5"),
             ("H100 SXM", "fp8", "tensorrt-llm", "1.3.0rc20"),
             )  # fmt: skip
    blackwell = [blackwell_block_fp8_floor(release, 36) for release in ("0.5.9", "0.5.14")]
    return (
        *MARLIN_PROMPT_SHARE.values(), round(float(min(int4)), 2), round(float(max(int4)), 2),
        *(round(dense_gemm_floor(*row) * 1e6, 1) for row in floors), round(ratio["D108"], 2),
        *(round(dense_gemm_floor(*row) * 1e6, 1) for row in later),
        *(round(floor * 1e6, 1) for floor in blackwell),
        16.5, 210, 263,
    )  # fmt: skip


def thirty_seventh_round_figures() -> tuple:
    """Marlin's rows a block, mma.sync's share of Hopper's tensor rate and the rows Marlin's
    block costs at the card's rate; the H20's bf16 rate (TFLOP/s); Qwen's AWQ rows at a
    one-token prompt, lowest and highest ratio (the round's totals are history, quoted as they
    stood)."""
    ratio = engine_ratios()
    awq = [ratio[case.key] for case in QWEN_SPEED
           if case.prompt_tokens == 1 and weight_format(case) == "AWQ"]  # fmt: skip
    rows = GEMM_TILE_ROWS[("hopper", "int4", "sglang", "0.4")]
    return (
        round(rows * MMA_SYNC_SHARE_ON_HOPPER), round(MMA_SYNC_SHARE_ON_HOPPER, 2), round(rows),
        round(GPUS["H20"].bf16_flops / 1e12), round(float(min(awq)), 2), round(float(max(awq)), 2),
    )  # fmt: skip


def thirty_eighth_round_figures() -> tuple:
    """The H200's stream, its SMs and their rate each (GB/s); the H20's SMs, peak and the rate an
    SM would need for it; the H20's bounded and borrowed rates (TB/s); D241, D242, D249 and D250;
    Qwen's bf16 rows at a one-token prompt, lowest and highest (the round's totals after this
    rule are history, quoted as they stood)."""
    ratio = engine_ratios()
    bf16 = [ratio[case.key] for case in dense_one_token_rows()["bf16"]]
    h200, h20 = GPUS["H200"], GPUS["H20"]
    return (
        round(h200.achieved_hbm_bytes_per_s / 1e12, 2), HOPPER_SMS,
        round(HOPPER_STREAM_PER_SM / 1e9, 1), H20_SMS, round(h20.hbm_bytes_per_s / 1e12, 1),
        round(h20.hbm_bytes_per_s / H20_SMS / 1e9),
        round(h20.achieved_hbm_bytes_per_s / 1e12, 2),
        round(h20.hbm_bytes_per_s * H100_MEASURED_SHARES["bw"] / 1e12, 2),
        *(round(ratio[key], 2) for key in ("D241", "D242", "D249", "D250")),
        round(min(bf16), 2), round(max(bf16), 2),
    )  # fmt: skip


def thirty_eighth_round_attention_figures() -> tuple:
    """InferenceX's MI325X rows under SGLang (D113-D117) and their first tokens (D181-D185),
    lowest and highest ratio (the round's totals and Dell's set after this rule are history,
    quoted as they stood)."""
    ratio = engine_ratios()
    scored = [ratio[f"D{key}"] for key in range(113, 118)]
    shown = [ratio[f"D{key}"] for key in range(181, 186)]
    return (
        round(min(scored), 2), round(max(scored), 2), round(min(shown), 2), round(max(shown), 2),
    )  # fmt: skip


def thirty_eighth_round_passes_figures() -> tuple:
    """vLLM V0's chunk past a long context, the longest Qwen2.5 prompt and the passes it takes
    (from the node the engine level builds for D313); Qwen2.5's A100 rows at that prompt, lowest
    and highest ratio; both sets' error, within, cases and % within before the fortieth round's
    rows."""
    ratio = engine_ratios()
    case = next(case for case in QWEN25_SPEED if case.key == "D313")
    node = engine_node(case.scenario())
    prompt = max(row.prompt_tokens for row in QWEN25_SPEED)
    longest = [ratio[row.key] for row in QWEN25_SPEED
               if row.scored and row.prompt_tokens == prompt]  # fmt: skip
    both = both_sets_without(FORTIETH_ROUND, FORTY_EIGHTH_ROUND)  # before the fortieth's rows
    return (
        node.prefill_chunk_tokens, case.prompt_tokens,
        node.prompt_passes(float(case.prompt_tokens)),
        round(min(longest), 2), round(max(longest), 2),
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases,
        round(100 * both.within_band / both.cases, 1),
    )  # fmt: skip


def thirty_ninth_round_figures() -> tuple:
    """Dell's SC '25 runs under SGLang 0.4 priced without AITER: the set's error (one decimal),
    within and size; the lowest and highest median ratio over one to four users, and over 16 to
    128 users (the figures before the round and the alternative's are history); the bandwidth
    share of the Triton row that prices SGLang 0.4's block-fp8 experts on CDNA3, and AITER's."""
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS
    from core.evidence.check_cases_sc25 import medians_by

    found = report().check_sc25["engine"]
    medians = medians_by(found.ratios, lambda case: case.load_value)
    few = [medians[count] for count in (1, 2, 4)]
    many = [medians[count] for count in (16, 32, 64, 128)]
    return (
        round(100 * found.geometric_mean_error, 1), found.within_band, found.cases,
        round(min(few), 2), round(max(few), 2), round(min(many), 2), round(max(many), 2),
        ENGINE_EXPERT_KERNELS[("cdna3", "fp8_block", "sglang")].bandwidth_share,
        ENGINE_EXPERT_KERNELS[("cdna3", "fp8_block", "aiter")].bandwidth_share,
    )  # fmt: skip


def both_sets_borrowed() -> object:
    """Both sets' engine-level score with SGLang's borrowed first-token path (before the
    forty-eighth round's rows)."""
    whole = report()
    cases = tuple(whole.cases[i] for i in _kept([FORTY_EIGHTH_ROUND]))
    with before_the_round(), borrowed_sglang_path():
        figures = predictions(cases)
    return summarise(figures / np.array([case.measured for case in cases]))


def fortieth_round_figures() -> tuple:
    """The batch trtllm-bench would size for NVIDIA's three recipe runs (D336-D338) without their
    commands' limits; the rows' lowest and highest ratio as typed, and priced at that sizing;
    ATOM's dashboard run (D339-D368): lowest and highest ratio, within and cases; AMD's family
    error in-sample, within and cases; both sets' error (one decimal), within, cases and %
    within, as they stood before the forty-first round's SGLang path."""
    unset = [replace(case, max_seqs=0) for case in TRTLLM_BLOG]
    sized = [int(engine_node(case.scenario()).bench_batch) for case in unset]
    ratio = engine_ratios()
    typed = [ratio[case.key] for case in TRTLLM_BLOG]
    with before_the_round():
        at_sizing = predictions(unset) / [case.measured for case in unset]
    atom = summarise(np.array([ratio[case.key] for case in ATOM_DASHBOARD]))
    amd_score = amd_family_before_later_rows().score("both", "engine")
    both = both_sets_borrowed()
    return (
        *sized, round(min(typed), 2), round(max(typed), 2), round(min(at_sizing), 2),
        round(max(at_sizing), 2), round(float(min(atom.ratios)), 2),
        round(float(max(atom.ratios)), 2), atom.within_band, atom.cases,
        round(100 * amd_score.geometric_mean_error), amd_score.within_band, amd_score.cases,
        round(100 * both.geometric_mean_error, 1), both.within_band,
        both.cases, round(100 * both.within_band / both.cases, 1),
    )  # fmt: skip


def _first_token_path_ms(model, gpu, weights) -> tuple[float, float]:
    """SGLang's first-token path (eager dispatch and server) on eight ``gpu`` in milliseconds,
    and the borrowed 0.8 ms a layer it replaced."""
    scenario = Scenario(model=model, gpu=gpu, cards=8, weight_dtype=weights, engine="sglang")

    def path(node):
        return 1e3 * float(node.request_overhead(TERMS) + node.server_path(TERMS))

    own = path(engine_node(scenario))
    with borrowed_sglang_path():
        borrowed = path(engine_node(scenario))
    return round(own, 1), round(borrowed, 1)


def forty_first_round_figures() -> tuple:
    """SGLang PR #13094's pair: launches the graph took, the dispatch per launch (µs), the
    priced prefill (ms), the attention launches left eager and the server path (ms); PR
    #12160's DeepSeek-V3 pass: µs per launch and its launches; first-token paths (ms, own and
    borrowed) of Llama-3-70B, gpt-oss-120b, Qwen3-235B-A22B and DeepSeek-R1; S3-S4; the first
    set's error and within; D23; the SC '25 set's error, within and cases; AMD's family error,
    within, cases and held out; both sets' error, within, cases and % within."""
    per_launch, launches = deepseek_launch_s()
    paths = [
        *_first_token_path_ms("Llama-3-70B", "H100 SXM", "fp8"),
        *_first_token_path_ms("gpt-oss-120b", "B200", "mxfp4"),
        *_first_token_path_ms("Qwen3-235B-A22B", "H200", "bf16"),
        *_first_token_path_ms("DeepSeek-R1", "H200", "fp8"),
    ]
    ratio = engine_ratios()
    whole = report()
    first = whole.scores["first"]["engine"]
    sc25 = whole.check_sc25["engine"]
    amd = amd_family_before_later_rows()
    amd_score, amd_held = amd.score("both", "engine"), amd.held_out("both")
    both = both_sets_without(FORTY_EIGHTH_ROUND)
    return (
        PIECEWISE_PAIR_GRAPHED_LAUNCHES, round(1e6 * SGLANG_EAGER_LAUNCH_S, 1),
        1e3 * PIECEWISE_PAIR_PRICED_PREFILL_S, PIECEWISE_PAIR_LAYERS,
        round(1e3 * SGLANG_SERVER_PATH_S, 1),
        round(1e6 * per_launch, 1), round(float(launches)),
        *paths, round(ratio["S3"], 2), round(ratio["S4"], 2),
        round(100 * first.geometric_mean_error, 1), first.within_band, first.cases,
        round(ratio["D23"], 2), round(100 * sc25.geometric_mean_error, 1), sc25.within_band,
        sc25.cases, round(100 * amd_score.geometric_mean_error), amd_score.within_band,
        amd_score.cases, round(100 * amd_held.geometric_mean_error),
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases,
        round(100 * both.within_band / both.cases, 1),
    )  # fmt: skip


def forty_third_round_figures() -> tuple:
    """vLLM's profile's memory outside PyTorch's allocator on one card and on each of two (GiB);
    TensorRT-LLM 1.0's table without the rule (error, within, cells) and with it, its Hopper
    mixtures under DEP (median) before and after; both sets before (error) and after (error,
    within, cases, % within), as the README rounds them."""
    with before_the_round(), inside_allocator_only():
        before = outside_allocator_figures(BEFORE_FORTY_EIGHTH)
    with before_the_round():
        after = outside_allocator_figures(BEFORE_FORTY_EIGHTH)

    def percent(error):
        return round(100 * error, 1)

    trt_before, trt_after = before["trt10"], after["trt10"]
    both = after["both"]
    return (
        round(OUTSIDE_ALLOCATOR_BYTES_ONE_CARD / GIB, 2),
        round(OUTSIDE_ALLOCATOR_BYTES_SHARDED / GIB, 2),
        percent(trt_before[0]), trt_before[1], trt_before[2],
        percent(trt_after[0]), trt_after[1], trt_after[2],
        round(before["hopper_dep_median"], 2), round(after["hopper_dep_median"], 2),
        percent(before["both"][0]), percent(both[0]), both[1], both[2],
        round(100 * both[1] / both[2], 1),
    )  # fmt: skip


def forty_third_round_share_figures() -> tuple:
    """The cases typed with their command's memory share: how many, D328's ratio, and the
    largest move of any other from its price at the release's own share, as the bound the
    README quotes (0.01 %) where it stays below it."""
    whole = report()
    typed = [case for case in whole.cases if case.memory_share and case.key not in BEFORE_SIXTIETH]
    with before_the_round():
        now = predictions(typed)
        before = predictions([replace(case, memory_share=0.0) for case in typed])
    others = [abs(a / b - 1) for case, a, b in zip(typed, now, before, strict=True)
              if case.key != "D328"]  # fmt: skip
    ratio = engine_ratios()
    largest = max(others)
    return len(typed), round(ratio["D328"], 2), 0.01 if largest < 1e-4 else 100 * largest


def forty_fourth_round_figures() -> tuple:
    """The forty-fourth round's GEMM costs per input (TensorRT-LLM's block-fp8 on Hopper and
    nvfp4 on Blackwell with their floors, bf16's range, AITER's; the Triton expert kernels' range,
    SGLang's block-fp8 experts on Hopper, TensorRT-LLM's bf16 ones), both sets' score and held-out
    error, and the ranges of Qwen2.5's small int4 rows on an A100 and ATOM's DeepSeek-R1 rows at
    four users."""
    block, fp4 = (
        DENSE_GEMM_FLOORS[("hopper", "fp8_block")],
        DENSE_GEMM_FLOORS[("blackwell", "nvfp4")],
    )
    bf16 = [DENSE_GEMM_FLOORS[(family, "bf16")].per_input_s for family in ("hopper", "blackwell")]
    aiter = [ENGINE_DENSE_GEMM_FLOORS[(family, "fp8_block", "aiter")].per_input_s * 1e9
             for family in ("cdna3", "cdna4")]  # fmt: skip
    # the Triton fused-MoE kernels kept with a cost per input (vLLM's and SGLang's own, and
    # vLLM's gpt-oss kernel, the neutral Hopper mxfp4 row)
    # (as the round fitted them, on every layout's rows: the forty-ninth refitted them)
    triton = [figures[4] * 1e9 for key, figures in ALL_LAYOUT_ROWS.items()
              if key[2] in ("vllm", "sglang") and figures[4]] + [
        EXPERT_KERNELS[("hopper", "mxfp4")].per_input_s * 1e9]  # fmt: skip
    sglang_floor, *_, sglang_per_input = ALL_LAYOUT_ROWS[("hopper", "fp8_block", "sglang")]
    both = both_sets_without(FORTY_EIGHTH_ROUND)
    ratio = engine_ratios()
    small = [ratio[key] for key in ("D293", "D294", "D296", "D297", "D299", "D300", "D302", "D303")]
    atom = [ratio[key] for key in ("D339", "D344", "D349")]
    llama = MODELS["Llama-3-70B"]
    kept = kept_embedding_params(llama, "fp8") * (
        BYTES_PER_WEIGHT["bf16"] - BYTES_PER_WEIGHT["fp8"]
    )
    oss = engine_node(Scenario(model="gpt-oss-120b", gpu="H100 SXM", cards=1, realism="engine"))
    outside = oss.engine_weight_bytes(TERMS) - oss._routed_bytes  # what its experts leave
    return (
        round(block.floor_s * 1e6, 1), round(block.per_input_s * 1e9, 2),
        round(fp4.floor_s * 1e6, 1), round(fp4.per_input_s * 1e9, 2),
        round(min(bf16) * 1e9, 2), round(max(bf16) * 1e9, 2), *(round(a, 2) for a in aiter),
        min(triton), max(triton), round(sglang_floor * 1e6), sglang_per_input * 1e9,
        EXPERT_KERNELS[("hopper", "bf16")].per_input_s * 1e9,
        ENGINE_EXPERT_KERNELS[("cdna4", "fp8_block", "aiter")].per_input_s * 1e9,
        round(kept / 1e9, 1), round(100 * oss.unstreamed_bytes / outside),
        round(100 * both.geometric_mean_error, 1), both.within_band, both.cases,
        round(100 * held_out_without(FORTY_EIGHTH_ROUND).geometric_mean_error),
        round(min(small), 2), round(max(small), 2), round(min(atom), 2), round(max(atom), 2),
        round(ratio["T7"], 2), round(kept / 1e9, 1),
    )  # fmt: skip


def forty_sixth_round_figures() -> tuple:
    """The quantisers' range (µs), what they spare Llama-3-8B's step (ms); the ROCm page held
    out and both sets (error) before and after, within, cases, held out and its share within;
    gpt-oss-20b's requests at once on one B200 at 1k/1k under trtllm-bench."""
    quantisers = list(STATIC_QUANT_S.values())
    with before_the_round(), unfused_input_quant():
        before = scored_figures(BEFORE_FORTY_EIGHTH)
    with before_the_round():
        after = scored_figures(BEFORE_FORTY_EIGHTH)
    oss = next(case for case in CHECK_TRT_1X if case.key == "gpt-oss-20b B200 TP1 1000/1000")
    both, held = after["both"], after["held_out"]
    return (
        round(min(quantisers) * 1e6, 1), round(max(quantisers) * 1e6, 1),
        round(llama_step_spared_s() * 1e3, 2),
        round(100 * before["rocm_page"], 1), round(100 * after["rocm_page"], 1),
        round(100 * before["both"][0], 1), round(100 * both[0], 1), both[1], both[2],
        round(100 * held[0]), round(100 * held[1]),
        round(float(evaluate(oss.scenario()).running_requests)),
    )  # fmt: skip


def forty_seventh_round_figures() -> tuple:
    """Both sets as the round left them, the sum of stream and arithmetic kept: error (one
    decimal), within, cases, and held out (whole per cent)."""
    with before_the_round():
        now = scored_figures(BEFORE_FORTY_EIGHTH)
    (error, within, cases), held = now["both"], now["held_out"]
    return round(100 * error, 1), within, cases, round(100 * held[0])


def forty_eighth_round_figures() -> tuple:
    """GPUStack's random bursts (D369-D412) as typed, the engine level as the round left it
    (before the forty-ninth round's rules, :func:`bench.triton_kernels.before_the_round`):
    their error (whole per cent), within and cases; the one-card H100 pages' prompt-bound runs
    (over 1,000 prompt tokens), lowest and highest ratio, and the same for Qwen's dense models on
    one A100; Qwen3-14B's three prompt-bound runs, how many times longer on the A100 than the
    H100, measured (lowest and highest) and priced (lowest and highest); gpt-oss on an A100 at
    32,000 tokens (lowest, highest); the 128-token bursts (lowest, highest); both sets after
    (error to one decimal, within, cases) and held out (whole per cent)."""
    before = round_figures(rule=False, leaving=BEFORE_SIXTIETH)
    ratio = before["ratios"]
    rows = summarise(np.array([ratio[case.key] for case in GPUSTACK_BURSTS]))

    def span(pick):
        return ratio_span(before, [case.key for case in GPUSTACK_BURSTS if pick(case)])

    one_card = [case for case in GPUSTACK_BURSTS if case.cards == 1 and case.prompt_tokens > 1000]
    qwen14 = [case for case in one_card if case.model_label.startswith("Qwen3-14B")]
    a100, h100 = qwen14[:3], qwen14[3:]
    measured = [h.measured / a.measured for a, h in zip(a100, h100, strict=True)]
    modelled = [(ratio[h.key] * h.measured) / (ratio[a.key] * a.measured)
                for a, h in zip(a100, h100, strict=True)]  # fmt: skip
    error, within, cases = before["both"]
    return (
        round(100 * rows.geometric_mean_error), rows.within_band, rows.cases,
        *span(lambda case: case in one_card and case.gpu == "H100 SXM"),
        *span(lambda case: case in one_card and case.gpu != "H100 SXM" and case.model == "custom"),
        round(min(measured), 2), round(max(measured), 2),
        round(min(modelled), 1), round(max(modelled), 1),
        *span(lambda case: case.model.startswith("gpt-oss") and case.gpu != "H100 SXM"
              and case.prompt_tokens > 30000),
        *span(lambda case: case.prompt_tokens < 200),
        round(100 * error, 1), within, cases, round(100 * before["held_out"][0]),
    )  # fmt: skip


def _gpt_oss_on_a100(low: int, high: int) -> list[str]:
    """The keys of GPUStack's gpt-oss rows on one A100 with prompts of ``low`` to ``high``."""
    return [case.key for case in GPUSTACK_BURSTS
            if case.model.startswith("gpt-oss") and case.gpu.startswith("A100")
            and low < case.prompt_tokens < high]  # fmt: skip


def forty_eighth_round_marlin_figures() -> tuple:
    """The explored rule, scored on the engine level as the round left it (before the
    forty-ninth round's rule): the A100 Marlin row's compute share, Hopper's W4A16 row's;
    gpt-oss's one-A100 rows at 4,000 and 2,000 tokens with the rule (lowest, highest) and
    without it; both sets with the rule (error to one decimal, within, cases)."""
    middle = _gpt_oss_on_a100(1000, 5000)
    with before_the_round():
        found = marlin_figures(BEFORE_SIXTIETH)
    ratio = round_figures(rule=False, leaving=BEFORE_SIXTIETH)["ratios"]
    with_rule = [found["gpt_oss"][key] for key in middle]
    now = [ratio[key] for key in middle]
    error, within, cases = found["both"]
    return (
        A100_MARLIN.compute_share, EXPERT_KERNELS[("hopper", "mxfp4")].compute_share,
        round(min(with_rule), 2), round(max(with_rule), 2), round(min(now), 2),
        round(max(now), 2), round(100 * error, 1), within, cases,
    )  # fmt: skip


def forty_ninth_round_figures() -> tuple:
    """The Triton kernel's share over FlashAttention 2's and its extra keys; gpt-oss's one-A100
    rows at 32,000 tokens before and after the round (lowest, highest each), at 2,000-4,000
    tokens after (lowest, highest); a lone 32,000-token prompt's passes under vLLM 0.10 on an
    A100 now and with the release's one chunk; D377 before and after; the A100 Triton row's
    compute share and padding rows, Hopper's neutral bf16 row's, vLLM's twin ratio (from the
    catalog row's source); Qwen3-235B on eight A100 at 2,000-32,000 tokens before and after
    (lowest, highest each) and its 128-token burst before and after; SGLang's H100 bf16 and
    block-fp8 rows' compute shares before and after; InferenceX's SGLang DeepSeek rows on H200
    and the untuned-configuration runs before and after (lowest, highest each); the int4 row's
    compute share before and after, Qwen's GPTQ mixtures at 129,024 tokens after and before;
    the A100 Marlin row's compute share now and as the forty-eighth round fitted it, Hopper's
    W4A16 row's; both sets
    before and after (error to one decimal, within, cases); held out before and after (one
    decimal, then whole per cent, and the share within to one decimal)."""
    before, after = (
        round_figures(rule=False, leaving=BEFORE_SIXTIETH),
        round_figures(leaving=BEFORE_SIXTIETH),
    )
    longest, middle = _gpt_oss_on_a100(30000, 40000), _gpt_oss_on_a100(1000, 5000)
    a100 = engine_node(Scenario(gpu="A100 80GB SXM", engine="vLLM", engine_version="0.10"))
    one_chunk = engine_version("vllm", "0.10").chunk_tokens
    qwen = [case for case in GPUSTACK_BURSTS if case.model == "Qwen3-235B-A22B"
            and case.gpu.startswith("A100")]  # fmt: skip
    long_qwen = [case.key for case in qwen if case.prompt_tokens > 1000]
    (short_qwen,) = [case.key for case in qwen if case.prompt_tokens < 1000]
    triton, hopper = (
        ENGINE_EXPERT_KERNELS[("ampere", "bf16", "vllm")],
        EXPERT_KERNELS[("hopper", "bf16")],
    )
    twin = float(re.search(r"at x([\d.]+)", triton.source)[1])
    shares = [(ALL_LAYOUT_ROWS[key][2], ENGINE_EXPERT_KERNELS[key].compute_share)
              for key in (("hopper", "bf16", "sglang"), ("hopper", "fp8_block", "sglang"))]  # fmt: skip
    inferencex = ["D109", "D110", "D111", "D112"]
    untuned = [case.key for case in SGLANG_PRS + SGLANG_HYBRID_PRS]
    gptq = [case.key for case in QWEN_SPEED
            if "GPTQ" in case.model_label and case.prompt_tokens > 100_000]  # fmt: skip

    (error_before, _, _), (error, within, cases) = before["both"], after["both"]
    (held_before, share_before), (held, share) = before["held_out"], after["held_out"]
    return (
        SINK_PREFILL.rate_share, SINK_PREFILL.extra_keys,
        *ratio_span(before, longest), *ratio_span(after, longest), *ratio_span(after, middle),
        float(a100.prompt_passes(32000.0)), float(np.ceil(32000 / one_chunk)),
        round(before["ratios"]["D377"], 2), round(after["ratios"]["D377"], 2),
        triton.compute_share, triton.padding_rows, hopper.compute_share, hopper.padding_rows,
        twin, *ratio_span(before, long_qwen), *ratio_span(after, long_qwen),
        round(before["ratios"][short_qwen], 2), round(after["ratios"][short_qwen], 2),
        *shares[0], *shares[1],
        *ratio_span(before, inferencex), *ratio_span(after, inferencex),
        *ratio_span(before, untuned), *ratio_span(after, untuned),
        ALL_LAYOUT_INT4[2], EXPERT_KERNELS[("hopper", "int4")].compute_share,
        *ratio_span(after, gptq), *ratio_span(before, gptq),
        ENGINE_EXPERT_KERNELS[("ampere", "mxfp4", "vllm")].compute_share,
        A100_MARLIN.compute_share, EXPERT_KERNELS[("hopper", "mxfp4")].compute_share,
        round(100 * error_before, 1), round(100 * error, 1), within, cases,
        round(100 * held_before, 1), round(100 * held, 1), round(100 * held),
        round(100 * share_before, 1), round(100 * share, 1),
    )  # fmt: skip


def fiftieth_round_figures() -> tuple:
    """The three readings of vLLM's prompt dispatch (:mod:`bench.prompt_dispatch`), none
    landed. Per step: GPUStack's 128-token bursts on one A100 (lowest, highest) before and
    after, those on an H100 or H200 before and after; both sets before and after (error to one
    decimal), within before and after, cases; held out before and after (one decimal). Only where
    the engine prefills in a step of its own: Oracle's 128-token runs (D35-D36) before and after,
    SGLang 0.3's saturated rows (S3-S4) before and after (lowest, highest each), both sets' error,
    within, held out. Outside captured graphs: GPUStack's Qwen3-8B at 4-8 users (D101-D102)
    before (lowest, highest) and after (highest), the A100 bursts after, both sets' error,
    within. The one-card bursts' prompt arithmetic over the card's bf16 peak, on an H100 and on
    an A100 (lowest, highest each); both sets as they are (error, within, cases) and held out
    (whole per cent)."""
    found = prompt_dispatch_figures(BEFORE_SIXTIETH)
    now, per_step = found["as it is"], found["per step"]
    apart, graphed = found["per step, prefill steps apart"], found["outside graphs"]
    bursts = [case for case in GPUSTACK_BURSTS if case.prompt_tokens < 1000]
    a100 = [case.key for case in bursts if case.gpu.startswith("A100")]
    others = [case.key for case in bursts if not case.gpu.startswith("A100")]
    shares = prompt_peak_shares()

    def peaks(card):
        found_shares = [share for gpu, share in shares.values() if gpu.startswith(card)]
        return round(min(found_shares), 2), round(max(found_shares), 2)

    def error(reading):
        return round(100 * reading["both"][0], 1)

    def held(reading):
        return round(100 * reading["held_out"][0], 1)

    error_now, within_now, cases = now["both"]
    return (
        *ratio_span(now, a100), *ratio_span(per_step, a100), *ratio_span(now, others),
        *ratio_span(per_step, others),
        error(now), error(per_step), within_now, per_step["both"][1], cases,
        held(now), held(per_step),
        *ratio_span(now, ["D35", "D36"]), *ratio_span(apart, ["D35", "D36"]),
        *ratio_span(now, ["S3", "S4"]), *ratio_span(apart, ["S3", "S4"]),
        error(apart), apart["both"][1], held(apart),
        *ratio_span(now, ["D101", "D102"]), ratio_span(graphed, ["D101", "D102"])[1],
        *ratio_span(graphed, a100), error(graphed), graphed["both"][1],
        *peaks("H100"), *peaks("A100"),
        round(100 * error_now, 1), within_now, cases, round(100 * now["held_out"][0]),
    )  # fmt: skip


def fiftieth_round_rule_figures() -> tuple:
    """AITER's chart (MI300X lowest and highest TFLOP/s, MI355X's); the catalog's AITER rows
    (share and extra keys, MI300X then MI355X) and the engine rows the AITER releases borrowed
    on AMD's cards before (lowest, highest share); ATOM's gpt-oss at 8,000 tokens and 32-64 users
    before and after (lowest, highest each); both sets before and after (two decimals) and the
    second set before and after (one decimal); no later round's rule."""
    with before_riding_prompts():
        with without_aiter_prompt():
            before = report_scores(BEFORE_SIXTIETH)
        after = report_scores(BEFORE_SIXTIETH)
    borrowed = [PREFILL_ATTENTION[(family, "bf16", engine)].rate_share
                for family in ("hopper", "blackwell") for engine in ("vllm", "sglang")]  # fmt: skip
    rows = ["D367", "D368"]

    return (
        round(min(CHART_TFLOPS["MI300X"])), round(max(CHART_TFLOPS["MI300X"])),
        round(min(CHART_TFLOPS["MI355X"])), round(max(CHART_TFLOPS["MI355X"])),
        *(figure for key in (("cdna3", "bf16"), ("cdna4", "bf16"))
          for figure in (AITER_PREFILL_ATTENTION[key].rate_share,
                         AITER_PREFILL_ATTENTION[key].extra_keys)),
        min(borrowed), max(borrowed), *ratio_span(before, rows), *ratio_span(after, rows),
        round(100 * before["both"], 2), round(100 * after["both"], 2),
        round(100 * before["second"], 1), round(100 * after["second"], 1),
    )  # fmt: skip


def _riding_round(number, *shown) -> tuple:
    """Round ``number`` of :mod:`bench.riding_prompts`: the ``shown`` nodes' first tokens at one
    user, at two before and at two after (ms, each node in turn), the priced figures before and
    after, and the scored rows the rule moves by 1 % or more."""
    table = first_token_table(number)
    tokens = [round(1e3 * table[node][index]) for node in shown for index in (0, 1, 3)]
    before, after = riding_figures(number, BEFORE_SIXTIETH)
    return tokens, before, after, moved(before, after, 0.01)


def fifty_first_round_figures() -> tuple:
    """A riding mixture's prompt streams its experts: DeepSeek-R1 on eight H200 under vLLM, its
    first token at one user, at two before and at two after (ms), gpt-oss-120b on one H100 the
    same; the scored rows moved by 1 % or more; D412, D338, D06 and D408 before and after; both
    sets before and after (two decimals), within before and after, cases and the share within
    after (one decimal); held out before and after (two decimals); the two TensorRT-LLM check
    sets before and after (error, within, cases each); ATOM's first tokens (lowest, highest)
    before and after."""
    tokens, before, after, moved_keys = _riding_round(
        51,
        ("DeepSeek-R1", "H200", 8, "fp8", "vllm"),
        ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm"),
    )
    rows = [round(found["ratios"][key], 2)
            for key in ("D412", "D338", "D06", "D408") for found in (before, after)]  # fmt: skip
    (error, within, cases), (error_after, within_after, _) = before["both"], after["both"]
    checks = [(round(100 * found["checks"][index].geometric_mean_error, 1),
               found["checks"][index].within_band, found["checks"][index].cases)
              for index in (0, 1) for found in (before, after)]  # fmt: skip
    first = [round(bound(found["first tokens"].values()), 2)
             for found in (before, after) for bound in (min, max)]  # fmt: skip
    return (
        *tokens, len(moved_keys), *rows,
        round(100 * error, 2), round(100 * error_after, 2), within, within_after, cases,
        round(100 * within_after / cases, 1),
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        checks[0][0], checks[1][0], checks[0][1], checks[1][1], checks[0][2],
        checks[2][0], checks[3][0], checks[2][1], checks[3][1], checks[2][2], *first,
    )  # fmt: skip


def fifty_second_round_figures() -> tuple:
    """A riding prompt's collectives at its step's size: Llama-3-70B on eight H100 and
    DeepSeek-R1 on eight H200 under TensorRT-LLM, each's first token at one user, at two before
    and at two after (ms); the scored rows moved by 1 % or more; D385 and D08 before and after;
    Azure's rows before and after (one decimal); GPUStack's Qwen3-235B-A22B runs on eight H100 at
    2,000-4,000 and 128 tokens (lowest, highest) before and after; both sets before and after
    (two decimals), within, cases; held out before and after (two decimals); the check set
    before and after (one decimal), within before and after, cases; the two TensorRT-LLM check
    sets before and after (two decimals each)."""
    tokens, before, after, moved_keys = _riding_round(
        52, ("Llama-3-70B", "H100 SXM", 8, "bf16", "tensorrt-llm"),
        ("DeepSeek-R1", "H200", 8, "fp8", "tensorrt-llm"),
    )  # fmt: skip
    rows = [round(found["ratios"][key], 2) for key in ("D385", "D08") for found in (before, after)]
    azure = [round(100 * summarise(np.array([found["ratios"][case.key] for case in AZURE]))
                   .geometric_mean_error, 1) for found in (before, after)]  # fmt: skip
    bursts = [
        *ratio_span(before, ("D390", "D391", "D392")),
        *ratio_span(after, ("D390", "D391", "D392")),
    ]
    (error, within, cases), (error_after, _, _) = before["both"], after["both"]
    check, check_after = before["checks"][2], after["checks"][2]
    trt = [round(100 * found["checks"][index].geometric_mean_error, 2)
           for index in (0, 1) for found in (before, after)]  # fmt: skip
    return (
        *tokens, len(moved_keys), *rows, *azure, *bursts,
        round(100 * error, 2), round(100 * error_after, 2), within, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        *(round(100 * found.geometric_mean_error, 1) for found in (check, check_after)),
        check.within_band, check_after.within_band, check.cases, *trt,
    )  # fmt: skip


def fifty_third_round_figures() -> tuple:
    """A chunked riding prompt waits a step a pass: Llama-2-7B on eight B200 under vLLM 0.8 and
    gpt-oss-120b on one A100 at 8,192 tokens, each's first token at one user, at two before and
    at two after (ms); the scored rows that move at all and the largest move (per cent, one
    decimal); both sets after (two decimals), within and cases; held out after (two decimals)."""
    tokens, before, after, _ = _riding_round(53, *SHOWN[53][:2])
    moves = [
        abs(after["ratios"][key] / before["ratios"][key] - 1.0) for key in moved(before, after)
    ]
    error, within, cases = after["both"]
    return (
        *tokens, len(moves), round(100 * max(moves), 1), round(100 * error, 2), within, cases,
        round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def fifty_fourth_round_figures() -> tuple:
    """A lone mixture's prompt runs its chunk's experts each pass: Qwen3-235B-A22B on eight A100
    and DeepSeek-R1 on eight H200 at 32,768 tokens, each's first token at one user after and
    before (ms); the scored rows moved by half a per cent or more, their lowest and highest
    before and after; both sets before and after (three decimals), within, cases; held out
    before and after (three decimals); SC '25's runs before and after (one decimal)."""
    table = first_token_table(54)
    tokens = [round(1e3 * table[shown][index]) for shown in SHOWN[54] for index in (2, 0)]
    before, after = riding_figures(54, BEFORE_SIXTIETH)
    moved_keys = moved(before, after, 0.005)
    spans = [*ratio_span(before, moved_keys), *ratio_span(after, moved_keys)]
    (error, within, cases), (error_after, _, _) = before["both"], after["both"]
    with as_round(54, rule=False):
        sc25 = score(CHECK_SC25).geometric_mean_error
    sc25_after = score(CHECK_SC25).geometric_mean_error
    return (
        *tokens, len(moved_keys), *spans, round(100 * error, 3), round(100 * error_after, 3),
        within, cases, round(100 * before["held_out"][0], 3), round(100 * after["held_out"][0], 3),
        round(100 * sc25, 1), round(100 * sc25_after, 1),
    )  # fmt: skip


def fifty_fifth_round_figures() -> tuple:
    """SGLang 0.4's bf16 GEMMs tile 64 rows: Qwen3-32B's 64 rows' arithmetic and its dense
    weights' stream on one H20 (ms, one decimal); the scored rows moved by half a per cent or
    more; Qwen's dense bf16 rows at a one-token prompt, lowest and highest ratio before and after;
    the split of their steps (ms, TB/s) measured, priced after and the rate priced before; both
    sets before and after (two decimals), within, cases; held out before and after (two
    decimals)."""
    tiles, stream = tile_and_stream_ms()
    with as_round(55):  # before the fifty-sixth round's head tiles (its own figures quote them)
        before, after = cublas_tile_figures(BEFORE_SIXTIETH)
        split_before, split_after = step_splits()
    moved_keys = moved(before, after, 0.005)
    dense = [case.key for case in dense_one_token_rows()["bf16"]]
    (fixed, rate), (fixed_after, rate_after) = split_after["measured"], split_after["engine"]
    (error, within, cases), (error_after, _, _) = before["both"], after["both"]
    return (
        round(tiles, 1), round(stream, 1), len(moved_keys), *ratio_span(before, dense),
        *ratio_span(after, dense), round(1e3 * fixed_after, 2), round(rate_after / 1e12, 2),
        round(1e3 * fixed, 2), round(rate / 1e12, 2),
        round(split_before["engine"][1] / 1e12, 2), round(100 * error, 2),
        round(100 * error_after, 2), within, cases, round(100 * before["held_out"][0], 2),
        round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def fifty_sixth_round_figures() -> tuple:
    """The output head's bf16 GEMM takes its 64-row tile under SGLang 0.4: Qwen3-0.6B's head on
    one H20, its 64 rows' arithmetic and its stream (ms, two decimals); the scored rows moved by
    half a per cent or more; Qwen's dense rows at a one-token prompt by format (bf16, FP8, AWQ),
    lowest and highest ratio before and after; both sets before and after (two decimals), within
    before and after, cases; held out before and after (two decimals)."""
    head, stream = head_tile_and_stream_ms()
    with as_round(56):  # before the fifty-seventh round's measured tile rate
        before, after = cublas_head_figures(BEFORE_SIXTIETH)
    moved_keys = moved(before, after, 0.005)
    rows = dense_one_token_rows()
    keys = ([case.key for case in rows[fmt]] for fmt in ("bf16", "FP8", "AWQ"))
    spans = spans_before_after(before, after, *keys)
    (error, within, cases), (error_after, within_after, _) = before["both"], after["both"]
    return (
        round(head, 2), round(stream, 2), len(moved_keys), *spans, round(100 * error, 2),
        round(100 * error_after, 2), within, within_after, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def fifty_seventh_round_figures() -> tuple:
    """A tile multiplies at the H20's measured few-token rate: the table's shapes read as 64 rows,
    those within 15 % of the median's rate: their lowest and highest share of the bf16 peak, how
    many, of how many; the share of its achieved bf16 rate (three decimals) and the rows that
    count at it (one decimal); Qwen3-32B's 64 rows at the share and at the achieved rate (ms,
    one decimal); the scored rows moved by half a per cent or
    more; Qwen's dense rows at a one-token prompt, bf16 and FP8, lowest and highest ratio before
    and after; the bf16 rows' steps split as priced after (ms, TB/s); both sets before and after
    (two decimals), within before and after, cases; held out before and after (two decimals)."""
    share = GEMM_TILE_SHARES[("hopper", "bf16", "sglang", "0.4")]
    counted = gemm_tile_rows("H20", "bf16", "sglang", "0.4")  # the tile's rows over the share
    peak_shares = skinny_tile_rates() / GPUS["H20"].bf16_flops
    # the shapes whose rate lies within 15 % of the median's: the table's body, its outliers out
    body = peak_shares[np.abs(peak_shares / np.median(peak_shares) - 1.0) <= 0.15]
    achieved, measured = share_tile_ms()
    with as_round(57):  # before the fifty-eighth round's fp8 rates
        before, after = share_figures(BEFORE_SIXTIETH)
    moved_keys = moved(before, after, 0.005)
    rows = dense_one_token_rows()
    keys = ([case.key for case in rows[fmt]] for fmt in ("bf16", "FP8"))
    spans = spans_before_after(before, after, *keys)
    fixed, rate = measured_and_priced(rows["bf16"])["engine"]
    (error, within, cases), (error_after, within_after, _) = before["both"], after["both"]
    return (
        round(min(body), 2), round(max(body), 2), len(body), len(peak_shares), round(share, 3),
        round(counted, 1), round(measured, 1), round(achieved, 1),
        len(moved_keys), *spans, round(1e3 * fixed, 2), round(rate / 1e12, 2),
        round(100 * error, 2), round(100 * error_after, 2), within, within_after, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def fifty_eighth_round_figures() -> tuple:
    """The H20's own fp8 rate: the rate before and after and DeepGEMM's tile rate (TFLOP/s,
    whole); Qwen3-14B-FP8's 64 rows after and before (ms, one decimal); the scored rows moved by
    half a per cent or more; Qwen's dense FP8 rows at a one-token prompt and the SGLang
    contributors' DeepSeek-V3 on eight H20 (D241-D242), lowest and highest ratio before and after;
    both sets before and after (two decimals), within, cases; held out before and after (two
    decimals)."""
    before_ms, after_ms = fp8_tile_ms()
    with as_round(58):  # before the sixty-fifth round's tables
        before, after = fp8_figures(BEFORE_SIXTIETH)
    moved_keys = moved(before, after, 0.005)
    fp8 = [case.key for case in dense_one_token_rows()["FP8"]]
    spans = spans_before_after(before, after, fp8, ["D241", "D242"])
    (error, within, cases), (error_after, _, _) = before["both"], after["both"]
    return (
        round(H20_FP8_FLOPS / 1e12), round(BORROWED_H20_FP8_FLOPS / 1e12),
        round(deepgemm_tile_flops() / 1e12), round(after_ms, 1), round(before_ms, 1),
        len(moved_keys), *spans, round(100 * error, 2), round(100 * error_after, 2), within,
        cases, round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def report_scores(leaving=frozenset()) -> dict:
    """The development sets priced now, less the cases ``leaving`` names (both sets' error, the
    second set's, each both-set case's ratio by key)."""
    found = scored_figures(leaving)
    first = {case.key for case in DEVELOPMENT}
    ratios = found["ratios"]
    second = summarise(np.array([r for key, r in ratios.items() if key not in first]))
    return {"both": found["both"][0], "second": second.geometric_mean_error, "ratios": ratios}


def fifty_ninth_round_figures() -> tuple:
    """The ATOM dashboard run's first tokens (D413-D442): how many; gpt-oss-120b's on 1k prompts
    at four users (lowest, highest) and at any load (lowest), on 8k prompts (lowest, highest);
    DeepSeek-R1's count, lowest and highest; AITER's gpt-oss steps of 8,192 and 16,384 tokens (ms,
    two decimals) and their times over the MXFP4 row's price (one decimal); the same runs' scored
    gpt-oss throughputs at 32-64 users (lowest, highest); the first-token band's cases, low and
    high (two decimals). Ratios two decimals."""
    rows = ATOM_DASHBOARD_FIRST_TOKENS
    # the same runs' scored gpt-oss throughputs (32-64 users), priced in the same call
    scored = [case for case in ATOM_DASHBOARD
              if case.model == "gpt-oss-120b" and case.metric == "throughput"]  # fmt: skip
    cases = [*rows, *scored]
    found = {"ratios": dict(zip((case.key for case in cases),
                                predictions(cases) / [case.measured for case in cases],
                                strict=True))}  # fmt: skip
    gpt_oss = [case for case in rows if case.model == "gpt-oss-120b"]
    short = [case.key for case in gpt_oss if case.prompt_tokens < 1000]
    four = [case.key for case in gpt_oss if case.prompt_tokens < 1000 and case.load_value == 4]
    long = [case.key for case in gpt_oss if case.prompt_tokens > 1000]
    deepseek = [case.key for case in rows if case.model == "DeepSeek-R1"]
    steps = {tokens: (measured, priced) for tokens, measured, priced in gpt_oss_long_steps()}
    aiter = [round(steps[tokens][0] * 1e3, 2) for tokens in (8192, 16384)]
    over = [round(steps[tokens][0] / steps[tokens][1], 1) for tokens in (8192, 16384)]
    band = first_token_band(BEFORE_SIXTIETH)
    return (
        len(rows), *ratio_span(found, four), ratio_span(found, short)[0],
        *ratio_span(found, long), len(deepseek), *ratio_span(found, deepseek), *aiter, *over,
        *ratio_span(found, [case.key for case in scored]), band.cases, round(band.low, 2),
        round(band.high, 2),
    )  # fmt: skip


def sixtieth_round_figures() -> tuple:
    """InferenceX's bot on eight B200 (D443-D452), as typed: the scored throughputs at 4-8 users
    and at 16-32 (lowest, highest each), how many within the band, of how many; the first tokens
    at 4-32 users (lowest, highest); both sets before and after (three decimals), within and
    cases after; held out before and after (two decimals); the first-token band's cases, low and
    high (two decimals). Ratios two decimals."""
    with as_round(60):  # before the sixty-first round's polls (its own figures quote them)
        before, after = scored_figures(BEFORE_SIXTIETH), scored_figures(BEFORE_SIXTY_SECOND)
        tokens = [case for case in SIXTIETH_ROUND
                  if case.metric == "ttft" and case.load_value <= 32]  # fmt: skip
        token_ratios = predictions(tokens) / [case.measured for case in tokens]
    band = first_token_band(BEFORE_SIXTY_SECOND)  # as it stands (the report prices once)
    scored = [case for case in SIXTIETH_ROUND if case.scored]
    light = [case.key for case in scored if case.load_value <= 8]
    heavier = [case.key for case in scored if case.load_value > 8]
    within = summarise(np.array([after["ratios"][case.key] for case in scored])).within_band
    (error, _, _), (error_after, within_after, cases) = before["both"], after["both"]
    return (
        *ratio_span(after, light), *ratio_span(after, heavier), within, len(scored),
        round(float(min(token_ratios)), 2), round(float(max(token_ratios)), 2),
        round(100 * error, 3), round(100 * error_after, 3), within_after, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        band.cases, round(band.low, 2), round(band.high, 2),
    )  # fmt: skip


def sixty_first_round_figures() -> tuple:
    """SGLang's scheduler polls every few steps: InferenceX's B200 first tokens at 4-8 users
    (interval 10) and at 16-32 (interval 30), lowest and highest before and after; the largest
    move of a scored throughput (per cent, one decimal); both sets before and after (three
    decimals), within, cases; held out before and after (two decimals); the first-token band's
    cases, low and high (two decimals)."""
    tokens = [case for case in SIXTIETH_ROUND if case.metric == "ttft" and case.load_value <= 32]
    light = [case.key for case in tokens if case.load_value <= 8]
    heavier = [case.key for case in tokens if case.load_value > 8]
    with as_round(61):  # before the sixty-fifth round's tables (its own figures quote them)
        spans = spans_before_after(*row_ratios(), light, heavier)
        before, after = scheduler_poll_figures(BEFORE_SIXTY_SECOND)
    moves = [abs(after["ratios"][case.key] / before["ratios"][case.key] - 1.0)
             for case in SIXTIETH_ROUND if case.scored]  # fmt: skip
    (error, _, _), (error_after, within, cases) = before["both"], after["both"]
    band = first_token_band(BEFORE_SIXTY_SECOND)
    return (
        *spans, round(100 * max(moves), 1), round(100 * error, 3), round(100 * error_after, 3), within,
        cases, round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        band.cases, round(band.low, 2), round(band.high, 2),
    )  # fmt: skip


def sixty_second_round_figures() -> tuple:
    """Two more cookbook pages (D453-D469), as typed: DeepSeek-R1's times between tokens and
    throughputs, then Llama's (lowest, highest each), how many within, of how many; DeepSeek-R1's
    one-user step as priced and what its dense GEMMs' measured floors add to it (ms, one decimal),
    the block-scaled fp8 floor per GEMM (µs, one decimal); both sets before and after (three
    decimals), within and cases after; held out before and after (two decimals); the one-user
    first tokens of each page (lowest, highest); the first-token band's cases, low and high.
    Ratios two decimals."""
    scored = [case for case in SIXTY_SECOND_ROUND if case.scored]
    one_user = next(case for case in scored if case.model == "DeepSeek-R1")
    tokens = [case for case in SIXTY_SECOND_ROUND if case.metric == "ttft"]
    with as_round(62):  # before the sixty-fifth round's tables (its own figures quote them)
        before, after = scored_figures(BEFORE_SIXTY_SECOND), scored_figures(BEFORE_SIXTY_THIRD)
        node = engine_node(one_user.scenario())
        floor = dense_gemm_floor(one_user.gpu, "fp8_block", "sglang", one_user.version_knob)
        token_ratios = predictions(tokens) / [case.measured for case in tokens]
        gemm_floors = float(node._gemm_floor_extra)
    groups = [
        [case.key for case in scored if case.model == model and case.metric == metric]
        for model in ("DeepSeek-R1", "Llama-3-70B")
        for metric in ("itl", "throughput")
    ]
    within = summarise(np.array([after["ratios"][case.key] for case in scored])).within_band
    spans = [(round(float(min(r)), 2), round(float(max(r)), 2))
             for r in (token_ratios[:3], token_ratios[3:])]  # fmt: skip
    (error, _, _), (error_after, within_after, cases) = before["both"], after["both"]
    band = first_token_band(BEFORE_SIXTY_THIRD)
    return (
        *[bound for keys in groups for bound in ratio_span(after, keys)], within, len(scored),
        round(1e3 * after["ratios"][one_user.key] * one_user.measured, 1),
        round(1e3 * gemm_floors, 1), round(1e6 * floor, 1),
        round(100 * error, 3), round(100 * error_after, 3), within_after, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        *spans[0], *spans[1], band.cases, round(band.low, 2), round(band.high, 2),
    )  # fmt: skip


def sixty_third_round_figures() -> tuple:
    """SGLang's cookbook on eight MI300X (D470-D479), as typed (none within the band): the V3.1
    page's one-user times between tokens (lowest, highest), the one-user step as priced (ms, one
    decimal) and as the page measures it (lowest, highest, ms), its heavy-load throughputs
    (lowest, highest), the V3 page's DEP8 throughput; both sets before and after (three decimals),
    within and cases after; held out before and after (two decimals); the AMD family's error
    after (whole per cent); the one-user first tokens (lowest, highest); the first-token band's
    cases, low and high. Ratios two decimals."""
    tokens = [case for case in SIXTY_THIRD_ROUND if case.metric == "ttft"]
    with as_round(63):  # before the sixty-fourth round's Triton GEMMs (its own figures quote them)
        before = scored_figures(BEFORE_SIXTY_THIRD)
        after = scored_figures(BEFORE_SIXTY_SIXTH)
        token_ratios = predictions(tokens) / [case.measured for case in tokens]
    scored = [case for case in SIXTY_THIRD_ROUND if case.scored]
    steps = [case for case in scored if case.metric == "itl"]
    heavy = [case.key for case in scored if case.metric == "throughput" and case.layout == "TP8"]
    dep = next(case.key for case in scored if case.layout == "DEP8")
    within = summarise(np.array([after["ratios"][case.key] for case in scored])).within_band
    priced = [after["ratios"][case.key] * case.measured for case in steps]
    amd_keys = {case.key for case in PUBLISHED if vendor(case) == "AMD"}
    amd = summarise(np.array([ratio for key, ratio in after["ratios"].items() if key in amd_keys]))
    (error, _, _), (error_after, within_after, cases) = before["both"], after["both"]
    band = first_token_band()  # as it stands (the report prices once)
    assert within == 0, "the paragraph says none of the scored rows lands in the band"
    return (
        *ratio_span(after, [case.key for case in steps]), round(1e3 * min(priced), 1),
        round(1e3 * min(case.measured for case in steps), 1),
        round(1e3 * max(case.measured for case in steps), 1), *ratio_span(after, heavy),
        round(after["ratios"][dep], 2), round(100 * error, 3), round(100 * error_after, 3), within_after, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        round(100 * amd.geometric_mean_error),
        round(float(min(token_ratios)), 2), round(float(max(token_ratios)), 2),
        band.cases, round(band.low, 2), round(band.high, 2),
    )  # fmt: skip


def sixty_fourth_round_figures() -> tuple:
    """SGLang 0.5.6-0.5.9's Triton GEMMs on CDNA3: the workgroups DeepSeek's attention GEMM runs
    on the default tile, the tile's time at 64 tokens (µs, one decimal), its cost an input (ns,
    one decimal) and the tuned row's (two decimals); AITER PR #1930's tuning, its saving as priced
    over as measured, priced and measured (ms, two decimals); the cookbook's one-user steps, its
    64-100-user throughputs and its DEP8 run, before and after (lowest, highest each), how many
    of the scored rows within and of how many; both sets before and after (three decimals),
    within and cases after; held out before and after (two decimals); the AMD family after
    (whole per cent). Ratios two decimals."""
    with as_round(64):  # before the sixty-fifth round's tables (its own figures quote them)
        before, after = triton_tile_figures(BEFORE_SIXTY_SIXTH)
        check = pr_1930_check()
        tuned = dense_gemm_cost("MI300X", "fp8_block", "sglang", "0.5.10").per_input_s
    amd_keys = {case.key for case in PUBLISHED if vendor(case) == "AMD"}
    amd = summarise(np.array([ratio for key, ratio in after["ratios"].items() if key in amd_keys]))
    scored = [case for case in SIXTY_THIRD_ROUND if case.scored]
    steps = [case.key for case in scored if case.metric == "itl"]
    heavy = [case.key for case in scored if case.metric == "throughput" and case.layout == "TP8"]
    dep = [case.key for case in scored if case.layout == "DEP8"]
    within = summarise(np.array([after["ratios"][case.key] for case in scored])).within_band
    outputs, _ = PR_1930_SHAPE
    (error, _, _), (error_after, within_after, cases) = before["both"], after["both"]
    return (
        -(-outputs // TRITON_DEFAULT_TILE_OUTPUTS), round(1e6 * TRITON_DEFAULT_TILE_TIMES_S[64], 1),
        round(1e9 * TRITON_DEFAULT_TILE_INPUT_S, 1), round(1e9 * tuned, 2),
        round(check.ratio, 2), round(1e3 * check.priced_s, 2), round(1e3 * check.measured_s, 2),
        *ratio_span(before, steps), *ratio_span(after, steps), *ratio_span(before, heavy),
        *ratio_span(after, heavy), *ratio_span(before, dep)[:1], *ratio_span(after, dep)[:1],
        within, len(scored), round(100 * error, 3), round(100 * error_after, 3), within_after,
        cases, round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        round(100 * amd.geometric_mean_error),
    )  # fmt: skip


def sixty_fifth_round_figures() -> tuple:
    """Two tables read again: the corrected B200 floor (µs, one decimal) and the earlier 0.5.14
    and 0.5.9 floors it replaces; DeepSeek-R1's one-user steps on eight B200 (D453-D458's), its
    64-100-user throughputs, Qwen3-Coder's three rows (D246-D248) and the 0.4 line's run
    (D243), before and after (lowest, highest each; one figure for one row); InferenceX's
    MI325X rows before and after (lowest, highest); both sets before and after (three
    decimals), within and cases after; held out before and after (two decimals)."""
    with as_round(65):  # before any later round's rule (its own figures quote them)
        before, after = corrected_table_figures(BEFORE_SIXTY_SIXTH)
    corrected = RELEASE_DENSE_GEMM_FLOORS[("blackwell", "fp8_block", "sglang", "0.5.14")]
    earlier = [EARLIER_BLACKWELL_ROWS[("blackwell", "fp8_block", "sglang", release)].floor_s
               for release in ("0.5.14", "0.5.9")]  # fmt: skip
    deepseek = [case for case in SIXTY_SECOND_ROUND if case.scored and case.gpu == "B200"]
    steps = [case.key for case in deepseek if case.metric == "itl"]
    heavy = [case.key for case in deepseek if case.metric == "throughput"]
    coder = ["D246", "D247", "D248"]
    mi325x = [case.key for case in PUBLISHED if case.scored and case.gpu == "MI325X"
              and case.engine == "SGLang"]  # fmt: skip
    (error, _, _), (error_after, within, cases) = before["both"], after["both"]
    return (
        round(1e6 * corrected.floor_s, 1), *(round(1e6 * floor, 1) for floor in earlier),
        *spans_before_after(before, after, steps, heavy, coder),
        round(before["ratios"]["D243"], 2), round(after["ratios"]["D243"], 2),
        *spans_before_after(before, after, mi325x),
        round(100 * error, 3), round(100 * error_after, 3), within, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
    )  # fmt: skip


def sixty_sixth_round_figures() -> tuple:
    """A vLLM contributor's bf16 baselines (D480-D487), as typed: the engine level at batch 1
    (lowest, highest) and at 4-16 (lowest, highest), the whiteboard's over all eight (lowest,
    highest); both sets before and after (three decimals), within and cases after; held out
    before and after (two decimals); the publisher's own error (whole per cent). Ratios two
    decimals."""
    before, after = scored_figures(BEFORE_SIXTY_SIXTH), scored_figures()
    one = [case.key for case in SIXTY_SIXTH_ROUND if case.load_value == 1]
    more = [case.key for case in SIXTY_SIXTH_ROUND if case.load_value > 1]
    board = predictions(SIXTY_SIXTH_ROUND, "whiteboard") / [
        case.measured for case in SIXTY_SIXTH_ROUND
    ]
    own = summarise(np.array([after["ratios"][case.key] for case in SIXTY_SIXTH_ROUND]))
    (error, _, _), (error_after, within, cases) = before["both"], after["both"]
    return (
        *ratio_span(after, one), *ratio_span(after, more),
        round(float(min(board)), 2), round(float(max(board)), 2),
        round(100 * error, 3), round(100 * error_after, 3), within, cases,
        round(100 * before["held_out"][0], 2), round(100 * after["held_out"][0], 2),
        round(100 * own.geometric_mean_error),
    )  # fmt: skip
