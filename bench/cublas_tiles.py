"""SGLang 0.4's GEMMs on Hopper multiply 64-row tiles (issue 37, rounds 55 to 58).

SGLang multiplies a bf16 linear layer with torch, which calls cuBLAS. The build of Qwen's H20
rows (PyTorch 2.6.0+cu124, SGLang 0.4.6.post1) carries cuBLAS 12.4.5.8, whose Hopper kernels tile
at least 64 x 64 (:mod:`core.catalog.gemm_tiles`), so a decode step of one token multiplies at
least 64 rows of every bf16 GEMM: the layers' (the fifty-fifth round) and the output head's,
bf16 in every checkpoint (the fifty-sixth). An H100 or an H200 hides that arithmetic under the
weights' stream; an H20, at 148 TFLOP/s of bf16 beside 4.0 TB/s, cannot. The fifty-seventh prices
a tile at the rate the H20's measured few-token GEMMs multiply 64 rows at
(:func:`core.catalog.gemm_tiles.skinny_tile_share`), not at a large GEMM's; the fifty-eighth gives
the H20 its own fp8 rate and SGLang's block-fp8 tile DeepGEMM's measured rate
(:mod:`core.catalog.h20_tables`).

For each round this prints its figure for one H20 (the 64 rows' arithmetic at the card's bf16
rate against the weights' stream), the scored rows its rule moves and both sets and the held-out
figure without it and with it (each as the engine level stood after it, no later round's rule);
for the fifty-fifth and the fifty-seventh, the split of the dense bf16 rows' decode
steps into a fixed part and a weight stream, measured and priced, before and after:

    python -m bench.cublas_tiles
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out, moved, scored_without
from bench.h20_batch_one import dense_one_token_rows, measured_and_priced
from core.catalog import cards, gemm_tiles
from core.catalog.h20_tables import H20_FP8_FLOPS, HOPPER_TILE_ROWS, deepgemm_tile_flops
from core.engine_level import kernels
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.evidence.cases_qwen_speed import QWEN_SPEED

# the rule's key in core.catalog.gemm_tiles.GEMM_TILE_ROWS
RULE_KEY = ("hopper", "bf16", "sglang", "0.4")
# Qwen3-32B in bf16 on one H20, a one-token prompt (the page's D277); Qwen3-0.6B (D251), whose
# output head is a quarter of its weights
SHOWN_CASE, HEAD_CASE = "D277", "D251"
# Qwen3-14B-FP8 on one H20 at a one-token prompt (the page's D272)
FP8_CASE = "D272"


@contextmanager
def without_head_tiles():
    """The fifty-sixth round's rule off: the output head's bf16 GEMM multiplies only its tokens
    (the layers' tiles as the fifty-fifth round left them)."""
    with patch.object(kernels, "_head_tile_rows", lambda gpu, engine, version: 0.0):
        yield


@contextmanager
def without_bf16_tiles():
    """The fifty-fifth round's rule off: SGLang 0.4's bf16 GEMMs multiply only their tokens."""
    rows = {key: value for key, value in gemm_tiles.GEMM_TILE_ROWS.items() if key != RULE_KEY}
    with patch.dict(gemm_tiles.GEMM_TILE_ROWS, rows, clear=True):
        yield


@contextmanager
def without_tile_share():
    """The fifty-seventh round's rule off: a tile multiplies at the card's achieved rate."""
    with patch.dict(gemm_tiles.GEMM_TILE_SHARES, {}, clear=True):
        yield


# the H20's fp8 rate before the fifty-eighth round: the H100's measured share of its peak
BORROWED_H20_FP8_FLOPS = cards.GPUS["H20"].fp8_flops * cards.H100_MEASURED_SHARES["fp8"]


@contextmanager
def without_h20_fp8():
    """The fifty-eighth round's rule off: the H20 multiplies fp8 at the H100's share of its peak
    and SGLang's block-fp8 tiles at that rate (no measured DeepGEMM share)."""
    h20 = replace(cards.GPUS["H20"], achieved_fp8_flops=BORROWED_H20_FP8_FLOPS)
    shares = {k: v for k, v in gemm_tiles.GEMM_TILE_SHARES.items() if k[1] != "fp8_block"}
    with (
        patch.dict(cards.GPUS, {"H20": h20}),
        patch.dict(gemm_tiles.GEMM_TILE_SHARES, shares, clear=True),
    ):
        yield


def _case_node(key: str):
    """The engine level's node for one of Qwen's H20 rows (its key)."""
    return engine_node(next(case for case in QWEN_SPEED if case.key == key).scenario())


def tile_and_stream_ms(key: str = SHOWN_CASE) -> tuple[float, float]:
    """(the 64 rows' arithmetic at the card's rate, the dense GEMMs' weights streamed), ms, for
    one case's decode step."""
    node = _case_node(key)
    bandwidth, flops, _ = node.rates(ALL_TERMS)
    tiles = 2.0 * node.dense_gemm_params * gemm_tiles.GEMM_TILE_ROWS[RULE_KEY] / flops
    stream = 2.0 * node.dense_gemm_params / bandwidth  # bf16: two bytes a parameter
    return 1e3 * tiles, 1e3 * stream


def figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the fifty-fifth round's
    rule and with it."""
    return scored_without(without_bf16_tiles, leaving)


def head_tile_and_stream_ms(key: str = HEAD_CASE) -> tuple[float, float]:
    """(the output head's 64 rows' arithmetic at the card's bf16 rate, its weights streamed), ms,
    for one case's decode step (the fifty-sixth round's rule)."""
    node = _case_node(key)
    bandwidth, _, bf16_flops = node.rates(ALL_TERMS)
    tiles = 2.0 * node.head_params * gemm_tiles.GEMM_TILE_ROWS[RULE_KEY] / bf16_flops
    return 1e3 * tiles, 1e3 * 2.0 * node.head_params / bandwidth


def head_figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the fifty-sixth round's
    rule (the head's tile) and with it."""
    return scored_without(without_head_tiles, leaving)


def share_tile_ms(key: str = SHOWN_CASE) -> tuple[float, float]:
    """(the 64 rows' arithmetic at the card's achieved rate, the same at the measured few-token
    share: :data:`core.catalog.gemm_tiles.GEMM_TILE_SHARES`), ms, for one case's decode step."""
    tiles, _ = tile_and_stream_ms(key)
    return tiles, tiles / gemm_tiles.GEMM_TILE_SHARES[RULE_KEY]


def share_figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the fifty-seventh round's
    rule (the tile's measured rate) and with it."""
    return scored_without(without_tile_share, leaving)


def fp8_figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the fifty-eighth round's
    rule (the H20's own fp8 rate and DeepGEMM's tile share) and with it."""
    return scored_without(without_h20_fp8, leaving)


def fp8_tile_ms(key: str = FP8_CASE) -> tuple[float, float]:
    """(the 64 rows' fp8 arithmetic before the fifty-eighth round, after it), ms, for one case's
    decode step: at the H100's share of the H20's peak, then at DeepGEMM's measured rate."""
    node = _case_node(key)
    before = 2.0 * node.dense_gemm_params * HOPPER_TILE_ROWS / BORROWED_H20_FP8_FLOPS
    after = 2.0 * node.dense_gemm_params * HOPPER_TILE_ROWS / deepgemm_tile_flops()
    return 1e3 * before, 1e3 * after


def bf16_split() -> dict:
    """The dense bf16 rows' decode steps at a one-token prompt split into a fixed part and a
    weight stream, measured and priced now (:func:`bench.h20_batch_one.measured_and_priced`)."""
    return measured_and_priced(dense_one_token_rows()["bf16"])


def step_splits() -> tuple[dict, dict]:
    """(before, after): the dense bf16 rows' decode steps at a one-token prompt split into a
    fixed part and a weight stream (:func:`bench.h20_batch_one.measured_and_priced`)."""
    with without_bf16_tiles():
        before = bf16_split()
    return before, bf16_split()


def _moves(before: dict, after: dict) -> None:
    """Print the scored rows a rule moves by half a per cent or more, and the sets."""
    print("the scored rows the rule moves by half a per cent or more, before -> after")
    for key in moved(before, after, 0.005):
        print(f"  {key:5s} x{before['ratios'][key]:.3f} -> x{after['ratios'][key]:.3f}")
    for name, found in (("before", before), ("after", after)):
        print(f"{name:6s} {both_and_held_out(found)}")


def _splits(splits: tuple[dict, dict]) -> None:
    """Print the dense bf16 rows' step splits, before and after a rule."""
    for name, split in zip(("before", "after"), splits, strict=True):
        for source, (fixed, rate) in split.items():
            print(f"  bf16 {source:>8} {name:6s}: {fixed * 1e3:5.2f} ms + weights at "
                  f"{rate / 1e12:4.2f} TB/s")  # fmt: skip


def main() -> None:
    tiles, stream = tile_and_stream_ms()
    print(f"round 55: Qwen3-32B in bf16 on one H20: 64 rows' arithmetic {tiles:.1f} ms, its "
          f"dense GEMMs' weights streamed {stream:.1f} ms a step")  # fmt: skip
    with without_h20_fp8(), without_tile_share(), without_head_tiles():  # as the round left it
        _moves(*figures())
        _splits(step_splits())
    head, head_stream = head_tile_and_stream_ms()
    print(f"round 56: Qwen3-0.6B's output head on one H20: 64 rows' arithmetic {head:.2f} ms, "
          f"its weights streamed {head_stream:.2f} ms a step")  # fmt: skip
    with without_h20_fp8(), without_tile_share():
        _moves(*head_figures())
    achieved, measured = share_tile_ms()
    print(f"round 57: the H20's few-token GEMMs multiply 64 rows at "
          f"{gemm_tiles.GEMM_TILE_SHARES[RULE_KEY]:.3f} of its achieved bf16 rate; Qwen3-32B's "
          f"64 rows {achieved:.1f} ms -> {measured:.1f} ms a step")  # fmt: skip
    with without_h20_fp8():  # the round as it left the engine level
        _moves(*share_figures())
        with without_tile_share():
            before = bf16_split()
        _splits((before, bf16_split()))
    fp8_before, fp8_after = fp8_tile_ms()
    print(f"round 58: the H20's fp8 rate {BORROWED_H20_FP8_FLOPS / 1e12:.0f} -> "
          f"{H20_FP8_FLOPS / 1e12:.0f} TFLOP/s, DeepGEMM's 64-row tile "
          f"{deepgemm_tile_flops() / 1e12:.0f}; Qwen3-14B-FP8's 64 rows {fp8_before:.1f} ms -> "
          f"{fp8_after:.1f} ms a step")  # fmt: skip
    _moves(*fp8_figures())


if __name__ == "__main__":
    main()
