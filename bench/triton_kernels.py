"""vLLM's and SGLang's Triton kernels, and one engine default, with and without the forty-ninth
round's rules.

Issue 37's forty-ninth round landed six rules, each committed before it was scored:

- attention with sinks (gpt-oss's) under vLLM below Hopper runs its Triton unified attention,
  since its FlashAttention 2 build takes no sinks (``core.catalog.attention_kernels.
  SINK_PREFILL``, fitted by ``bench/prefill_attention_fit.py``);
- each release's prefill chunk is the one its code sets for the card (vLLM's API server 2,048
  tokens a step on an A100 or a card under 70 GB, SGLang 0.5 by the card's memory;
  :func:`core.catalog.prefill_chunking.chunk_tokens`);
- vLLM's and SGLang's bf16 experts on an A100 are priced by the A100's own Triton fused-MoE
  table, where they borrowed Hopper's CUTLASS row;
- every row of SGLang's tables and of vLLM's Triton fused MoE is fitted on its table's
  tensor-parallel rows, the layout the engine level prices it in (``bench/moe_kernel_fit.py``
  TP_FITTED), the neutral int4 row (SGLang's Marlin table) too;
- vLLM's MXFP4 experts on an A100 run its Marlin MoE, priced by the A100's Marlin table fitted
  so (the forty-eighth round's rule, reverted then at the table's every-layout fit).

This prints each development row the round moves, before and after, and both development sets
and the publisher-held-out figure before and after. The "before" is the engine level with all
six switched off (:func:`before_the_round`), which the README's earlier round paragraphs
quote. To rerun, from this repository's root (a few seconds):

    python -m bench.triton_kernels
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import replace
from functools import cache
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.aiter_attention_fit import without_aiter_prompt
from bench.fused_quant import both_and_held_out, moved, scored_figures
from bench.rounds import before_riding_prompts
from core.catalog.engine_versions import engine_version
from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS
from core.catalog.release_lines import release_line


@contextmanager
def without_sink_triton():
    """The engine level as it stood before the forty-ninth round: every engine prefills attention
    with sinks in its card's own prompt kernel."""
    with patch("core.engine_level.attention_fields.sink_prefill_in_triton", lambda *_: False):
        yield


# SGLang 0.5's one chunk before the round gave it 16,384 above its memory tiers
ONE_CHUNK_BEFORE = {("sglang", "0.5"): 8192}


def _one_chunk(engine, version, large_card, card_memory_bytes):
    """Each release's one chunk on every card, as the engine level had it before the round."""
    release = engine_version(engine, version)
    return ONE_CHUNK_BEFORE.get(
        (release.engine, release_line(release.version)), release.chunk_tokens
    )


# the rows the round gave the A100 (its Triton fused MoE, vLLM's Marlin MoE for MXFP4 experts)
A100_ROWS = (("ampere", "bf16", "vllm"), ("ampere", "bf16", "sglang"), ("ampere", "mxfp4", "vllm"))


@contextmanager
def without_a100_rows():
    """vLLM's and SGLang's bf16 experts, and vLLM's MXFP4 experts, on an A100 at Hopper's
    borrowed rows, as before the round."""
    with patch.dict(ENGINE_EXPERT_KERNELS):
        for key in A100_ROWS:
            del ENGINE_EXPERT_KERNELS[key]
        yield


# The Triton fused-MoE rows as fitted on every layout's rows, before the round refitted them on
# the tensor-parallel rows: (floor s, bandwidth share, compute share, padding rows, s an input)
ALL_LAYOUT_ROWS = {
    ("hopper", "bf16", "sglang"): (6e-6, 0.85, 0.2, 48, 5.0e-9),
    ("hopper", "fp8_block", "sglang"): (26e-6, 0.90, 0.225, 32, 2.25e-9),
    ("hopper", "bf16", "vllm"): (18e-6, 1.00, 0.575, 96, 4.0e-9),
    ("blackwell", "bf16", "sglang"): (4e-6, 0.75, 0.2, 16, 5.75e-9),
    ("blackwell", "bf16", "vllm"): (18e-6, 0.85, 0.40, 96, 3.0e-9),
    ("blackwell", "fp8_block", "sglang-triton"): (50e-6, 0.70, 0.20, 48, 0.0),
}


# ... and the neutral int4 row (SGLang's Marlin table), which Blackwell borrows
ALL_LAYOUT_INT4 = (32e-6, 0.65, 0.2, 16, 0.0)


def _as_fitted(row, figures):
    floor, stream, share, pad, per_input = figures
    return replace(row, fixed_s=floor, bandwidth_share=stream, compute_share=share,
                   padding_rows=pad, per_input_s=per_input)  # fmt: skip


@contextmanager
def all_layout_fits():
    """The rows of SGLang's tables and vLLM's Triton fused MoE as they were fitted on every
    layout's rows (EP rows too)."""
    old = {key: _as_fitted(ENGINE_EXPERT_KERNELS[key], figures)
           for key, figures in ALL_LAYOUT_ROWS.items()}  # fmt: skip
    int4 = {key: _as_fitted(EXPERT_KERNELS[key], ALL_LAYOUT_INT4)
            for key in (("hopper", "int4"), ("blackwell", "int4"))}  # fmt: skip
    with patch.dict(ENGINE_EXPERT_KERNELS, old), patch.dict(EXPERT_KERNELS, int4):
        yield


@contextmanager
def before_the_round():
    """The engine level as the forty-eighth round left it: no Triton kernel for sinks, one chunk
    a release on every card, Hopper's expert rows for an A100's bf16 and MXFP4 experts, and the
    rows of SGLang's tables and vLLM's Triton fused MoE fitted on every layout's rows (and none
    of the later rounds' rules: AITER's own prompt attention, the fiftieth's; a riding prompt
    priced at its step's size, the fifty-first's and fifty-second's)."""
    with (
        before_riding_prompts(),
        without_aiter_prompt(),
        without_sink_triton(),
        without_a100_rows(),
        all_layout_fits(),
        patch("core.engine_level.release_defaults.chunk_tokens", _one_chunk),
    ):
        yield


@cache
def figures(rule: bool = True, leaving=frozenset()) -> dict:
    """Both sets (error, within, cases), the publisher-held-out (error, share within) and each
    case's ratio by key (less the cases ``leaving`` names), with the round's rules in force or
    (``rule`` False) switched off; the engine level as the round left it either way (no later
    round's rule)."""
    if not rule:
        with before_the_round():
            return scored_figures(leaving)
    with without_aiter_prompt(), before_riding_prompts():
        return scored_figures(leaving)


def main() -> None:
    before, after = figures(rule=False), figures()
    print("the rows the round moves (predicted / measured), before -> after")
    for key in moved(before, after):
        print(f"  {key:5s} x{before['ratios'][key]:.2f} -> x{after['ratios'][key]:.2f}")
    for name, found in (("before", before), ("after", after)):
        print(f"{name:6s} {both_and_held_out(found)}")


if __name__ == "__main__":
    main()
