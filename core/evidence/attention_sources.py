"""The sources table's rows for attention's measured kernels (decode, prompt) and latent blocks."""

from __future__ import annotations

from core.catalog.attention_kernels import (
    AITER_PREFILL_ATTENTION,
    AITER_PREFILL_SOURCE,
    ATTENTION_KERNELS,
    ATTENTION_SOURCES,
    LATENT_BLOCK_SOURCE,
    LATENT_BLOCKS,
    LATENT_PREFILL_ATTENTION,
    PREFILL_ATTENTION,
    PREFILL_ATTENTION_SOURCE,
    PREFILL_HEAD_SIZE_SHARES,
    SINK_PREFILL,
    SINK_PREFILL_SOURCE,
    SINK_TRITON_FAMILIES,
)
from core.catalog.kernels import BORROWED_FAMILY
from core.evidence.source_groups import Source

# How a decode-attention kernel's figures read, in the catalog's rows and in the rows of the
# kernels measured here alike.
ATTENTION_UNIT = "per layer, + per running request"


def attention_value(floor_s, per_request_s) -> str:
    """A floor and a cost per request as the sources table shows them."""
    return f"{floor_s * 1e6:.1f} µs + {per_request_s * 1e9:.0f} ns"


def attention_kernel_rows() -> list[Source]:
    """One row per decode-attention kernel: its floor per layer and its cost per request."""
    return [
        Source(
            f"decode attention, {family} {cache}, "
            f"{engine or 'tensorrt-llm (every engine without its own)'}",
            attention_value(kernel.floor_s, kernel.per_request_s),
            ATTENTION_UNIT,
            ATTENTION_SOURCES[family],
            kind="measurements",
        )
        for (family, cache, engine), kernel in ATTENTION_KERNELS.items()
    ]


def latent_block_rows() -> list[Source]:
    """One row per measured latent-attention block: its floor per layer and cost per request."""
    return [
        Source(
            f"latent attention block, {family} {cache} cache, {projections} projections, {engine}",
            attention_value(block.floor_s, block.per_request_s),
            f"{ATTENTION_UNIT}, beyond its weights, cache and FLOPs",
            LATENT_BLOCK_SOURCE,
            kind="measurements",
        )
        for (family, cache, projections, engine), block in LATENT_BLOCKS.items()
    ]


def _borrowed_prompt_attention_row() -> Source:
    """How a card family without prompt-attention tables borrows a kernel."""
    return Source(
        "prompt attention on a family without tables",
        "the engine's own row on the family borrowed from, else TensorRT-LLM's",
        "; ".join(f"{family} from {borrowed}" for family, borrowed in BORROWED_FAMILY.items()),
        "TensorRT-LLM does not run on AMD's cards, and an engine's way of running a prompt's "
        "attention is its own code on every card (issue 37's thirty-eighth round; "
        "core/catalog/attention_kernels.prefill_attention)",
        kind="engine",
    )


def prefill_attention_rows() -> list[Source]:
    """One row per prompt-attention kernel, grouped-query and latent: its share of the bf16 rate
    and its extra keys; how a family without tables borrows; the head-size shares."""
    tables = (("prompt attention", PREFILL_ATTENTION),
              ("latent prompt attention", LATENT_PREFILL_ATTENTION))  # fmt: skip
    kernels = [
        Source(
            f"{kind}, {family} {cache} cache, "
            f"{engine or 'tensorrt-llm (every engine without its own)'}",
            f"{kernel.rate_share:.2f} of the bf16 rate, + {kernel.extra_keys:.0f} keys",
            "share of the card's measured bf16 matmul rate; keys of work a query token adds",
            PREFILL_ATTENTION_SOURCE,
            kind="measurements",
        )
        for kind, table in tables
        for (family, cache, engine), kernel in table.items()
    ]
    head_sizes = [
        Source(
            f"prompt attention's head size, {family}",
            f"x{at_64:.2f} at 64, x{at_256:.2f} at 256",
            "share over the share at a head size of 128 (between them: linear in log2)",
            PREFILL_ATTENTION_SOURCE,
            kind="measurements",
        )
        for family, (at_64, at_256) in PREFILL_HEAD_SIZE_SHARES.items()
    ]
    aiter = [
        Source(
            f"prompt attention, {family} {cache} cache, the releases running AMD's AITER",
            f"{kernel.rate_share:.2f} of the bf16 rate, + {kernel.extra_keys:.0f} keys",
            "AITER's MHA forward (grouped-query prompts); latent attention and fp8 caches keep "
            "the rows they borrow",
            AITER_PREFILL_SOURCE,
            kind="measurements",
        )
        for (family, cache), kernel in AITER_PREFILL_ATTENTION.items()
    ]
    sinks = Source(
        "prompt attention with sinks (gpt-oss), vLLM on " + ", ".join(sorted(SINK_TRITON_FAMILIES)),
        f"x{SINK_PREFILL.rate_share:.3f} of the card's own share, + "
        f"{SINK_PREFILL.extra_keys:.0f} keys",
        "vLLM's Triton unified attention over its FlashAttention 2 on the same shapes",
        SINK_PREFILL_SOURCE,
        kind="measurements",
    )
    return [*kernels, *aiter, _borrowed_prompt_attention_row(), *head_sizes, sinks]


def attention_rows() -> list[Source]:
    """Every attention row: a prompt's FLOPs, decode kernels, latent blocks, prompt kernels."""
    flops = Source(
        "attention FLOPs",
        "4 x heads x head width x pairs, over the layers",
        "FLOPs for a causal prompt of T tokens",
        "QK^T and AV each 2 d FLOPs a query-key pair; a full layer scores T²/2 pairs, a "
        "sliding window of w min(T, w)²/2 + w (T - w), a chunked layer each chunk's "
        "(core/whiteboard/attention.causal_pairs)",
        kind="models",
    )
    return [flops, *attention_kernel_rows(), *latent_block_rows(), *prefill_attention_rows()]
