"""Fit AMD's prompt-attention kernel under AITER (core/catalog/attention_kernels.py) to AMD's chart.

The releases that run AMD's AITER kernels on an Instinct card (SGLang's ROCm builds, vLLM with
its AITER switch on or the ATOM plugin: ``core.catalog.kernels.kernels_engine`` "aiter") prefill
a grouped-query prompt through AITER's MHA forward (``aiter.flash_attn_varlen_func``: its
assembly kernels where the arguments fit, bf16 with head size 128 among them, on gfx942 and
gfx950 alike). AMD published that kernel's causal forward rate on both card generations in the
library's own README (ROCm/aiter PR #1372, 2025-11-10: ``op_tests/cpp/mha/images/
causal-fwd-perf.png``, whose bars print their TFLOP/s), timed with the README's benchmark
(``benchmark_mha_fwd -prec=bf16 -b=1 -h=64 -d=128 -mask=1``), which counts a causal mask's
FLOPs as half the full square's (``flop /= 2``, ``benchmark_mha_fwd.cpp``). Its rows are typed
below as printed; the run's batch and heads are the README command's (one prompt, 64 heads).

The model and the fit are bench/prefill_attention_fit.py's: a floor per call, the causal pairs'
arithmetic at a share of the card's measured bf16 matmul rate (core/catalog/cards.py) and the
keys' worth of work each query token pays beyond its causal keys. To rerun, from this
repository's root (a second; no data to fetch: the chart's figures are typed here):

    python -m bench.aiter_attention_fit
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.prefill_attention_fit import fit
from core.catalog.attention_kernels import AITER_PREFILL_ATTENTION
from core.catalog.cards import GPUS

# the chart's prompts (tokens) and, per card, its bars (TFLOP/s, causal FLOPs)
PROMPTS = (1024, 2048, 4096, 8192, 10240, 16384)
CHART_TFLOPS = {
    "MI300X": (321.865, 452.03, 509.255, 550.67, 547.05, 538.425),
    "MI355X": (626.57, 963.165, 1190.295, 1311.955, 1313.695, 1392.485),
}
# the README's benchmark command: one prompt, 64 query heads (as many key/value heads), head 128
BATCH, HEADS, HEAD_SIZE = 1, 64, 128


def chart_rows(card: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(FLOPs of the causal pairs, FLOPs of one key a query token, latency s) of ``card``'s bars:
    each bar's latency is its causal FLOPs over its printed rate."""
    tokens = np.asarray(PROMPTS, dtype=float)
    per_pair = 4.0 * HEADS * HEAD_SIZE * BATCH
    pairs = per_pair * tokens**2 / 2.0
    return pairs, per_pair * tokens, pairs / (np.asarray(CHART_TFLOPS[card]) * 1e12)


def fitted(card: str) -> tuple[float, float, float, float]:
    """(floor s, share of the card's measured bf16 rate, extra keys, RMS log error)."""
    return fit(*chart_rows(card), GPUS[card].achieved_bf16_flops)


@contextmanager
def without_aiter_prompt():
    """The engine level before issue 37's fiftieth round: AMD cards' prompt attention under
    AITER borrows Hopper's and Blackwell's engine rows, as every AMD release's does."""
    with patch.dict(AITER_PREFILL_ATTENTION, clear=True):
        yield


def main() -> None:
    print("card    measured bf16  floor  share  keys  RMS  (AITER MHA forward, causal, bf16, d128)")
    for card in CHART_TFLOPS:
        floor, share, keys, error = fitted(card)
        rate = GPUS[card].achieved_bf16_flops / 1e12
        print(f"{card:<7} {rate:7.0f} TF/s   {floor * 1e6:3.0f}us {share:5.2f} {keys:5.0f}  "
              f"{error:4.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
