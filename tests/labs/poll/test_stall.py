"""A store that does not answer never holds a page's event loop, and one read serves every page."""

from __future__ import annotations

import threading
import time
from concurrent import futures

import pytest

from core.practice.poll import challenge_question
from labs.frame.shell import LabShell
from labs.poll.room import PresenterGate
from labs.poll.service import PollService
from labs.poll.store import RedisStore, store_for
from labs.server.login_limit import LoginLimiter
from tests.labs.poll.test_panel import settle
from tests.poll_backends import locked, paused, redis_server

QUESTION = challenge_question("kv_bytes", 0).to_dict()
CODE = "K7QW"
# What a tick or a click may cost the event loop: a store call takes none of it.
LOOP_S = 0.1


@pytest.fixture(scope="module")
def redis_url(tmp_path_factory):
    with redis_server(tmp_path_factory.mktemp("redis")) as url:
        yield url


def class_of(location: str, students: int = 3) -> list[LabShell]:
    """``students`` pages following a poll opened (straight in the store) at ``location``."""
    store_for(location).open_round(CODE, QUESTION)
    service = PollService(location, PresenterGate("", LoginLimiter()), read_every_s=0)
    shells = [LabShell(poll=service) for _ in range(students)]
    for shell in shells:
        shell.poll.code = CODE
    settle(*shells)
    assert all(shell.poll.ballot.visible for shell in shells)
    return shells


def vote(shell: LabShell, letter: str) -> float:
    """Seconds the event loop spent on a click of ``letter`` then Vote."""
    start = time.perf_counter()
    shell.poll.choice.value = letter
    shell.poll.vote_button.clicks += 1
    return time.perf_counter() - start


def tick_until(shells: list[LabShell], text: str, within_s: float = 10.0) -> list[float]:
    """Tick every page until each one's message holds ``text``; the seconds each tick took."""
    took = []
    deadline = time.monotonic() + within_s
    while not all(text in shell.poll.message.object for shell in shells):
        assert time.monotonic() < deadline, f"no page said {text!r} within {within_s} s"
        for shell in shells:
            start = time.perf_counter()
            shell.poll.tick()
            took.append(time.perf_counter() - start)
        time.sleep(0.05)
    return took


def test_a_paused_redis_costs_the_loop_nothing_and_the_pages_say_so(redis_url):
    """With redis-server stopped (SIGSTOP), ticks and votes return at once, the poll pages say
    the store is not answering, and once it continues they recover and the vote counts."""
    RedisStore(redis_url).db.flushdb()
    shells = class_of(redis_url)
    with paused(redis_url):
        spent = [vote(shells[0], "B")]
        spent += tick_until(shells, "not answering")
        spent += [vote(shells[1], "A")]
        assert max(spent) < LOOP_S
    deadline = time.monotonic() + 10
    while any(shell.poll.notice_up for shell in shells) and time.monotonic() < deadline:
        settle(*shells, rounds=1)
    assert not any("not answering" in shell.poll.message.object for shell in shells)
    vote(shells[0], "B")
    settle(*shells)
    assert "Your answer B is recorded" in shells[0].poll.status_pane.object


def test_a_locked_sqlite_file_costs_the_loop_nothing_and_the_pages_say_so(tmp_path):
    """With another connection holding the file's write lock, a vote returns at once, the page
    says the store is not answering, and once the lock is gone the vote is taken."""
    location = str(tmp_path / "polls.sqlite3")
    shells = class_of(location)
    with locked(location):
        spent = vote(shells[0], "C")
        assert spent < LOOP_S
        took = tick_until(shells[:1], "not answering")
        assert max(took) < LOOP_S
        assert shells[0].poll.ballot.visible  # the vote was not taken
    vote(shells[0], "C")
    settle(*shells)
    assert "Your answer C is recorded" in shells[0].poll.status_pane.object
    assert "not answering" not in shells[0].poll.message.object


class Clock:
    def __init__(self) -> None:
        self.now = time.monotonic() + 10.0

    def __call__(self) -> float:
        return self.now


def test_one_version_read_per_tick_serves_every_page(tmp_path):
    """Three pages ticking share one version read per tick; a page reads the poll itself only
    when its version moved, and has one store call in flight at most."""
    location = str(tmp_path / "polls.sqlite3")
    shells = class_of(location)
    board = shells[0].poll.service.board()
    board.read_every_s, board.clock = 0.36, Clock()
    own_calls = []
    call = board.call
    board.call = lambda work: own_calls.append(work) or call(work)
    futures.wait(shells[0].poll.pending(), timeout=10)
    reads = board.reads
    for _ in range(5):
        board.clock.now += 0.4  # one tick
        for shell in shells:
            shell.poll.tick()
        futures.wait(shells[0].poll.pending(), timeout=10)
    assert board.reads - reads == 5
    assert len(own_calls) == 5  # the version reads only: no page read the poll again
    gate, held = threading.Event(), []
    board.call = lambda work: held.append(work) or call(lambda store: gate.wait(10) and work(store))
    try:
        for _ in range(3):  # three clicks while the store holds the first
            vote(shells[0], "A")
            shells[0].poll.tick()
        assert len(held) == 1 and shells[0].poll.calls.waiting is not None
    finally:
        gate.set()
