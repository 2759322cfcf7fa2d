"""What a decode step's attention kernel costs beyond its cache stream, by card, cache and engine.

A decode step's attention reads every running request's cache. The measured kernels stream it
at the card's measured bandwidth, but before that each call pays a floor (its launch, and the
rotary embedding and cache write it fuses) and each request a little more (its block table,
its share of the grid): a step of a thousand requests pays that per-request cost in every
layer.

The figures are fitted by ``bench/attention_fit.py`` to NVIDIA aiconfigurator 0.12's measured
decode-attention tables (grouped-query rows, head size 128, the card's measured bandwidth for
the stream), the earliest release of each engine measured on an H100 or a B200, each engine's
default kernel: TensorRT-LLM's attention op (its PyTorch flow), vLLM's FlashAttention 3 on
Hopper and FlashInfer on Blackwell, SGLang's FlashAttention 3 on Hopper and TensorRT-LLM MHA
on Blackwell. A family without tables borrows the measured family's TensorRT-LLM figures; latent
attention (DeepSeek's) keeps the kernel floors it is counted at.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.kernels import priced_row


@dataclass(frozen=True)
class AttentionKernel:
    """One decode-attention kernel: a floor per call and a cost per request, per layer."""

    floor_s: float
    per_request_s: float


ATTENTION_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured decode-attention tables, h100_sxm and "
    "b200_sxm attention/<engine>/<release>/generation_attention_perf.parquet: TensorRT-LLM "
    "1.3.0rc20 torch_flow, vLLM 0.24 FlashAttention 3 (H100) and 0.22 FlashInfer (B200), "
    "SGLang 0.5.14 FlashAttention 3 (H100) and trtllm_mha (B200); fitted by "
    "bench/attention_fit.py on grouped-query rows (RMS log errors 21-33 %)"
)
# (family, cache format, engine); "" is TensorRT-LLM's, every engine's without its own.
ATTENTION_KERNELS: dict[tuple[str, str, str], AttentionKernel] = {
    ("hopper", "bf16", ""): AttentionKernel(10.0e-6, 75e-9),
    ("hopper", "fp8", ""): AttentionKernel(6.5e-6, 20e-9),
    ("hopper", "bf16", "vllm"): AttentionKernel(11.5e-6, 65e-9),
    ("hopper", "fp8", "vllm"): AttentionKernel(14.0e-6, 75e-9),
    ("hopper", "bf16", "sglang"): AttentionKernel(9.0e-6, 55e-9),
    ("hopper", "fp8", "sglang"): AttentionKernel(13.0e-6, 65e-9),
    ("blackwell", "bf16", ""): AttentionKernel(10.5e-6, 25e-9),
    ("blackwell", "fp8", ""): AttentionKernel(11.0e-6, 20e-9),
    ("blackwell", "bf16", "vllm"): AttentionKernel(6.5e-6, 20e-9),
    ("blackwell", "fp8", "vllm"): AttentionKernel(6.5e-6, 15e-9),
    ("blackwell", "bf16", "sglang"): AttentionKernel(9.0e-6, 20e-9),
    ("blackwell", "fp8", "sglang"): AttentionKernel(16.0e-6, 20e-9),
}
# TensorRT-LLM's rows keyed (family, cache format): every engine's without its own.
_NEUTRAL = {(family, cache): row for (family, cache, name), row in ATTENTION_KERNELS.items()
            if not name}  # fmt: skip


def attention_kernel(gpu: str, cache: str, engine: str = "") -> AttentionKernel:
    """The decode attention ``engine`` runs on ``gpu`` over a cache stored as ``cache``.

    ``cache`` is ``"bf16"`` or ``"fp8"`` (a wider cache reads as bf16, a narrower as fp8).
    """
    return priced_row(ATTENTION_KERNELS, _NEUTRAL, gpu, cache, engine)[0]
