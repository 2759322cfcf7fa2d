"""The tour's answers judged again, from core, for the report a student hands in.

The tour records each answer in the link (:mod:`labs.frame.tour_record`): its step, what was
given and the knobs the lab had. Here each is judged as the tour judged it, on those knobs:
a guess by :func:`core.practice.tour.grade_guess` (right within 25 %), a choice against
:func:`core.practice.tour.answer`.
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

from core import Scenario
from core.practice.calibration import WITHIN
from core.practice.tour import answer, grade_guess
from labs.frame.tour_record import TourAnswer, TourRecord
from labs.page import format as fmt
from labs.tour.steps import STEPS, option_label, step_words
from labs.widgets.predict import GUESSED


@dataclass(frozen=True)
class JudgedAnswer:
    """One tour answer as the report shows it."""

    step: int
    title: str
    question: str
    given: str
    right: bool
    lab_said: str


def judge(recorded: TourAnswer) -> JudgedAnswer | None:
    """``recorded`` judged on its knobs; ``None`` for a step or option the tour does not have."""
    if recorded.step > len(STEPS):
        return None
    step = STEPS[recorded.step - 1]
    question = step.question
    scenario = Scenario(**recorded.knobs)
    text = question.text.format(**step_words(scenario))
    if question.is_guess:
        if recorded.option is not None:
            return None
        found = grade_guess(scenario, question.field, recorded.given)
        if not found.ok:
            return None
        said = GUESSED[question.field][1](found.shown)
        return JudgedAnswer(recorded.step, step.title, text, recorded.given, found.within, said)
    index = recorded.option
    if index is None or index >= len(question.options):
        return None
    right = answer(question.answer, scenario, **(question.args or {}))
    given = question.options[index]
    return JudgedAnswer(
        recorded.step, step.title, text, option_label(given), given == right, option_label(right)
    )


def judged_answers(record: TourRecord) -> list[JudgedAnswer]:
    """Every answer of ``record`` the tour has a question for, judged from core."""
    return [found for found in map(judge, record.entries) if found is not None]


def tour_html(record: TourRecord) -> str:
    """The report's tour section: each answered step, the answer, right or not, the lab's answer."""
    judged = judged_answers(record)
    if not judged:
        return (
            '<section data-report="tour"><h2>The tour</h2><p class="muted">No tour answers '
            "came with this page (answers travel by the tour's \u201cLeave the tour\u201d link)."
            "</p></section>"
        )
    rows = "".join(
        f"<tr><td>{found.step}. {escape(found.title)}</td><td>{escape(found.question)}</td>"
        f"<td>{escape(found.given)}</td>"
        f'<td><span class="{"right" if found.right else "wrong"}">'
        f"{'right' if found.right else 'not quite'}</span></td><td>{escape(found.lab_said)}</td></tr>"
        for found in judged
    )
    right = sum(found.right for found in judged)
    score = (
        f"<p>{fmt.count(right)} of {fmt.count(len(judged))} steps right (a guess is right within "
        f"{fmt.percent(WITHIN)} of the lab's figure).</p>"
    )
    head = "".join(
        f"<th>{h}</th>" for h in ("step", "question", "your answer", "verdict", "the lab said")
    )
    table = f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    return f'<section data-report="tour"><h2>The tour</h2>{score}{table}</section>'
