"""Practice: the interview arithmetic of serving, drawn from a seed and checked.

Each challenge draws a scenario from the catalog (model, card, storage types, lengths, hit
rate) with ``numpy.random.default_rng(seed)``, so one seed gives one problem everywhere and
a class can work the same one. The expected answer is a field of :func:`core.evaluate`;
the derivation is a list of :class:`Step` whose numbers come from the functions of
:mod:`core.whiteboard.memory` and :mod:`core.whiteboard.timing`, and whose last number is the expected answer.
Seed 0 is the classic version of each challenge, with the walkthrough's own numbers.

What lives where: ``problems`` (the dataclasses), ``draws`` (scenarios from a seed),
``wording`` (how givens name models and nodes), ``memory_problems``, ``compute_problems``,
``bill_problems``, ``pd_split_problems`` and ``model_problems`` (the builders by topic), ``registry`` (the
challenges, drawing a problem), ``reading`` (a typed answer to a number), ``grading_rules``
and ``grading`` (judging it).
"""

from core.practice.grading import check_answer
from core.practice.grading_rules import CLOSE, Tolerance, off_by
from core.practice.problems import Challenge, Problem, Step, Trap, Verdict
from core.practice.reading import Reading, examples, read_answer
from core.practice.registry import (
    CHALLENGES,
    CLASSIC_SEED,
    NEW_SEED_BOUNDS,
    SEED_BOUNDS,
    challenge_keys,
    check_seed,
    make_problem,
    new_seed,
)

__all__ = [
    "CHALLENGES",
    "CLASSIC_SEED",
    "CLOSE",
    "NEW_SEED_BOUNDS",
    "SEED_BOUNDS",
    "Challenge",
    "Problem",
    "Reading",
    "Step",
    "Tolerance",
    "Trap",
    "Verdict",
    "challenge_keys",
    "check_answer",
    "check_seed",
    "examples",
    "make_problem",
    "new_seed",
    "off_by",
    "read_answer",
]
