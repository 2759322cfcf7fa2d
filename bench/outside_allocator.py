"""What counting each card's memory outside PyTorch's allocator moved (issue 37's forty-third round).

TensorRT-LLM and vLLM to 0.6 size their cache after a memory profile that counts what each
card's process holds outside PyTorch's allocator: the CUDA context, the libraries' workspaces
and the collectives' buffers (``core/engine_level/memory.py`` ``outside_allocator_bytes``; vLLM
from 0.7 counts only what grows after its snapshot). This prints
the sets that rule moves, with the rule and without it (:func:`inside_allocator_only`, the
engine level as it was priced before), so the README's figures can be checked:

    python bench/outside_allocator.py
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import core.engine_level.memory as memory
from core.catalog import GIB
from core.catalog.kernels import card_family
from core.evidence.check_cases_trt10 import CHECK_TRT_10
from core.evidence.families import is_mixture
from core.evidence.fidelity import both_set_cases, predictions
from core.evidence.scores import summarise


@contextmanager
def inside_allocator_only():
    """The engine level with nothing held outside PyTorch's allocator, as it was priced until
    the forty-third round."""
    names = ("OUTSIDE_ALLOCATOR_BYTES_ONE_CARD", "OUTSIDE_ALLOCATOR_BYTES_SHARDED")
    kept = {name: getattr(memory, name) for name in names}
    for name in names:
        setattr(memory, name, 0.0)
    try:
        yield
    finally:
        for name, value in kept.items():
            setattr(memory, name, value)


def _ratios(cases) -> np.ndarray:
    return predictions(cases) / np.array([case.measured for case in cases])


def figures(leaving=frozenset()) -> dict:
    """TensorRT-LLM 1.0's table (error, within, cells), the median ratio of its mixtures under
    DEP on Hopper, and both development sets (error, within, cases), as priced now, over the
    cases whose keys ``leaving`` does not name."""
    table = tuple(CHECK_TRT_10)
    trt = summarise(_ratios(table))
    hopper = [
        is_mixture(case) and "DEP" in case.layout and card_family(case.gpu) == "hopper"
        for case in table
    ]
    both = summarise(_ratios(both_set_cases(leaving)))
    return {
        "trt10": (trt.geometric_mean_error, trt.within_band, trt.cases),
        "hopper_dep_median": float(np.median(trt.ratios[np.array(hopper)])),
        "both": (both.geometric_mean_error, both.within_band, both.cases),
    }


def main() -> None:
    print(
        "memory outside PyTorch's allocator a card: "
        f"{memory.OUTSIDE_ALLOCATOR_BYTES_ONE_CARD / GIB:.2f} GiB on one card, "
        f"{memory.OUTSIDE_ALLOCATOR_BYTES_SHARDED / GIB:.2f} GiB on each of several"
    )
    with inside_allocator_only():
        before = figures()
    after = figures()
    for label, found in (("without the rule", before), ("with it", after)):
        error, within, cells = found["trt10"]
        both_error, both_within, both_cases = found["both"]
        print(
            f"{label:>17}: TensorRT-LLM 1.0's table {error:.1%} ({within} of {cells}); "
            f"Hopper DEP mixtures x{found['hopper_dep_median']:.2f} (median); both sets "
            f"{both_error:.1%} ({both_within} of {both_cases})"
        )


if __name__ == "__main__":
    main()
