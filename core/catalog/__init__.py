"""Hardware, model and efficiency constants, each with the source it comes from.

Everything the capacity model multiplies by lives here or in the two catalogs it re-exports
(:mod:`core.catalog.cards`, :mod:`core.catalog.models`), so the app can show one table of
"where the numbers come from" (:mod:`core.evidence.sources`) and a reader can check each figure against
its spec sheet.
Prices are assumptions (on-demand rates vary by provider and month); a scenario can override them.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.cards import DEFAULT_GPU, GB, GPUS, Gpu
from core.catalog.cards import NVLINK_PROTOCOL_EFFICIENCY as NVLINK_PROTOCOL_EFFICIENCY
from core.catalog.models import MODELS, TIERS, ModelShape

KIB = 1024


BYTES_PER_NUMBER: dict[str, int] = {"bf16": 2, "fp8": 1}


@dataclass(frozen=True)
class WeightFormat:
    """How a weight is stored, and which tensor-core rate multiplies it.

    ``compute`` names the card's peak the matmul runs at: "bf16", "fp8", or "fp4" (which falls
    back to bf16 on a card without fp4 tensor cores, the weights unpacked before the multiply).
    """

    name: str
    bits_per_weight: float
    compute: str
    source: str

    @property
    def bytes_per_weight(self) -> float:
        """Bytes one weight takes, block scales included."""
        return self.bits_per_weight / 8


# Group-quantised formats pay for their scales: bits of scale (and zero point) per group.
WEIGHT_FORMATS: dict[str, WeightFormat] = {
    fmt.name: fmt
    for fmt in (
        WeightFormat("bf16", 16, "bf16", "IEEE-style bfloat16: 16 bits"),
        WeightFormat("fp8", 8, "fp8", "OCP FP8 E4M3, one scale per tensor or 128 x 128 block"),
        WeightFormat(
            "int4", 4 + 32 / 128, "bf16",
            "AWQ/GPTQ int4, group size 128 with an fp16 scale and zero point per group "
            "(4 + 32/128 = 4.25 bits); the multiply runs in bf16 (W4A16 kernels such as Marlin)",
        ),
        WeightFormat(
            "mxfp4", 4 + 8 / 32, "fp4",
            "OCP Microscaling MXFP4: E2M1 values, one 8-bit power-of-two scale per 32 "
            "(4 + 8/32 = 4.25 bits); the format gpt-oss ships its experts in",
        ),
        WeightFormat(
            "nvfp4", 4 + 8 / 16, "fp4",
            "NVIDIA NVFP4: E2M1 values, one FP8 E4M3 scale per 16 (4 + 8/16 = 4.5 bits)",
        ),
    )
}  # fmt: skip
BYTES_PER_WEIGHT: dict[str, float] = {
    name: fmt.bytes_per_weight for name, fmt in WEIGHT_FORMATS.items()
}

HOURS_PER_MONTH = 730  # 8,760 hours a year / 12: the convention cloud price sheets use
PREFILL_EFFICIENCY = 0.5  # share of dense peak FLOP/s a prefill reaches (model FLOPs utilisation)
BANDWIDTH_EFFICIENCY = 0.6  # share of peak HBM bandwidth a decode step reaches
MEMORY_MARGIN = 0.05  # share of free card memory held back for activations and fragmentation
KV_BLOCK_TOKENS = 16  # vLLM's default PagedAttention block size

# -- The engine level (``realism="engine"``): constants a real engine's measurements follow.
# Each is a documented default, a datasheet figure or a published measurement, never fitted
# to a benchmark result; core/evidence/sources.py lists them with their sources.
GIB = 2**30  # CUDA reports memory in binary units: an "80 GB" card holds 80 GiB
ENGINE_KV_FRACTION = 0.9  # TensorRT-LLM free_gpu_memory_fraction, vLLM gpu_memory_utilization
ENGINE_MAX_BATCH = 2048  # TensorRT-LLM BuildConfig.max_batch_size: requests one engine may run
ENGINE_MAX_NUM_TOKENS = 8192  # TensorRT-LLM BuildConfig.max_num_tokens: tokens one step may run
ACTIVATION_BYTES = 2  # activations stay in bf16 whatever the weights' storage
# Memory a process holds outside PyTorch's allocator (the CUDA context, library workspaces,
# NCCL's and the custom all-reduce's buffers), which TensorRT-LLM's and vLLM's (to 0.6) memory
# profiles count before they size the cache (core/catalog/memory_profiles.py, by release):
# vLLM's profile of Llama-3-8B on H100 printed 1.79 GiB on one card
# and 3.58 GiB on each of two (vllm-project/vllm PR #10511, 2024-12-14); a node of more cards
# takes the two-card figure, the least its collectives' buffers hold.
OUTSIDE_ALLOCATOR_BYTES_ONE_CARD = 1.79 * GIB
OUTSIDE_ALLOCATOR_BYTES_SHARDED = 3.58 * GIB
ALLREDUCE_LATENCY_S = 10.1e-6  # a small custom all-reduce on 8 x H100 (SGLang PR #2904)
# Over PCIe the host's memory and root complex carry every flow: 8 cards' all-reduce bus
# bandwidth reached 28 of PCIe 5.0's 64 GB/s, 4 cards' 35 (NVIDIA/nccl issue #1639, whose
# maintainer notes PCIe systems are bound by what CPU and memory deliver).
PCIE_ALLREDUCE_SHARE_FEW = 35 / 64  # up to 4 cards
PCIE_ALLREDUCE_SHARE_MANY = 28 / 64  # more than 4
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


__all__ = [
    "BYTES_PER_NUMBER",
    "BYTES_PER_WEIGHT",
    "DEFAULT_GPU",
    "GB",
    "GPUS",
    "MODELS",
    "TIERS",
    "WEIGHT_FORMATS",
    "Gpu",
    "ModelShape",
    "WeightFormat",
    "model_shape",
]
