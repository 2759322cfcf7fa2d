"""Answering a tour step in the browser, as a student who knows core's answer would."""

from core import Scenario, evaluate
from core.practice import tour
from labs.tour.steps import TourStep, option_label, step_knobs


def answer_right(page, step: TourStep) -> float | None:
    """Give ``step`` its right answer in the tour's panel; the figure typed, for a guess.

    A guess types core's figure for the step's state (a time in seconds), a choice clicks the
    option core computes.
    """
    expected = Scenario(**step_knobs(step))  # the step's state, for core's answers
    question = step.question
    if question.is_guess:
        figure = float(getattr(evaluate(expected), question.field))
        box = page.get_by_label("your answer", exact=True)
        box.fill(f"{figure} s" if question.field == "ttft_p95_s" else f"{figure!r}")
        box.press("Enter")
        return figure
    right = tour.answer(question.answer, expected, **(question.args or {}))
    choices = page.locator(".tour-choices")
    choices.get_by_role("button", name=option_label(right), exact=True).click()
    return None
