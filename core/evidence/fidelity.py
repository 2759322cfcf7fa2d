"""How well each level of the model predicts what real engines measured, and why they differ.

:func:`predictions` gives every published case's figure at one level of detail in one
vectorised call; :func:`score` sums a set of cases up (geometric-mean error, share within the
band); :func:`waterfall` walks from the whiteboard's figure to the engine level's one physical
term at a time, so a student sees which terms moved it; :func:`term_effects` says which terms
matter across the whole set.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from core.engine_level.terms import TERMS
from core.evaluate import evaluate, evaluate_terms
from core.evidence.cases import DEVELOPMENT, PublishedCase
from core.whiteboard.scenario import Scenario

# A prediction within this band of the measurement counts as holding up.
BAND = (0.80, 1.25)
# A term "moved" a case when it changed the figure by more than this factor.
MOVED = 1.10
_SET_UP = ("model", "gpu", "cards", "weight_dtype", "kv_dtype", "prompt_tokens",
           "answer_tokens", "prefix_hit_rate", "seats", "concurrency", "arrivals_per_min")  # fmt: skip


def within_band(ratio):
    """True where a prediction over a measurement (scalar or array) lies within :data:`BAND`."""
    return (np.asarray(ratio) >= BAND[0]) & (np.asarray(ratio) <= BAND[1])


def _overrides(cases) -> dict:
    """Every case's set-up as arrays of knobs, one entry per case."""
    scenarios = [case.scenario() for case in cases]
    return {
        knob: np.array([getattr(scenario, knob) for scenario in scenarios], dtype=object)
        for knob in _SET_UP
    }


def _pick(result, cases) -> np.ndarray:
    return np.array(
        [getattr(result, case.field)[index] for index, case in enumerate(cases)], dtype=float
    )


def predictions(cases, realism: str = "engine") -> np.ndarray:
    """Each case's figure as ``realism`` predicts it, in the unit it was measured in."""
    return _pick(evaluate(Scenario(), realism=realism, **_overrides(cases)), cases)


def predict(case: PublishedCase, realism: str = "engine") -> float:
    """The figure ``realism`` predicts for one case."""
    return float(getattr(evaluate(case.scenario(realism)), case.field))


def with_terms(cases, terms) -> np.ndarray:
    """Each case's figure at the engine level with only ``terms`` in force."""
    return _pick(evaluate_terms(Scenario(), frozenset(terms), **_overrides(cases)), cases)


@dataclass(frozen=True)
class Score:
    """How a level of the model fares over a set of published cases."""

    ratios: np.ndarray  # predicted / measured, case by case
    geometric_mean_error: float  # exp(mean |ln ratio|) - 1
    within_band: int
    cases: int


def score(cases, realism: str = "engine") -> Score:
    """Ratios and summary statistics of ``realism`` over ``cases``.

    Notes
    -----
    The geometric-mean error treats a factor of two too high and too low alike:

    .. math:: e = \\exp\\left(\\frac{1}{n} \\sum_i |\\ln(p_i / m_i)|\\right) - 1
    """
    ratios = predictions(cases, realism) / np.array([case.measured for case in cases])
    error = float(np.exp(np.mean(np.abs(np.log(ratios)))) - 1.0)
    inside = int(np.sum(within_band(ratios)))
    return Score(ratios, error, inside, len(ratios))


@dataclass(frozen=True)
class Step:
    """One bar of a waterfall: what the figure becomes once ``label`` is taken into account."""

    term: str  # "whiteboard", "load", or a key of TERMS
    label: str
    value: float


STEP_LABELS = {
    "whiteboard": "the whiteboard's arithmetic",
    "load": "the batch the benchmark keeps running (the whiteboard prices every step for a full node)",
    **TERMS,
}


@cache
def waterfalls(cases: tuple[PublishedCase, ...] = tuple(DEVELOPMENT)) -> np.ndarray:
    """Every case's waterfall as one array: a row per case, a column per :data:`STEP_LABELS` key.

    The first column is the whiteboard's figure; the second runs the same arithmetic on the
    batch the benchmark actually keeps running; each further column adds one term of
    :data:`core.engine_level.terms.TERMS` in order, so the last is the engine level's figure. Computed
    once per process: the published cases never change.
    """
    columns = [predictions(cases, "whiteboard")]
    terms: set[str] = set()
    columns.append(with_terms(cases, terms))
    for term in TERMS:
        terms.add(term)
        columns.append(with_terms(cases, terms))
    table = np.column_stack(columns)
    table.setflags(write=False)
    return table


def waterfall(case: PublishedCase) -> list[Step]:
    """One case's figure from the whiteboard to the engine level, one term at a time."""
    cases = tuple(DEVELOPMENT) if case in DEVELOPMENT else (case,)
    row = waterfalls(cases)[cases.index(case)]
    return [
        Step(term, label, float(value))
        for (term, label), value in zip(STEP_LABELS.items(), row, strict=True)
    ]


@dataclass(frozen=True)
class TermEffect:
    """How much one term moves the published cases."""

    term: str
    label: str
    cases_moved: int  # cases it changes by more than MOVED
    largest: float  # its largest factor, as a ratio (below 1: it lowered the figure)
    largest_case: str


def term_effects(cases: tuple[PublishedCase, ...] = tuple(DEVELOPMENT)) -> list[TermEffect]:
    """Each step of the waterfall summed up over ``cases``, largest effect first."""
    table = waterfalls(cases)
    factors = table[:, 1:] / table[:, :-1]
    effects = []
    for column, (term, label) in enumerate(list(STEP_LABELS.items())[1:]):
        logs = np.abs(np.log(factors[:, column]))
        worst = int(np.argmax(logs))
        effects.append(
            TermEffect(
                term, label, int(np.sum(logs > np.log(MOVED))), float(factors[worst, column]),
                cases[worst].key,
            )
        )  # fmt: skip
    return sorted(effects, key=lambda effect: -abs(np.log(effect.largest)))


@dataclass(frozen=True)
class Report:
    """Everything the Reality check lab shows, computed once per process."""

    cases: tuple[PublishedCase, ...]  # the development set
    whiteboard: np.ndarray  # each case's whiteboard prediction
    engine: np.ndarray  # each case's engine-level prediction
    steps: np.ndarray  # waterfalls as prediction / measurement, a row per case
    development: dict[str, Score]  # by realism
    check: dict[str, Score]  # by realism, over the held-apart check set
    effects: list[TermEffect]


@cache
def report() -> Report:
    """The development set's predictions, waterfalls and scores, and the check set's scores."""
    from core.evidence.check_cases import CHECK

    cases = tuple(DEVELOPMENT)
    measured = np.array([case.measured for case in cases])
    table = waterfalls(cases)
    steps = table / measured[:, None]
    steps.setflags(write=False)
    levels = ("whiteboard", "engine")
    return Report(
        cases=cases,
        whiteboard=table[:, 0],
        engine=table[:, -1],
        steps=steps,
        development={level: score(cases, level) for level in levels},
        check={level: score(CHECK, level) for level in levels},
        effects=term_effects(cases),
    )
