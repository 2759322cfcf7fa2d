"""How a set of predictions fares against its measurements: the band and the summary statistics.

A prediction holds up when it lies within :data:`BAND` of the measurement; a set of cases is
summed up by its geometric-mean error and how many of its cases hold up (:func:`summarise`).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

# A prediction within this band of the measurement counts as holding up.
BAND = (0.80, 1.25)


def within_band(ratio):
    """True where a prediction over a measurement (scalar or array) lies within :data:`BAND`."""
    return (np.asarray(ratio) >= BAND[0]) & (np.asarray(ratio) <= BAND[1])


@dataclass(frozen=True)
class Score:
    """How a level of the model fares over a set of published cases."""

    ratios: np.ndarray  # predicted / measured, case by case
    geometric_mean_error: float  # exp(mean |ln ratio|) - 1
    within_band: int
    cases: int

    @property
    def within_share(self) -> float:
        """The share of the cases within :data:`BAND`."""
        return self.within_band / self.cases


@dataclass(frozen=True)
class Target:
    """What the engine level is held to on a kind of set (issue 37's "done when")."""

    error: float  # the largest typical miss (geometric-mean error) allowed
    within: float = 0.0  # the smallest share of the cases within BAND

    def met(self, error: float, within_share: float) -> bool:
        """Whether a set scored ``error`` with ``within_share`` of its cases in the band meets it."""
        return bool(error <= self.error and within_share >= self.within)


# Both development sets together; each publisher held out; rows the model never saw.
DEVELOPMENT_TARGET = Target(error=0.15, within=0.80)
HELD_OUT_TARGET = Target(error=0.20)
UNSEEN_TARGET = Target(error=0.20, within=0.75)


def summarise(ratios) -> Score:
    """The score of predictions whose ratios to their measurements are ``ratios``.

    Raises
    ------
    ValueError
        For no ratios at all, or one that is not a positive finite number.

    Notes
    -----
    The geometric-mean error treats a factor of two too high and too low alike:

    .. math:: e = \\exp\\left(\\frac{1}{n} \\sum_i |\\ln(p_i / m_i)|\\right) - 1
    """
    ratios = np.array(ratios, dtype=float)
    ratios.setflags(write=False)
    if ratios.size == 0 or not np.all(np.isfinite(ratios) & (ratios > 0)):
        raise ValueError(f"ratios must be positive finite numbers, at least one; got {ratios!r}")
    error = float(np.exp(np.mean(np.abs(np.log(ratios)))) - 1.0)
    return Score(ratios, error, int(np.sum(within_band(ratios))), int(ratios.size))
