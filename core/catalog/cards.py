"""The accelerator cards the lab knows, each figure with the datasheet it comes from.

Peaks are dense (without 2:4 sparsity). Prices are assumptions: on-demand rates vary by provider
and month, and a scenario can override them. :mod:`core.catalog` re-exports everything here.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.card_sources import AIC_GEMM, AMD_MAF, CDNA3_PAPER, GLUON_GEMM, MI300X_PAPER
from core.catalog.h20_tables import H20_BLOCK_FP8_SOURCE, H20_FP8_FLOPS
from core.catalog.measured_here import H100_CHECKED_HERE, MEASURED_HERE_SOURCES

GB = 1e9  # spec sheets quote decimal gigabytes


NVLINK_PROTOCOL_EFFICIENCY = 370 / 450  # NCCL reaches 370 of NVLink's 450 GB/s (nccl-tests #212)
NVLINK_COLLECTIVE_SOURCE = (
    "NCCL maintainer: 450 GB/s line rate, about 370 GB/s effective (nccl-tests #212, "
    "https://github.com/NVIDIA/nccl-tests/issues/212)"
)


@dataclass(frozen=True)
class Gpu:
    """One accelerator card: memory, bandwidth, dense tensor throughput and an hourly price."""

    name: str
    memory_bytes: float
    hbm_bytes_per_s: float
    bf16_flops: float
    fp8_flops: float
    usd_per_hour: float
    source: str
    price_source: str
    # engine level: what kernels measurably reach, and the card-to-card link
    achieved_hbm_bytes_per_s: float
    achieved_bf16_flops: float
    achieved_fp8_flops: float
    achieved_source: str
    link_bytes_per_s: float  # per direction, line rate
    link_source: str
    # 4-bit floating point (NVFP4/MXFP4) tensor cores; 0 where the card has none, and a
    # 4-bit weight then multiplies at the bf16 rate after it is unpacked
    fp4_flops: float = 0.0
    achieved_fp4_flops: float = 0.0
    # which achieved rates no measurement backs (each then the H100's measured share of peak)
    borrowed_rates: str = ""
    # the share of the link's line rate an all-reduce's bus bandwidth reaches on it, and where
    # that was measured (PCIe cards take core.catalog's PCIe shares instead)
    link_collective_share: float = NVLINK_PROTOCOL_EFFICIENCY
    link_collective_source: str = NVLINK_COLLECTIVE_SOURCE
    # cards that talk over PCIe through the host, not over NVLink or Infinity Fabric: their
    # collectives reach the share PCIe systems measure (core.catalog.PCIE_ALLREDUCE_SHARE)
    link_over_pcie: bool = False
    # where the achieved bandwidth is bounded by another card's stream per SM, how (the page's
    # clause); empty where it is the card's own or the H100's share of its peak
    bandwidth_note: str = ""


# Issue 37, twelfth round: an all-reduce over AMD's Infinity Fabric reaches RCCL's measured
# share, not NVLink's. rccl-tests all_reduce_perf on one node of 8 MI300X, 8 GB: bus bandwidth
# 315.69 GB/s of the 448 (8 MI325X, 8 GB: 318.37); AMD's ROCm blog on RCCL and xGMI (Kolla et
# al., 2025) gives each 64 GB/s link about 48 usable, and the SC '25 artifact's TransferBench
# copies 48.72 GB/s over one.
INFINITY_FABRIC_ALLREDUCE_SHARE = 315.69e9 / 448e9
_RCCL_TESTS = (
    "hisohara/ai-scripts training/01_rccl-smoketest/README.md @0780bb3c (rccl-tests "
    "all_reduce_perf, 8 x MI300X, one node, 8 GB: busbw 315.69 GB/s; 8 x MI325X: 318.37), "
    "consistent with AMD's ROCm blog 'Understanding RCCL Bandwidth and xGMI Performance on AMD "
    "Instinct MI300X' (about 48 of each link's 64 GB/s usable)"
)
# The MI355X's own bandwidth and all-reduce share (issue 37, thirteenth round; set before any
# case was scored with them), in place of the H100's share of its peak and the MI300X's RCCL
# share: one node of 8 x MI355X, ROCm 7.14 built for gfx950 (Dell Cloud's run of the same
# silicon under a gfx942 alias gave 381.27 GB/s busbw, 71 %).
_MI355X_BENCH = (
    "mit-orcd/amd-benchmarks @2cd892b0 amd-cloud/results/SUMMARY.md and rccl.md (8 x MI355X, "
    "ROCm 7.14, native gfx950): {}"
)
MI355X_ALLREDUCE_SHARE = 396.33e9 / 537.6e9
_H100_SHEET = "NVIDIA H100 Tensor Core GPU datasheet (SXM5, dense, without sparsity)"
_MAMF = (
    "Bekman, ml-engineering, 'Maximum Achievable Matmul FLOPS' table "
    "(stas00/ml-engineering compute/accelerator/README.md)"
)
_FLASHMLA = "deepseek-ai/FlashMLA README: 3,000 GB/s in a memory-bound decode kernel on H800 SXM5"
_GPU_BENCHES = "te42kyfo/gpu-benches"
_NVLINK4 = "NVIDIA H100 datasheet: NVLink 900 GB/s per GPU, i.e. 450 GB/s each way"
_NVLINK3 = "NVIDIA A100 datasheet: NVLink 600 GB/s per GPU, i.e. 300 GB/s each way"
_PCIE4 = "PCIe Gen4 x16: 32 GB/s each way (the L40S has no NVLink)"
# Issue 37, thirty-eighth round: a Hopper card's serving kernels draw at most what the H200's
# SMs drew per SM here (its decode attention's 4.41 TB/s over 132 SMs, 33.4 GB/s each). A card
# without a stream of its own takes the H100's share of its peak, bounded by that rate times its
# SMs: an H20 has 78 SMs behind 4.0 TB/s, so reaching its peak would take 51 GB/s per SM, half
# as much again as any Hopper SM drew in a serving kernel measured here. (A copy kernel built to
# stream was reported at 3.71 TB/s on one, below: a bound on serving kernels, not on the SM.)
_H200_STREAM = 4.41e12
HOPPER_SMS = 132  # H100 SXM and H200 (NVIDIA H100 whitepaper: 132 of GH100's 144 SMs)
HOPPER_STREAM_PER_SM = _H200_STREAM / HOPPER_SMS
H20_SMS = 78
_H20_SMS_SOURCE = (
    "78 SMs (the device's multiProcessorCount, as Geekbench 6's listing and engines read it: "
    "SGLang's sgl-kernel cutlass_w4a8_moe_mm_sm90 dispatch, 'H20 has 78 SMs', is_h20 = SM count "
    "<= 80)"
)
# Cards without a published measurement take the measured H100's fractions of peak.
_H100_BW_SHARE = 3.0e12 / 3.35e12
_H100_BF16_SHARE = 794.5e12 / 989e12
_H100_FP8_SHARE = 1402.6e12 / 1979e12
NO_MEASUREMENT_MARK = "no published measurement found"
_NO_MEASUREMENT = f"{NO_MEASUREMENT_MARK}: the H100's measured shares of peak"
_ALL_RATES = "bandwidth and matmul"
_ASSUMED = "assumed on-demand rate"
_B200_SHEET = (
    "NVIDIA DGX B200 datasheet (1,440 GB and 64 TB/s over 8 GPUs: 180 GB and 8 TB/s each); "
    "HGX B200 tensor peaks at 1,000 W, dense: 2.25 PFLOP/s bf16, 4.5 fp8, 9 fp4"
)
_INFINITY_FABRIC = (
    "AMD Instinct MI300-series datasheet: 7 Infinity Fabric links of 128 GB/s, 896 GB/s both "
    "ways, i.e. 448 GB/s each way"
)

GPUS: dict[str, Gpu] = {
    gpu.name: gpu
    for gpu in (
        Gpu(
            "H100 SXM",
            memory_bytes=80 * GB,
            hbm_bytes_per_s=3.35e12,
            bf16_flops=989e12,
            fp8_flops=1979e12,
            usd_per_hour=3.99,
            source=_H100_SHEET,
            price_source="assumed on-demand rate; 2,913 $/month for one card at 730 h matches the walkthrough's bill",
            achieved_hbm_bytes_per_s=3.0e12,
            achieved_bf16_flops=794.5e12,
            achieved_fp8_flops=1402.6e12,
            achieved_source=f"bandwidth: {_FLASHMLA}; matmul: {_MAMF}; {H100_CHECKED_HERE}",
            link_bytes_per_s=450e9,
            link_source=_NVLINK4,
        ),
        Gpu(
            "H200",
            memory_bytes=141 * GB,
            hbm_bytes_per_s=4.8e12,
            bf16_flops=989e12,
            fp8_flops=1979e12,
            usd_per_hour=4.99,
            source="NVIDIA H200 Tensor Core GPU datasheet (SXM, dense)",
            price_source="assumed on-demand rate",
            achieved_hbm_bytes_per_s=_H200_STREAM,
            achieved_bf16_flops=794.5e12,
            achieved_fp8_flops=1453.4e12,
            achieved_source=(
                f"bandwidth: {MEASURED_HERE_SOURCES['H200']}: decode attention streaming caches "
                "of 2 GB or more (32 x 16k, 128 x 4k, 256 x 4k tokens), 4.32-4.49 TB/s (median "
                f"4.41), the kind of figure the H100's FlashMLA rate is ({_GPU_BENCHES} "
                "gpu-roofline/h200.txt reaches 3,759 GB/s at its memory-bound end); matmul: "
                f"{_MAMF} (bf16 as the H100's, which the table says it matches; measured here, "
                "8192-cube products: 702-802 TFLOP/s bf16, 1,458-1,485 fp8)"
            ),
            link_bytes_per_s=450e9,
            link_source="NVIDIA H200 datasheet: NVLink 900 GB/s per GPU, i.e. 450 GB/s each way",
        ),
        Gpu(
            "A100 80GB SXM",
            memory_bytes=80 * GB,
            hbm_bytes_per_s=2.039e12,
            bf16_flops=312e12,
            fp8_flops=312e12,  # no fp8 tensor cores: fp8 weights run at the bf16 rate
            usd_per_hour=1.79,
            source="NVIDIA A100 Tensor Core GPU datasheet (80 GB SXM, dense; no fp8 tensor cores)",
            price_source="assumed on-demand rate",
            achieved_hbm_bytes_per_s=1.769e12,
            achieved_bf16_flops=271.2e12,
            achieved_fp8_flops=271.2e12,
            achieved_source=(
                f"bandwidth: {_GPU_BENCHES} cuda-stream/a100_80.txt (read 1,769 GB/s); "
                f"matmul: {_MAMF}"
            ),
            link_bytes_per_s=300e9,
            link_source=_NVLINK3,
        ),
        Gpu(
            "A100 40GB SXM",
            memory_bytes=40 * GB,
            hbm_bytes_per_s=1.555e12,
            bf16_flops=312e12,
            fp8_flops=312e12,  # no fp8 tensor cores: fp8 weights run at the bf16 rate
            usd_per_hour=1.29,
            source="NVIDIA A100 Tensor Core GPU datasheet (40 GB SXM, dense; no fp8 tensor cores)",
            price_source="assumed on-demand rate",
            achieved_hbm_bytes_per_s=1.555e12 * 1.769e12 / 2.039e12,
            achieved_bf16_flops=271.2e12,
            achieved_fp8_flops=271.2e12,
            achieved_source=(
                "the A100 80GB's measured share of peak bandwidth; the same chip's matmul rate "
                f"({_MAMF})"
            ),
            link_bytes_per_s=300e9,
            link_source=_NVLINK3,
        ),
        Gpu(
            "L40S",
            memory_bytes=48 * GB,
            hbm_bytes_per_s=864e9,
            bf16_flops=362e12,
            fp8_flops=733e12,
            usd_per_hour=1.19,
            source="NVIDIA L40S datasheet (dense, without sparsity)",
            price_source="assumed on-demand rate",
            achieved_hbm_bytes_per_s=864e9 * _H100_BW_SHARE,
            achieved_bf16_flops=249.6e12,
            achieved_fp8_flops=389.5e12,
            achieved_source=(
                "matmul: "
                + AIC_GEMM.format(card="l40s", rates="249.6 TFLOP/s bf16, 389.5 fp8")
                + f"; bandwidth: {NO_MEASUREMENT_MARK}, the H100's measured share of peak"
            ),
            borrowed_rates="bandwidth",
            link_bytes_per_s=32e9,
            link_source=_PCIE4,
            link_over_pcie=True,
        ),
        Gpu(
            "B200",
            memory_bytes=180 * GB,
            hbm_bytes_per_s=8.0e12,
            bf16_flops=2.25e15,
            fp8_flops=4.5e15,
            usd_per_hour=6.25,
            source=_B200_SHEET,
            price_source=_ASSUMED,
            achieved_hbm_bytes_per_s=8.0e12 * _H100_BW_SHARE,
            achieved_bf16_flops=1745.0e12,
            achieved_fp8_flops=3432.5e12,
            achieved_source=(
                f"matmul: {_MAMF}, bf16 1,745 of 2,250 and fp8 3,432.5 of 4,500 TFLOP/s; "
                f"bandwidth and fp4: {NO_MEASUREMENT_MARK}, the H100's measured shares of peak "
                "(the bandwidth agrees within 1 % with NVIDIA aiconfigurator 0.12's B200 "
                "decode-attention tables, which stream bf16 caches of 2 GB or more at 7.08-7.19 "
                "TB/s by engine; NVFP4 GEMMs there reach about 4,100 TFLOP/s, priced by "
                "core.catalog.gemm_tables)"
            ),
            borrowed_rates="bandwidth and fp4 matmul",
            link_bytes_per_s=900e9,
            link_source="NVIDIA DGX B200 datasheet: fifth-generation NVLink, 1.8 TB/s per GPU, "
            "i.e. 900 GB/s each way",
            fp4_flops=9.0e15,
            achieved_fp4_flops=9.0e15 * _H100_FP8_SHARE,
        ),
        # Tried in issue 37's twelfth round and reverted: the H20's own published figures
        # (bandwidth 3,712 GB/s, a copy and STREAM triad best of 100, AutoMegaKernel PR #3;
        # bf16 142.25 TFLOP/s, torch-performance-test-data issue #77; fp8 283, vLLM PR #49932's
        # block-fp8 table) took the second set 16.1 % -> 16.2 % (D29-D31, Qwen's H20 rows,
        # x0.75/0.90/0.67 -> 0.73/0.89/0.66: already fast, faster). Crowd-sourced and a
        # best-of-100 copy, not a kernel's sustained rate: kept out until a paper or vendor
        # table measures the card. Its bandwidth is bounded by its SMs since the thirty-eighth
        # round (HOPPER_STREAM_PER_SM above). From the fifty-eighth round its fp8 rate is its
        # own: vLLM PR #49932's table is a kernel table (four backends' GEMMs timed on the card
        # at 16-8,192 tokens, core.catalog.h20_tables), its best large GEMM 283 TFLOP/s (0.955 of
        # the peak, where the H100's share gave 210); its bf16 rate stays borrowed.
        Gpu(
            "H20",
            memory_bytes=96 * GB,
            hbm_bytes_per_s=4.0e12,
            bf16_flops=148e12,
            fp8_flops=296e12,
            usd_per_hour=1.49,
            source="NVIDIA HGX H20 product brief (96 GB HBM3, 4.0 TB/s; 148 TFLOP/s bf16 and "
            "296 TFLOP/s fp8 dense)",
            price_source=_ASSUMED + "; sold mainly in China, few public on-demand rates",
            achieved_hbm_bytes_per_s=min(4.0e12 * _H100_BW_SHARE, H20_SMS * HOPPER_STREAM_PER_SM),
            achieved_bf16_flops=148e12 * _H100_BF16_SHARE,
            achieved_fp8_flops=H20_FP8_FLOPS,
            achieved_source=(
                f"bandwidth: the H200's measured stream per SM ({_H200_STREAM / 1e12:.2f} TB/s "
                f"over {HOPPER_SMS} SMs) times the H20's {_H20_SMS_SOURCE}, below the H100's share "
                f"of its peak; fp8 matmul: the best 8,192-token GEMM of {H20_BLOCK_FP8_SOURCE}; "
                f"bf16 matmul: {_NO_MEASUREMENT}"
            ),
            borrowed_rates="bf16 matmul",
            bandwidth_note=(
                f"its bandwidth is the H200's measured stream per SM over its {H20_SMS} SMs"
            ),
            link_bytes_per_s=450e9,
            link_source="NVIDIA HGX H20 product brief: NVLink 900 GB/s per GPU, i.e. 450 GB/s "
            "each way",
        ),
        Gpu(
            "L4",
            memory_bytes=24 * GB,
            hbm_bytes_per_s=300e9,
            bf16_flops=121e12,
            fp8_flops=242.5e12,
            usd_per_hour=0.80,
            source="NVIDIA L4 Tensor Core GPU datasheet (24 GB GDDR6, 300 GB/s; 242 bf16 and 485 "
            "fp8 TFLOP/s quoted with sparsity, halved here for dense)",
            price_source=_ASSUMED,
            achieved_hbm_bytes_per_s=300e9 * _H100_BW_SHARE,
            achieved_bf16_flops=121e12 * _H100_BF16_SHARE,
            achieved_fp8_flops=242.5e12 * _H100_FP8_SHARE,
            achieved_source=_NO_MEASUREMENT,
            borrowed_rates=_ALL_RATES,
            link_bytes_per_s=32e9,
            link_source="NVIDIA L4 datasheet: PCIe Gen4 x16, 64 GB/s both ways, i.e. 32 GB/s each "
            "way (no NVLink)",
            link_over_pcie=True,
        ),
        Gpu(
            "MI300X",
            memory_bytes=192 * GB,
            hbm_bytes_per_s=5.3e12,
            bf16_flops=1307.4e12,
            fp8_flops=2614.9e12,
            usd_per_hour=2.99,
            source="AMD Instinct MI300X accelerator datasheet (192 GB HBM3, 5.3 TB/s; dense "
            "matrix peaks; no fp4)",
            price_source=_ASSUMED,
            achieved_hbm_bytes_per_s=0.81 * 5.3e12,
            achieved_bf16_flops=668e12,
            achieved_fp8_flops=1273e12,
            achieved_source=(
                f"bandwidth: {MI300X_PAPER}; matmul (bf16): {_MAMF}, 668 of 1,307 TFLOP/s; "
                f"fp8: {AMD_MAF}, 1,273 of 2,615 TFLOP/s"
            ),
            link_bytes_per_s=448e9,
            link_source=_INFINITY_FABRIC,
            link_collective_share=INFINITY_FABRIC_ALLREDUCE_SHARE,
            link_collective_source=_RCCL_TESTS,
        ),
        Gpu(
            "MI325X",
            memory_bytes=256 * GB,
            hbm_bytes_per_s=6.0e12,
            bf16_flops=1307.4e12,
            fp8_flops=2614.9e12,
            usd_per_hour=3.49,
            source="AMD Instinct MI325X accelerator datasheet (256 GB HBM3E, 6 TB/s; the "
            "MI300X's dense matrix peaks; no fp4)",
            price_source=_ASSUMED,
            achieved_hbm_bytes_per_s=5.086e12,
            achieved_bf16_flops=784.9e12,
            achieved_fp8_flops=1519e12,
            achieved_source=(
                f"bandwidth: {CDNA3_PAPER}; "
                f"matmul (bf16): {_MAMF}, 784.9 of 1,300 TFLOP/s (1,000 W, TunableOp); "
                f"fp8: {AMD_MAF}, 1,519 of 2,615 TFLOP/s"
            ),
            link_bytes_per_s=448e9,
            link_source=_INFINITY_FABRIC,
            link_collective_share=INFINITY_FABRIC_ALLREDUCE_SHARE,
            link_collective_source=_RCCL_TESTS,
        ),
        Gpu(
            "MI355X",
            memory_bytes=288 * GB,
            hbm_bytes_per_s=8.0e12,
            bf16_flops=2516.6e12,
            fp8_flops=5033.2e12,
            usd_per_hour=4.99,
            source="AMD Instinct MI355X accelerator datasheet (288 GB HBM3E, 8 TB/s; dense "
            "matrix peaks, MXFP4 at twice fp8)",
            price_source=_ASSUMED,
            achieved_hbm_bytes_per_s=7.26e12,
            achieved_bf16_flops=1565.0e12,
            achieved_fp8_flops=3257e12,
            achieved_source=(
                f"matmul (bf16): {_MAMF}, 1,565 of 2,300 TFLOP/s; fp8 and fp4: {GLUON_GEMM}; "
                "bandwidth: "
                + _MI355X_BENCH.format("ROCm Validation Suite babel (BabelStream), 7,260 GB/s")
            ),
            link_bytes_per_s=537.6e9,
            link_source="AMD Instinct MI355X datasheet: 7 Infinity Fabric links of 153.6 GB/s, "
            "1,075 GB/s both ways, i.e. about 538 GB/s each way",
            link_collective_share=MI355X_ALLREDUCE_SHARE,
            link_collective_source=_MI355X_BENCH.format(
                "rccl-tests all_reduce_perf on 8 cards at the top message size, busbw 396.33 of "
                "537.6 GB/s"
            ),
            fp4_flops=10066.3e12,
            achieved_fp4_flops=5255e12,
        ),
    )
}
DEFAULT_GPU = "H100 SXM"


# A card entered by hand has no datasheet: what the lab assumes for the figures its form omits.
CUSTOM_CARD_USD_PER_HOUR = 2.00  # when the price box is left empty
CUSTOM_CARD_LINK_BYTES_PER_S = 450e9  # an NVLink-class link, as on the H100 and H200
H100_MEASURED_SHARES = {"bw": _H100_BW_SHARE, "bf16": _H100_BF16_SHARE, "fp8": _H100_FP8_SHARE}
