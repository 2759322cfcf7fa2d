"""The tour's answers, kept in the link so they travel from /tour into the lab and its report.

Each answer is the step it answers, what the student gave (a typed guess, or ``#k`` for the
k-th option) and the knobs the lab had when it was given, in the pins' own form
(:mod:`labs.frame.pins`); answers are joined with ``;`` and their three parts with ``~``
(``tour=2~40 ms~defaults;4~#0~workload:document analysis,tier:large``). Nothing is judged
here: the report judges each answer again from core (:mod:`labs.tour.record`), so a link
edited by hand can claim an answer but never its verdict.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

import param

from labs.frame.pins import decode, encode
from labs.page.links import Binding

# More steps than the tour has: an answer past its last step is dropped by whoever grades it.
MAX_STEP = 99
MAX_GIVEN = 32
# Every step answered, each with a full configuration of knobs (no pasted model: the tour
# has none), fits well within this; a longer value is not a link this page wrote.
MAX_TOUR_LENGTH = 4000
# A typed guess keeps what a figure is written with (digits, units, separators) and nothing
# that could split the record or break out of the report's HTML.
_GIVEN = re.compile(r"[^0-9A-Za-z .,%$/+#\-\u00b5]")


@dataclass(frozen=True)
class TourAnswer:
    """One answer: the step (from 1), what was given, and the knobs the lab had then."""

    step: int
    given: str
    knobs: dict

    @property
    def option(self) -> int | None:
        """The option's index for a choice (``#k``), ``None`` for a typed guess."""
        return int(self.given[1:]) if re.fullmatch(r"#\d{1,2}", self.given) else None


def clean_given(text: str) -> str:
    """A guess as the record keeps it: the characters a figure is written with, 32 at most."""
    return _GIVEN.sub("", text)[:MAX_GIVEN].strip()


def encode_answers(answers: list[TourAnswer]) -> str:
    """The answers as the link writes them, in step order."""
    return ";".join(
        f"{answer.step}~{answer.given}~{encode([answer.knobs])}"
        for answer in sorted(answers, key=lambda answer: answer.step)
    )


def decode_answers(text: str) -> list[TourAnswer]:
    """The answers a link holds; a malformed answer is dropped (at most one per step kept)."""
    found: dict[int, TourAnswer] = {}
    for part in text[:MAX_TOUR_LENGTH].split(";"):
        step, given, knobs = [*part.split("~", 2), "", ""][:3]
        if not (step.isascii() and step.isdigit()) or not 1 <= int(step) <= MAX_STEP:
            continue
        given = clean_given(given)
        configurations, _notices = decode(knobs)
        if given and configurations:
            found[int(step)] = TourAnswer(int(step), given, configurations[0])
    return sorted(found.values(), key=lambda answer: answer.step)


class TourRecord(param.Parameterized):
    """A session's tour answers, as the link holds them."""

    answers = param.String(default="", doc="The tour's answers as the link writes them.")

    @property
    def entries(self) -> list[TourAnswer]:
        return decode_answers(self.answers)

    def add(self, step: int, given: str, knobs: dict) -> None:
        """Record the answer to ``step`` (a later answer to the same step replaces it)."""
        kept = [answer for answer in self.entries if answer.step != step]
        self.answers = encode_answers([*kept, TourAnswer(step, clean_given(given), knobs)])

    def binding(self) -> Binding:
        """Where the answers live in the link."""
        return Binding("tour", self, "answers", max_length=MAX_TOUR_LENGTH)
