"""Hardware, model and efficiency constants, each with the source it comes from.

Everything the capacity model multiplies by lives here, so the app can show one table of
"where the numbers come from" (:mod:`core.sources`) and a reader can check each figure against
its spec sheet.
Prices are assumptions (on-demand rates vary by provider and month); a scenario can override them.
"""

from __future__ import annotations

from dataclasses import dataclass

GB = 1e9  # spec sheets quote decimal gigabytes
KIB = 1024


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


@dataclass(frozen=True)
class ModelShape:
    """The dimensions of a decoder-only transformer that the capacity model needs."""

    name: str
    layers: int
    kv_heads: int
    head_dim: int
    params: float
    active_params: float
    cards: int
    source: str
    # the rest of the shape, used by the engine level (attention FLOPs, activations, experts)
    query_heads: int
    hidden: int
    intermediate: int
    vocab: int
    experts: int = 1
    experts_per_token: int = 1


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
# Cards without a published measurement take the measured H100's fractions of peak.
_H100_BW_SHARE = 3.0e12 / 3.35e12
_H100_BF16_SHARE = 794.5e12 / 989e12
_H100_FP8_SHARE = 1402.6e12 / 1979e12

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
            achieved_source=f"bandwidth: {_FLASHMLA}; matmul: {_MAMF}",
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
            achieved_hbm_bytes_per_s=3.76e12,
            achieved_bf16_flops=794.5e12,
            achieved_fp8_flops=1453.4e12,
            achieved_source=(
                f"bandwidth: {_GPU_BENCHES} gpu-roofline/h200.txt (3,759 GB/s at the memory-bound "
                f"end); matmul: {_MAMF} (bf16 as the H100's, which the table says it matches)"
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
            achieved_bf16_flops=362e12 * _H100_BF16_SHARE,
            achieved_fp8_flops=733e12 * _H100_FP8_SHARE,
            achieved_source="no published measurement found: the H100's measured shares of peak",
            link_bytes_per_s=32e9,
            link_source=_PCIE4,
        ),
    )
}
DEFAULT_GPU = "H100 SXM"

_LLAMA3 = {"vocab": 128256}
_LLAMA3_8B_DIMS = {"query_heads": 32, "hidden": 4096, "intermediate": 14336, **_LLAMA3}
_LLAMA3_70B_DIMS = {"query_heads": 64, "hidden": 8192, "intermediate": 28672, **_LLAMA3}

# The two tiers of the walkthrough: round numbers for an 8B and a 70B class model.
TIERS: dict[str, ModelShape] = {
    "small": ModelShape(
        "8B class", 32, 8, 128, 8e9, 8e9, 1, "Llama-3-8B-like shape, rounded to 8e9 parameters",
        **_LLAMA3_8B_DIMS,
    ),
    "large": ModelShape(
        "70B class", 80, 8, 128, 70e9, 70e9, 2, "Llama-3-70B-like shape, rounded to 70e9 parameters",
        **_LLAMA3_70B_DIMS,
    ),
}  # fmt: skip

_HF = "published config.json on the Hugging Face Hub"
# Parameter counts as reported in each model card; Mixtral's active count is two of eight experts.
# Columns: layers, KV heads, head dim, parameters, active parameters, usual cards, source.
MODELS: dict[str, ModelShape] = {
    model.name: model
    for model in (
        ModelShape(
            "Llama-2-7B", 32, 32, 128, 6.74e9, 6.74e9, 1, f"meta-llama/Llama-2-7b-hf {_HF}",
            query_heads=32, hidden=4096, intermediate=11008, vocab=32000,
        ),
        ModelShape(
            "Llama-2-13B", 40, 40, 128, 13.0e9, 13.0e9, 1, f"meta-llama/Llama-2-13b-hf {_HF}",
            query_heads=40, hidden=5120, intermediate=13824, vocab=32000,
        ),
        ModelShape(
            "Llama-2-70B", 80, 8, 128, 68.98e9, 68.98e9, 2, f"meta-llama/Llama-2-70b-hf {_HF}",
            query_heads=64, hidden=8192, intermediate=28672, vocab=32000,
        ),
        ModelShape(
            "Llama-3-8B", 32, 8, 128, 8.03e9, 8.03e9, 1, f"meta-llama/Meta-Llama-3-8B {_HF}",
            **_LLAMA3_8B_DIMS,
        ),
        ModelShape(
            "Llama-3-70B", 80, 8, 128, 70.55e9, 70.55e9, 2, f"meta-llama/Meta-Llama-3-70B {_HF}",
            **_LLAMA3_70B_DIMS,
        ),
        ModelShape(
            "Mistral-7B", 32, 8, 128, 7.24e9, 7.24e9, 1, f"mistralai/Mistral-7B-v0.1 {_HF}",
            query_heads=32, hidden=4096, intermediate=14336, vocab=32000,
        ),
        ModelShape(
            "Mixtral-8x7B", 32, 8, 128, 46.7e9, 12.9e9, 2,
            f"mistralai/Mixtral-8x7B-v0.1 {_HF}; 12.9e9 active per token",
            query_heads=32, hidden=4096, intermediate=14336, vocab=32000,
            experts=8, experts_per_token=2,
        ),
        ModelShape(
            "Qwen2-7B", 28, 4, 128, 7.62e9, 7.62e9, 1, f"Qwen/Qwen2-7B {_HF}",
            query_heads=28, hidden=3584, intermediate=18944, vocab=152064,
        ),
        ModelShape(
            "Qwen2-72B", 80, 8, 128, 72.7e9, 72.7e9, 2, f"Qwen/Qwen2-72B {_HF}",
            query_heads=64, hidden=8192, intermediate=29568, vocab=152064,
        ),
    )
}  # fmt: skip

BYTES_PER_NUMBER: dict[str, int] = {"bf16": 2, "fp8": 1}

HOURS_PER_MONTH = 730  # 8,760 hours a year / 12: the convention cloud price sheets use
PREFILL_EFFICIENCY = 0.5  # share of dense peak FLOP/s a prefill reaches (model FLOPs utilisation)
BANDWIDTH_EFFICIENCY = 0.6  # share of peak HBM bandwidth a decode step reaches
MEMORY_MARGIN = 0.05  # share of free card memory held back for activations and fragmentation
KV_BLOCK_TOKENS = 16  # vLLM's default PagedAttention block size

# -- The engine level (``realism="engine"``): constants a real engine's measurements follow.
# Each is a documented default, a datasheet figure or a published measurement, never fitted
# to a benchmark result; core/sources.py lists them with their sources.
GIB = 2**30  # CUDA reports memory in binary units: an "80 GB" card holds 80 GiB
ENGINE_KV_FRACTION = 0.9  # TensorRT-LLM free_gpu_memory_fraction, vLLM gpu_memory_utilization
ENGINE_MAX_BATCH = 2048  # TensorRT-LLM BuildConfig.max_batch_size: requests one engine may run
ENGINE_MAX_NUM_TOKENS = 8192  # TensorRT-LLM BuildConfig.max_num_tokens: tokens one step may run
ACTIVATION_BYTES = 2  # activations stay in bf16 whatever the weights' storage
ALLREDUCE_LATENCY_S = 10.1e-6  # a small custom all-reduce on 8 x H100 (SGLang PR #2904)
NVLINK_PROTOCOL_EFFICIENCY = 370 / 450  # NCCL reaches 370 of NVLink's 450 GB/s (nccl-tests #212)
KERNEL_FLOOR_S = 3e-6  # the least a kernel costs, even an empty one (NVIDIA developer forum)
KERNELS_PER_LAYER = 9  # 2 norms, QKV, rotary + cache write, attention, out, gate-up, act, down
HOST_STEP_S = 0.86e-3  # step time outside the forward pass on an H100 (sglang-omni PR #783)

# -- After continuous batching: chunked prefill and prefill/decode disaggregation.
# vLLM's documented max_num_batched_tokens when chunked prefill is on (docs "Performance and
# Tuning: Chunked Prefill", vLLM 0.5; chosen in PR #4580 as the best inter-token latency on A100).
CHUNKED_PREFILL_TOKENS = 512
# One NDR InfiniBand port carries 400 Gb/s each way (NVIDIA ConnectX-7 adapter datasheet and
# user manual: "single-port OSFP, NDR 400Gb/s"); a node between two servers sends each card's
# share of the cache over that card's own port.
INFINIBAND_NDR_BYTES_PER_S = 400e9 / 8


def model_shape(model: str | None, tier: str) -> ModelShape:
    """The dimensions a scenario runs: the named model when given, else the tier's."""
    return MODELS[model] if model is not None else TIERS[tier]
