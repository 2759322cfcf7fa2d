"""The guided tour: ten steps in the walkthrough's order, answers from core, the step in the link."""

import pytest

from core import KNOBS, WORKLOADS, Scenario, evaluate
from core.practice import tour
from labs.page import format as fmt
from labs.page.links import query_for, restore
from labs.pool.lab import PREDICTED, pool_defaults
from labs.tour.page import TourPage
from labs.tour.steps import STEPS, step_knobs
from labs.widgets.knobs import knob_value
from labs.widgets.predict import GUESSED, is_covered

PREDICTED_FIELDS = dict(PREDICTED)


@pytest.fixture(scope="module")
def page():
    return TourPage()


def test_about_ten_steps_in_the_walkthroughs_order():
    """Workload, knobs, ledger, the other workload, what mattered, then a famous failure and its fix."""
    titles = [step.title for step in STEPS]
    assert 8 <= len(STEPS) <= 12
    order = ["Pick the workload", "Turn a knob", "memory ledger", "other workload", "What mattered",
             "famous failure", "Fix it"]  # fmt: skip
    found = [next(i for i, title in enumerate(titles) if word in title) for word in order]
    assert found == sorted(found)


def test_every_choice_has_its_answer_among_its_options(page):
    """Each choice question's right option, computed by core for the step's state, is one it offers."""
    for number, step in enumerate(STEPS, start=1):
        page.step = number
        question = step.question
        if question.is_guess:
            assert question.field in GUESSED
            continue
        assert (
            tour.answer(question.answer, page.scenario, **(question.args or {})) in question.options
        )


def test_each_step_sets_its_state_onto_the_defaults(page):
    """A step's knobs, and only those (a preset's included), differ from the pool's defaults."""
    for number, step in enumerate(STEPS, start=1):
        page.step = number
        knobs = dict(step.knobs)
        if step.preset:
            knobs.update(page.lab.presets.presets[step.preset].knobs)
        expected = {**{k: Scenario.param[k].default for k in KNOBS}, **pool_defaults(), **knobs}
        assert {k: getattr(page.scenario, k) for k in KNOBS} == expected, step.title


def test_the_answers_come_from_the_model():
    """The core answers agree with evaluate: chat is the busier workload, fp8 grants more seats."""
    rates = {name: evaluate(Scenario(workload=name)).arrivals_per_min for name in WORKLOADS}
    assert tour.busier_workload(Scenario()) == max(rates, key=rates.get)
    wall = Scenario(workload="document analysis", tier="large", prompt_tokens=8000, seats=32)
    more = evaluate(wall, kv_dtype="fp8").seats_granted > evaluate(wall).seats_granted
    assert tour.seats_after(wall, "kv_dtype", "fp8") == (tour.MORE if more else tour.FEWER)
    assert tour.passes_on(Scenario(), "chat") == (
        tour.YES if evaluate(Scenario()).passes else tour.NO
    )
    with pytest.raises(ValueError, match="answer='nope'"):
        tour.answer("nope", Scenario())


def test_walking_the_tour_with_the_right_answers_says_right_each_time(page):
    """The right option, or the lab's own figure typed as a guess, is judged right at every step."""
    for number, step in enumerate(STEPS, start=1):
        page.step = number
        question = step.question
        if question.is_guess:
            figure = float(getattr(evaluate(page.scenario), question.field))
            page.guess.value = f"{figure!r}" if question.field != "ttft_p95_s" else f"{figure} s"
            assert GUESSED[question.field][1](figure) in page.feedback.object
        else:
            page._choose(tour.answer(question.answer, page.scenario, **(question.args or {})))
        assert 'data-tour-verdict="right"' in page.feedback.object, step.title
        assert page.answered and page.next.button_type == "primary"


def test_a_wrong_guess_is_off_and_names_the_labs_figure(page):
    """Guessing 1 ms for the default TTFT p95 is judged wrong, with the lab's figure beside it."""
    page.step = 2
    page.guess.value = "1 ms"
    assert 'data-tour-verdict="wrong"' in page.feedback.object
    assert fmt.duration(evaluate(page.scenario).ttft_p95_s) in page.feedback.object


def test_a_guess_step_covers_what_would_give_it_away_until_answered(page):
    """Step 9 covers the four cards and every giveaway; the memory wall's story arrives with the answer."""
    page.step = 9
    assert page.lab.cards.hidden == frozenset(PREDICTED)
    assert all(is_covered(part) for part in page.lab.giveaways())
    assert page.lab.presets.preset == ""
    page.guess.value = "6"
    assert page.lab.cards.hidden == frozenset()
    assert not any(is_covered(part) for part in page.lab.giveaways())
    assert page.lab.presets.preset == "memory-wall"


def test_a_choice_step_covers_the_table_that_answers_it_until_answered(page):
    """Step 8 asks which knob mattered most: the mattered table stays covered until the choice."""
    page.step = 8
    assert page.lab.cards.hidden == frozenset()  # the cards do not answer it
    assert is_covered(page.lab.sections[-1]) and is_covered(page.lab.checks)
    question = STEPS[7].question
    page._choose(tour.answer(question.answer, page.scenario, **(question.args or {})))
    assert not any(is_covered(part) for part in page.lab.giveaways())


def test_no_step_shows_the_answer_to_a_later_guess(page):
    """A card a later step asks to guess at the same knobs stays covered, before and after answering."""
    for number, step in enumerate(STEPS, start=1):
        later = [
            s for s in STEPS[number:] if s.question.is_guess and step_knobs(s) == step_knobs(step)
        ]
        page.step = number
        question = step.question
        if question.is_guess:
            page.guess.value = f"{float(getattr(evaluate(page.scenario), question.field))!r}"
        else:
            page._choose(tour.answer(question.answer, page.scenario, **(question.args or {})))
        covered = {PREDICTED_FIELDS[label] for label in page.lab.cards.hidden}
        on_cards = {s.question.field for s in later} & set(PREDICTED_FIELDS.values())
        assert on_cards <= covered, step.title
        # the checks, notes and ledger would show it too: they stay covered while one is asked
        assert all(is_covered(part) for part in page.lab.giveaways()) == bool(later), step.title


def test_back_and_next_stay_within_the_tour(page):
    """Back is off on the first step and Next on the last; neither moves past the ends."""
    page.step = 1
    assert page.back.disabled
    page._move(-1)
    assert page.step == 1
    page.step = len(STEPS)
    assert page.next.disabled
    page._move(1)
    assert page.step == len(STEPS)


def test_the_step_lives_in_the_link():
    """?step=6 opens step 6 with its state; the page writes step=6 back; step=99 clamps to the last."""
    fresh = TourPage()
    restore(fresh.page_bindings(), "?step=6")
    assert fresh.step == 6 and 'data-tour-step="6"' in fresh.heading.object
    assert fresh.scenario.prompt_tokens == STEPS[5].knobs["prompt_tokens"]
    assert "step=6" in query_for(fresh.page_bindings())
    notices = restore(fresh.page_bindings(), "?step=99")
    assert fresh.step == len(STEPS) and notices


def test_a_steps_text_quotes_the_knobs_as_the_lab_writes_them(page):
    """Step 4's text quotes its prompt length and seats exactly as the knob column shows them."""
    page.step = 4
    for knob in ("prompt_tokens", "seats"):
        assert knob_value(knob, STEPS[3].knobs[knob]) in page.heading.object
    assert "{" not in page.heading.object


def test_the_shell_offers_the_tour_and_the_server_serves_it():
    """The header's "Take the tour" links to /tour (in presenter mode when the page is); /tour is a route."""
    from labs.frame.shell import LabShell
    from labs.server.serve import routes

    shell = LabShell()
    assert 'href="tour"' in shell.tour_link.object and "data-tour-link" in shell.tour_link.object
    shell.presenter = True
    assert 'href="tour?presenter=true"' in shell.tour_link.object
    assert "/tour" in routes()
