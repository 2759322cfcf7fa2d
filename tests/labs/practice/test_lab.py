"""The practice lab's state, without a browser: problems follow the seed, the score follows the rules."""

import pytest
from numpy.testing import assert_allclose

from core.practice import make_problem
from labs.frame.shell import lab_bindings
from labs.page.links import query_for, restore
from labs.practice.lab import ANSWER_MAX_LENGTH, PracticeLab, derivation_html, problem_html


@pytest.fixture
def lab():
    return PracticeLab(challenge="kv_bytes", seed=0)


def right_answer(lab) -> str:
    return f"{lab.problem.answer:.8g}"


def test_problem_follows_challenge_and_seed(lab):
    """The problem on screen is make_problem(challenge, seed), and changes with either."""
    assert lab.problem == make_problem("kv_bytes", 0)
    lab.seed = 4321
    assert lab.problem == make_problem("kv_bytes", 4321)
    lab.challenge = "kv_room"
    assert lab.problem == make_problem("kv_room", 4321)
    assert "seed 4321" in problem_html(lab.problem)


def test_right_at_first_try_scores_first_try(lab):
    """A right answer with no miss and no hint counts as first try."""
    assert lab.check("128 KiB").right
    assert (lab.first_try, lab.with_hint, lab.revealed) == (1, 0, 0)
    lab.check("128 KiB")
    assert lab.first_try == 1, "a problem scores once"


def test_miss_then_right_scores_with_hint(lab):
    """A miss opens the hint; the later right answer counts as 'after a hint'."""
    assert lab.check("65536").status == "wrong"
    assert lab.misses == 1 and lab.hint_shown
    assert lab.check("131072").right
    assert (lab.first_try, lab.with_hint, lab.revealed) == (0, 1, 0)


def test_hint_then_right_scores_with_hint(lab):
    """Asking for the hint first also counts as 'after a hint'."""
    lab.show_hint()
    lab.check(right_answer(lab))
    assert (lab.first_try, lab.with_hint) == (0, 1)


def test_show_me_first_scores_revealed(lab):
    """Opening the derivation before a right answer counts as revealed, once."""
    lab.show_me()
    lab.show_me()
    assert lab.revealed == 1
    assert lab.check(right_answer(lab)).right
    assert (lab.first_try, lab.with_hint, lab.revealed) == (0, 0, 1)


def test_unreadable_input_is_not_a_miss(lab):
    """Garbage gets a message and leaves the attempt count alone."""
    verdict = lab.check("twelve-ish")
    assert verdict.status == "unreadable" and verdict.message
    assert lab.misses == 0 and not lab.hint_shown


def test_new_problem_resets_the_problem_not_the_score(lab):
    """A new seed clears misses, hint and derivation; the session's counters stay."""
    lab.check("65536")
    lab.check("131072")
    lab.new_problem()
    assert 1000 <= lab.seed < 1_000_000
    assert (lab.misses, lab.hint_shown, lab.shown, lab.solved) == (0, False, False, False)
    assert lab.with_hint == 1
    assert lab.answer_input.value_input == ""


def test_derivation_shown_ends_on_the_answer(lab):
    """The derivation on the page ends on core's figure."""
    lab.challenge = "prefill_time"
    lab.show_me()
    assert_allclose(lab.problem.steps[-1].value, lab.problem.answer, rtol=0)
    assert "27.18 ms" in derivation_html(lab.problem)
    assert lab.derivation_pane.visible


def test_link_keys_and_standalone_sync():
    """The problem, what is open and the typed answer keep their keys; sync_url(None) does nothing."""
    assert PracticeLab.URL_PARAMS == ("challenge", "seed", "hint_shown", "shown", "answer")

    class Location:
        def __init__(self):
            self.calls = []

        def sync(self, owner, mapping, on_error=None):
            self.calls.append((owner, mapping))

    lab = PracticeLab()
    lab.sync_url(None)
    location = Location()
    lab.sync_url(location)
    assert location.calls == [(lab, {name: name for name in PracticeLab.URL_PARAMS})]


def test_bad_link_values_leave_a_notice(lab):
    """A link value that doesn't fit is reported on the page, and the rest still applies."""
    lab._bad_link({"seed": -5, "challenge": "seat_budget"})
    assert lab.challenge == "seat_budget" and lab.seed == 0
    assert "seed=-5" in lab.url_notice.object


def test_typed_answer_travels_in_the_link():
    """A checked answer is in the link, and the link reopens the same problem with it in the box."""
    lab = PracticeLab(challenge="kv_room", seed=4321)
    lab.answer_input.value_input = "21.5 GB"
    lab.check()
    query = query_for(lab_bindings(lab, lab.scenario))
    assert "answer=21.5+GB" in query and query.index("seed=") < query.index("answer=")
    fresh = PracticeLab()
    assert restore(lab_bindings(fresh, fresh.scenario), query) == []
    assert (fresh.challenge, fresh.seed, fresh.answer) == ("kv_room", 4321, "21.5 GB")
    assert fresh.answer_input.value == "21.5 GB"
    assert fresh.check().status == lab.verdict.status


def test_new_problem_clears_the_answer_and_long_answers_stay_out(lab):
    """A new problem empties the box and the link; a link's over-long answer is ignored with a notice."""
    lab.answer = "128 KiB"
    lab.seed = 7
    assert lab.answer == "" and "answer" not in query_for(lab_bindings(lab, lab.scenario))
    notices = restore(lab_bindings(lab, lab.scenario), "?answer=" + "9" * (ANSWER_MAX_LENGTH + 1))
    assert lab.answer == "" and any("answer" in notice for notice in notices)
    assert lab.answer_input.max_length == ANSWER_MAX_LENGTH
