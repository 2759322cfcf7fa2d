"""The tour's answers: kept in the link, carried into the lab, judged again from core in the report."""

from hypothesis import given
from hypothesis import strategies as st

from core import Scenario, evaluate
from core.practice import tour
from labs.frame.report import report_html
from labs.frame.shell import LabShell
from labs.frame.tour_record import TourAnswer, TourRecord, decode_answers, encode_answers
from labs.page.links import query_for, restore
from labs.tour.page import TourPage
from labs.tour.record import judged_answers, tour_html
from labs.tour.steps import STEPS, option_label
from labs.widgets.predict import GUESSED

GUESS_STEP = next(n for n, s in enumerate(STEPS, 1) if s.question.is_guess)
CHOICE_STEP = next(n for n, s in enumerate(STEPS, 1) if not s.question.is_guess)


def _walk(page: TourPage) -> None:
    """Answer one guess step right and one choice step wrong."""
    page.step = GUESS_STEP
    field = STEPS[GUESS_STEP - 1].question.field
    page.guess.value = GUESSED[field][1](getattr(evaluate(page.scenario), field))  # as shown
    page.step = CHOICE_STEP
    question = STEPS[CHOICE_STEP - 1].question
    right = tour.answer(question.answer, page.scenario, **(question.args or {}))
    page._choose(next(option for option in question.options if option != right))


def test_each_answer_is_recorded_with_its_step_and_knobs():
    """A guess and a choice land in the record, the choice by its option's index."""
    page = TourPage()
    _walk(page)
    entries = page.tour_record.entries
    by_step = {entry.step: entry for entry in entries}
    assert sorted(by_step) == sorted([GUESS_STEP, CHOICE_STEP])
    assert by_step[CHOICE_STEP].option is not None and by_step[GUESS_STEP].option is None


def test_the_leave_link_carries_the_answers_into_the_lab():
    """The tour's way out names its answers; the lab that opens from it keeps them in its link."""
    page = TourPage()
    _walk(page)
    assert "?tour=" in page.leave.object
    shell = LabShell(scenario=Scenario())
    query = "?" + page.leave.object.split('href="./?', 1)[1].split('"', 1)[0].replace("&amp;", "&")
    assert restore(shell.page_bindings(), query) == []
    assert shell.tour_record.entries == page.tour_record.entries
    assert "tour=" in query_for(shell.page_bindings())


def test_the_report_judges_each_answer_again_from_core():
    """A right guess reads right with core's figure; a wrong choice reads not quite, with the answer."""
    page = TourPage()
    _walk(page)
    judged = {found.step: found for found in judged_answers(page.tour_record)}
    knobs = {entry.step: entry.knobs for entry in page.tour_record.entries}
    assert judged[GUESS_STEP].right and not judged[CHOICE_STEP].right
    field = STEPS[GUESS_STEP - 1].question.field
    figure = getattr(evaluate(Scenario(**knobs[GUESS_STEP])), field)
    assert judged[GUESS_STEP].lab_said == GUESSED[field][1](figure)
    question = STEPS[CHOICE_STEP - 1].question
    scenario = Scenario(**knobs[CHOICE_STEP])
    right = tour.answer(question.answer, scenario, **(question.args or {}))
    assert judged[CHOICE_STEP].lab_said == option_label(right)
    html = report_html(page)
    assert 'data-report="tour"' in html and "1 of 2 steps right" in html


def test_a_hand_made_verdict_cannot_be_claimed():
    """A link states what was given, never the verdict: a wrong guess stays wrong."""
    record = TourRecord(answers=f"{GUESS_STEP}~1~defaults")
    assert [j.right for j in judged_answers(record)] == [False]


def test_no_answers_says_so():
    """A lab opened without the tour's link reports no tour answers."""
    assert "No tour answers" in tour_html(TourRecord())


@given(st.text(max_size=300))
def test_any_link_value_decodes_to_answers_or_nothing(text):
    """Hostile text never raises: it decodes to well-formed answers, and judging them never raises."""
    entries = decode_answers(text)
    assert all(e.step >= 1 and len(e.given) <= 32 and "~" not in e.given for e in entries)
    judged_answers(TourRecord(answers=encode_answers(entries)))


def test_a_record_round_trips_through_its_text():
    """Encoding then decoding gives the same answers, in step order, one per step."""
    answers = [TourAnswer(4, "#1", {"tier": "large"}), TourAnswer(2, "40 ms", {})]
    assert decode_answers(encode_answers(answers)) == sorted(answers, key=lambda a: a.step)
    assert len(decode_answers(encode_answers(answers) + ";2~50 ms~defaults")) == 2


def test_a_step_written_in_non_ascii_digits_is_dropped():
    """A step of superscript or other Unicode digits ('²') is dropped, never a crash."""
    assert decode_answers("²~40 ms~defaults;٣~#0~defaults") == []
