"""GPUStack's random bursts (D369-D412) page by page, and the same runs on an A100 beside an H100.

Issue 37's forty-eighth round typed 44 rows blind from GPUStack's performance-lab pages
(``core/evidence/cases_gpustack_bursts.py``): each page's baseline command, vLLM at its defaults,
timed on four bursts of fixed-length random prompts (32,000 / 100, 4,000 / 200, 2,000 / 100 and
128 / 4 tokens; 100 to 1,000 requests at once). This prints, for each page, the engine level's
ratio (predicted over measured output throughput) at each length, and for each model the lab ran
on one A100 and on one H100, how many times longer each run took on the A100, measured and
priced. It then scores the round's explored rule again (committed before it was scored, then
reverted): vLLM's MXFP4 experts on an A100 priced by the A100's own Marlin MoE table, the kernel
vLLM runs for them below SM90. A diagnostic: no figure here sets a constant of the engine level.
To rerun, from this repository's root (a few seconds):

    python -m bench.gpustack_bursts
"""

from __future__ import annotations

import re
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.catalog.kernels import ENGINE_EXPERT_KERNELS, ExpertKernel
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS
from core.evidence.fidelity import both_set_cases, predictions, score

LENGTHS = ("32K", "4K", "2K", "128")
# The A100's Marlin MoE row as bench/moe_kernel_fit.py fitted it in the forty-eighth round, on
# every layout's rows (aiconfigurator a100_sxm sglang 0.5.10 sglang_marlin_moe int4_wo; on the
# tensor-parallel rows alone, as it fits SGLang's tables since the forty-ninth, a compute share
# of 0.575): floor, bandwidth share, compute share, padding rows
A100_MARLIN = ExpertKernel(
    48e-6,
    0.65,
    0.30,
    16,
    "a100_sxm sglang 0.5.10 marlin int4 (bench/moe_kernel_fit.py)",
    compute="bf16",
)


@contextmanager
def marlin_on_ampere():
    """The engine level with vLLM's MXFP4 experts on Ampere priced by :data:`A100_MARLIN` (the
    forty-eighth round's explored rule; vLLM's mxfp4.py picks Marlin below SM90)."""
    with patch.dict(ENGINE_EXPERT_KERNELS, {("ampere", "mxfp4", "vllm"): A100_MARLIN}):
        yield


def marlin_figures(leaving=frozenset()) -> dict:
    """Both sets (error, within, cases; less the cases ``leaving`` names) and the ratio of each
    one-A100 gpt-oss row, with the explored rule in force."""
    cases = both_set_cases(leaving)
    with marlin_on_ampere():
        both = score(cases)
    return {
        "both": (both.geometric_mean_error, both.within_band, both.cases),
        "gpt_oss": {case.key: float(ratio) for case, ratio in zip(cases, both.ratios, strict=True)
                    if case.model.startswith("gpt-oss") and case.gpu.startswith("A100")},
    }  # fmt: skip


def page_of(case) -> str:
    """The performance-lab page a row was read from, as ``model/card``."""
    return re.search(r"performance-lab/(\S+)\.md", case.source)[1]


def pages(cases=GPUSTACK_BURSTS) -> dict[str, list[tuple[object, float]]]:
    """Each page's rows in the page's order, with the engine level's ratio for each."""
    found: dict[str, list[tuple[object, float]]] = {}
    priced = predictions(cases)
    for case, value in zip(cases, priced, strict=True):
        found.setdefault(page_of(case), []).append((case, float(value) / case.measured))
    return found


def a100_over_h100(found) -> dict[str, list[tuple[float, float]]]:
    """For each model run on one A100 and one H100: each length's run time on the A100 over the
    H100's (the inverse of their throughputs), as (measured, priced)."""
    pairs = {}
    for page, rows in found.items():
        model, card = page.split("/")
        twin = found.get(f"{model}/h100")
        if card != "a100" or twin is None or rows[0][0].cards != 1:
            continue
        pairs[model] = [
            (h.measured / a.measured, (h.measured * h_ratio) / (a.measured * a_ratio))
            for (a, a_ratio), (h, h_ratio) in zip(rows, twin, strict=True)
        ]
    return pairs


def main() -> None:
    found = pages()
    print("the engine level's ratio (predicted / measured output throughput), by page and run")
    print(f"  {'page':22s}" + "".join(f"{length:>8s}" for length in LENGTHS))
    for page, rows in found.items():
        print(f"  {page:22s}" + "".join(f"{ratio:8.2f}" for _, ratio in rows))
    print("one A100 against one H100: each run's time on the A100 over the H100's")
    for model, runs in a100_over_h100(found).items():
        cells = "  ".join(f"{length} {seen:.2f} ({priced:.2f})" for length, (seen, priced) in
                          zip(LENGTHS, runs, strict=True))  # fmt: skip
        print(f"  {model:14s} measured (priced): {cells}")
    found = marlin_figures()
    error, within, cases = found["both"]
    rows = ", ".join(f"{key} x{ratio:.2f}" for key, ratio in found["gpt_oss"].items())
    print(f"explored, reverted: vLLM's MXFP4 experts on an A100 at its Marlin table: both sets "
          f"{error:.1%} ({within} of {cases}); its gpt-oss rows {rows}")  # fmt: skip


if __name__ == "__main__":
    main()
