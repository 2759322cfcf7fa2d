"""Time the Frontier lab: the sweep in core, and server time per knob change in the lab.

Prints figures; asserts nothing (speed is measured here, never in a timed test).
Target from issue 13: the frontier for the pool's default (8B on one H100) and for the 70B
class on two H100s redrawn in under 100 ms of server time per change.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would come first on sys.path and shadow the `core` package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import panel as pn
from bokeh.document import Document

from core import Scenario
from core.studies.frontier import frontiers, sweep, sweep_axes
from labs.frontier.lab import FrontierLab

CASES = {
    "8B on 1 H100 (pool default)": {},
    "70B on 2 H100": {"tier": "large"},
}
# Each change flips one knob back and forth; every flip redraws the whole frontier.
CHANGES = {
    "kv_dtype": ("fp8", "bf16"),
    "cards": (4, None),
    "seats": (64, 16),
    "realism": ("engine", "whiteboard"),
}


def timed(function, repeats: int) -> list[float]:
    """Seconds per call of ``function`` over ``repeats`` calls."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        function()
        samples.append(time.perf_counter() - start)
    return samples


def report(label: str, samples: list[float]) -> None:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
    print(
        f"  {label:<34} median {statistics.median(samples) * 1e3:6.1f} ms   "
        f"p95 {p95 * 1e3:6.1f} ms   best {ordered[0] * 1e3:6.1f} ms"
    )


def main() -> None:
    for name, knobs in CASES.items():
        print(name)
        scenario = Scenario(**knobs)
        axes = sweep_axes(scenario)
        sweep(scenario, axes)  # warm caches
        report(
            f"core sweep ({len(sweep(scenario, axes))} points)",
            timed(lambda scenario=scenario, axes=axes: sweep(scenario, axes), 30),
        )
        points = sweep(scenario, axes)
        report("core Pareto frontiers", timed(lambda points=points: frontiers(points), 30))

        # The lab inside a Bokeh document, as a served session holds it: every change
        # recomputes the sweep and replaces the chart's data on real Bokeh models.
        lab = FrontierLab(scenario=Scenario(**knobs))
        pn.panel(lab).get_root(Document())
        samples = []
        for knob, values in CHANGES.items():
            for _ in range(8):
                for value in values:
                    start = time.perf_counter()
                    setattr(lab.scenario, knob, value)
                    samples.append(time.perf_counter() - start)
        report("lab, one knob change (server)", samples)


if __name__ == "__main__":
    main()
