"""How each level of the model predicts published engine measurements: every case and the summary.

Run ``python bench/fidelity.py`` (or ``make bench``). For each published case it prints the
whiteboard's and the engine level's prediction over the measurement, then for each set the
geometric-mean error and how many cases land within x0.80 to x1.25, and the time one engine
evaluation takes.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import Scenario, evaluate
from core.evidence.cases import DEVELOPMENT, UNITS
from core.evidence.check_cases import CHECK
from core.evidence.fidelity import BAND, predict, score


def _mark(ratio: float) -> str:
    return " " if BAND[0] <= ratio <= BAND[1] else "*"


def _cases(cases, title: str, verbose: bool) -> None:
    print(f"\n{title}")
    if verbose:
        print(f"{'case':<38} {'measured':>11} {'unit':<17} {'whiteboard':>11} {'engine':>9}")
        for case in cases:
            whiteboard = predict(case, "whiteboard") / case.measured
            engine = predict(case, "engine") / case.measured
            print(
                f"{case.key:<38} {case.measured:>11.4g} {UNITS[case.metric]:<17} "
                f"x{whiteboard:>9.2f}{_mark(whiteboard)} x{engine:>7.2f}{_mark(engine)}"
            )
    for realism in ("whiteboard", "engine"):
        result = score(cases, realism)
        print(
            f"  {realism:<10} geometric-mean error {result.geometric_mean_error:6.1%}, "
            f"{result.within_band}/{result.cases} within x{BAND[0]:.2f}-x{BAND[1]:.2f}"
        )


def _timing() -> None:
    scenario = Scenario(realism="engine")
    evaluate(scenario)
    runs = 200
    start = time.perf_counter()
    for _ in range(runs):
        evaluate(scenario)
    per_call = (time.perf_counter() - start) / runs
    print(f"\none engine-level evaluation: {per_call * 1e6:,.0f} us (whiteboard: ", end="")
    whiteboard = Scenario()
    start = time.perf_counter()
    for _ in range(runs):
        evaluate(whiteboard)
    print(f"{(time.perf_counter() - start) / runs * 1e6:,.0f} us)")


def main() -> None:
    print("Published measurements against both levels (* = outside the band)")
    _cases(DEVELOPMENT, "development set (shared/fidelity/published.md)", verbose=True)
    _cases(CHECK, f"check set ({len(CHECK)} more rows of the same public tables)", verbose=False)
    _timing()


if __name__ == "__main__":
    main()
