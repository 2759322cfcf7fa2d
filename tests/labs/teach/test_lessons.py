"""/teach's lessons: about fifty minutes each, polls with their traps, figures from core, links that open."""

import re
from urllib.parse import parse_qsl

import pytest

from core import Scenario, evaluate
from core.practice.poll import challenge_question
from labs.frame.routes import PAGES
from labs.frame.shell import LabShell
from labs.page import format as fmt
from labs.page.links import query_for, restore
from labs.teach.lessons import LESSONS
from labs.teach.page import (
    WRITERS,
    lesson_html,
    misconceptions,
    step_query,
    step_scenario,
    step_words,
)

STEPS = [(lesson, index, step) for lesson in LESSONS for index, step in enumerate(lesson.steps)]


def step_id(item) -> str:
    lesson, index, _step = item
    return f"{lesson.key}-{index + 1}"


def test_three_lessons_of_about_fifty_minutes_with_two_or_three_polls():
    """Each of the three lessons runs 45 to 55 minutes and asks two or three poll questions."""
    assert len(LESSONS) == 3
    for lesson in LESSONS:
        assert 45 <= lesson.minutes <= 55, lesson.key
        assert 2 <= sum(step.poll is not None for step in lesson.steps) <= 3, lesson.key


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.key)
def test_each_poll_shows_its_right_answer_and_what_each_wrong_one_reveals(lesson):
    """Every poll names core's right answer and, for each wrong choice, the trap's misconception."""
    html = lesson_html(lesson)
    for step in lesson.steps:
        if step.poll is None:
            continue
        question = challenge_question(step.poll.challenge, step.poll.seed)
        found = misconceptions(question)
        wrong = [c for i, c in enumerate(question.choices) if i != question.right]
        assert wrong and set(found) == set(wrong)
        assert f"<b>{question.choices[question.right]}</b>: right" in html.replace("&#x27;", "'")
        for choice, reveals in found.items():
            assert reveals and reveals.split(":")[0][:30].replace("'", "&#x27;") in html, choice


def test_no_figure_is_typed_into_what_to_say():
    """What to say holds no digit of its own: every figure is a placeholder filled from core."""
    for lesson, _index, step in STEPS:
        typed = re.sub(r"\{[^}]*\}", "", step.say)
        assert not re.search(r"\b\d", typed), (lesson.key, step.title)  # fp8, p95: names
        for name in re.findall(r"\{(?:now|before)\.(\w+)\}", step.say):
            assert name in WRITERS or name in Scenario.param, name


def test_what_to_say_quotes_cores_figures_for_the_steps_own_link():
    """A step's words carry the figures core computes for the configuration its link opens."""
    lesson = LESSONS[0]
    step = lesson.steps[3]  # the large model, many seats asked
    result = evaluate(step_scenario(step))
    words = step_words(step, lesson.steps[2])
    assert f"memory grants {fmt.count(result.seats_granted)}" in words
    assert fmt.memory(result.kv_budget_bytes) in words and step.link["tier"] == "large"


@pytest.mark.parametrize("item", STEPS, ids=step_id)
def test_every_link_opens_its_state_with_no_notice(item):
    """Each step's link, read by the whole lab as a browser would, applies with no notice."""
    _lesson, _index, step = item
    query = step_query(step)
    shell = LabShell(scenario=Scenario())
    shell._restore_page_keys(query)
    notices = restore(shell.page_bindings(), query)
    assert notices == []
    assert shell.lab == step.lab
    kept = dict(parse_qsl(query_for(shell.page_bindings()).lstrip("?")))
    for key, value in step.link.items():
        assert kept.get(key) == value, (key, kept)


def test_teach_is_a_route_of_its_own():
    """/teach is served beside the labs, outside the tabs."""
    from labs.server.serve import routes

    assert "teach" in PAGES and "/teach" in routes()
