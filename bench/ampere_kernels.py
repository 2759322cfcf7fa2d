"""vLLM and SGLang on an A100, with and without the kernels and defaults they run there.

Issue 37's forty-ninth round landed three rules, each committed before it was scored:

- attention with sinks (gpt-oss's) under vLLM below Hopper runs its Triton unified attention,
  since its FlashAttention 2 build takes no sinks (``core.catalog.attention_kernels.
  SINK_PREFILL``, fitted by ``bench/prefill_attention_fit.py``);
- each release's prefill chunk is the one its code sets for the card (vLLM's API server 2,048
  tokens a step on an A100 or a card under 70 GB, SGLang 0.5 by the card's memory;
  :func:`core.catalog.prefill_chunking.chunk_tokens`);
- vLLM's and SGLang's bf16 experts on an A100 are priced by the A100's own Triton fused-MoE
  table, where they borrowed Hopper's CUTLASS row (``bench/moe_kernel_fit.py`` TP_KERNELS).

This prints each development row the round moves, before and after, and both development sets
and the publisher-held-out figure before and after. The "before" is the engine level with all
three switched off (:func:`before_the_round`), which the README's earlier round paragraphs
quote. To rerun, from this repository's root (a few seconds):

    python -m bench.ampere_kernels
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out
from core.catalog.engine_versions import engine_version
from core.catalog.kernels import ENGINE_EXPERT_KERNELS
from core.evidence.fidelity import scored_afresh


@contextmanager
def without_sink_triton():
    """The engine level as it stood before the forty-ninth round: every engine prefills attention
    with sinks in its card's own prompt kernel."""
    with patch("core.engine_level.attention_fields.sink_prefill_in_triton", lambda *_: False):
        yield


def _one_chunk(engine, version, large_card, card_memory_bytes):
    """Each release's one chunk on every card, as the engine level had it before the round."""
    return engine_version(engine, version).chunk_tokens


@contextmanager
def without_a100_triton():
    """vLLM's and SGLang's bf16 experts on an A100 at Hopper's borrowed row, as before the round."""
    with patch.dict(ENGINE_EXPERT_KERNELS):
        for engine in ("vllm", "sglang"):
            del ENGINE_EXPERT_KERNELS[("ampere", "bf16", engine)]
        yield


@contextmanager
def before_the_round():
    """The engine level as the forty-eighth round left it: no Triton kernel for sinks, one chunk
    a release on every card, and Hopper's expert row for an A100's bf16 experts."""
    with (
        without_sink_triton(),
        without_a100_triton(),
        patch("core.engine_level.release_defaults.chunk_tokens", _one_chunk),
    ):
        yield


@cache
def figures(rule: bool = True) -> dict:
    """Both sets (error, within, cases), the publisher-held-out (error, share within) and each
    case's ratio by key, with the round's rules in force or (``rule`` False) switched off."""
    if rule:
        cases, both, held = scored_afresh()
    else:
        with before_the_round():
            cases, both, held = scored_afresh()
    return {
        "both": (both.geometric_mean_error, both.within_band, both.cases),
        "held_out": (held.geometric_mean_error, held.within_share),
        "ratios": {case.key: float(ratio) for case, ratio in zip(cases, both.ratios, strict=True)},
    }


def moved(before: dict, after: dict, by: float = 1e-9) -> list[str]:
    """The keys whose ratio the rule moved."""
    return [key for key, ratio in before["ratios"].items()
            if abs(after["ratios"][key] / ratio - 1.0) > by]  # fmt: skip


def main() -> None:
    before, after = figures(rule=False), figures()
    print("the rows the round moves (predicted / measured), before -> after")
    for key in moved(before, after):
        print(f"  {key:5s} x{before['ratios'][key]:.2f} -> x{after['ratios'][key]:.2f}")
    for name, found in (("before", before), ("after", after)):
        print(f"{name:6s} {both_and_held_out(found)}")


if __name__ == "__main__":
    main()
