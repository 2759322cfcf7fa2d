"""DeepSeek's decode step at a few users, measured and priced, by engine and card.

Issue 37's sixty-third round typed SGLang's cookbook pages on eight MI300X (D470-D479), and the
engine level prices their one-user steps at about 9 ms where the pages measure 24. This prints
every scored row of the development sets that times DeepSeek-R1's or DeepSeek-V3's step (a
mean time between tokens) at 16 users or fewer, grouped by card family and engine, with the
step as measured and as priced, so the miss can be read against the rows that hold: SGLang on
CDNA3 (InferenceX's MI325X rows, the cookbook's MI300X pages) beside ATOM on CDNA4 and SGLang
or TensorRT-LLM on Hopper and Blackwell. It also prints the fifth check set's median at each
load (Dell's SC '25 runs of SGLang 0.4 on MI300X and MI325X; their figure is throughput, and
its priced over measured reads as a step's measured over priced). Every figure is the
development report's own (:func:`core.evidence.fidelity.report`), priced once.

A diagnostic: no figure here sets a constant of the engine level. To rerun (under a minute):

    python -m bench.deepseek_low_load
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the set-ups from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.catalog.kernels import card_family
from core.evidence.check_cases_sc25 import medians_by
from core.evidence.fidelity import report

DEEPSEEK = ("DeepSeek-R1", "DeepSeek-V3")
MOST_USERS = 16


def low_load_steps() -> list[tuple]:
    """(family, engine, key, card, users, measured step s, priced step s) for every scored
    DeepSeek time between tokens at :data:`MOST_USERS` users or fewer, grouped by family and
    engine: the development report's own predictions."""
    found = report()
    rows = [(card_family(case.gpu), case.engine, case.key, case.gpu, int(case.load_value),
             case.measured, float(step))
            for case, step in zip(found.cases, found.engine, strict=True)
            if case.scored and case.model in DEEPSEEK and case.metric == "itl"
            and case.load_value <= MOST_USERS]  # fmt: skip
    return sorted(rows, key=lambda row: (row[0], row[1], row[4], row[2]))


def sc25_step_medians() -> dict[float, float]:
    """The fifth check set's median ratio by users as the report scores it (priced throughput
    over measured, which is measured time over priced: above 1 where the engine level prices
    the step too short)."""
    return medians_by(report().check_sc25["engine"].ratios, lambda case: case.load_value)


def main() -> None:
    print("DeepSeek's decode step at few users: measured / priced (above 1: priced too short)")
    print(f"{'family':10s} {'engine':13s} {'case':5s} {'card':8s} {'users':>5s} "
          f"{'measured':>9s} {'priced':>8s} {'ratio':>6s}")  # fmt: skip
    for family, engine, key, card, users, measured, priced in low_load_steps():
        print(f"{family:10s} {engine:13s} {key:5s} {card[:8]:8s} {users:5d} "
              f"{1e3 * measured:7.1f}ms {1e3 * priced:6.1f}ms x{measured / priced:5.2f}")  # fmt: skip
    print("\nSC '25 (SGLang 0.4 on MI300X and MI325X), median step ratio by users:")
    print("  " + ", ".join(f"{int(users)}: x{ratio:.2f}" for users, ratio in
                           sc25_step_medians().items()))  # fmt: skip


if __name__ == "__main__":
    main()
