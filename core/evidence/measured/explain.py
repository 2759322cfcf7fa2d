"""Each measured figure beside both levels' predictions, and the waterfall between them.

A run becomes up to three points, typed like the published cases
(:class:`core.evidence.cases.PublishedCase`): its output throughput, its time to first token
and its time between tokens, each at the run's mean lengths and load. The whiteboard's
figure, the engine level's and every step of the waterfall come from
:func:`core.evidence.fidelity.waterfall_table`, as the published cases' are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from core.evidence.cases import PublishedCase
from core.evidence.fidelity import MOVED, STEP_LABELS, waterfall_table
from core.evidence.measured.matching import ENGINE_NAMES, Choice, Setup, match_setup
from core.evidence.measured.record import BenchmarkRun

# A point per figure: the case metric, the run's metrics tried in order, statistics in order
FIGURES = (
    ("throughput", ("output_tokens_per_s",), ("mean",)),
    ("ttft", ("ttft_s",), ("median", "mean")),
    ("itl", ("itl_s", "tpot_s"), ("median", "mean")),
)
_SUFFIXES = {"throughput": "tput", "ttft": "ttft", "itl": "itl"}  # a point's key: M1-ttft
_WORDS = {"ttft_s": "TTFT", "itl_s": "ITL", "tpot_s": "TPOT", "output_tokens_per_s": "output tok/s"}


@dataclass(frozen=True)
class Point:
    """One measured figure and what each level predicts for it."""

    run: int  # the run's place in the list explained (its colour)
    case: PublishedCase
    statistic: str  # what was measured, in words: "median ITL", "mean output tok/s"
    whiteboard: float
    engine: float
    steps: tuple[float, ...]  # prediction / measurement after each waterfall step

    @property
    def measured(self) -> float:
        return self.case.measured

    @property
    def metric(self) -> str:
        return self.case.metric

    @property
    def moves(self) -> list[tuple[str, str, float]]:
        """(term, its words, factor) of each waterfall step that moved the figure by over 10 %."""
        terms = list(STEP_LABELS.items())[1:]
        factors = np.asarray(self.steps[1:]) / np.asarray(self.steps[:-1])
        return [(term, label, float(factor)) for (term, label), factor in
                zip(terms, factors, strict=True) if abs(np.log(factor)) > np.log(MOVED)]  # fmt: skip


@dataclass(frozen=True)
class Explained:
    """A run, the set-up it was evaluated on, its points, and what stopped it if anything did."""

    run: BenchmarkRun
    setup: Setup | None
    points: tuple[Point, ...]
    problem: str = ""
    user_tokens_per_s: float | None = None  # 1 / time between tokens: the frontier's x
    gpu_tokens_per_s: float | None = None  # output tokens/s per card: the frontier's y


def _load(run: BenchmarkRun, users: int | None = None) -> tuple[str, float]:
    """The case's load: a cap on requests in flight is closed-loop users; a finite rate is
    open-loop arrivals; every request sent at once is as many users as requests (a finite
    burst, not an endless queue), or saturated where the file does not count them."""
    if run.concurrency:
        return "users", max(1.0, round(run.concurrency))
    if run.request_rate is not None and math.isfinite(run.request_rate) and run.request_rate > 0:
        return "rate", run.request_rate
    if run.requests:
        return "users", float(run.requests)
    if users:
        return "users", float(users)
    return "saturated", 0.0


def cases_of(run: BenchmarkRun, setup: Setup, key: str) -> list[tuple[PublishedCase, str]]:
    """The run's figures as cases on ``setup``, each with the statistic it holds in words."""
    load, value = _load(run, setup.users)
    # A run of equal answers ends in waves (PublishedCase.requests, the run_requests knob).
    sent = run.requests if load == "users" and run.answer_tokens.uniform else 0
    prompt = max(1, round(run.prompt_tokens.pick(("mean", "median"))[0]))
    answer = max(1, round(run.answer_tokens.pick(("mean", "median"))[0]))
    found = []
    for metric, names, order in FIGURES:
        for name in names:
            stat = run.metrics.get(name)
            picked = stat.pick(order) if stat is not None else None
            if picked and picked[0] > 0:
                break
        else:
            continue
        if load == "saturated" and metric != "throughput":
            continue  # under an endless queue only the throughput compares
        value_measured, statistic = picked
        case = PublishedCase(
            f"{key}-{_SUFFIXES[metric]}", metric, setup.model, setup.gpu, setup.cards, setup.weights,
            prompt, answer, load, value, float(value_measured), run.label,
            f"{run.tool}: {statistic} {_WORDS[name]}", kv_dtype=setup.cache,
            model_config=setup.config, model_label=run.model,
            engine=ENGINE_NAMES[setup.engine], requests=sent,
        )  # fmt: skip
        found.append((case, f"{statistic} {_WORDS[name]}"))
    return found


def _evaluate(cases: list[PublishedCase]) -> np.ndarray:
    """The waterfall table of ``cases`` (uncached: a student's cases are not kept)."""
    return waterfall_table(tuple(cases))


def _frontier(run: BenchmarkRun, setup: Setup) -> tuple[float | None, float | None]:
    gap = next(
        (run.metrics[name].pick() for name in ("itl_s", "tpot_s") if name in run.metrics), None
    )
    rate = run.metrics.get("output_tokens_per_s")
    user = 1.0 / gap[0] if gap and gap[0] > 0 else None
    gpu = rate.mean / setup.cards if rate is not None and rate.mean else None
    return user, gpu


def _unknown(run: BenchmarkRun) -> Explained:
    name = run.model or "no model name"
    return Explained(run, None, (), f"the catalog does not know {name!r}: choose its model, or "
                     "paste its config.json and choose 'custom'")  # fmt: skip


def explain_run(index: int, run: BenchmarkRun, choice: Choice, table=None) -> Explained:
    """One run's points on its matched set-up, or the reason there are none.

    ``table`` is the run's rows of the waterfall table where the caller evaluated many runs
    at once; without it the run is evaluated alone.
    """
    setup = match_setup(run, choice)
    if setup is None:
        return _unknown(run)
    pairs = cases_of(run, setup, f"M{index + 1}")
    try:
        table = _evaluate([case for case, _ in pairs]) if table is None else table
    except ValueError as error:
        return Explained(run, setup, (), f"this set-up cannot be evaluated: {error}")
    points = []
    for (case, statistic), row in zip(pairs, table, strict=True):
        if not np.all(np.isfinite(row)) or np.any(row <= 0):
            continue
        steps = tuple(float(v) for v in row / case.measured)
        points.append(Point(index, case, statistic, float(row[0]), float(row[-1]), steps))
    problem = "" if points else (
        f"{setup.model} does not fit on {setup.cards} \u00d7 {setup.gpu} in {setup.weights}: "
        "choose more cards or a smaller storage"
    )  # fmt: skip
    user, gpu = _frontier(run, setup)
    return Explained(run, setup, tuple(points), problem, user, gpu)


def explain(runs, choice: Choice) -> list[Explained]:
    """Every run explained, in order (the index is its colour), in one vectorised evaluation;
    a run whose set-up cannot be evaluated is then explained alone, with its reason."""
    runs = list(runs)
    setups = [match_setup(run, choice) for run in runs]
    groups = [cases_of(run, setup, f"M{i + 1}") if setup else [] for i, (run, setup) in
              enumerate(zip(runs, setups, strict=True))]  # fmt: skip
    every = [case for pairs in groups for case, _ in pairs]
    try:
        table = _evaluate(every) if every else np.zeros((0, 0))
    except ValueError:
        return [explain_run(index, run, choice) for index, run in enumerate(runs)]
    found, start = [], 0
    for index, (run, pairs) in enumerate(zip(runs, groups, strict=True)):
        rows = table[start : start + len(pairs)]
        start += len(pairs)
        found.append(explain_run(index, run, choice, rows) if pairs else _unknown(run))
    return found


ORIGIN_MARKS = {"chosen": "chosen", "guessed": "guessed"}


def setup_text(setup: Setup) -> str:
    """A set-up in words, each knob the file did not state marked as chosen or guessed."""
    shown = {
        "model": setup.model,
        "gpu": f"{setup.cards} \u00d7 {setup.gpu}",
        "weights": f"weights {setup.weights}",
        "cache": f"cache {setup.cache}",
        "engine": ENGINE_NAMES[setup.engine],
    }
    parts = []
    for knob, text in shown.items():
        origin = setup.origin.get(knob, "")
        if knob == "gpu" and setup.origin.get("cards") == "guessed" and origin != "guessed":
            origin = f"{origin}, cards guessed" if origin in ORIGIN_MARKS else "cards guessed"
        parts.append(f"{text} ({origin})" if origin and origin != "from the file" else text)
    return ", ".join(parts)


def table_rows(found: list[Explained]) -> list[dict]:
    """Every point as one row of plain values: the run, its set-up, the figure, both levels."""
    rows = []
    for item in found:
        for point in item.points:
            case = point.case
            rows.append(
                {
                    "file": item.run.label,
                    "tool": item.run.tool,
                    "model_in_file": item.run.model,
                    "setup": setup_text(item.setup),
                    "not_in_file": ", ".join(item.setup.guessed),
                    "prompt_tokens": case.prompt_tokens,
                    "answer_tokens": case.answer_tokens,
                    "load": case.load_text,
                    "figure": case.metric,
                    "statistic": point.statistic,
                    "measured": point.measured,
                    "whiteboard": point.whiteboard,
                    "engine_level": point.engine,
                    "whiteboard_over_measured": point.steps[0],
                    "engine_over_measured": point.steps[-1],
                }
            )
    return rows
