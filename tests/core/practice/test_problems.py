"""Practice problems: seeded, answered by core, derived step by step, checked with a tolerance."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from core import evaluate
from core.foundation.units import KINDS, express
from core.practice import (
    CHALLENGES,
    CLASSIC_SEED,
    challenge_keys,
    check_answer,
    make_problem,
    new_seed,
)
from tests import strategies

KEYS = list(CHALLENGES)
SEEDS = (CLASSIC_SEED, 1234, 98765, 424242)


def written_forms(problem) -> list[str]:
    """The expected answer written in every unit of its kind, plus as a bare number."""
    kind = KINDS[problem.kind]
    forms = [express(problem.answer, unit.label, problem.kind, digits=6) for unit in kind.units]
    bare = problem.answer / kind.unit(problem.unit).factor
    forms.append(f"{bare:.6g}")
    return forms


def wrong_value(problem) -> str:
    """The answer off by 10 %, written in the stated unit."""
    value = problem.answer * 1.1
    if KINDS[problem.kind].whole:
        value = max(problem.answer + 1, round(value))
    return express(value, problem.unit, problem.kind, digits=6)


@pytest.mark.parametrize("key", KEYS)
def test_a_seed_gives_the_same_problem_every_time(key):
    """Drawing twice from one seed gives an equal problem with equal knobs."""
    for seed in SEEDS:
        first, second = make_problem(key, seed), make_problem(key, seed)
        assert first == second
        assert first.knobs == second.knobs


@pytest.mark.parametrize("key", KEYS)
def test_seeds_draw_different_problems(key):
    """Twenty seeds give at least five different scenarios."""
    drawn = {repr(sorted(make_problem(key, seed).knobs.items())) for seed in range(100, 120)}
    assert len(drawn) >= 5


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("seed", SEEDS)
def test_answer_is_cores_figure(key, seed):
    """The expected answer is the Result field core.evaluate gives for the problem's knobs."""
    problem = make_problem(key, seed)
    assert_allclose(problem.answer, getattr(evaluate(**problem.knobs), problem.field), rtol=0)


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("seed", SEEDS)
def test_derivation_ends_on_cores_number(key, seed):
    """The last step of "show me" arrives exactly at core's value."""
    problem = make_problem(key, seed)
    assert problem.steps, "a derivation has at least one step"
    assert_allclose(problem.steps[-1].value, problem.answer, rtol=0, atol=0)
    for step in problem.steps:
        assert step.say and step.formula and step.plugged and step.result


@pytest.mark.parametrize("key", KEYS)
@pytest.mark.parametrize("seed", SEEDS)
def test_checker_accepts_every_unit_form_and_rejects_a_wrong_one(key, seed):
    """The right answer in each unit (and bare) is right; 10 % off is wrong."""
    problem = make_problem(key, seed)
    for text in written_forms(problem):
        verdict = check_answer(problem, text)
        assert verdict.right, (text, verdict.message)
    verdict = check_answer(problem, wrong_value(problem))
    assert verdict.status == "wrong", verdict.message


CLASSIC_FORMS = {
    "kv_bytes": ("131072", "131,072", "128 KiB", "0.13 MB", "1.3e5 B"),
    "seat_budget": ("115", "115 seats"),
    "prefill_time": ("27 ms", "0.027 s", "27"),
    "stream_ceiling": ("24 tok/s", "24", "23.9 tokens/s"),
    "kv_room": ("19 GB", "19", "19,000 MB", "17.7 GiB"),
    "prefill_flops": ("13.4 TFLOP", "1.344e13", "13,440,000,000,000"),
    "fp8_seats": ("82", "82 seats"),
    "monthly_bill": ("$2,913", "2913", "$2.9k", "2,913 USD/month"),
    "pd_split": ("3", "3 nodes"),
    "mla_kv_bytes": ("70272", "70,272 B", "68.6 KiB"),
    "moe_weight_read": ("277 GB", "2.77e11 B", "277.2"),
}


@pytest.mark.parametrize("key", KEYS)
def test_classic_problems_accept_the_walkthrough_figures(key):
    """Seed 0 is the walkthrough's version; its quoted figures are accepted as typed."""
    problem = make_problem(key, CLASSIC_SEED)
    for text in CLASSIC_FORMS[key]:
        verdict = check_answer(problem, text)
        assert verdict.right, (text, verdict.message)


def test_classic_figures():
    """131,072 B; 115 seats; 27 ms; 24 tok/s; 19 GB; 13.44 TFLOP; 2 x 41 seats; $2,913."""
    figures = {key: make_problem(key, CLASSIC_SEED).answer for key in KEYS}
    assert figures["kv_bytes"] == 131_072
    assert figures["seat_budget"] == 115
    assert round(figures["prefill_time"] * 1000) == 27
    assert round(figures["stream_ceiling"]) == 24
    assert_allclose(figures["kv_room"], 19e9)
    assert_allclose(figures["prefill_flops"], 13.44e12)
    assert figures["fp8_seats"] == 2 * 41
    assert round(figures["monthly_bill"]) == 2913


@pytest.mark.parametrize("key", KEYS)
def test_traps_are_wrong_with_their_own_message(key):
    """Each common mistake is judged wrong and explained by its trap's message."""
    for seed in SEEDS:
        problem = make_problem(key, seed)
        for trap in problem.traps:
            verdict = check_answer(problem, express(trap.value, problem.unit, problem.kind, 8))
            assert verdict.status == "wrong"
            assert trap.message in verdict.message


@pytest.mark.parametrize("text", ["", "abc", "27 ms", "0,13", "2*2", "-1", "1e999", "$"])
def test_garbage_is_unreadable_not_an_attempt(text):
    """Text that can't be read gives an 'unreadable' verdict with a message."""
    verdict = check_answer(make_problem("kv_bytes", CLASSIC_SEED), text)
    assert verdict.status == "unreadable"
    assert verdict.message


def test_bare_number_in_the_wrong_unit_says_so():
    """0.027 for a question stated in ms is wrong, and the message names the unit."""
    verdict = check_answer(make_problem("prefill_time", CLASSIC_SEED), "0.027")
    assert verdict.status == "wrong"
    assert "read in ms" in verdict.message


def test_close_answer_is_told_it_is_close():
    """5 % off is wrong, and called close with the tolerance named."""
    problem = make_problem("kv_room", CLASSIC_SEED)
    verdict = check_answer(problem, "18 GB")
    assert verdict.status == "wrong" and "Close" in verdict.message and "2%" in verdict.message


@settings(max_examples=40, deadline=None)
@given(strategies.challenge_keys, strategies.problem_seeds)
def test_any_problem_accepts_its_own_answer_in_every_form(key, seed):
    """For any seed, the answer in each unit form is right and 10 % off is wrong."""
    problem = make_problem(key, seed)
    assert_allclose(problem.steps[-1].value, problem.answer, rtol=0)
    for text in written_forms(problem):
        assert check_answer(problem, text).right, text
    assert check_answer(problem, wrong_value(problem)).status == "wrong"


@settings(max_examples=150, deadline=None)
@given(st.text(max_size=30))
def test_checker_never_raises(text):
    """Any text gets a verdict with a message."""
    verdict = check_answer(make_problem("prefill_time", CLASSIC_SEED), text)
    assert verdict.status in ("right", "wrong", "unreadable") and verdict.message


@pytest.mark.parametrize(
    ("challenge", "seed", "pattern"),
    [
        ("nope", 1, r"challenge='nope'.*kv_bytes"),
        ("kv_bytes", -1, r"seed=-1.*0 to 999,999"),
        ("kv_bytes", 1_000_000, r"seed=1000000.*0 to 999,999"),
        ("kv_bytes", 1.5, r"seed=1.5.*whole number"),
        ("kv_bytes", "abc", r"seed='abc'"),
    ],
)
def test_bad_challenge_or_seed_raises_naming_it(challenge, seed, pattern):
    """An unknown challenge or an out-of-range seed raises ValueError naming value and range."""
    with pytest.raises(ValueError, match=pattern):
        make_problem(challenge, seed)


def test_new_seed_is_four_to_six_digits_from_the_callers_generator():
    """new_seed draws from the generator it is given: same generator seed, same sequence."""
    first = [new_seed(np.random.default_rng(7)) for _ in range(3)]
    assert first[0] == first[1] == first[2]
    rng = np.random.default_rng(8)
    assert all(1000 <= new_seed(rng) < 1_000_000 for _ in range(50))


def test_challenge_groups():
    """The walkthrough's three come first, then five whiteboard classics, the engine's, today's models."""
    assert challenge_keys("walkthrough") == ["kv_bytes", "seat_budget", "prefill_time"]
    assert len(challenge_keys("whiteboard")) == 5
    assert challenge_keys("engine") == ["pd_split"]
    assert challenge_keys("models") == ["mla_kv_bytes", "moe_weight_read"]
    assert challenge_keys() == KEYS
