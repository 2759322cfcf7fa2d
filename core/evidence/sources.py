"""The 'where the numbers come from' table: every constant of the catalog with its source and kind."""

from __future__ import annotations

from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    GB,
    GPUS,
    HOURS_PER_MONTH,
    KV_BLOCK_TOKENS,
    MEMORY_MARGIN,
    MODELS,
    PREFILL_EFFICIENCY,
    TIERS,
    WEIGHT_FORMATS,
    Gpu,
    ModelShape,
)
from core.catalog.cards import CUSTOM_CARD_LINK_BYTES_PER_S, CUSTOM_CARD_USD_PER_HOUR
from core.catalog.models import DEEPSEEK_NVFP4_SOURCE
from core.evidence.engine_sources import engine_cost_rows, engine_default_rows, serving_mode_rows
from core.evidence.source_groups import Source
from core.evidence.traffic_sources import traffic_rows
from core.whiteboard.attention import GQA_KV_HEADS, MLA_LATENT_PER_HEAD_DIM, MLA_ROPE_PER_HEAD_DIM

__all__ = ["Source", "sources"]


def _gpu_rows(gpu: Gpu) -> list[Source]:
    name = gpu.name
    return [
        Source(
            f"{name} memory", f"{gpu.memory_bytes / GB:g}", "GB per card", gpu.source, kind="cards"
        ),
        Source(
            f"{name} HBM bandwidth",
            f"{gpu.hbm_bytes_per_s / 1e12:g}",
            "TB/s",
            gpu.source,
            kind="cards",
        ),
        Source(
            f"{name} bf16 dense",
            f"{gpu.bf16_flops / 1e12:,.0f}",
            "TFLOP/s",
            gpu.source,
            kind="cards",
        ),
        Source(
            f"{name} fp8 dense", f"{gpu.fp8_flops / 1e12:,.0f}", "TFLOP/s", gpu.source, kind="cards"
        ),
        Source(
            f"{name} fp4 dense",
            f"{gpu.fp4_flops / 1e12:,.0f}" if gpu.fp4_flops else "none",
            "TFLOP/s" if gpu.fp4_flops else "(4-bit weights multiply at the bf16 rate)",
            gpu.source,
            kind="cards",
        ),
        Source(
            f"{name} price",
            f"{gpu.usd_per_hour:.2f}",
            "$ per GPU-hour",
            gpu.price_source,
            kind="cards",
        ),
        Source(
            f"{name} measured bandwidth",
            f"{gpu.achieved_hbm_bytes_per_s / 1e12:.3g}",
            "TB/s (engine level)",
            gpu.achieved_source,
            kind="measurements",
        ),
        Source(
            f"{name} measured matmul",
            f"{gpu.achieved_bf16_flops / 1e12:,.0f} bf16 / {gpu.achieved_fp8_flops / 1e12:,.0f} fp8",
            "TFLOP/s (engine level)",
            gpu.achieved_source,
            kind="measurements",
        ),
        Source(
            f"{name} card-to-card link",
            f"{gpu.link_bytes_per_s / 1e9:g}",
            "GB/s each way",
            gpu.link_source,
            kind="cards",
        ),
    ]


def _model_row(model: ModelShape, label: str) -> Source:
    active = (
        "" if model.active_params == model.params else f", {model.active_params / 1e9:g}B active"
    )
    experts = (
        ""
        if model.experts == 1
        else f", {model.experts} experts ({model.experts_per_token} per token)"
    )
    value = (
        f"{model.layers} layers, {model.query_heads} query / {model.kv_heads} KV heads, head dim "
        f"{model.head_dim}, hidden {model.hidden:,}, MLP {model.intermediate:,}{experts}, "
        f"{model.params / 1e9:g}B parameters{active}, {model.cards} card(s)"
    )
    return Source(label, value, "shape", model.source, kind="models")


def _attention_row(model: ModelShape, label: str) -> Source:
    """What one layer caches per token, for a model whose attention is not plain GQA/MHA."""
    value = model.attention
    if model.kv_lora_rank:
        value += f": latent {model.kv_lora_rank} + rotary key {model.qk_rope_head_dim}"
    if model.window_layers:
        value += f"; {model.window_layers} of {model.layers} layers keep {model.sliding_window:,}"
    return Source(
        f"{label} attention", value, "KV per layer per token", model.kv_source, kind="models"
    )


def _nvfp4_row(model: ModelShape) -> Source:
    """What NVIDIA's NVFP4 checkpoint of ``model`` keeps in bf16 (its attention GEMMs then pay
    bf16's floor, its bytes two a parameter)."""
    return Source(
        f"{model.name} NVFP4 checkpoint",
        f"{model.nvfp4_bf16_params / 1e9:.1f}B parameters in bf16",
        "latent attention, embeddings, output head and router; the rest NVFP4",
        DEEPSEEK_NVFP4_SOURCE,
        kind="models",
    )


def sources() -> list[Source]:
    """Every constant the model uses, with value, unit and source, in display order."""
    rows: list[Source] = []
    for gpu in GPUS.values():
        rows.extend(_gpu_rows(gpu))
    rows += [_model_row(model, f"tier '{key}'") for key, model in TIERS.items()]
    for model in MODELS.values():
        rows.append(_model_row(model, model.name))
        if model.kv_source:
            rows.append(_attention_row(model, model.name))
        if model.nvfp4_bf16_params:
            rows.append(_nvfp4_row(model))
    rows += [
        Source(
            f"{fmt.name} weight",
            f"{fmt.bits_per_weight:g}",
            "bits per weight",
            fmt.source,
            kind="models",
        )
        for fmt in WEIGHT_FORMATS.values()
    ]
    return (
        rows
        + _fallback_rows()
        + _whiteboard_rows()
        + engine_default_rows()
        + engine_cost_rows()
        + serving_mode_rows()
        + traffic_rows()
        + _tier_rows()
    )


def _tier_rows() -> list[Source]:
    """The KV offload tiers: capacity per node and rate per card, from spec sheets."""
    from core.catalog.tiers import HOST_C2C, HOST_PCIE, NVME

    rows = []
    for tier in (HOST_PCIE, HOST_C2C, NVME):
        rows.append(
            Source(
                f"{tier.name}, capacity",
                f"{tier.capacity_bytes / GB:,.0f}",
                "GB per node",
                tier.source,
                kind="cards",
            )
        )
        rows.append(
            Source(
                f"{tier.name}, rate",
                f"{tier.bytes_per_s / GB:g}",
                "GB/s per card",
                tier.source,
                kind="cards",
            )
        )
    return rows  # fmt: skip


def _fallback_rows() -> list[Source]:
    """What the model assumes for a shape that lacks a feature, and the experts a batch touches."""
    return [
        Source(
            "MLA latent, for a model built without it",
            f"{MLA_LATENT_PER_HEAD_DIM:g} x head dim + {MLA_ROPE_PER_HEAD_DIM:g} x head dim",
            "numbers per layer per token",
            "DeepSeek-V2, section 2.1: d_c = 4 d_h, d_h^R = d_h / 2 "
            "(https://arxiv.org/abs/2405.04434)",
            kind="models",
        ),
        Source(
            "GQA KV heads, for a model built without it",
            f"{GQA_KV_HEADS}",
            "KV heads",
            "Llama 3's grouping (8 KV heads at 8B, 70B and 405B; Meta, 'The Llama 3 Herd of "
            "Models', Table 3, https://arxiv.org/abs/2407.21783)",
            kind="models",
        ),
        Source(
            "experts a batch touches",
            "E x (1 - (1 - k/E)^B)",
            "distinct experts per layer",
            "each of B tokens picks k of E experts, taken as independent and uniform",
            kind="models",
        ),
    ]


def _whiteboard_rows() -> list[Source]:
    """Custom-card defaults, number sizes and the whiteboard's efficiencies and margins."""
    return [
        Source(
            "custom card price",
            f"{CUSTOM_CARD_USD_PER_HOUR:.2f}",
            "$ per GPU-hour when the form's price is empty",
            "assumption",
            kind="cards",
        ),
        Source(
            "custom card link",
            f"{CUSTOM_CARD_LINK_BYTES_PER_S / 1e9:g}",
            "GB/s each way (engine level)",
            "assumption: NVLink-class, as the H100's",
            kind="cards",
        ),
        Source("bf16 number", "2", "bytes", "IEEE-style bfloat16: 16 bits", kind="models"),
        Source(
            "fp8 number",
            "1",
            "bytes",
            "OCP FP8 (E4M3) as used for vLLM's fp8 KV cache: 8 bits",
            kind="models",
        ),
        Source(
            "hours in a month",
            f"{HOURS_PER_MONTH}",
            "h",
            "8,760 h a year / 12, cloud price sheets",
            kind="whiteboard",
        ),
        Source(
            "prefill efficiency",
            f"{PREFILL_EFFICIENCY:.0%}",
            "of dense peak (whiteboard)",
            "assumption: typical model-FLOPs utilisation of a large prefill",
            kind="whiteboard",
        ),
        Source(
            "decode bandwidth efficiency",
            f"{BANDWIDTH_EFFICIENCY:.0%}",
            "of peak HBM (whiteboard)",
            "assumption: achieved share of HBM bandwidth in a decode step",
            kind="whiteboard",
        ),
        Source(
            "memory margin",
            f"{MEMORY_MARGIN:.0%}",
            "of free memory (whiteboard)",
            "assumption: held back for activations, CUDA graphs and fragmentation",
            kind="whiteboard",
        ),
        Source(
            "KV block",
            f"{KV_BLOCK_TOKENS}",
            "tokens",
            "vLLM default block size (Kwon et al., PagedAttention, SOSP 2023, "
            "https://arxiv.org/abs/2309.06180)",
            kind="whiteboard",
        ),
        Source(
            "prefill cost",
            "2",
            "FLOPs per parameter per token",
            "forward-pass estimate, Kaplan et al. 2020, 'Scaling Laws for Neural Language Models' "
            "(https://arxiv.org/abs/2001.08361)",
            kind="models",
        ),
    ]
