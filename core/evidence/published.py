"""Published measurements the batching lab holds its engine against, each with its source.

These are what others measured on real engines, not inputs of the model: the lab shows them
beside the engine's own figures so a student can see what the model reproduces and what it
leaves out. :func:`batching_sources` gives them as rows for the sources table.
"""

from __future__ import annotations

from core.evidence.sources import Source

_ANYSCALE = (
    "Daniel, Shen, Liang and Liaw, 'How continuous batching enables 23x throughput in LLM "
    "inference while reducing p50 latency', Anyscale blog, June 2023"
)
_PAGED = "Kwon et al., 'Efficient Memory Management for LLM Serving with PagedAttention', SOSP 2023"
_LEVIATHAN = (
    "Leviathan, Kalman and Matias, 'Fast Inference from Transformers via Speculative "
    "Decoding', ICML 2023"
)

# One 13B model, 512-token prompts, exponential answers capped at 1,536 tokens, all requests
# sent at once: naive static batching against continuous batching with paged KV (vLLM).
STATIC_BATCHING_TOK_S = 81.0
CONTINUOUS_BATCHING_TOK_S = 1900.0
# The same benchmark: an optimised model implementation (FasterTransformer) with static
# batching ran about 4x the naive static baseline, before any change of scheduler.
OPTIMISED_KERNELS_FACTOR = 4.0
# Share of reserved KV memory holding no token under per-request maximum-length reservation,
# and the bound under paging.
RESERVED_WASTE_LOW = 0.60
RESERVED_WASTE_HIGH = 0.80
PAGED_WASTE_HIGH = 0.04
# Speculative decoding's measured speed-up for a lone request.
SPECULATIVE_SPEEDUP_LOW = 2.0
SPECULATIVE_SPEEDUP_HIGH = 3.0
# The lab's default speculative knobs: assumptions inside the range the paper measured.
DEFAULT_DRAFT_TOKENS = 4
DEFAULT_ACCEPTANCE = 0.7
DEFAULT_DRAFT_COST = 0.05


def batching_sources() -> list[Source]:
    """The published figures and assumptions of the batching lab, as sources-table rows."""
    return [
        Source(
            "static vs continuous batching",
            f"{STATIC_BATCHING_TOK_S:,.0f} vs {CONTINUOUS_BATCHING_TOK_S:,.0f}",
            "tok/s, one 13B model on a 40 GB A100",
            _ANYSCALE + " (vLLM against naive static batching; often quoted as vLLM's own)",
        ),
        Source(
            "optimised kernels, static batching",
            f"{OPTIMISED_KERNELS_FACTOR:g}x",
            "over naive static batching",
            _ANYSCALE + " (FasterTransformer)",
        ),
        Source(
            "KV waste under static reservation",
            f"{RESERVED_WASTE_LOW:.0%}-{RESERVED_WASTE_HIGH:.0%}",
            "of reserved KV memory",
            _PAGED + f" (under {PAGED_WASTE_HIGH:.0%} with paging)",
        ),
        Source(
            "speculative decoding, one request",
            f"{SPECULATIVE_SPEEDUP_LOW:g}-{SPECULATIVE_SPEEDUP_HIGH:g}x",
            "faster decoding",
            _LEVIATHAN,
        ),
        Source(
            "speculative defaults",
            f"k = {DEFAULT_DRAFT_TOKENS}, acceptance {DEFAULT_ACCEPTANCE:.0%}, "
            f"draft step {DEFAULT_DRAFT_COST:.0%} of a target step",
            "assumptions",
            "assumption inside the ranges " + _LEVIATHAN + " reports",
        ),
    ]
