"""What kernels reach on each card family: expert layers, by engine and release.

The engine level prices a mixture-of-experts layer from measured grouped-GEMM tables instead
of a dense matmul at full bandwidth, and launches the kernels each kind of layer runs
(:mod:`core.catalog.layer_kernels`; each serving engine's own costs outside the kernels are in
:mod:`core.catalog.engines`). Every figure here has a source; the expert-layer figures are fitted
to kernel microbenchmarks (never to a serving benchmark) by ``bench/moe_kernel_fit.py``,
``bench/aiter_moe_fit.py`` and ``bench/rocm_triton_moe_fit.py``.
"""

from __future__ import annotations

from dataclasses import replace

from core.catalog.amd_kernel_sources import (
    AITER_CARDS,
    AITER_SOURCE,
    ROCM_TRITON_FIGURES,
    ROCM_TRITON_SOURCE,
    SGLANG_COPY,
)
from core.catalog.engine_versions import engine_version
from core.catalog.expert_kernel import AIC_SOURCE as _AIC
from core.catalog.expert_kernel import AIC_TP_SOURCE as _AIC_TP
from core.catalog.expert_kernel import ExpertKernel
from core.catalog.release_kernels import RELEASE_EXPERT_KERNELS
from core.catalog.release_lines import release_line

# -- Card families: which measured kernel tables describe a card.
CARD_FAMILIES: dict[str, str] = {
    "H100 SXM": "hopper",
    "H200": "hopper",
    "H20": "hopper",
    "A100 80GB SXM": "ampere",
    "A100 40GB SXM": "ampere",
    "L40S": "ada",
    "L4": "ada",
    "B200": "blackwell",
    "MI300X": "cdna3",
    "MI325X": "cdna3",
    "MI355X": "cdna4",
    "custom": "hopper",
}
# Families without kernel tables of their own borrow a measured family's, and say so.
BORROWED_FAMILY: dict[str, str] = {
    "ampere": "hopper",
    "ada": "hopper",
    "cdna3": "hopper",
    "cdna4": "blackwell",
}


def card_family(gpu: str) -> str:
    """The family of ``gpu``'s kernels (:data:`CARD_FAMILIES`; a pasted card counts as Hopper)."""
    return CARD_FAMILIES.get(gpu, "hopper")


def amd_card(gpu: str) -> bool:
    """Whether ``gpu`` is one of AMD's (a CDNA family)."""
    return card_family(gpu).startswith("cdna")


def tables_family(gpu: str) -> tuple[str, bool]:
    """The card family whose kernel tables price ``gpu``, and whether they are its own.

    A family without tables borrows a measured family's engine-neutral figures only: its
    engines run other kernels again (ROCm's aiter and Composable Kernel, for one).
    """
    family = card_family(gpu)
    own = family not in BORROWED_FAMILY
    return (family if own else BORROWED_FAMILY[family]), own


def kernels_engine(gpu: str, engine: str, version: str | None = None) -> str:
    """Whose rows measured on ``gpu``'s own family price ``engine``'s release ``version``
    (None: its newest): ``"aiter"`` on AMD cards where the release runs AMD's AITER kernels
    (its ``amd_kernels``: SGLang's ROCm builds, vLLM with the ATOM plugin), else the engine.
    """
    if not engine or not amd_card(gpu):
        return engine
    return engine_version(engine, version).amd_kernels or engine


def priced_row(engine_rows: dict, neutral_rows: dict, gpu: str, kind: str, engine: str,
               version: str | None = None):  # fmt: skip
    """The row of a kernel table that prices ``engine``'s ``kind`` of kernel on ``gpu``, and the
    card family that measured it.

    The precedence every kernel table follows: the row of the kernels the engine's release
    runs (:func:`kernels_engine`) measured on the card's own family (AMD's AITER rows, the
    A100's), else, on a family with tables of its own, the engine's own row there; else the
    engine-neutral row of the card's own family where one was measured (the A100's int4 GEMM),
    else that of the family whose tables price the card (:func:`tables_family`).
    ``engine_rows`` are keyed (family, kind, engine or library), ``neutral_rows`` (family,
    kind); the row is None where neither table holds one.
    """
    own_family = card_family(gpu)
    measured_on_card = engine_rows.get((own_family, kind, kernels_engine(gpu, engine, version)))
    if measured_on_card is not None:
        return measured_on_card, own_family
    family, own = tables_family(gpu)
    if not own and (own_family, kind) in neutral_rows:
        return neutral_rows[(own_family, kind)], own_family
    engine_own = engine_rows.get((family, kind, engine)) if own else None
    return (neutral_rows.get((family, kind)) if engine_own is None else engine_own), family


# aiconfigurator's "balanced" rows spread a step's T k routed copies evenly over the experts,
# so they read min(E, T k) of them (their latency grows with T until T k = E, flat after); the
# fit reads them so since issue 37's twenty-second round (it had counted random routing's
# E (1 - (1 - k/E)^T), fewer below T k = E, which lowered every share fitted on decode sizes).
# Serving prices random routing's count (core.whiteboard.experts.distinct_experts).
# Rows a card family or format borrows from another are that row with its own source
# (no second copy of the figures to drift when a table is refitted).
_HOPPER_MARLIN_INT4 = ExpertKernel(
    28e-6, 0.85, 0.35, 16, _AIC_TP.format(table="h100_sxm sglang 0.5.10 marlin int4 (21 %, 11 %)")
)
# vLLM runs MXFP4 experts below SM90 with its Marlin MoE kernel (quantization/mxfp4.py
# get_mxfp4_backend). Priced by the A100's own Marlin table fitted on every layout's rows (48 us,
# 0.65, 0.30, 16 rows) in issue 37's 48th round: both sets 17.0 % -> 17.2 %, reverted; fitted on
# its tensor-parallel rows in the 49th (_A100_MARLIN below), it prices them.
_HOPPER_W4A16 = ExpertKernel(
    22e-6, 0.80, 0.725, 48,
    _AIC.format(table="h100_sxm vllm 0.24 triton w4a16_mxfp4, dequantised to bf16, 5.75 ns an "
                "input (16 %, 18 %)"),
    compute="bf16", per_input_s=5.75e-9,
)  # fmt: skip
EXPERT_KERNELS: dict[tuple[str, str], ExpertKernel] = {
    ("hopper", "bf16"): ExpertKernel(
        18e-6, 1.00, 0.825, 128,
        _AIC.format(table="h100_sxm trtllm 1.3.0rc10 cutlass bf16, 2.0 ns an input (6 %, 19 %)"),
        per_input_s=2.0e-9,
    ),
    ("hopper", "fp8"): ExpertKernel(
        32e-6, 0.95, 0.85, 192, _AIC.format(table="h100_sxm trtllm 1.3.0rc10 cutlass fp8 (8 %, 22 %)")
    ),
    ("hopper", "fp8_block"): ExpertKernel(
        34e-6, 1.00, 0.375, 48,
        _AIC.format(table="h100_sxm trtllm 1.3.0rc20 cutlass fp8_block, 128 x 128 scales (12 %, 24 %)"),
    ),
    ("hopper", "int4"): _HOPPER_MARLIN_INT4,
    ("hopper", "mxfp4"): _HOPPER_W4A16,
    ("hopper", "nvfp4"): replace(
        _HOPPER_W4A16,
        source=_AIC.format(table="no native fp4 on Hopper: the w4a16_mxfp4 dequantising kernel's"),
    ),
    ("blackwell", "bf16"): ExpertKernel(
        22e-6, 0.90, 0.775, 192,
        _AIC.format(table="b200_sxm trtllm 1.3.0rc20 cutlass bf16, 2.0 ns an input (21 %, 28 %)"),
        per_input_s=2.0e-9,
    ),
    ("blackwell", "fp8"): ExpertKernel(
        34e-6, 0.85, 0.60, 256, _AIC.format(table="b200_sxm trtllm 1.3.0rc20 cutlass fp8 (20 %, 31 %)")
    ),
    ("blackwell", "fp8_block"): ExpertKernel(
        42e-6, 0.80, 0.65, 128,
        _AIC.format(table="b200_sxm trtllm 1.3.0rc20 DeepGEMM fp8_block (20 %, 21 %)"),
    ),
    ("blackwell", "int4"): replace(
        _HOPPER_MARLIN_INT4,
        source=_AIC.format(table="no Blackwell int4 table: Hopper's Marlin kernel"),
    ),
    ("blackwell", "mxfp4"): ExpertKernel(
        22e-6, 0.55, 0.275, 16,
        _AIC.format(table="b200_sxm vllm 0.24 flashinfer trtllm w4a16_mxfp4 (17 %, 19 %)"),
        compute="bf16",
    ),
    ("blackwell", "nvfp4"): ExpertKernel(
        20e-6, 1.00, 0.45, 96, _AIC.format(table="b200_sxm vllm 0.24 flashinfer nvfp4 (22 %, 27 %)")
    ),
}  # fmt: skip


def _w4a8(fixed_s, bandwidth_share, compute_share, padding_rows, kernel, errors):
    """A B200 MXFP4 x MXFP8 expert kernel, its compute share of the fp8 rate."""
    table = f"b200_sxm {kernel} w4a8_mxfp4_mxfp8, at the fp8 rate {errors}"
    return ExpertKernel(
        fixed_s, bandwidth_share, compute_share, padding_rows, _AIC.format(table=table), "fp8"
    )


# -- Engines that run a kernel of their own. TensorRT-LLM's CUTLASS grouped GEMMs above are
# every engine's unless the engine's default for the format is another kernel: vLLM and SGLang
# run unquantised experts through their Triton fused_moe (vLLM model_executor/layers/fused_moe
# UnquantizedFusedMoEMethod; SGLang layers/moe/fused_moe_triton, moe_runner_backend "auto"),
# and SGLang runs 128-block fp8 experts under tensor parallelism through the same Triton kernel
# with fp8 inputs (Fp8MoEMethod, block_quant; DeepGEMM only under DeepEP's expert
# parallelism). Each is fitted by bench/moe_kernel_fit.py from aiconfigurator's table of that
# engine's kernel, the earliest release it measured on an H100 or B200. A family without
# tables of its own (AMD's, Ampere, Ada) borrows the engine-neutral row, except where a row
# below measured the engine's own kernel on that family (the A100's Triton fused MoE; AMD's AITER
# rows at the end).
#
# Issue 37's sixth round added the engines' own rows below where the engine's code names its
# default kernel and aiconfigurator measured it (each taken before any case was scored with it):
# - TensorRT-LLM on Hopper runs gpt-oss's experts through its own fused-MoE module (W4A16
#   MXFP4, bf16 activations; its AUTO backend resolves to its Triton path there, NVIDIA/
#   TensorRT-LLM PR #19035), measured in 1.3.0rc20 over gpt-oss's two shapes. The neutral mxfp4
#   rows above stay vLLM's (Triton matmul_ogs on Hopper, which SGLang runs for gpt-oss too),
#   fitted when TensorRT-LLM's own Hopper table held one expert count.
# - TensorRT-LLM on Blackwell multiplies MXFP4 weights by MXFP8 activations (ModelConfig.
#   get_mxfp4_quant_algo: W4A8_MXFP4_MXFP8 on SM 100+ unless the MoE backend is TRITON).
# - SGLang on Blackwell runs them through FlashInfer's MXFP4 MoE (server_args.py: moe_runner_
#   backend "flashinfer_mxfp4" for an MXFP4 GPT-OSS on Blackwell) at its default precision,
#   MXFP8 activations (flashinfer_mxfp4_moe_precision "default", "bf16" the alternative),
#   measured in 0.5.14; vLLM keeps the neutral row, its own table.
# - vLLM runs 128-block fp8 experts on Hopper through its Triton fused-MoE experts as SGLang
#   does (Fp8MoEMethod with block quantisation: TritonOrDeepGemmExperts, DeepGEMM taking only
#   batches past its alignment, so every decode-sized step is Triton's), measured in 0.24.
# TensorRT-LLM's CUTLASS nvfp4 module on Blackwell (its MoeConfig.backend default through 1.2;
# the 1.x perf overview's option files name CUTLASS where they name one) was left out in the
# sixth round: its 1.3.0rc20 table fits this kernel model less well (35 % RMS log error, padding
# rows at the grid's edge), and priced then it left both sets at 17.8 % and took the second
# check set to 21.3 %. Every TensorRT-LLM B200 nvfp4 mixture was priced by vLLM's FlashInfer
# kernel instead, against the rule above (an engine's own default kernel where measured).
# Taken in the fourteenth round, the rule committed before scoring; scored after it: both sets
# 14.45 % -> 14.4 % (D06 x1.06 -> x0.91, D07 x1.17 -> x1.01), the 1.0 page's check set 18.8 % ->
# 17.5 % (its one-card mixtures x1.21 -> x1.08), the 1.x check set 18.6 % -> 19.4 % (54 -> 55).
# A compute share is a share of the rate the kernel multiplies at (ExpertKernel.compute), which
# for the W4A16 kernels is bf16's even on cards with fp4 tensor cores (until the sixth round a
# B200's W4A16 experts were priced at its fp4 rate, 3.5 times too fast once compute bound).
# Measured: TensorRT-LLM's Hopper row took the second check set from 24.1 % to 20.2 % and both
# sets from 18.26 % to 18.12 %; the rate fix with its Blackwell row to 21.1 % and 18.16 % (the
# rate fix alone 23.5 %: the W4A16 kernel is not what TensorRT-LLM runs there); SGLang's
# Blackwell row to 17.9 % (D24 x0.92 -> x1.00), vLLM's Hopper fp8 row to 17.8 % (D108 x0.73
# -> x0.76).
#
# AMD cards' own rows (issue 37's seventh and twenty-fourth rounds): where they come from and
# which releases run them, core.catalog.amd_kernel_sources.


def _aiter(figures, cus, tables, rows, shapes, tokens, errors, cards="", per_input_s=0.0):
    """An expert row fitted by bench/aiter_moe_fit.py to AITER's tables on ``cus``-CU cards."""
    shapes = f"{shapes} shape" + ("s" if shapes != 1 else "")
    source = AITER_SOURCE.format(cus=cus, cards=cards or AITER_CARDS[cus], tables=tables,
                                 rows=rows, tokens=tokens, errors=errors, shapes=shapes)  # fmt: skip
    return ExpertKernel(*figures, source, per_input_s=per_input_s)


def _rocm_triton(weight: str, engine: str = "vllm") -> ExpertKernel:
    """vLLM's Triton fused MoE (or SGLang's copy of it) on a CDNA3 card: the fitted shares (block
    fp8 at per-tensor's, a lower bound), the borrowed row's floor and cost per input (the table's
    own floor is a host sync in every call)."""
    block = "; per-tensor figures for 128 x 128 blocks" if weight == "fp8_block" else ""
    *shares, table, errors = ROCM_TRITON_FIGURES["fp8" if weight == "fp8_block" else weight]
    copy = SGLANG_COPY if engine == "sglang" else ""
    source = ROCM_TRITON_SOURCE.format(table=table, errors=errors, block=block, copy=copy)
    borrowed = EXPERT_KERNELS[("hopper", weight)]
    return ExpertKernel(borrowed.fixed_s, *shares, source, per_input_s=borrowed.per_input_s)


# vLLM's MXFP4 experts on an A100 run its Marlin MoE (above), as SGLang 0.5.10's Marlin table on
# the A100 times it, 4-bit weights multiplied in bf16 (fitted on its tensor-parallel rows)
_A100_MARLIN = ExpertKernel(
    18e-6, 0.85, 0.575, 16,
    _AIC_TP.format(table="a100_sxm sglang 0.5.10 sglang_marlin_moe int4_wo, 4.0 ns an input "
                   "(22 %, 11 %)"),
    compute="bf16", per_input_s=4.0e-9,
)  # fmt: skip
# SGLang's Triton fused MoE on the A100 (vLLM's own A100 table, power-law rows only, times the
# same rows at x1.00); the Triton rows are fitted on their tables' tensor-parallel rows
# (bench/moe_kernel_fit.py TP_FITTED, issue 37's forty-ninth round)
_A100_TRITON = ExpertKernel(
    36e-6, 0.90, 0.475, 48,
    _AIC_TP.format(table="a100_sxm sglang 0.5.10 sglang_fused_moe_triton bf16 (14 %, 21 %); "
                   "vllm 0.14 vllm_fused_moe on the same power-law rows at x1.00"),
)  # fmt: skip
ENGINE_EXPERT_KERNELS: dict[tuple[str, str, str], ExpertKernel] = {
    ("hopper", "bf16", "sglang"): ExpertKernel(
        28e-6, 0.95, 0.525, 96,
        _AIC_TP.format(table="h100_sxm sglang 0.5.10 fused_moe_triton bf16 (9 %, 23 %)"),
    ),
    ("hopper", "fp8_block", "sglang"): ExpertKernel(
        36e-6, 0.90, 0.425, 64,
        _AIC_TP.format(table="h100_sxm sglang 0.5.10 fused_moe_triton fp8_block (9 %, 14 %)"),
    ),
    ("hopper", "mxfp4", "tensorrt-llm"): ExpertKernel(
        84e-6, 0.80, 0.40, 32,
        _AIC.format(table="h100_sxm trtllm 1.3.0rc20 moe_torch_flow w4a16_mxfp4 (18 %, 23 %)"),
        compute="bf16",
    ),
    ("blackwell", "mxfp4", "tensorrt-llm"): _w4a8(
        20e-6, 0.80, 0.50, 64, "trtllm 1.3.0rc20 moe_torch_flow", "(14 %, 31 %)"
    ),
    ("blackwell", "nvfp4", "tensorrt-llm"): ExpertKernel(
        46e-6, 0.60, 0.40, 384,
        _AIC.format(table="b200_sxm trtllm 1.3.0rc20 cutlass nvfp4 (28 %, 34 %)"),
    ),
    ("blackwell", "mxfp4", "sglang"): _w4a8(
        18e-6, 0.75, 0.50, 64, "sglang 0.5.14 flashinfer_trtllm_moe", "(16 %, 24 %)"
    ),
    ("hopper", "fp8_block", "vllm"): ExpertKernel(
        52e-6, 1.15, 0.40, 48,
        _AIC.format(table="h100_sxm vllm 0.24 fp8moe triton experts fp8_block (22 %, 21 %)"),
    ),
    ("hopper", "bf16", "vllm"): ExpertKernel(
        28e-6, 0.95, 0.650, 96,
        _AIC_TP.format(table="h100_sxm vllm 0.24 unquantized fused_moe triton bf16 (7 %, 16 %)"),
    ),
    # The A100's own (issue 37, forty-ninth round): vLLM and SGLang run bf16 experts through the
    # Triton fused MoE there too; before, the A100 borrowed Hopper's neutral CUTLASS row.
    ("ampere", "bf16", "vllm"): _A100_TRITON,
    ("ampere", "bf16", "sglang"): _A100_TRITON,
    ("ampere", "mxfp4", "vllm"): _A100_MARLIN,
    ("blackwell", "bf16", "sglang"): ExpertKernel(
        0.0, 0.80, 0.300, 48,
        _AIC_TP.format(table="b200_sxm sglang 0.5.14 fused_moe_triton bf16, 4.5 ns an input "
                       "(14 %, 20 %)"),
        per_input_s=4.5e-9,
    ),
    ("blackwell", "bf16", "vllm"): ExpertKernel(
        28e-6, 0.85, 0.450, 96,
        _AIC_TP.format(table="b200_sxm vllm 0.19 fused_moe triton bf16 (12 %, 18 %)"),
    ),
    ("blackwell", "fp8_block", "sglang-triton"): ExpertKernel(  # release_kernels: before 0.5.4
        36e-6, 0.70, 0.275, 64,
        _AIC_TP.format(table="b200_sxm sglang 0.5.14 fused_moe_triton fp8_block (7 %, 8 %)"),
    ),
    ("cdna3", "fp8_block", "aiter"): _aiter(
        (46e-6, 0.95, 0.650, 64), 304, "a8w8_blockscale_tuned_fmoe_{ds_v3,glm5_1}", 42, 3,
        "1-16,384", "14 %, 13 %",
    ),
    ("cdna4", "fp8_block", "aiter"): _aiter(
        (6e-6, 0.95, 0.325, 64), 256, "a8w8_blockscale_tuned_fmoe_{ds_v3,qwen3_235b}", 48, 4,
        "1-32,768", "15 %, 11 %; 4.0 ns an input, its shapes left out 16 % where a floor alone "
        "read them 18 %", per_input_s=4.0e-9,
    ),
    ("cdna3", "bf16", "aiter"): _aiter(
        (20e-6, 0.75, 0.45, 64), 304, "qwen3_235b_bf16_tuned_fmoe", 32, 2, "1-32,768", "6 %, 7 %"
    ),
    ("cdna4", "bf16", "aiter"): _aiter(
        (22e-6, 0.90, 0.50, 64), 256, "qwen3_235b_bf16_tuned_fmoe", 16, 1, "1-32,768", "6 %, 6 %"
    ),
    ("cdna4", "mxfp4", "aiter"): _aiter(
        (20e-6, 0.90, 0.675, 192), 256, "{dsv3_fp4,gptoss_fp4,gptoss_a16w4}_tuned_fmoe", 143, 10,
        "1-32,768", "14 %, 15 %", "MI355X; MXFP4 weights, fp4 activations (bf16 at few tokens "
        "in gpt-oss's), at the fp4 rate",
    ),
    ("cdna3", "fp8", "vllm"): _rocm_triton("fp8"),
    ("cdna3", "fp8_block", "vllm"): _rocm_triton("fp8_block"),
    ("cdna3", "bf16", "vllm"): _rocm_triton("bf16"),
    ("cdna3", "fp8", "sglang"): _rocm_triton("fp8", "sglang"),
    ("cdna3", "fp8_block", "sglang"): _rocm_triton("fp8_block", "sglang"),
    ("cdna3", "bf16", "sglang"): _rocm_triton("bf16", "sglang"),
}  # fmt: skip


def expert_kernel(
    gpu: str, weight: str, engine: str = "", version: str | None = None
) -> tuple[ExpertKernel, str]:
    """The expert-layer kernel ``engine``'s release ``version`` (None: its newest) runs on
    ``gpu`` for experts stored as ``weight``.

    Returns the kernel and the card family whose tables measured it. ``weight`` is a format of
    :data:`core.catalog.WEIGHT_FORMATS`, or ``"fp8_block"`` for fp8 with a scale per 128 x 128
    block (the format DeepSeek's and Qwen's own fp8 checkpoints ship). An engine's own kernel
    (:data:`ENGINE_EXPERT_KERNELS`) is used on the family it was measured on (a release's own
    first, where its engine changed them since: ``RELEASE_EXPERT_KERNELS``); otherwise every
    engine runs the engine-neutral row of :data:`EXPERT_KERNELS` (:func:`priced_row`'s
    precedence, which lets a card family that borrows another's tables run a row of its own
    where one measured the engine's kernel on it: AMD's AITER rows).
    """
    line = (
        release_line(engine_version(engine, version).version)
        if engine and not amd_card(gpu)
        else ""
    )
    older, _ = RELEASE_EXPERT_KERNELS.get((engine, line), ("", ""))
    if (row := ENGINE_EXPERT_KERNELS.get((card_family(gpu), weight, older))) is not None:
        return row, card_family(gpu)
    kernel, family = priced_row(ENGINE_EXPERT_KERNELS, EXPERT_KERNELS, gpu, weight, engine, version)
    if kernel is None:
        raise KeyError(f"no expert kernel prices {weight!r} experts on {family} cards")
    return kernel, family


# Bytes a routed copy of one hidden number moves: scattered (written, read) and gathered
# (written, read), 2 bytes each in bf16.
PERMUTE_BYTES = 4 * 2
