"""The sources table's rows for how a benchmark tool drives the engine it measures.

trtllm-bench sizes a TensorRT-LLM engine from its own estimate of the memory unless the command
sets the limits; any engine's command may cap the running batch (the Scenario's ``batch_limit``).
"""

from __future__ import annotations

from core.catalog import ENGINE_KV_FRACTION
from core.catalog.engines import (
    TRTLLM_BENCH_BUILD_FRACTION,
    TRTLLM_BENCH_BUILD_SOURCE,
    TRTLLM_BENCH_CLI_SOURCE,
    TRTLLM_BENCH_MAX_REQUESTS,
    TRTLLM_BENCH_MAX_TOKENS,
    TRTLLM_BENCH_SOURCE,
    TRTLLM_BENCH_TOKENS_SOURCE,
    TRTLLM_BENCH_USER_LIMITS_SOURCE,
    TRTLLM_EXPERT_WORKSPACE_SOURCE,
)
from core.evidence.source_groups import Source


def trtllm_bench_rows() -> list[Source]:
    """How trtllm-bench sizes the TensorRT-LLM engine it drives, and what that costs the cache."""
    return [
        Source(
            "trtllm-bench's own batch limit",
            f"{TRTLLM_BENCH_MAX_REQUESTS:,}",
            "requests at most: the KV room at prompt + answer, rounded up (each DP rank's)",
            TRTLLM_BENCH_SOURCE,
            kind="engine",
        ),
        Source(
            "trtllm-bench's own step size",
            f"{TRTLLM_BENCH_MAX_TOKENS:,}",
            "tokens a rank's step at most: its requests x (1 + prompt / answer), rounded up, and "
            "at least a whole prompt beside its batch",
            TRTLLM_BENCH_TOKENS_SOURCE,
            kind="engine",
        ),
        Source(
            "TensorRT-LLM's profiled expert workspace",
            "2 d + max(4 w, 2 d)",
            "bytes per routed row of the profiled step (d: hidden size; w: the expert's width on "
            "the card), every rank's tokens under DEP, taken from the cache's room",
            TRTLLM_EXPERT_WORKSPACE_SOURCE,
            kind="engine",
        ),
        Source(
            "trtllm-bench's share of the KV room it sizes for",
            f"{TRTLLM_BENCH_BUILD_FRACTION:.0%} / {ENGINE_KV_FRACTION:.0%}",
            "a 0.1x build (checkpoint in decimal GB against GiB) / the PyTorch backend",
            f"{TRTLLM_BENCH_BUILD_SOURCE}; {TRTLLM_BENCH_CLI_SOURCE}",
            kind="engine",
        ),
        Source(
            "a batch limit the command sets (batch_limit)",
            "the command's",
            "requests a closed loop's engine runs at once at most, in place of the release's "
            "default and of what trtllm-bench would size (each DP rank's limit times the ranks)",
            TRTLLM_BENCH_USER_LIMITS_SOURCE,
            kind="engine",
        ),
    ]
