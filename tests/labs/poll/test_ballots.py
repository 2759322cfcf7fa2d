"""Who may vote and who may present: signed ballots, the presenter's key and cookie, join limits."""

from __future__ import annotations

import dataclasses
import logging

from tornado.web import create_signed_value

from labs.frame.shell import LabShell
from labs.poll.ballots import BALLOT_COOKIE, LOGIN_COOKIE, ballot_for
from labs.poll.room import PresenterGate, signed
from labs.poll.service import PollService
from labs.server.login_limit import POLL_JOINS, PRESENTER, LoginLimiter, Ration
from tests.labs.poll.test_panel import presenter_shell, settle

SECRET = b"k" * 40
LOGIN_SECRET = "login cookie secret"


def test_a_hand_made_ballot_never_counts():
    """20 hex characters a script wrote, or a ballot signed by another server, get a new ballot."""
    for forged in (
        "a" * 20,
        f"{'a' * 20}.{'0' * 32}",
        signed(b"another server" * 3, "ballot", "a" * 20),
    ):
        ballot, keep, by_login = ballot_for({BALLOT_COOKIE: forged}, SECRET)
        assert ballot != "a" * 20 and keep.startswith(ballot + ".") and not by_login


def test_a_signed_ballot_is_kept():
    """A browser's ballot this server signed is its ballot again: one per browser."""
    ballot, keep, _ = ballot_for({}, SECRET)
    assert ballot_for({BALLOT_COOKIE: keep}, SECRET) == (ballot, "", False)


def test_with_a_class_password_a_ballot_is_one_per_login():
    """Every tab and device of one login shares its ballot; a forged login cookie has none."""
    login = create_signed_value(LOGIN_SECRET, LOGIN_COOKIE, "0123abcd").decode()
    first = ballot_for({LOGIN_COOKIE: login, BALLOT_COOKIE: "x"}, SECRET, LOGIN_SECRET)
    again = ballot_for({LOGIN_COOKIE: login}, SECRET, LOGIN_SECRET)
    assert first == again and first[2] and first[1] == ""
    other = create_signed_value(LOGIN_SECRET, LOGIN_COOKIE, "ffff0000").decode()
    assert ballot_for({LOGIN_COOKIE: other}, SECRET, LOGIN_SECRET)[0] != first[0]
    forged = create_signed_value("not the secret", LOGIN_COOKIE, "0123abcd").decode()
    assert not ballot_for({LOGIN_COOKIE: forged}, SECRET, LOGIN_SECRET)[2]


def test_the_presenter_sees_ballots_issued_against_votes_cast(tmp_path):
    """Two students follow the poll, one votes: the presenter reads 'Ballots issued 2, votes cast 1'."""
    gate = PresenterGate("sesame", LoginLimiter(), secret=SECRET)
    service = PollService(str(tmp_path / "polls.sqlite3"), gate, read_every_s=0)
    teacher = presenter_shell(service)
    teacher.poll.open_button.clicks += 1
    settle(teacher)
    students = [LabShell(poll=service) for _ in range(2)]
    for student in students:
        student.poll.code = teacher.poll.code
    settle(*students)
    students[0].poll.choice.value = "A"
    students[0].poll.vote_button.clicks += 1
    settle(teacher, *students)
    assert "Ballots issued 2, votes cast 1" in teacher.poll.status_pane.object


def test_the_presenter_key_unlocks_an_address_students_locked(caplog):
    """Past the presenter limit the password is refused unchecked, but the key gets in; the log
    line speaks of presenter passwords, not class passwords."""
    limiter = LoginLimiter(Ration(3, 60.0, 5.0, 300.0), wording=PRESENTER)
    gate = PresenterGate("sesame", limiter, key="the-key", secret=SECRET)
    with caplog.at_level(logging.WARNING, logger="labs.server.login"):
        for guess in ("a", "b", "c"):
            assert not gate.check(guess, "10.0.0.1")[0]
    assert "3 wrong presenter passwords from 10.0.0.1" in caplog.text
    assert "class passwords" not in caplog.text
    ok, text = gate.check("sesame", "10.0.0.1")
    assert not ok and "presenter key" in text
    assert gate.check(" the-key ", "10.0.0.1")[0]


def test_a_presenter_cookie_survives_a_reload_and_nothing_else_does(tmp_path):
    """A browser unlocked once is the presenter again on a new page (another worker, a restart
    with the same secret); a tampered, expired or other-password cookie is not."""
    gate = PresenterGate("sesame", LoginLimiter(), secret=SECRET)
    cookie = gate.cookie()
    assert gate.kept(cookie)
    assert not gate.kept(cookie[:-1] + ("0" if cookie[-1] != "0" else "1"))
    assert not gate.kept(gate.cookie(now=0))
    assert not PresenterGate("other", LoginLimiter(), secret=SECRET).kept(cookie)
    service = PollService(str(tmp_path / "polls.sqlite3"), gate, read_every_s=0)
    shell = LabShell(poll=service)
    shell.poll.visitor = dataclasses.replace(shell.poll.visitor, presenter_cookie=cookie)
    shell.poll.presenter = True  # presenter mode (the shell's link sets it on a served page)
    assert shell.poll.room.presenter and shell.poll.controls.visible


def test_joins_of_codes_with_no_poll_are_limited_and_logged(tmp_path, caplog):
    """A page trying codes that have no poll is refused after the ration, and one line says so."""
    joins = LoginLimiter(
        Ration(3, 60.0, 5.0, 300.0), Ration(100, 60.0, 2.0, 10.0), wording=POLL_JOINS
    )
    gate = PresenterGate("", LoginLimiter())
    service = PollService(str(tmp_path / "polls.sqlite3"), gate, read_every_s=0, joins=joins)
    shell = LabShell(poll=service)
    with caplog.at_level(logging.WARNING, logger="labs.server.login"):
        for code in ("AAAA", "CCCC", "DDDD"):
            shell.poll.code = code
            settle(shell)
    assert "3 joins of codes with no poll from unknown" in caplog.text
    shell.poll.code = "EEEE"
    assert shell.poll.room.code == "DDDD" and "Too many codes" in shell.poll.message.object
