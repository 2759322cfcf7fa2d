"""How close an answer must come: the tolerance, the relative miss, and when a miss is close."""

from __future__ import annotations

import math
from dataclasses import dataclass

from core.foundation import numbers
from core.foundation.validation import knob_error

# How far off a wrong answer may be and still be told it is close.
CLOSE = 0.10


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must come to the exact value to count as right.

    Attributes
    ----------
    relative : float
        Largest accepted ``|answer - exact| / exact``; 0 asks for the exact value.
    whole : bool
        True when the answer is a count that must be a whole number.
    """

    relative: float = 0.02
    whole: bool = False

    def __post_init__(self):
        if not 0.0 <= self.relative < 1.0:
            raise knob_error("relative", self.relative, "from 0 up to (not including) 1")

    def accepts(self, value: float, exact: float) -> bool:
        """True when ``value`` counts as ``exact``."""
        if self.whole and value != round(value):
            return False
        if self.relative == 0.0:
            return value == exact
        return abs(value - exact) <= self.relative * abs(exact) * (1 + 1e-12)

    def describe(self) -> str:
        """The rule in one sentence, as the page states it."""
        if self.relative == 0.0:
            return (
                "The check wants the exact whole number, rounded the way the question needs: "
                "seats round down, since a part-seat can't run."
                if self.whole
                else "The check wants the exact value."
            )
        pct = numbers.percent(self.relative, figures=3)
        return (
            f"Right means within {pct} of the exact value: if it were 4.567, then 4.57 and 4.5 "
            "would count and 5 would not (9% off). Keep four or more figures in the working "
            "and round only the answer."
        )


def off_by(value: float, exact: float) -> float:
    """Relative difference ``(value - exact) / exact`` (infinite when ``exact`` is 0)."""
    if exact == 0:
        return 0.0 if value == 0 else math.inf
    return (value - exact) / abs(exact)


def near(value: float, target: float, tolerance: Tolerance, widen: float) -> bool:
    """True when ``value`` is within ``widen`` times the tolerance of ``target``."""
    if tolerance.relative == 0.0:
        return value == target
    return abs(off_by(value, target)) <= widen * tolerance.relative
