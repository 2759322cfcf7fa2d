"""Two measured tables read again (issue 37's sixty-fifth round): AITER's tuned shapes and
aiconfigurator's corrected Blackwell table.

- SGLang 0.5.10 still runs its block-fp8 linear layers on MI300-class cards through AITER's
  Triton GEMM, whose pinned AITER (v0.1.12.post1) holds tuned gfx942 tiles for three shapes only,
  DeepSeek's attention GEMMs at TP8 (:data:`core.catalog.release_kernels.AMD_TUNED_GEMM_SHAPES`).
  The sixty-fourth round priced 0.5.10's every GEMM with AITER's tuned rows; now a GEMM of another
  shape on one card (DeepSeek's dense layers' MLPs, its projections split otherwise, other
  models') walks the default tile as 0.5.6-0.5.9's do.
- aiconfigurator collected SGLang's block-fp8 GEMM on a B200 again (commit 1c99f788f, the table
  the 0.12 wheel ships): the earlier rows timed the load-time packing of the weights' scales
  inside every call (:data:`core.catalog.dense_gemms.BLACKWELL_SGLANG_BLOCK_FP8_SOURCE`). The
  engine level now prices every SGLang release's block-fp8 GEMM on Blackwell with the corrected
  table; the two it read (0.5.9's and 0.5.14's earlier one) are dropped.

This prints each row the two move, without them and with them, and both development sets
before and after. To rerun, from this repository's root (about a minute):
``python -m bench.corrected_tables``
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import print_moved, scored_without
from core.catalog import dense_gemms
from core.catalog.dense_gemms import GemmFloor
from core.catalog.engine_versions import engine_version
from core.catalog.release_kernels import amd_tuned_gemm_shapes

# The rows the engine level read before: SGLang's block-fp8 GEMM on Blackwell as aiconfigurator
# @4fabb773 measured it, the load-time packing of the weights' scales inside every timed call.
EARLIER_BLACKWELL_ROWS = {
    ("blackwell", "fp8_block", "sglang", "0.5.9"): GemmFloor(23.1e-6, 0.82e-9),
    ("blackwell", "fp8_block", "sglang", "0.5.14"): GemmFloor(16.5e-6, 0.63e-9),
}


@contextmanager
def without_corrected_tables():
    """The engine level before the sixty-fifth round: a release whose AMD dense kernels hold
    tuned tiles priced with the tuned rows for every shape, and SGLang's block-fp8 GEMMs on
    Blackwell with the earlier tables."""
    library = dense_gemms.amd_dense_kernels

    def before(gpu, engine, version):
        tuned = engine and amd_tuned_gemm_shapes(engine, engine_version(engine, version).version)
        return "" if tuned else library(gpu, engine, version)

    rows = {**dense_gemms.RELEASE_DENSE_GEMM_FLOORS, **EARLIER_BLACKWELL_ROWS}
    dense_gemms._measured_releases.cache_clear()
    try:
        with (
            patch.object(dense_gemms, "amd_dense_kernels", before),
            patch.dict(dense_gemms.RELEASE_DENSE_GEMM_FLOORS, rows),
        ):
            yield
    finally:
        dense_gemms._measured_releases.cache_clear()


def figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the two and with them."""
    return scored_without(without_corrected_tables, leaving)


def main() -> None:
    before, after = figures()
    print_moved(
        before, after, "rows the two move (priced / measured): without them -> with them", 0.005
    )


if __name__ == "__main__":
    main()
