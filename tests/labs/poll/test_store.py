"""The class poll's store and rooms, on both backends: SQLite (the default) and Redis."""

from __future__ import annotations

import multiprocessing

import pytest

from core import evaluate
from core.practice.poll import PollQuestion, card_question, challenge_question, changed_knobs
from labs.poll.room import PollRoom, PresenterGate, new_code, read_code
from labs.poll.store import RedisStore, SqliteStore, default_location, store_for
from tests.poll_backends import redis_server

QUESTION = challenge_question("kv_bytes", 0).to_dict()


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


@pytest.fixture(params=["sqlite", "redis"])
def location(request, tmp_path, redis_url):
    if request.param == "sqlite":
        return str(tmp_path / "polls.sqlite3")
    store = RedisStore(redis_url)
    store.db.flushdb()
    return redis_url


class Limiter:
    """A stand-in for the login limiter: counts wrong tries, locks after ``free``."""

    def __init__(self, free: int = 3) -> None:
        self.free, self.wrongs = free, 0

    def wait_s(self, _address: str) -> float:
        return 5.0 if self.wrongs >= self.free else 0.0

    def wrong(self, _address: str) -> float:
        self.wrongs += 1
        return self.wait_s(_address)


def presenter(location: str) -> PollRoom:
    room = PollRoom(store_for(location), "teacher")
    room.unlock(PresenterGate("sesame", Limiter()), "sesame", "127.0.0.1")
    return room


def test_one_vote_per_student_per_round(location):
    """A second vote in the same round is refused; a re-vote round takes a new one."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    student = PollRoom(store_for(location), "s1", teacher.code)
    assert student.vote(2)
    assert not student.vote(1)
    assert teacher.view().counts == [0, 0, 1, 0]
    teacher.revote()
    assert student.vote(1)
    view = teacher.view()
    assert (view.counts, view.earlier, view.mine) == ([0, 1, 0, 0], [0, 0, 1, 0], None)
    assert student.view().mine == 1


def test_tally_hidden_from_students_until_reveal(location):
    """Students see no counts while a round is open; everyone sees them after the reveal."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    student = PollRoom(store_for(location), "s1", teacher.code)
    student.vote(0)
    assert student.view().counts is None and student.view().mine == 0
    assert teacher.view().counts == [1, 0, 0, 0]
    teacher.reveal()
    assert student.view().counts == [1, 0, 0, 0]
    assert not PollRoom(store_for(location), "s2", teacher.code).vote(1)  # revealed: no votes
    teacher.close()
    assert student.view().poll.state == "closed"


def test_only_the_presenter_opens_reveals_and_closes(location):
    """A student session cannot open, reveal, re-run or close a poll, even with a wrong password."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    student = PollRoom(store_for(location), "s1", teacher.code)
    gate = PresenterGate("sesame", Limiter())
    assert "not the presenter" in student.unlock(gate, "guess", "10.0.0.9")
    for action in (lambda: student.open(QUESTION), student.reveal, student.revote, student.close):
        with pytest.raises(PermissionError):
            action()
    poll = student.view().poll
    assert (poll.round, poll.state) == (1, "open")


def test_presenter_password_guesses_are_limited():
    """Past the limiter's free tries even the right password is refused, unchecked."""
    gate = PresenterGate("sesame", Limiter(free=2))
    room = PollRoom(None, "x")
    room.unlock(gate, "a", "1.2.3.4")
    room.unlock(gate, "b", "1.2.3.4")
    assert "Too many" in room.unlock(gate, "sesame", "1.2.3.4")
    assert not room.presenter
    assert "No presenter password" in PresenterGate("", Limiter()).check("", "x")[1]


def test_a_changed_poll_is_seen_by_its_version(location):
    """A page's cheap check notices every presenter action and nothing else."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    student = PollRoom(store_for(location), "s1", teacher.code)
    assert student.changed()
    student.view()
    assert not student.changed()
    student.vote(1)
    assert not student.changed()
    teacher.reveal()
    assert student.changed()


def test_votes_for_a_stale_round_or_a_bad_choice_are_refused(location):
    """A vote names the open round and one of its choices; anything else records nothing."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    store = store_for(location)
    assert not store.answer(teacher.code, 7, "s1", 0)
    assert not PollRoom(store, "s1", teacher.code).vote(9)
    assert not PollRoom(store, "s1", "ZZZZ").vote(0)  # no such poll
    assert teacher.view().counts == [0, 0, 0, 0]


def _vote_in_child(location: str, code: str, student: str) -> None:
    PollRoom(store_for(location), student, code).vote(3)


def test_answers_from_other_processes_are_kept(location):
    """Votes written by other processes (workers), then gone, are all in the tally."""
    teacher = presenter(location)
    teacher.open(QUESTION)
    context = multiprocessing.get_context("spawn")
    children = [
        context.Process(target=_vote_in_child, args=(location, teacher.code, f"p{index}"))
        for index in range(3)
    ]
    for child in children:
        child.start()
    for child in children:
        child.join(timeout=60)
    assert teacher.view().counts == [0, 0, 0, 3]


def test_codes_and_locations():
    """Codes read as typed (case, spaces); SQLite is the default, LAB_REDIS_URL picks Redis."""
    code = new_code()
    assert read_code(f" {code.lower()} ") == code
    assert read_code("OOOO") == "" and read_code("ABC") == ""
    assert default_location("/srv/lab").endswith("polls.sqlite3")


def test_sqlite_store_is_in_wal_mode(tmp_path):
    """The SQLite file is in WAL mode, so readers in other workers never wait for a writer."""
    store = SqliteStore(tmp_path / "p.sqlite3")
    assert store.db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_poll_questions_round_trip():
    """A question survives JSON and its choices hold the right answer where ``right`` says."""
    question = card_question("seats_granted", {}, spread=1)
    again = PollQuestion.from_dict(question.to_dict())
    assert again == question
    asked, _words = changed_knobs("seats_granted", {})  # the question's own configuration
    assert question.choices[question.right] == f"{evaluate(**asked).seats_granted:,.0f} seats"
    with pytest.raises(ValueError, match="card"):
        card_question("vibes", {})
    with pytest.raises(ValueError, match="poll question"):
        PollQuestion.from_dict({"title": "x"})
