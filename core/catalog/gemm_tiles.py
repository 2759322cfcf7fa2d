"""How many rows a release's dense GEMM kernels multiply at least, however few tokens a step
carries.

A decode step of a few tokens streams each weight matrix once, but a kernel built on a tensor
instruction multiplies whole tiles of rows: where the tile is wider than the step's tokens, the
padded rows cost arithmetic at the card's tensor rate. On most cards that arithmetic hides under
the weights' stream; on an H20 (148 TFLOP/s of bf16 and 296 of fp8 beside 4.0 TB/s) it outlasts
it. :func:`core.engine_level.gemm_shapes.tile_floor_s` prices it from :data:`GEMM_TILE_ROWS`, a
tile's rows counted over the share of the card's rate its kernel was measured to multiply them at
(:data:`GEMM_TILE_SHARES`).
"""

from __future__ import annotations

from core.catalog.cards import GPUS
from core.catalog.h20_tables import (
    H20_BLOCK_FP8_SOURCE,
    H20_SKINNY_SOURCE,
    HOPPER_TILE_ROWS,
    deepgemm_tile_flops,
    skinny_tile_flops,
)
from core.catalog.kernels import card_family
from core.catalog.release_lines import release_line

# The share of Hopper's tensor-core rate Ampere's mma.sync instruction reaches there
MMA_SYNC_SHARE_ON_HOPPER = 2.0 / 3.0
# -- Tile rows. Hopper's tensor-core instruction (wgmma.mma_async; PTX ISA 8.0, its shapes are
# m64nNkK) multiplies 64 rows at once, so a kernel built on it that does not swap its operands
# multiplies at least 64 rows however few tokens a step carries. SGLang's block-scaled fp8
# linear layers run such kernels: its Triton w8a8_block_fp8_matmul, whose default config and
# whose tuned H20 configs at one token tile 64 rows, or DeepGEMM on the same instruction. On
# most cards that arithmetic hides under the weights' stream; on the H20 (296 TFLOP/s of fp8
# beside 4.0 TB/s) it outlasts it (core.engine_level.gemm_shapes.tile_floor_s). vLLM's
# block-fp8 linear layer on Hopper runs CUTLASS's blockwise kernel, whose tile is 128 rows
# (csrc/quantization/cutlass_w8a8/c3x/scaled_mm_blockwise_sm90_fp8_dispatch.cuh, TileSizeM 128,
# read at v0.7.3, v0.8.5, v0.9.1 and the 2025-08-28 main of the ROCm/vllm mirror), or its
# Triton kernel (BLOCK_SIZE_M 64 by default, the only one at v0.6.6): the releases read are
# tiled, the later ones (which may swap operands for few tokens) are not. Priced from issue
# 37's twenty-third round (the rule set before scoring; vLLM's rows the next commit).
#
# Marlin (issue 37's thirty-seventh round), the int4 kernel SGLang's 0.4 line runs for AWQ and
# GPTQ checkpoints (awq_marlin and gptq_marlin, from the vLLM 0.7 build it requires), puts a
# step's tokens on the rows of Ampere's mma.sync.m16n8k16 and multiplies them in blocks of 16
# rows (thread_m_blocks, "16x16 blocks in the m dimension (batchsize)"), so one token costs 16
# rows' arithmetic. On Hopper mma.sync reaches only about two thirds of the tensor cores' rate
# (Luo et al., arXiv:2402.13499, as the FlashAttention-3 post cites them), so its 16 rows cost
# what 24 rows cost at the card's rate. An H100's int4 arithmetic hides under the weights'
# stream; an H20's (148 TFLOP/s of bf16) outlasts it.
#
# cuBLAS's bf16 GEMMs under SGLang's 0.4 line (issue 37's fifty-fifth round). SGLang multiplies a
# bf16 linear layer with torch (F.linear), which calls cuBLAS. Qwen's speed page, the source of the
# H20 rows, states the build its SGLang rows ran: PyTorch 2.6.0+cu124 with SGLang 0.4.6.post1, and
# that wheel carries cuBLAS 12.4.5.8 (nvidia-cublas-cu12==12.4.5.8, torch 2.6.0's CUDA 12.4
# requirement on PyPI). vLLM's profiling guide (docs/contributing/profiling.md, read at b0f85e66)
# prints the nsys kernel summary of a Hopper card's serving run (FlashAttention 3's sm90 kernels) of
# the same months (a screenshot of 2025-03-05, when vLLM built on torch 2.5.1 or 2.6.0 and the same
# cu124 wheels), after a command that serves Llama-3.1-8B one 1,024-token prompt for 512 tokens: of
# its 591 forward passes (18,912 MLP activations over 32 layers) most are decode steps of one token,
# and every one of its 70,857 bf16 GEMMs ran cuBLAS's sm90_xmma_gemm_bf16bf16_bf16f32_f32_tn_n
# kernels, whose tiles are 64x64, 64x128, 128x128 and 256x128. None is narrower than 64 on either
# side, so a one-token GEMM multiplies at least 64 rows. (Later cuBLAS builds add kernels with tiles
# 8 rows wide, nvjet_tst_256x8 among them in an H200 trace that microsoft/FlowSim keeps as a test
# fixture, which SGLang's 0.5 line, on torch 2.8, runs: it is not tiled.) The line's later releases
# (0.4.7 on) moved to torch 2.7 and may run those: the line is priced as the releases the sources
# read. An H20's bf16 rate (148 TFLOP/s beside 4.0 TB/s) cannot hide 64 rows' arithmetic, any other
# card's can. The output head is a bf16 GEMM in every checkpoint the catalog prices: from the
# fifty-sixth round it multiplies the release's bf16 tile whatever the layers' format
# (core.engine_level.gemm_shapes.tile_floor_s, at the card's bf16 rate).
# (family, format, engine, release; "" every release) -> rows at the card's tensor rate
GEMM_TILE_ROWS: dict[tuple[str, str, str, str], float] = {
    ("hopper", "fp8_block", "sglang", ""): HOPPER_TILE_ROWS,
    ("hopper", "fp8_block", "vllm", "0.6"): 64.0,
    ("hopper", "fp8_block", "vllm", "0.8"): 128.0,
    ("hopper", "fp8_block", "vllm", "0.10"): 128.0,
    ("hopper", "int4", "sglang", "0.4"): 16.0 / MMA_SYNC_SHARE_ON_HOPPER,
    ("hopper", "bf16", "sglang", "0.4"): HOPPER_TILE_ROWS,
}
GEMM_TILE_SOURCE = (
    "PTX ISA 8.0, wgmma.mma_async shapes m64nNk16 (bf16) and m64nNk32 (fp8): 64 rows an "
    "instruction; SGLang python/sglang/srt/layers/quantization/fp8_kernel.py "
    "w8a8_block_fp8_matmul_triton default config BLOCK_SIZE_M 64, and its tuned config "
    "'N=10240,K=5120,device_name=NVIDIA_H20,dtype=fp8_w8a8,block_shape=[128, 128].json' "
    "BLOCK_SIZE_M 64 at M = 1 (sgl-project/sglang @1f4eca79); vLLM "
    "scaled_mm_blockwise_sm90_fp8_dispatch.cuh TileSizeM 128 (v0.7.3 to the 2025-08 main), "
    "fp8_utils.py w8a8_block_fp8_matmul default BLOCK_SIZE_M 64 (v0.6.6); Marlin: vLLM "
    "csrc/quantization/gptq_marlin/gptq_marlin.cu (the kernel of SGLang 0.4's awq_marlin and "
    "gptq_marlin; Qwen's speed page: SGLang 0.4.6.post1 with vLLM 0.7.2 for AWQ, awq_marlin) "
    "thread_m_blocks, 16-row blocks of mma.sync.aligned.m16n8k16; mma.sync on Hopper about 2/3 "
    "of the tensor cores' peak: Luo et al., 'Benchmarking and Dissecting the Nvidia Hopper GPU "
    "Architecture', arXiv:2402.13499, as cited by the FlashAttention-3 post (pytorch.org/blog/"
    "flashattention-3, note 1); bf16 under SGLang 0.4: Qwen's speed page (qwen.readthedocs.io "
    "'Speed Benchmark', Qwen3: SGLang rows on PyTorch 2.6.0+cu124, SGLang 0.4.6.post1), torch "
    "2.6.0+cu124's nvidia-cublas-cu12==12.4.5.8, and vllm-project/vllm "
    "docs/contributing/profiling.md's nsys summary of a Hopper run (2025-03): only cuBLAS "
    "sm90_xmma bf16 kernels, tiles 64x64 to 256x128"
)


# -- The rate a tile multiplies at (issue 37's fifty-seventh round). A tile's rows were counted at
# the card's achieved rate, a large GEMM's (core.catalog.cards: MAMF's share of the peak), but a
# few-token GEMM is not a large one: each of its tiles walks the whole of K for 64 rows, and on an
# H20 (78 SMs whose tensor cores reach 148 TFLOP/s of bf16) that arithmetic is the kernel's pace.
# The one table that times such GEMMs on an H20 is the H20 column of ROCm/rocm-libraries PR
# #12329 (2026-09-18, "add rocBLAS wvSpltK skinny GEMMs (M=1/2/4) via GFA"): fp16 GEMMs of one
# to four tokens, as (N outputs, K inputs, µs); its library and release are not printed. Read as
# 64 rows of arithmetic, 11 of its 14 shapes run at 0.54-0.62 of the card's bf16 peak and their
# median at 88 TFLOP/s, 0.74 of the achieved rate the tile was priced at (two short-N shapes run
# faster, one slower). So where a release's bf16 kernels tile 64 rows on Hopper, a tile counts
# its rows over that share, as Marlin's mma.sync rows count over theirs. Measured on the H20, the
# one Hopper card whose stream cannot hide the tile; on an H100 or an H200 the rows' arithmetic
# still hides under the weights' stream.


def skinny_tile_share() -> float:
    """The share of the H20's achieved bf16 rate (:mod:`core.catalog.cards`) at which its
    measured few-token GEMMs multiply a 64-row tile (:func:`~core.catalog.h20_tables.
    skinny_tile_flops`)."""
    return skinny_tile_flops() / GPUS["H20"].achieved_bf16_flops


def deepgemm_tile_share() -> float:
    """The share of the H20's achieved fp8 rate (its own, :mod:`core.catalog.h20_tables`) at which
    DeepGEMM multiplies a few tokens' 64-row tile (:func:`~core.catalog.h20_tables.
    deepgemm_tile_flops`)."""
    return deepgemm_tile_flops() / GPUS["H20"].achieved_fp8_flops


# SGLang's block-fp8 linear layers on Hopper run DeepGEMM by default from the 0.4.6 release
# (sgl-project/sglang PR #5628, 2025-04-22, 'Turn on DeepGemm By Default'; fp8_kernel.py
# w8a8_block_fp8_matmul calls it where ENABLE_JIT_DEEPGEMM), the 0.4.6.post1 of Qwen's H20 rows
# among them (the 0.3 line ran Triton only, and the 0.4 line is priced as the release read): its
# 64-row tile at a few tokens multiplies at the rate vLLM PR #49932's H20 table times DeepGEMM at
# (issue 37's fifty-eighth round)
# (family, format, engine, release) -> the share of the card's achieved rate its tiles reach
GEMM_TILE_SHARES: dict[tuple[str, str, str, str], float] = {
    ("hopper", "bf16", "sglang", "0.4"): skinny_tile_share(),
    **{("hopper", "fp8_block", "sglang", line): deepgemm_tile_share() for line in ("0.4", "0.5")},
}
GEMM_TILE_SHARE_SOURCE = H20_SKINNY_SOURCE + (
    ": the median shape's 64 rows of arithmetic over the H20's achieved bf16 rate; block fp8 "
    "under SGLang (DeepGEMM by default from 0.4.6, sgl-project/sglang PR #5628): "
    + H20_BLOCK_FP8_SOURCE
    + ", DeepGEMM's median 64 rows at 16 and 64 tokens over the H20's achieved fp8 rate"
)


def _keyed(table: dict, family: str, weight: str, engine: str, version: str, default: float):
    """The release's entry of a table keyed (family, format, engine, release), else its line's
    ("" every release), else ``default``."""
    return table.get((family, weight, engine, release_line(version)),
                     table.get((family, weight, engine, ""), default))  # fmt: skip


def gemm_tile_rows(gpu: str, weight: str, engine: str, version: str = "") -> float:
    """Rows ``engine``'s dense GEMMs in ``weight`` (block-scaled fp8: ``"fp8_block"``) multiply at
    least on ``gpu`` in its release line ``version``, counted at the card's tensor rate (a
    kernel whose instruction reaches only part of it counts its rows over that share, and a
    tile measured to multiply below the card's achieved rate over its share,
    :data:`GEMM_TILE_SHARES`); 0 where no kernel's tile is known to be wider than a step's
    tokens."""
    family = card_family(gpu)
    rows = _keyed(GEMM_TILE_ROWS, family, weight, engine, version, 0.0)
    return rows / _keyed(GEMM_TILE_SHARES, family, weight, engine, version, 1.0)
