"""The class poll's bar on the page, at the param level: presenter and students in one store."""

from __future__ import annotations

from concurrent import futures

import pytest

from labs.frame.shell import LabShell
from labs.poll.room import PresenterGate
from labs.poll.service import PollService
from labs.server.login_limit import LoginLimiter


@pytest.fixture
def service(tmp_path):
    gate = PresenterGate("sesame", LoginLimiter())
    return PollService(str(tmp_path / "polls.sqlite3"), gate, read_every_s=0)


def settle(*shells: LabShell, rounds: int = 4) -> None:
    """Let every page's store calls finish and reach its widgets, as a served page's ticks do."""
    for _ in range(rounds):
        for shell in shells:
            shell.poll.tick()
        futures.wait([call for shell in shells for call in shell.poll.pending()], timeout=10)
    for shell in shells:
        shell.poll.tick()


def presenter_shell(service) -> LabShell:
    shell = LabShell(poll=service)
    shell.presenter = True
    shell.poll.presenter = True
    shell.poll.password.value = "sesame"
    shell.poll._unlock()
    return shell


def test_presenter_opens_a_card_question_students_vote_and_see_it_after_the_reveal(service):
    """A card poll opened by the presenter reaches a student, whose vote shows on the tally."""
    teacher = presenter_shell(service)
    assert teacher.poll.controls.visible and not teacher.poll.login_row.visible
    teacher.poll.pick.value = "card:seats_granted"
    teacher.poll.open_button.clicks += 1
    settle(teacher)
    code = teacher.poll.code
    assert len(code) == 4 and code in teacher.poll.question_pane.object
    assert "live seats per node" in teacher.poll.question_pane.object
    student = LabShell(poll=service)
    student.poll.code_input.value = code.lower()
    student.poll.join_button.clicks += 1
    settle(student)
    assert student.poll.code == code and student.poll.ballot.visible
    assert not student.poll.tally_pane.visible
    student.poll.choice.value = "B"
    student.poll.vote_button.clicks += 1
    settle(student)
    assert "Your answer B is recorded" in student.poll.status_pane.object
    assert not student.poll.ballot.visible
    settle(teacher)
    assert "1 answer this round, hidden from students" in teacher.poll.tally_pane.object
    teacher.poll.reveal_button.clicks += 1
    settle(teacher, student)
    assert student.poll.tally_pane.visible and "revealed" in student.poll.tally_pane.object
    teacher.poll.revote_button.clicks += 1
    settle(teacher, student)
    assert student.poll.ballot.visible and not student.poll.tally_pane.visible
    teacher.poll.close_button.clicks += 1
    settle(teacher, student)
    assert "closed" in student.poll.status_pane.object


def test_a_student_without_the_password_gets_no_controls(service):
    """A wrong presenter password unlocks nothing and says so; the controls stay hidden."""
    shell = LabShell(poll=service)
    shell.poll.presenter = True
    assert shell.poll.login_row.visible
    shell.poll.password.value = "guess"
    shell.poll._unlock()
    assert "not the presenter password" in shell.poll.message.object
    assert not shell.poll.controls.visible and not shell.poll.room.presenter


def test_the_poll_code_lives_in_the_link(service):
    """``?poll=CODE`` joins the poll; a value that is no code is dropped, not followed."""
    shell = LabShell(poll=service)
    bindings = {binding.key: binding for binding in shell.page_bindings()}
    assert "poll" in bindings
    shell.poll.code = "k7qw"
    assert shell.poll.code == "K7QW" and shell.poll.room.code == "K7QW"
    shell.poll.code = "<script>"
    assert shell.poll.code == "" and shell.poll.room.code == ""


def test_a_bad_code_is_refused_with_a_message(service):
    """Typing something that is no class code leaves the page as it was, with a hint."""
    shell = LabShell(poll=service)
    shell.poll.code_input.value = "hello world"
    shell.poll.join_button.clicks += 1
    assert shell.poll.code == "" and "four letters" in shell.poll.message.object


def test_no_poll_bar_without_a_store():
    """A shell built without a poll service (``panel serve app.py``) has no poll bar."""
    shell = LabShell()
    assert shell.poll is None
    assert "poll" not in {binding.key for binding in shell.page_bindings()}


def test_an_unreachable_store_costs_a_notice_not_the_page(tmp_path):
    """A poll file that cannot be opened leaves the page working and says the poll is unavailable."""
    blocked = tmp_path / "file"
    blocked.write_text("")
    gate = PresenterGate("", LoginLimiter())
    service = PollService(str(blocked / "polls.sqlite3"), gate, read_every_s=0)
    shell = LabShell(poll=service)
    shell.poll.code = "K7QW"
    settle(shell)
    assert "unavailable" in shell.poll.message.object
    assert not shell.poll.body.visible
