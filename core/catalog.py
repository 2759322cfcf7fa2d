"""Hardware, model and efficiency constants, each with the source it comes from.

Everything the capacity model multiplies by lives here, so the app can show one table of
"where the numbers come from" and a reader can check each figure against its spec sheet.
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


_H100_SHEET = "NVIDIA H100 Tensor Core GPU datasheet (SXM5, dense, without sparsity)"

GPUS: dict[str, Gpu] = {
    gpu.name: gpu
    for gpu in (
        Gpu(
            "H100 SXM",
            80 * GB,
            3.35e12,
            989e12,
            1979e12,
            3.99,
            _H100_SHEET,
            "assumed on-demand rate; 2,913 $/month for one card at 730 h matches the seed",
        ),
        Gpu(
            "H200",
            141 * GB,
            4.8e12,
            989e12,
            1979e12,
            4.99,
            "NVIDIA H200 Tensor Core GPU datasheet (SXM, dense)",
            "assumed on-demand rate",
        ),
        Gpu(
            "A100 80GB SXM",
            80 * GB,
            2.039e12,
            312e12,
            312e12,  # no fp8 tensor cores: fp8 weights run at the bf16 rate
            1.79,
            "NVIDIA A100 Tensor Core GPU datasheet (80 GB SXM, dense; no fp8 tensor cores)",
            "assumed on-demand rate",
        ),
        Gpu(
            "A100 40GB SXM",
            40 * GB,
            1.555e12,
            312e12,
            312e12,  # no fp8 tensor cores: fp8 weights run at the bf16 rate
            1.29,
            "NVIDIA A100 Tensor Core GPU datasheet (40 GB SXM, dense; no fp8 tensor cores)",
            "assumed on-demand rate",
        ),
        Gpu(
            "L40S",
            48 * GB,
            864e9,
            362e12,
            733e12,
            1.19,
            "NVIDIA L40S datasheet (dense, without sparsity)",
            "assumed on-demand rate",
        ),
    )
}
DEFAULT_GPU = "H100 SXM"

# The two tiers of the walkthrough: round numbers for an 8B and a 70B class model.
TIERS: dict[str, ModelShape] = {
    "small": ModelShape(
        "8B class", 32, 8, 128, 8e9, 8e9, 1, "Llama-3-8B-like shape, rounded to 8e9 parameters"
    ),
    "large": ModelShape(
        "70B class", 80, 8, 128, 70e9, 70e9, 2, "Llama-3-70B-like shape, rounded to 70e9 parameters"
    ),
}

_HF = "published config.json on the Hugging Face Hub"
# Parameter counts as reported in each model card; Mixtral's active count is two of eight experts.
MODELS: dict[str, ModelShape] = {
    model.name: model
    for model in (
        ModelShape("Llama-2-7B", 32, 32, 128, 6.74e9, 6.74e9, 1, f"meta-llama/Llama-2-7b-hf {_HF}"),
        ModelShape(
            "Llama-2-13B", 40, 40, 128, 13.0e9, 13.0e9, 1, f"meta-llama/Llama-2-13b-hf {_HF}"
        ),
        ModelShape(
            "Llama-2-70B", 80, 8, 128, 68.98e9, 68.98e9, 2, f"meta-llama/Llama-2-70b-hf {_HF}"
        ),
        ModelShape(
            "Llama-3-8B", 32, 8, 128, 8.03e9, 8.03e9, 1, f"meta-llama/Meta-Llama-3-8B {_HF}"
        ),
        ModelShape(
            "Llama-3-70B", 80, 8, 128, 70.55e9, 70.55e9, 2, f"meta-llama/Meta-Llama-3-70B {_HF}"
        ),
        ModelShape("Mistral-7B", 32, 8, 128, 7.24e9, 7.24e9, 1, f"mistralai/Mistral-7B-v0.1 {_HF}"),
        ModelShape(
            "Mixtral-8x7B",
            32,
            8,
            128,
            46.7e9,
            12.9e9,
            2,
            f"mistralai/Mixtral-8x7B-v0.1 {_HF}; 12.9e9 active per token",
        ),
        ModelShape("Qwen2-7B", 28, 4, 128, 7.62e9, 7.62e9, 1, f"Qwen/Qwen2-7B {_HF}"),
        ModelShape("Qwen2-72B", 80, 8, 128, 72.7e9, 72.7e9, 2, f"Qwen/Qwen2-72B {_HF}"),
    )
}

BYTES_PER_NUMBER: dict[str, int] = {"bf16": 2, "fp8": 1}

HOURS_PER_MONTH = 730  # 8,760 hours a year / 12: the convention cloud price sheets use
PREFILL_EFFICIENCY = 0.5  # share of dense peak FLOP/s a prefill reaches (model FLOPs utilisation)
BANDWIDTH_EFFICIENCY = 0.6  # share of peak HBM bandwidth a decode step reaches
MEMORY_MARGIN = 0.05  # share of free card memory held back for activations and fragmentation
KV_BLOCK_TOKENS = 16  # vLLM's default PagedAttention block size


@dataclass(frozen=True)
class Source:
    """One row of the 'where the numbers come from' table."""

    constant: str
    value: str
    unit: str
    source: str


def _gpu_rows(gpu: Gpu) -> list[Source]:
    return [
        Source(f"{gpu.name} memory", f"{gpu.memory_bytes / GB:g}", "GB per card", gpu.source),
        Source(f"{gpu.name} HBM bandwidth", f"{gpu.hbm_bytes_per_s / 1e12:g}", "TB/s", gpu.source),
        Source(f"{gpu.name} bf16 dense", f"{gpu.bf16_flops / 1e12:,.0f}", "TFLOP/s", gpu.source),
        Source(f"{gpu.name} fp8 dense", f"{gpu.fp8_flops / 1e12:,.0f}", "TFLOP/s", gpu.source),
        Source(f"{gpu.name} price", f"{gpu.usd_per_hour:.2f}", "$ per GPU-hour", gpu.price_source),
    ]


def _model_row(model: ModelShape, label: str) -> Source:
    active = (
        "" if model.active_params == model.params else f", {model.active_params / 1e9:g}B active"
    )
    value = (
        f"{model.layers} layers, {model.kv_heads} KV heads, head dim {model.head_dim}, "
        f"{model.params / 1e9:g}B parameters{active}, {model.cards} card(s)"
    )
    return Source(label, value, "shape", model.source)


def sources() -> list[Source]:
    """Every constant the model uses, with value, unit and source, in display order."""
    rows: list[Source] = []
    for gpu in GPUS.values():
        rows.extend(_gpu_rows(gpu))
    rows += [_model_row(model, f"tier '{key}'") for key, model in TIERS.items()]
    rows += [_model_row(model, model.name) for model in MODELS.values()]
    rows += [
        Source("bf16 number", "2", "bytes", "IEEE-style bfloat16: 16 bits"),
        Source(
            "fp8 number", "1", "bytes", "OCP FP8 (E4M3) as used for vLLM's fp8 KV cache: 8 bits"
        ),
        Source(
            "hours in a month", f"{HOURS_PER_MONTH}", "h", "8,760 h a year / 12, cloud price sheets"
        ),
        Source(
            "prefill efficiency",
            f"{PREFILL_EFFICIENCY:.0%}",
            "of dense peak",
            "assumption: typical model-FLOPs utilisation of a large prefill",
        ),
        Source(
            "decode bandwidth efficiency",
            f"{BANDWIDTH_EFFICIENCY:.0%}",
            "of peak HBM",
            "assumption: achieved share of HBM bandwidth in a decode step",
        ),
        Source(
            "memory margin",
            f"{MEMORY_MARGIN:.0%}",
            "of free memory",
            "assumption: held back for activations, CUDA graphs and fragmentation",
        ),
        Source(
            "KV block",
            f"{KV_BLOCK_TOKENS}",
            "tokens",
            "vLLM default block size (Kwon et al., PagedAttention, SOSP 2023)",
        ),
        Source(
            "prefill cost",
            "2",
            "FLOPs per parameter per token",
            "forward-pass estimate, Kaplan et al. 2020, 'Scaling Laws for Neural Language Models'",
        ),
    ]
    return rows


def model_shape(model: str | None, tier: str) -> ModelShape:
    """The dimensions a scenario runs: the named model when given, else the tier's."""
    return MODELS[model] if model is not None else TIERS[tier]
