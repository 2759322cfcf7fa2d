"""Where the expert rows measured on AMD cards come from: AITER's tuned tables and AMD's
benchmark of vLLM's Triton fused MoE (the rows themselves are in :mod:`core.catalog.kernels`).
"""

from __future__ import annotations

# Issue 37's seventh round gave AMD cards rows of their own, the first not borrowed from an
# NVIDIA family: SGLang's ROCm images run with SGLANG_USE_AITER=1 (sgl-project/sglang docker/
# rocm.Dockerfile), under which its mixtures' experts run through AITER's fused MoE, two
# Composable Kernel stages: block fp8 with 128 x 128 scales (Fp8MoEMethod), bf16 under its
# default "auto" MoE backend (quantization/unquant.py UnquantizedFusedMoEMethod.forward_cuda),
# and on MI355X (gfx950) MXFP4 (quantization/mxfp4.py imports AITER's fused_moe and its MXFP4
# activation quantiser on ROCm). AITER keeps the kernel times it measured while tuning each
# shape on a card (ROCm/aiter aiter/configs/model_configs/*_tuned_fmoe.csv, the ``us``
# column); bench/aiter_moe_fit.py fits core.catalog.kernels' kernel model to them, each card's
# rows by its compute units (304: gfx942, 256: gfx950). vLLM on ROCm runs AITER only when
# VLLM_ROCM_USE_AITER is set, off by default (vllm/envs.py), else its own Triton kernel (the
# last rows, from the twenty-fourth round). Decided from the engine's code before any case was
# scored with them. The rows are keyed "aiter", the library, and a release's ``amd_kernels`` says
# whether it runs them (kernels_engine): SGLang's 0.5 line (its ROCm image sets
# SGLANG_USE_AITER=1 from 0.4.9.post3; core.catalog.release_kernels.SGLANG_04_ROCM_SOURCE) and
# the 0.4 line's AITER variant, vLLM with AMD's ATOM plugin or its AITER switch on.
AITER_SOURCE = (
    "ROCm/aiter (MIT) @e4048607 tuned fused-MoE tables, aiter/configs/model_configs/"
    "{tables}.csv, the kernel times AITER measured on {cus}-CU "
    "cards ({cards}); fitted by bench/aiter_moe_fit.py over {rows} rows of {shapes}, "
    "{tokens} tokens (RMS log errors {errors})"
)
# A 304-CU table does not say whether an MI300X or an MI325X ran it.
AITER_CARDS = {304: "MI300X and MI325X; fitted at the MI325X's rates", 256: "MI355X"}

# vLLM on ROCm without AITER (its default) runs its own Triton fused MoE, measured by AMD on the
# MI300X (issue 37's twenty-fourth round, set before scoring); per-tensor fp8 prices block fp8 too.
# SGLang's ROCm builds without AITER (its 0.3 and 0.4 lines) run SGLang's Triton fused MoE, a copy
# of vLLM's (python/sglang/srt/layers/moe/fused_moe_triton/fused_moe.py: "Adapted from" vLLM's
# fused_moe.py), so the same rows price it (issue 37's thirty-ninth round, set before scoring).
ROCM_TRITON_SOURCE = (
    "ROCm/triton PR {table} benchmark of perf-kernels/fused_moe/moe_gemm.py on the MI300X, "
    "vLLM's Triton fused-MoE loop, 64-4,096 tokens; fitted by bench/rocm_triton_moe_fit.py (RMS "
    "log errors {errors}){block}; floor borrowed{copy}"
)
SGLANG_COPY = (
    "; SGLang's fused_moe_triton is adapted from vLLM's fused_moe.py, the same kernel, run by its "
    "0.3 and 0.4 lines (its ROCm image switches AITER on from 0.4.9.post3, PR #7902)"
)
ROCM_TRITON_FIGURES = {  # bandwidth share, compute share, padding rows, table, errors
    "fp8": (0.425, 0.575, 128, "#702 (AMD, 2025-01-17): FP8_W8A8", "12 %, 9 %"),
    "bf16": (0.60, 0.70, 256, "#685 (AMD, 2024-12-18): fp16", "7 %, 7 %"),
}
