"""How well each level of the model predicts what real engines measured, and why they differ.

:func:`predict` gives a published case's figure at one level of detail; :func:`score` sums a
set of cases up (geometric-mean error, share within the band); :func:`waterfall` walks from the
whiteboard's figure to the engine level's one physical term at a time, so a student sees which
terms moved it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.evaluate import evaluate, evaluate_terms
from core.published_cases import PublishedCase
from core.realism import TERMS

# A prediction within this band of the measurement counts as holding up.
BAND = (0.80, 1.25)


def predict(case: PublishedCase, realism: str = "engine") -> float:
    """The figure ``realism`` predicts for ``case``, in the unit it was measured in."""
    return float(getattr(evaluate(case.scenario(realism)), case.field))


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
    ratios = np.array([predict(case, realism) / case.measured for case in cases])
    error = float(np.exp(np.mean(np.abs(np.log(ratios)))) - 1.0)
    low, high = BAND
    inside = int(np.sum((ratios >= low) & (ratios <= high)))
    return Score(ratios, error, inside, len(ratios))


@dataclass(frozen=True)
class Step:
    """One bar of a waterfall: what the figure becomes once ``label`` is taken into account."""

    term: str  # "whiteboard", "load", a key of TERMS, or "engine"
    label: str
    value: float


def figure_with_terms(case: PublishedCase, terms) -> float:
    """The case's figure at the engine level with only ``terms`` in force."""
    return float(getattr(evaluate_terms(case.scenario("engine"), frozenset(terms)), case.field))


def waterfall(case: PublishedCase) -> list[Step]:
    """The case's figure from the whiteboard to the engine level, one term at a time.

    The first bar is the whiteboard's figure; the second runs the same arithmetic on the batch
    the benchmark actually keeps running (the whiteboard sizes every step for a full node);
    each further bar adds one term of :data:`core.realism.TERMS` in order. The last bar equals
    :func:`predict` at the engine level.
    """
    steps = [Step("whiteboard", "whiteboard arithmetic", predict(case, "whiteboard"))]
    terms: set[str] = set()
    steps.append(
        Step("load", "the batch the benchmark keeps running", figure_with_terms(case, terms))
    )
    for term, sentence in TERMS.items():
        terms.add(term)
        steps.append(Step(term, sentence, figure_with_terms(case, terms)))
    return steps
