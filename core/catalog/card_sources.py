"""Where the accelerator cards' measured rates come from: the papers, tables and benchmarks
:mod:`core.catalog.cards` cites for what kernels reach on AMD's cards and where MAMF's table
stops."""

from __future__ import annotations

MI300X_PAPER = (
    "Ambati et al., 'AMD MI300X GPU Performance Analysis' (arXiv:2510.27583, 2025): BabelStream "
    "reaches 81 % of the 5.3 TB/s peak"
)
# Issue 37, twelfth round: a card's own stream measurement before another card's share. Of
# gpu-stream's kernels (NHR@FAU's, te42kyfo/gpu-benches) the read-only one is taken: a decode
# step reads weights and cache and writes little, and on the MI300X the same paper's read
# (4,141 GB/s) is the kernel nearest the independent BabelStream figure above (4.29 TB/s; init
# 4,587, triad 3,878). The kernel's share is the card's own: on an H200 its read reaches only
# 2,756 GB/s (gpu-benches gpu-stream/h200.txt), far below the 4.41 TB/s its decode attention
# streams here, which is why the H200 keeps that figure.
CDNA3_PAPER = (
    "Hanindhito and Patel (Dell), 'Characterizing Performance, Power, and Energy of AMD CDNA3 "
    "GPU Family', SC '25, doi:10.1145/3712285.3759768; its artifact (hibagus/"
    "SC25_AMD_CDNA3_Artifact data/5_Memory/MI325X/exec/gpu-stream.out, ROCm 6.3.3, full "
    "occupancy): gpu-stream's read kernel 5,086 GB/s (init 5,457, triad 4,305) of the 6 TB/s peak"
)
# The MI355X's fp8 and fp4 rates, as the MAMF table gives its bf16: the fastest products AMD
# has published on it (BF8 runs the MFMA rate of the other OCP fp8 format).
GLUON_GEMM = (
    "AMD ROCm blog 'From Naive to Near-Peak: Building High-Performance GEMM Kernels with Gluon' "
    "(rocm.blogs.amd.com/software-tools-optimization/gluon-gemm-tutorial, 2026), one MI355: "
    "BF8 3,257 TFLOP/s (4096 x 4096 x 16384), MXFP4 5,255 TFLOP/s (4096 x 4096 x 32768)"
)
# A card MAMF's table lacks takes the 99th percentile of aiconfigurator's measured TensorRT-LLM
# GEMM table for the format (torch_flow, 35,700 shapes): on the A100 that is MAMF's 271.2
# TFLOP/s exactly, on the H100 809 and 1,363 against MAMF's 794.5 and 1,402.6; but on the B200
# 1,616 and 2,820 against 1,745 and 3,432.5 (TensorRT-LLM's kernels there stop short of the
# card's best), so a card priced this way may read a little slow where no table prices it.
AIC_GEMM = (
    "NVIDIA aiconfigurator 0.12 measured GEMM tables, {card}/gemm/trtllm/1.3.0rc20 torch_flow, "
    "the 99th percentile over 35,700 shapes: {rates}"
)
AMD_MAF = (
    "AMD ROCm blog 'Measuring Max-Achievable FLOPs - Part 2' (ROCm/rocm-blogs "
    "blogs/software-tools-optimization/measuring-max-achievable-flops-part2, Table 1: "
    "hipBLASLt-bench, M=4096 N=3648 K=32896, trig_float inputs)"
)
