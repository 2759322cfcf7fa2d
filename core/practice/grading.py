"""Judging a typed answer against a problem: right, wrong with the likely slip, or unreadable."""

from __future__ import annotations

from core.foundation import numbers
from core.foundation.units import express, kind_of, number_text
from core.practice.grading_rules import CLOSE, near, off_by
from core.practice.problems import Problem, Verdict
from core.practice.reading import Reading, read_answer


def check_answer(problem: Problem, text: str) -> Verdict:
    """Read ``text`` and judge it against ``problem``'s answer and tolerance.

    Parameters
    ----------
    problem : Problem
        The problem being answered.
    text : str
        What the student typed, with or without a unit.

    Returns
    -------
    Verdict
        ``"unreadable"`` with a message saying what to fix when the text can't be read (this
        is not an attempt); otherwise ``"right"`` or ``"wrong"`` with a message. Never raises
        for any text.
    """
    reading = read_answer(text, problem.kind, problem.unit)
    if not reading.ok:
        return Verdict("unreadable", reading.message, reading)
    value, exact = reading.value, problem.answer
    tolerance = problem.tolerance
    read_as = express(value, problem.shown, problem.kind, digits=4)
    off = off_by(value, exact)
    if tolerance.accepts(value, exact):
        if read_as == problem.exact or abs(off) < 5e-4:
            return Verdict("right", f"Exactly {problem.exact}.", reading)
        return Verdict(
            "right",
            f"You gave {read_as}; the exact value is {problem.exact} ({_off_text(off)} off).",
            reading,
        )
    return _wrong(problem, reading, read_as, off)


def _wrong(problem: Problem, reading: Reading, read_as: str, off: float) -> Verdict:
    """The verdict on an answer outside the tolerance: the likeliest slip it shows."""
    kind, tolerance, value = kind_of(problem.kind), problem.tolerance, reading.value
    if kind.whole and value != round(value):
        return Verdict(
            "wrong",
            f"{kind.base.label.capitalize()} come whole: {number_text(value)} isn't a whole "
            "number. Round it the way the question needs.",
            reading,
        )
    for trap in problem.traps:
        if near(value, trap.value, tolerance, 1.0):
            return Verdict("wrong", trap.message, reading)
    if reading.bare and _meant_another_unit(problem, reading):
        return Verdict(
            "wrong",
            f"A bare number is read in {reading.unit}, so you gave {read_as}. "
            "Type the unit you meant after the number.",
            reading,
        )
    direction = "too high" if off > 0 else "too low"
    if abs(off) <= CLOSE and tolerance.relative:
        return Verdict(
            "wrong",
            f"Close: {read_as} is {_off_text(off)} {direction}, and the check wants "
            f"{_off_text(tolerance.relative)} or better. Keep more figures in the working.",
            reading,
        )
    factor = _round_factor(value / problem.answer)
    if factor:
        return Verdict(
            "wrong",
            f"{read_as} is {factor} {direction}. A factor like that usually means a step was "
            "dropped or doubled, or a unit slipped.",
            reading,
        )
    return Verdict("wrong", f"{read_as} is {direction}.", reading)


def _meant_another_unit(problem: Problem, reading: Reading) -> bool:
    """Whether the bare number would be right in another unit of the kind."""
    kind = kind_of(problem.kind)
    return any(
        other.label != reading.unit
        and problem.tolerance.accepts(
            reading.value / kind.unit(reading.unit).factor * other.factor, problem.answer
        )
        for other in kind.units
    )


def _off_text(fraction: float) -> str:
    miss = abs(fraction)
    return numbers.percent(miss, figures=2) if miss < 0.1 else numbers.percent(miss)


def _round_factor(ratio: float) -> str:
    """'2\u00d7', '1,000\u00d7' ... when ``ratio`` is that round factor (or its inverse)."""
    if ratio <= 0:
        return ""
    big = ratio if ratio >= 1 else 1 / ratio
    for factor in (2, 4, 8, 10, 60, 100, 1000, 1024, 1e6, 1e9):
        if abs(big / factor - 1) <= 0.02:
            return f"{number_text(factor)}\u00d7"
    return ""
