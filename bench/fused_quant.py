"""What fusing vLLM V1's fp8 input quantiser moved (issue 37's forty-sixth round).

vLLM's V1 engine compiles its forward pass with Inductor, its custom ops off, so the static
quantisation of a per-tensor fp8 GEMM's input runs inside the RMSNorm or SiLU-and-mul kernel
before it; the measured fp8 floors timed it as a kernel of its own
(``core/catalog/dense_gemms.py`` ``static_quant_s``). This prints the quantisers, what they
spare one Llama-3-8B step and the sets the rule moves, with the rule and without it
(:func:`unfused_input_quant`, the engine level as it was priced before), so the README's
figures can be checked:

    python bench/fused_quant.py
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import Scenario
from core.catalog.dense_gemms import STATIC_QUANT_S
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.evidence.fidelity import scored_afresh

ROCM_PAGE = "AMD ROCm performance page"


@contextmanager
def unfused_input_quant():
    """The engine level with every fp8 GEMM quantising its own input, as it was priced until the
    forty-sixth round."""
    with patch.dict(STATIC_QUANT_S, clear=True):  # no quantiser timed: none to take off
        yield


def llama_step_spared_s() -> float:
    """Seconds the fused quantisers spare one decode step of Llama-3-8B in fp8 under vLLM 0.19
    on a B200 (its kernel floors, whatever the batch)."""
    scenario = Scenario(model="Llama-3-8B", gpu="B200", weight_dtype="fp8", kv_dtype="fp8",
                        engine="vllm", engine_version="0.19", realism="engine")  # fmt: skip
    fused = engine_node(scenario).fixed_seconds(ALL_TERMS)
    with unfused_input_quant():
        unfused = engine_node(scenario).fixed_seconds(ALL_TERMS)
    return float(unfused - fused)


def scored_figures(leaving=frozenset()) -> dict:
    """Both development sets (error, within, cases), their publisher-held-out figure (error,
    share within), the ROCm page's held-out error and each case's ratio by key, priced now
    (afresh, inside whatever rule a caller has switched on or off: the report is built once),
    less the cases ``leaving`` names: what a round's bench compares before and after."""
    cases, both, held = scored_afresh(leaving)
    return {
        "both": (both.geometric_mean_error, both.within_band, both.cases),
        "held_out": (held.geometric_mean_error, held.within_share),
        "rocm_page": held.by_publisher[ROCM_PAGE],
        "ratios": {case.key: float(ratio) for case, ratio in zip(cases, both.ratios, strict=True)},
    }


def scored_without(switch, leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`scored_figures` (less the cases ``leaving`` names) with a rule's
    off ``switch`` (a context manager) entered, and as the engine level stands."""
    with switch():
        before = scored_figures(leaving)
    return before, scored_figures(leaving)


def moved(before: dict, after: dict, least: float = 1e-9) -> list[str]:
    """The keys of the cases whose ratio a rule moved by ``least`` (a share) or more, from one
    :func:`scored_figures` to another."""
    return [key for key, ratio in before["ratios"].items()
            if abs(after["ratios"][key] / ratio - 1.0) >= least]  # fmt: skip


def print_moved(before: dict, after: dict, heading: str, least: float = 1e-9) -> None:
    """Print ``heading``, each row moved (:func:`moved`) with its ratio before and after, and
    both sets before and after: what a round's bench prints of its rule."""
    from core.evidence.fidelity import PUBLISHED

    by_key = {case.key: case for case in PUBLISHED}
    print(heading)
    for key in moved(before, after, least):
        case = by_key[key]
        print(f"  {key} {case.gpu:7s} {case.engine_version[:24]:24s} {case.metric:10s} "
              f"{int(case.load_value or 1):3d} users  x{before['ratios'][key]:.2f} -> "
              f"x{after['ratios'][key]:.2f}")  # fmt: skip
    print(f"before: {both_and_held_out(before)}")
    print(f"after:  {both_and_held_out(after)}")


def both_and_held_out(found: dict) -> str:
    """Both sets and their held-out figure, as a round's bench prints them."""
    (error, within, cases), (held, share) = found["both"], found["held_out"]
    return (f"both sets {error:.1%} ({within} of {cases}), held out {held:.0%} "
            f"({share:.0%} within)")  # fmt: skip


def main() -> None:
    quantisers = np.array(list(STATIC_QUANT_S.values()))
    print(f"the quantiser timed alone: {quantisers.min() * 1e6:.1f}-"
          f"{quantisers.max() * 1e6:.1f} µs; Llama-3-8B's step under vLLM 0.19 on a B200 "
          f"{llama_step_spared_s() * 1e3:.2f} ms shorter")  # fmt: skip
    before, after = scored_without(unfused_input_quant)
    for label, found in (("without the rule", before), ("with it", after)):
        print(f"{label}: {both_and_held_out(found)}; {ROCM_PAGE} held out "
              f"{found['rocm_page']:.1%}")  # fmt: skip


if __name__ == "__main__":
    main()
