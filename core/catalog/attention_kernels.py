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
on Blackwell; on Ampere (bf16 caches) each engine's default kernel measured on an A100 SXM:
TensorRT-LLM 1.0's attention op, vLLM 0.14's and SGLang 0.5.9's FlashAttention. A family or a
cache format without tables borrows the measured family's TensorRT-LLM figures.

Latent attention (DeepSeek's) is priced as a whole block where its engine's module was measured
(:data:`LATENT_BLOCKS`, fitted by ``bench/mla_module_fit.py``): the block's floor and cost per
request replace the kernel floors and GEMM floors its ten kernels are counted at. Elsewhere (other
engines, other card families) it keeps that count.
"""

from __future__ import annotations

from dataclasses import dataclass

from core.catalog.kernels import BORROWED_FAMILY, card_family, kernels_engine, priced_row


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
    # Ampere's own, bf16 caches (issue 37's thirty-fifth round): ATTENTION_SOURCES["ampere"]
    ("ampere", "bf16", "tensorrt-llm"): AttentionKernel(13.0e-6, 115e-9),
    ("ampere", "bf16", "vllm"): AttentionKernel(17.5e-6, 80e-9),
    ("ampere", "bf16", "sglang"): AttentionKernel(17.0e-6, 90e-9),
}
AMPERE_ATTENTION_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) @4fabb773 (2026-07-24) measured decode-attention "
    "tables, a100_sxm attention/<engine>/<release>/generation_attention_perf.parquet, bf16 "
    "caches: TensorRT-LLM 1.0.0 torch_flow, vLLM 0.14.0 vllm_flash_attn, SGLang 0.5.9 "
    "flash_attention; fitted by bench/attention_fit.py on grouped-query rows at the A100 80GB's "
    "measured 1,769 GB/s (RMS log errors 34-39 %)"
)
# where each family's own rows were measured (a borrowing family cites the lender's)
ATTENTION_SOURCES = {"hopper": ATTENTION_SOURCE, "blackwell": ATTENTION_SOURCE,
                     "ampere": AMPERE_ATTENTION_SOURCE}  # fmt: skip
# TensorRT-LLM's rows keyed (family, cache format): every engine's without its own.
_NEUTRAL = {(family, cache): row for (family, cache, name), row in ATTENTION_KERNELS.items()
            if not name}  # fmt: skip


def attention_kernel(gpu: str, cache: str, engine: str = "") -> AttentionKernel:
    """The decode attention ``engine`` runs on ``gpu`` over a cache stored as ``cache``.

    ``cache`` is ``"bf16"`` or ``"fp8"`` (a wider cache reads as bf16, a narrower as fp8).
    """
    return priced_row(ATTENTION_KERNELS, _NEUTRAL, gpu, cache, engine)[0]


LATENT_BLOCK_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured MLA-module tables, h100_sxm and b200_sxm "
    "mla/<engine>/<release>/mla_generation_module_perf.parquet: DeepSeek-V3's whole decode "
    "attention block (fused q_a/kv_a, norms, q_b, rotary and cache write, absorbed products, "
    "attention, o_proj) in a CUDA graph, vLLM 0.24 (FlashAttention MLA over a bf16 cache, "
    "FlashMLA over fp8, on Hopper; FlashInfer MLA on Blackwell) and TensorRT-LLM 1.3.0rc20; "
    "fitted by bench/mla_module_fit.py on 1-64 requests, 2-1,024 tokens of context and 8-128 "
    "heads a card, the weights, cache and FLOPs at the card's measured rates taken off first "
    "(RMS log errors 3-6 % on H100, 8-14 % on B200; the H200's tables agree with the H100's)"
)
# (family, cache format, projection format, engine): the block's floor per layer, and its cost
# per running request, beyond its weights, cache and FLOPs; only the engines measured have rows
# (SGLang's module was not measured: its blocks keep their counted kernels).
LATENT_BLOCKS: dict[tuple[str, str, str, str], AttentionKernel] = {
    ("hopper", "bf16", "bf16", "vllm"): AttentionKernel(79.0e-6, 250e-9),
    ("hopper", "bf16", "fp8_block", "vllm"): AttentionKernel(87.0e-6, 220e-9),
    ("hopper", "fp8", "bf16", "vllm"): AttentionKernel(97.0e-6, 390e-9),
    ("hopper", "fp8", "fp8_block", "vllm"): AttentionKernel(107.0e-6, 60e-9),
    ("hopper", "bf16", "bf16", "tensorrt-llm"): AttentionKernel(36.5e-6, 40e-9),
    ("hopper", "bf16", "fp8_block", "tensorrt-llm"): AttentionKernel(43.5e-6, 0.0),
    ("hopper", "fp8", "bf16", "tensorrt-llm"): AttentionKernel(34.5e-6, 50e-9),
    ("hopper", "fp8", "fp8_block", "tensorrt-llm"): AttentionKernel(42.0e-6, 0.0),
    ("blackwell", "bf16", "bf16", "vllm"): AttentionKernel(31.0e-6, 210e-9),
    ("blackwell", "bf16", "fp8_block", "vllm"): AttentionKernel(46.0e-6, 160e-9),
    ("blackwell", "bf16", "nvfp4", "vllm"): AttentionKernel(40.0e-6, 120e-9),
    ("blackwell", "fp8", "bf16", "vllm"): AttentionKernel(32.5e-6, 170e-9),
    ("blackwell", "fp8", "fp8_block", "vllm"): AttentionKernel(47.5e-6, 130e-9),
    ("blackwell", "fp8", "nvfp4", "vllm"): AttentionKernel(42.0e-6, 90e-9),
    ("blackwell", "bf16", "bf16", "tensorrt-llm"): AttentionKernel(28.0e-6, 150e-9),
    ("blackwell", "bf16", "fp8_block", "tensorrt-llm"): AttentionKernel(43.5e-6, 60e-9),
    ("blackwell", "bf16", "nvfp4", "tensorrt-llm"): AttentionKernel(60.0e-6, 10e-9),
    ("blackwell", "fp8", "bf16", "tensorrt-llm"): AttentionKernel(27.0e-6, 100e-9),
    ("blackwell", "fp8", "fp8_block", "tensorrt-llm"): AttentionKernel(42.0e-6, 40e-9),
    ("blackwell", "fp8", "nvfp4", "tensorrt-llm"): AttentionKernel(58.5e-6, 0.0),
}


def latent_block(gpu: str, cache: str, projections: str, engine: str) -> AttentionKernel | None:
    """The measured latent-attention block ``engine`` runs on ``gpu`` with its projections in
    ``projections`` over a cache stored as ``cache``; None where none was measured (the block
    keeps its counted kernels)."""
    return LATENT_BLOCKS.get((card_family(gpu), cache, projections, engine))


@dataclass(frozen=True)
class PrefillAttention:
    """One prompt-attention kernel: the share of the card's measured bf16 matmul rate its causal
    pairs run at, and the keys' worth of work each query token pays beyond its causal keys."""

    rate_share: float
    extra_keys: float


PREFILL_ATTENTION_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured context-attention tables, h100_sxm, "
    "b200_sxm and a100_sxm attention/<engine>/<release>/context_attention_perf.parquet: "
    "TensorRT-LLM 1.3.0rc20 torch_flow (1.0.0 on the A100), vLLM 0.24 FlashAttention 3 (H100) "
    "and 0.22 FlashInfer (B200), SGLang 0.5.14 FlashAttention 3 (H100) and trtllm_mha (B200); "
    "on the A100 vLLM 0.14.0's and SGLang 0.5.9's FlashAttention (aiconfigurator @4fabb773); "
    "fitted by bench/prefill_attention_fit.py on grouped-query rows, head size 128, prompts of "
    "256-16,384 tokens (RMS log errors 8-16 %; the H200's tables give the H100's figures); "
    "latent attention's from the context_mla_perf tables, TensorRT-LLM 1.3.0rc20 and SGLang "
    "0.5.14 (FlashAttention 3 on the H100, trtllm_mla on the B200), 14-24 %"
)
# (family, cache format, engine); "" is TensorRT-LLM's, every engine's without its own. Over an
# fp8 cache SGLang multiplies in fp8 (it casts the query to the cache's format), the others in
# bf16; the A100 has no fp8 arithmetic, so its fp8 cache is read into the bf16 kernel.
PREFILL_ATTENTION: dict[tuple[str, str, str], PrefillAttention] = {
    ("hopper", "bf16", ""): PrefillAttention(0.68, 550.0),
    ("hopper", "fp8", ""): PrefillAttention(1.04, 900.0),
    ("hopper", "bf16", "vllm"): PrefillAttention(0.86, 550.0),
    ("hopper", "fp8", "vllm"): PrefillAttention(0.86, 850.0),
    ("hopper", "bf16", "sglang"): PrefillAttention(0.78, 350.0),
    ("hopper", "fp8", "sglang"): PrefillAttention(0.96, 450.0),
    ("blackwell", "bf16", ""): PrefillAttention(0.68, 900.0),
    ("blackwell", "fp8", ""): PrefillAttention(0.82, 1000.0),
    ("blackwell", "bf16", "vllm"): PrefillAttention(0.66, 300.0),
    ("blackwell", "fp8", "vllm"): PrefillAttention(0.86, 300.0),
    ("blackwell", "bf16", "sglang"): PrefillAttention(0.70, 300.0),
    ("blackwell", "fp8", "sglang"): PrefillAttention(0.82, 850.0),
    ("ampere", "bf16", ""): PrefillAttention(0.54, 250.0),
    ("ampere", "fp8", ""): PrefillAttention(0.54, 250.0),
    # vLLM's and SGLang's own on the A100 (issue 37's thirty-fifth round), bf16 caches
    ("ampere", "bf16", "vllm"): PrefillAttention(0.64, 250.0),
    ("ampere", "bf16", "sglang"): PrefillAttention(0.72, 150.0),
}


# Issue 37, forty-ninth round: attention with sinks (gpt-oss's) under vLLM below Hopper. vLLM's
# FlashAttention 2 build takes no sinks, so its backend selector returns the Triton unified
# attention where the model has sinks and the card is not SM90 (vllm/platforms/cuda.py,
# get_attn_backend_cls: "if has_sink and not cls.is_device_capability(90)"; gpt-oss on Ampere
# since PR #22714). No table times that kernel on an A100; aiconfigurator's vLLM 0.24 tables time
# it beside FlashAttention 2 over the same prompt shapes on an L40S (SM89) and an RTX PRO 6000
# (SM120), head size 192. Fitted as the rows above (bench/prefill_attention_fit.py), Triton
# reaches 0.385 of FlashAttention 2's share on the L40S (0.20 to 0.52; 0.378 on the RTX PRO
# 6000) and pays 50 extra keys a token to its 200. Its rows are over an fp8 cache (read into
# bf16 in the kernel), FlashAttention 2's over bf16: the only pairing the tables hold.
SINK_PREFILL_SOURCE = (
    "vllm/platforms/cuda.py get_attn_backend_cls (v0.10.2): Triton attention where the model "
    "has sinks and the card is not SM90; NVIDIA aiconfigurator (Apache-2.0) l40s and "
    "rtx_pro_6000_server attention/vllm/0.24.0/context_attention_perf.parquet, vllm_triton_attn "
    "(fp8 cache) beside vllm_flash_attn_fa2 (bf16) at head size 192, fitted by "
    "bench/prefill_attention_fit.py"
)
# Triton's rate share as a fraction of FlashAttention 2's on the same card, and its extra keys
SINK_PREFILL = PrefillAttention(0.385, 50.0)
# the families whose vLLM runs attention with sinks in Triton (SM8x: neither SM90 nor SM100,
# where FlashAttention 3 and FlashInfer take sinks)
SINK_TRITON_FAMILIES = frozenset({"ampere", "ada"})


def sink_prefill_in_triton(gpu: str, engine: str) -> bool:
    """Whether ``engine`` runs a prompt's attention with sinks in its Triton kernel on ``gpu``
    (:data:`SINK_PREFILL`): vLLM on an SM8x card."""
    return engine == "vllm" and card_family(gpu) in SINK_TRITON_FAMILIES


# The share a grouped-query prompt kernel reaches at a head size of 64 and of 256 over its share
# at 128 (the rows above), by family: the mean over the three engines' kernels of the same tables
# (bench/prefill_attention_fit.py; Hopper x0.79-0.85 and x1.06-1.16, Blackwell x0.58-0.62 and
# x1.11-1.15). A narrow head does less arithmetic for each key it loads.
PREFILL_HEAD_SIZE_SHARES: dict[str, tuple[float, float]] = {
    "hopper": (0.81, 1.10),
    "blackwell": (0.60, 1.13),
}


def prefill_head_size_share(gpu: str) -> tuple[float, float]:
    """(share at a head size of 64, at 256) over the share at 128 on ``gpu``'s family, or the
    family it borrows from (:data:`core.catalog.kernels.BORROWED_FAMILY`)."""
    family = card_family(gpu)
    return (
        PREFILL_HEAD_SIZE_SHARES.get(family)
        or PREFILL_HEAD_SIZE_SHARES[BORROWED_FAMILY.get(family, "hopper")]
    )


# Latent attention (DeepSeek's) prefills its prompt unabsorbed, a head's keys 192 numbers wide
# and its values 128: its own kernels, fitted on the context_mla_perf tables' rows (the same
# script; RMS log errors 14-24 %). SGLang's FlashAttention 3 MLA prefill on Hopper reaches a
# quarter of the bf16 rate where TensorRT-LLM's reaches 0.70.
LATENT_PREFILL_ATTENTION: dict[tuple[str, str, str], PrefillAttention] = {
    ("hopper", "bf16", ""): PrefillAttention(0.70, 350.0),
    ("hopper", "fp8", ""): PrefillAttention(0.82, 900.0),
    ("hopper", "bf16", "sglang"): PrefillAttention(0.22, 200.0),
    ("hopper", "fp8", "sglang"): PrefillAttention(0.24, 300.0),
    ("blackwell", "bf16", ""): PrefillAttention(0.66, 400.0),
    ("blackwell", "fp8", ""): PrefillAttention(0.86, 1100.0),
    ("blackwell", "bf16", "sglang"): PrefillAttention(0.70, 400.0),
    ("blackwell", "fp8", "sglang"): PrefillAttention(0.90, 950.0),
}


def prefill_attention(
    gpu: str, cache: str, engine: str = "", latent: bool = False
) -> PrefillAttention:
    """The prompt attention ``engine`` runs on ``gpu`` over a cache stored as ``cache``
    (``latent``: latent attention's): the engine's own row on the card's family, else the
    family's TensorRT-LLM row, else (a family without tables) the engine's own row on the family
    it borrows from (:data:`core.catalog.kernels.BORROWED_FAMILY`), else that family's
    TensorRT-LLM row.

    Notes
    -----
    A family without tables is AMD's or one NVIDIA's tables skip; TensorRT-LLM does not run on
    AMD's cards, and an engine's way of running a prompt's attention (SGLang's unabsorbed latent
    prefill, its query cast to an fp8 cache's format) is its own code on every card, so the
    engine's own row is borrowed before TensorRT-LLM's (issue 37's thirty-eighth round).
    """
    table = LATENT_PREFILL_ATTENTION if latent else PREFILL_ATTENTION
    family = card_family(gpu)
    borrowed = BORROWED_FAMILY.get(family, family)
    keys = (
        (family, cache, engine),
        (family, cache, ""),
        (borrowed, cache, engine),
        (borrowed, cache, ""),
    )
    return next(table[key] for key in keys if key in table)


# AMD's own prompt kernel (issue 37's fiftieth round, the rule committed before it was scored):
# the releases that run AMD's AITER kernels on an Instinct card (kernels_engine "aiter": SGLang's
# ROCm builds, vLLM with its AITER switch on or the ATOM plugin) prefill a grouped-query prompt
# through AITER's MHA forward, which AMD measured on both card generations; fitted by
# bench/aiter_attention_fit.py. Latent attention and fp8 caches keep the rows they borrow.
AITER_PREFILL_ATTENTION: dict[tuple[str, str], PrefillAttention] = {
    ("cdna3", "bf16"): PrefillAttention(0.84, 150.0),
    ("cdna4", "bf16"): PrefillAttention(0.90, 300.0),
}
AITER_PREFILL_SOURCE = (
    "ROCm/aiter (MIT) @e4048607 op_tests/cpp/mha/README.md, its causal forward chart "
    "(images/causal-fwd-perf.png, PR #1372, 2025-11-10): AITER's MHA forward, bf16, head size "
    "128, one prompt of 64 heads (the README's benchmark_mha_fwd command), 1,024-16,384 tokens: "
    "MI300X 322-551 TFLOP/s, MI355X 627-1,392 (causal FLOPs); fitted by "
    "bench/aiter_attention_fit.py at the cards' measured bf16 rates (RMS log errors 1.5 % and "
    "1.2 %); aiter.flash_attn_varlen_func is the prompt path of SGLang's aiter backend, vLLM's "
    "ROCM_AITER_FA and ATOM"
)


def release_prefill_attention(
    gpu: str, cache: str, engine: str, version: str | None, latent: bool = False
) -> PrefillAttention:
    """The prompt attention ``engine``'s release ``version`` runs on ``gpu`` over a cache stored
    as ``cache``: AITER's own (:data:`AITER_PREFILL_ATTENTION`) where the release runs AMD's
    AITER kernels on the card and measured it for the prompt's kind and cache, else
    :func:`prefill_attention`."""
    if not latent and kernels_engine(gpu, engine, version) == "aiter":
        own = AITER_PREFILL_ATTENTION.get((card_family(gpu), cache))
        if own is not None:
            return own
    return prefill_attention(gpu, cache, engine, latent)
