"""A named round: one vote per name as well as per ballot; duplicates shown to the presenter."""

from __future__ import annotations

import pytest

from labs.poll.html import status_html
from labs.poll.room import PollRoom, read_name
from labs.poll.store import store_for
from tests.labs.poll.test_store import QUESTION, location, presenter, redis_url  # noqa: F401


def student(location: str, ballot: str, code: str, name: str) -> PollRoom:  # noqa: F811
    room = PollRoom(store_for(location), ballot, code)
    room.name = name
    return room


def test_two_ballots_under_one_name_count_once_and_the_presenter_sees_it(location):  # noqa: F811
    """A second ballot voting as the same student is refused, counted once, and listed for the presenter."""
    teacher = presenter(location)
    teacher.open(QUESTION, named=True)
    assert student(location, "ballot-1", teacher.code, "Ada Lovelace").vote(1)
    assert not student(location, "ballot-2", teacher.code, "  ada   LOVELACE ").vote(2)
    assert student(location, "ballot-3", teacher.code, "s1234567").vote(2)
    view = teacher.view()
    assert view.counts[1:3] == [1, 1] and view.total == 2
    assert view.duplicates == {"ada lovelace": 2}
    assert "ada lovelace (2 ballots)" in status_html(view, presenter=True)


def test_one_ballot_votes_once_whatever_name_it_types(location):  # noqa: F811
    """A ballot that voted cannot vote again under another name, nor claim that name from others."""
    teacher = presenter(location)
    teacher.open(QUESTION, named=True)
    first = student(location, "ballot-1", teacher.code, "grace")
    assert first.vote(0)
    first.name = "alan"
    assert not first.vote(1)
    assert student(location, "ballot-2", teacher.code, "alan").vote(3)
    view = teacher.view()
    assert view.total == 2 and view.duplicates == {}


def test_a_named_round_needs_a_name_and_a_plain_round_ignores_it(location):  # noqa: F811
    """Without a name a named round's vote is refused with a message; a plain round counts ballots only."""
    teacher = presenter(location)
    teacher.open(QUESTION, named=True)
    with pytest.raises(ValueError, match="name or student number"):
        student(location, "ballot-1", teacher.code, "   ").vote(0)
    teacher.open(QUESTION)  # a plain round: the same name from two ballots is two votes
    assert student(location, "ballot-1", teacher.code, "ada").vote(0)
    assert student(location, "ballot-2", teacher.code, "ada").vote(0)
    view = teacher.view()
    assert view.total == 2 and view.duplicates is None


def test_a_revote_stays_named_and_starts_its_names_afresh(location):  # noqa: F811
    """The re-vote of a named round is named too; a name that voted in round 1 votes again in round 2."""
    teacher = presenter(location)
    teacher.open(QUESTION, named=True)
    assert student(location, "ballot-1", teacher.code, "ada").vote(0)
    teacher.revote()
    assert teacher.view().poll.question["named"]
    assert student(location, "ballot-2", teacher.code, "ada").vote(1)
    assert not student(location, "ballot-3", teacher.code, "ada").vote(1)


def test_names_are_read_one_way():
    """Spaces collapse and case folds, so 'Ada  Lovelace' and 'ada lovelace' are one name; long ones are cut."""
    assert read_name("  Ada \t Lovelace ") == read_name("ada lovelace") == "ada lovelace"
    assert len(read_name("x" * 500)) == 60


def test_on_the_page_a_named_round_asks_for_a_name_and_shows_the_presenter_duplicates(tmp_path):
    """The presenter ticks 'named'; students type a name; two browsers under one name count once."""
    from labs.frame.shell import LabShell
    from labs.poll.room import PresenterGate
    from labs.poll.service import PollService
    from labs.server.login_limit import LoginLimiter
    from tests.labs.poll.test_panel import presenter_shell, settle

    service = PollService(str(tmp_path / "polls.sqlite3"),
                          PresenterGate("sesame", LoginLimiter()), read_every_s=0)  # fmt: skip
    teacher = presenter_shell(service)
    teacher.poll.named.value = True
    teacher.poll.open_button.clicks += 1
    settle(teacher)
    browsers = [LabShell(poll=service) for _ in range(2)]  # two ballots, one student
    for browser in browsers:
        browser.poll.code = teacher.poll.code
        settle(browser)
        assert browser.poll.name_input.visible and "named round" in browser.poll.status_pane.object
        browser.poll.name_input.value = "Ada Lovelace"
        browser.poll.choice.value = "B"
        browser.poll.vote_button.clicks += 1
        settle(browser)
    assert "Your answer B is recorded" in browsers[0].poll.status_pane.object
    assert "not taken" in browsers[1].poll.message.object
    settle(teacher)
    assert "ada lovelace (2 ballots)" in teacher.poll.status_pane.object
    assert "1 answer this round" in teacher.poll.tally_pane.object
