"""What a practice problem is: its derivation steps, traps, the problem itself, a verdict, a kind of challenge."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from core.foundation.units import express
from core.practice.grading_rules import Tolerance
from core.practice.reading import Reading


@dataclass(frozen=True)
class Step:
    """One line of a derivation: what it finds, the rule, the rule with numbers, the result.

    Attributes
    ----------
    say : str
        What the step finds, in words.
    formula : str
        The rule in words and symbols, e.g. ``"2 × bytes per number × KV heads × head dim"``.
    plugged : str
        The same rule with this problem's numbers in it.
    value : float
        The number the step arrives at; for the last step, the expected answer in the base
        unit of the problem's kind.
    result : str
        ``value`` as the page writes it, with its unit.
    """

    say: str
    formula: str
    plugged: str
    value: float
    result: str


@dataclass(frozen=True)
class Trap:
    """A common wrong answer and what it usually means."""

    value: float
    message: str


@dataclass(frozen=True)
class Problem:
    """One drawn problem: the question, its numbers, the answer and how it is derived.

    Attributes
    ----------
    challenge : str
        Key of the challenge in :data:`CHALLENGES`.
    seed : int
        The seed it was drawn from.
    title : str
        The challenge's name.
    question : str
        The question in one or two sentences.
    givens : tuple of (str, str)
        The numbers the student works from, as (what, value) rows.
    kind : str
        The quantity asked for, a key of :data:`core.foundation.units.KINDS`.
    unit : str
        The unit the question states; a bare number is read in it.
    shown : str
        The unit the page writes the exact answer in (often ``unit``).
    answer : float
        The expected answer in the kind's base unit, a field of :func:`core.evaluate`.
    tolerance : Tolerance
        How close an answer must come.
    hint : str
        A nudge that names the rule without doing the arithmetic.
    steps : tuple of Step
        The derivation, ending on ``answer``.
    traps : tuple of Trap
        Wrong answers worth a specific word.
    knobs : dict
        The scenario knobs, so ``getattr(evaluate(**knobs), field)`` is ``answer``.
    field : str
        The :class:`core.Result` field the answer is.
    note : str
        A remark shown under the question, or empty.
    """

    challenge: str
    seed: int
    title: str
    question: str
    givens: tuple[tuple[str, str], ...]
    kind: str
    unit: str
    shown: str
    answer: float
    tolerance: Tolerance
    hint: str
    steps: tuple[Step, ...]
    traps: tuple[Trap, ...]
    knobs: dict = field(compare=False)
    field: str = ""
    note: str = ""

    @property
    def exact(self) -> str:
        """The expected answer as the page writes it, to four significant figures."""
        return express(self.answer, self.shown, self.kind, digits=4)


@dataclass(frozen=True)
class Verdict:
    """The outcome of checking one typed answer.

    Attributes
    ----------
    status : str
        ``"right"``, ``"wrong"``, or ``"unreadable"`` (nothing to check; not an attempt).
    message : str
        What to tell the student.
    reading : Reading
        How the text was read.
    """

    status: str
    message: str
    reading: Reading

    @property
    def right(self) -> bool:
        """True for a right answer."""
        return self.status == "right"


@dataclass(frozen=True)
class Challenge:
    """A kind of problem: its name, group, the quantity it asks for and how it is drawn."""

    key: str
    title: str
    # "walkthrough" (the seed's three), "whiteboard", "engine" (past batching) or "models"
    # (mixtures of experts and latent attention)
    group: str
    summary: str
    kind: str
    unit: str
    tolerance: Tolerance
    build: Callable[[np.random.Generator | None], dict] = field(repr=False)
    shown: str = ""  # the unit the exact answer is written in; ``unit`` when empty
