"""GPUStack's random bursts (D369-D412) page by page, and the same runs on an A100 beside an H100.

Issue 37's forty-eighth round typed 44 rows blind from GPUStack's performance-lab pages
(``core/evidence/cases_gpustack_bursts.py``): each page's baseline command, vLLM at its defaults,
timed on four bursts of fixed-length random prompts (32,000 / 100, 4,000 / 200, 2,000 / 100 and
128 / 4 tokens; 100 to 1,000 requests at once). This prints, for each page, the engine level's
ratio (predicted over measured output throughput) at each length, and for each model the lab ran
on one A100 and on one H100, how many times longer each run took on the A100, measured and
priced. A diagnostic: no figure here sets a constant of the engine level. To rerun, from this
repository's root (a few seconds):

    python -m bench.gpustack_bursts
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS
from core.evidence.fidelity import predictions

LENGTHS = ("32K", "4K", "2K", "128")


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


if __name__ == "__main__":
    main()
