"""How each level of the model predicts published engine measurements: every case and the summary.

Run ``python bench/fidelity.py`` (or ``make bench``). For both development sets it prints each
case's whiteboard and engine-level prediction over the measurement, each set's geometric-mean
error and how many cases land within x0.80 to x1.25, the same per family (dense or mixture,
NVIDIA or AMD, engine, throughput or latency) for each set and both together, the check sets'
summaries (TensorRT-LLM's tables also by kind, and their DEP mixtures by card family: Hopper
runs their fp8 checkpoints, Blackwell their FP4 ones), and the time one engine evaluation takes.

Beside each engine-level figure it prints the leave-one-publisher-out one
(:mod:`core.evidence.crossval`): each publisher's cases scored by a model that fitted nothing
on them, each publisher one vote. The engine level fits nothing on published rows, so the two
differ by the weighting alone; figures people chose while looking at the rows are not undone by
this, and the gap between the two numbers is the part of that tuning it shows. The held-out
error's spread over redrawn publishers (:func:`core.evidence.crossval.resampled_spread`) says
how far another dozen publishers could move it.
"""

from __future__ import annotations

import sys
import textwrap
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import numpy as np

from core import Scenario, evaluate
from core.catalog.kernels import card_family
from core.evidence.cases import UNITS
from core.evidence.check_cases import CHECK
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.check_cases_argonne import CHECK_ARGONNE
from core.evidence.check_cases_sc25 import CHECK_SC25, medians_by
from core.evidence.check_cases_trt10 import CHECK_TRT_10
from core.evidence.crossval import AUDIT, FITTED_ON_ROWS, RESAMPLE_SHARE, RESAMPLES
from core.evidence.families import LEVELS, SETS, is_mixture
from core.evidence.fidelity import BAND, report, summarise, within_band


def _mark(ratio: float) -> str:
    return " " if within_band(ratio) else "*"


def _line(label: str, result) -> str:
    if result is None:
        return f"{label:<10} {'-':>6}"
    return (
        f"{label:<10} {result.geometric_mean_error:6.1%} {result.within_band:>3}/{result.cases:<3}"
    )


def _cases(set_name: str) -> None:
    r = report()
    print(f"\n{set_name} set: {SETS[set_name]}")
    print(f"{'case':<5} {'engine (version)':<30} {'measured':>10} {'unit':<17} "
          f"{'whiteboard':>11} {'engine':>9}  knobs the Scenario lacks")  # fmt: skip
    for index, case in enumerate(r.cases):
        if r.set_of(index) != set_name:
            continue
        white, engine = r.steps[index, 0], r.steps[index, -1]
        engine_text = f"{case.engine} {case.engine_version}".strip()
        pending = ", ".join(
            f"{knob}={value.split(' (')[0].split(';')[0]}"
            for knob, value in case.pending_knobs.items()
        )
        unscored = "" if case.scored else "  (not scored)"
        print(
            f"{case.key:<5} {engine_text[:30]:<30} {case.measured:>10.4g} {UNITS[case.metric]:<17} "
            f"x{white:>9.2f}{_mark(white)} x{engine:>7.2f}{_mark(engine)}  {pending}{unscored}"
        )
    for level in LEVELS:
        print(f"  {_line(level, r.scores[set_name][level])}")
    unscored = [i for i, c in enumerate(r.cases) if r.set_of(i) == set_name and not c.scored]
    if unscored:
        every = [i for i in range(len(r.cases)) if r.set_of(i) == set_name]
        total = summarise(r.steps[every, -1])
        print(f"  with the {len(unscored)} unscored cases too: {_line('engine', total)}")


def _families() -> None:
    r = report()
    print(f"\nper family: geometric-mean error, cases within x{BAND[0]:.2f}-x{BAND[1]:.2f}")
    header = "".join(f"{name + ' ' + level:>22}" for name in SETS for level in LEVELS)
    print(f"{'family':<20}{header}")
    for row in r.families:
        cells = ""
        for name in SETS:
            for level in LEVELS:
                result = row.score(name, level)
                text = "-" if result is None else (
                    f"{result.geometric_mean_error:.0%} {result.within_band}/{result.cases}"
                )  # fmt: skip
                cells += f"{text:>22}"
        print(f"{row.family:<20}{cells}")


def _held(result) -> str:
    if result is None:
        return "-"
    return f"{result.geometric_mean_error:.0%} {result.within_share:.0%}"


def _spread(result) -> str:
    """The held-out error's own spread over redrawn publishers, in words."""
    low, high = result.spread
    return (
        f"{low:.0%}-{high:.0%} (the middle {RESAMPLE_SHARE:.0%} of the held-out error over "
        f"{RESAMPLES:,} redraws of its {result.publishers} publishers, with replacement)"
    )


def _cross_validated() -> None:
    r = report()
    print("\nleave one publisher out (engine level): each publisher's cases scored by a fold that")
    print("never saw them, each publisher one vote; error, then the weighted share within the band")
    fitted = ", ".join(FITTED_ON_ROWS) or "none"
    audit = f"figures fitted on published rows and refitted in each fold: {fitted}: {AUDIT}."
    print(textwrap.fill(audit, width=96))
    header = "".join(f"{name + ' in-sample':>20}{name + ' held out':>18}" for name in SETS)
    print(f"{'family':<20}{header}{'both spread':>14}")
    for row in r.families:
        cells = ""
        for name in SETS:
            result = row.score(name, "engine")
            text = "-" if result is None else (
                f"{result.geometric_mean_error:.0%} {result.within_band}/{result.cases}"
            )  # fmt: skip
            cells += f"{text:>20}{_held(row.held_out(name)):>18}"
        both = row.held_out("both")
        spread = "-" if both is None else f"{both.spread[0]:.0%}-{both.spread[1]:.0%}"
        print(f"{row.family:<20}{cells}{spread:>14}")
    for name in ("first", "second"):  # both sets' is printed with their scores above
        print(f"{name + ':':<8} held out {_held(r.cross_validated[name])}, spread "
              f"{_spread(r.cross_validated[name])}")  # fmt: skip
    both = r.cross_validated["both"]
    print(f"\neach publisher's own error over both sets ({both.publishers} publishers):")
    for publisher, error in sorted(both.by_publisher.items(), key=lambda item: item[1]):
        keys = [r.cases[i].key for i in r.sets["both"] if r.publishers[i] == publisher]
        print(f"  {publisher:<38} {error:6.1%}  {len(keys):>2} cases: {', '.join(keys)}")


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
    start = time.perf_counter()
    r = report()
    print(f"(the report over {len(r.cases)} cases took {time.perf_counter() - start:.1f} s)")
    for set_name in ("first", "second"):
        _cases(set_name)
    print(f"\nboth sets: {SETS['both']} ({len(r.sets['both'])} scored cases)")
    for level in LEVELS:
        print(f"  {_line(level, r.scores['both'][level])}")
    held = r.cross_validated["both"]
    print(f"  {'held out':<10} {_held(held)} (each publisher held out, one vote)")
    print(f"  {'spread':<10} {_spread(held)}")
    _families()
    _cross_validated()
    # (heading, report field, the cells to split by kind where the set is TensorRT-LLM's table)
    for heading, field, by_kind in (
        (f"check set ({len(CHECK)} more rows of the first set's public tables)", "check", ()),
        (f"second check set ({len(CHECK_TRT_1X)} more cells of the second set's TensorRT-LLM 1.x "
         "table, core/evidence/check_cases_2026.py)", "check_second", CHECK_TRT_1X),
        (f"third check set ({len(CHECK_ARGONNE)} rows of Argonne's MI300X table, its own build of "
         "vLLM 0.6.1, core/evidence/check_cases_argonne.py)", "check_argonne", ()),
        (f"fourth check set ({len(CHECK_TRT_10)} cells of TensorRT-LLM 1.0's own throughput "
         "table, core/evidence/check_cases_trt10.py)", "check_trt10", CHECK_TRT_10),
        (f"fifth check set ({len(CHECK_SC25)} of Dell's SC '25 runs: DeepSeek-R1 under SGLang 0.4 "
         "on MI300X and MI325X, core/evidence/check_cases_sc25.py)", "check_sc25", ()),
    ):  # fmt: skip
        scores = getattr(r, field)
        print(f"\n{heading}")
        for level in LEVELS:
            print(f"  {_line(level, scores[level])}")
        if by_kind:
            _trt_by_kind(scores["engine"].ratios, by_kind)
    _fifth_by_load(r.check_sc25["engine"].ratios)
    _timing()


def _trt_by_kind(ratios, cases) -> None:
    """A TensorRT-LLM check set's engine-level ratio (median, predicted over measured) for dense
    models and for mixtures, with attention data parallel (DEP) or without: every cell is a max
    load, so a kind that reads fast or slow is a bias in how the engine level prices it."""
    mixture = np.array([is_mixture(case) for case in cases])
    spread = np.array(["DEP" in case.layout for case in cases])
    kinds = {
        "dense": ~mixture,
        "mixtures without DEP": mixture & ~spread,
        "mixtures DEP": mixture & spread,
    }
    print(textwrap.fill("  by kind: " + _medians(ratios, kinds), 96, subsequent_indent="    "))
    # The same cells by card family: NVIDIA's pages run fp8 checkpoints on Hopper and FP4 on
    # Blackwell, so a family that reads fast where the other reads slow is a bias of one
    # family's kernels or links, not of the kind as a whole.
    families = np.array([card_family(case.gpu) for case in cases])
    split = {
        family: mixture & spread & (families == family)
        for family in sorted(set(families[mixture & spread]))
    }
    line = "  mixtures DEP by card family: " + _medians(ratios, split)
    print(textwrap.fill(line, 96, subsequent_indent="    "))


def _medians(ratios, groups) -> str:
    """Each group's median ratio and how many of its cells are within the band, on one line."""
    cells = []
    for label, picks in groups.items():
        picked = ratios[picks]
        within = np.count_nonzero(within_band(picked))
        cells.append(f"{label}: x{np.median(picked):.2f}, {within}/{picked.size} within")
    return "; ".join(cells)


def _fifth_by_load(ratios) -> None:
    """The fifth check set's engine-level ratio (median, predicted over measured) by load and
    by prompt length: where its runs read fast or slow, not just how far."""
    for label, key in (
        ("users", lambda case: case.load_value),
        ("prompt tokens", lambda case: case.prompt_tokens),
    ):
        cells = [f"{value:g}: x{median:.2f}" for value, median in medians_by(ratios, key).items()]
        print(textwrap.fill(f"  by {label}: " + ", ".join(cells), 96, subsequent_indent="    "))


if __name__ == "__main__":
    main()
