"""SGLang's block-fp8 linear layers on CDNA3 run AITER's Triton GEMM on its default tile (issue
37's sixty-fourth round).

From 0.5.6 to 0.5.9 SGLang's ROCm images run a block-fp8 linear layer on an MI300-class card
through AITER's Triton ``gemm_a8w8_blockscale``, for which their AITER holds only the default
128 x 128 tile (:data:`core.catalog.release_kernels.SGLANG_TRITON_GEMM_SOURCE`). A decode-sized
GEMM then takes one workgroup's walk over its inputs
(:data:`core.catalog.dense_gemms.TRITON_DEFAULT_TILE_INPUT_S`). This prints each row the rule
moves, without it and with it; both development sets before and after; and a check no row was
fitted to: AITER PR #1930 tuned that kernel for one shape on the MI300X (DeepSeek's attention
GEMM, 2,112 x 7,168) and measured SGLang's time between tokens before and after, which the rule
prices as the tile's walk over that GEMM's inputs less the tuned rows', in every layer.

To rerun, from this repository's root (about a minute): ``python -m bench.triton_gemm_tiles``
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import NamedTuple
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import print_moved, scored_without
from core.catalog.dense_gemms import dense_gemm_cost
from core.catalog.models import MODELS

# AITER PR #1930 (ROCm/aiter, 2026-01-29): "Add tune config on Mi300x/Mi325x for
# gemm_A8W8_blockscale used in Deepseek models": the Triton kernel's tile tuned for N=2112,
# K=7168 alone, DeepSeek-R1 under SGLang on MI300X, 1k/1k, median time between tokens (ms)
# before and after, by users. Only 4 users is read: above it, prompts filling the steps move the
# median too (8 users: 37.19 -> 25.56).
PR_1930_TPOT_MS = {4: (28.76, 22.05)}
PR_1930_SHAPE = (2112, 7168)  # (outputs, inputs): DeepSeek's fused q_a / kv_a projection
PR_1930_SOURCE = (
    "ROCm/aiter PR #1930 (2026-01-29): Triton gemm_a8w8_blockscale tuned for N=2112 K=7168 on "
    "gfx942; SGLang serving DeepSeek-R1 on MI300X, 1k/1k, median TPOT at 4 users 28.76 -> 22.05 ms"
)


@contextmanager
def without_triton_tiles():
    """The engine level before the sixty-fourth round: every release's block-fp8 GEMMs on AMD
    cards priced with AITER's tuned rows."""
    with patch("core.catalog.dense_gemms.amd_dense_kernels", lambda *_: ""):
        yield


def figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the rule and with it."""
    return scored_without(without_triton_tiles, leaving)


class TuningCheck(NamedTuple):
    """AITER PR #1930's one tuned shape: the step it saved as priced and as measured (s)."""

    priced_s: float
    measured_s: float

    @property
    def ratio(self) -> float:
        return self.priced_s / self.measured_s


def pr_1930_check(users: int = 4) -> TuningCheck:
    """What tuning the one shape saves a DeepSeek step on the MI300X: the default tile's walk
    over its inputs less the tuned rows' (priced with AITER's CDNA3 row, as 0.5.10 is), in each
    of the model's layers, beside the measured drop in the median time between tokens."""
    layers = MODELS["DeepSeek-R1"].layers
    _, inputs = PR_1930_SHAPE
    default = dense_gemm_cost("MI300X", "fp8_block", "sglang", "0.5.6").per_input_s
    tuned = dense_gemm_cost("MI300X", "fp8_block", "sglang", "0.5.10", (PR_1930_SHAPE,))
    tuned = tuned.per_input_s
    before_ms, after_ms = PR_1930_TPOT_MS[users]
    return TuningCheck(layers * inputs * (default - tuned), (before_ms - after_ms) / 1e3)


def main() -> None:
    before, after = figures()
    print_moved(before, after, "rows the rule moves (priced / measured): without it -> with it")
    check = pr_1930_check()
    print(f"AITER PR #1930, one shape tuned, 4 users: the step saves {check.priced_s * 1e3:.2f} ms "
          f"priced, {check.measured_s * 1e3:.2f} ms measured (x{check.ratio:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
