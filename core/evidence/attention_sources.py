"""The sources table's rows for decode attention's measured kernels and latent-attention blocks."""

from __future__ import annotations

from core.catalog.attention_kernels import (
    ATTENTION_KERNELS,
    ATTENTION_SOURCE,
    LATENT_BLOCK_SOURCE,
    LATENT_BLOCKS,
)
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
            ATTENTION_SOURCE,
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
