"""One process's window on the poll store: calls off the event loop, one version read for all pages.

Every session of a server process runs on one event loop, so a store call made there (a
Redis socket that never answers, a SQLite file another process holds locked) stalls every
request of every student, not only the poll. A :class:`PollBoard` keeps the store off the
loop:

* Store calls run on a few worker threads of its own (each with its own connection, see
  :func:`labs.poll.store.store_for`, and the store's short timeouts,
  :data:`labs.poll.store.TIMEOUT_S`); a page gets a :class:`~concurrent.futures.Future`
  and applies its result on the loop, at its next tick or just after the call ends.
* One read of the versions of every code this process's pages follow serves them all
  (one pipelined Redis read, one SQLite ``IN`` query), at most once per :data:`READ_EVERY_S`
  however many pages tick: a page reads the poll itself only when its version moved.
* While the store does not answer (its last read failed, or one has waited longer than
  :data:`STALL_S`) the board says so, and poll pages tell their students; every other
  part of the lab keeps its speed.

A board belongs to one process (made on first use after the fork, see
:class:`labs.poll.panel.PollService`) and is touched only on that process's event loop;
only its threads call the store.
"""

from __future__ import annotations

import logging
import math
import os
import time
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from typing import TypeVar

from tornado.ioloop import IOLoop

from labs.poll.store import STORE_ERRORS, TIMEOUT_S, PollStore, store_for

log = logging.getLogger("labs.poll")

T = TypeVar("T")

READ_EVERY_S = 0.36  # a little under the pages' tick (TICK_MS), so every tick finds a fresh read
STALL_S = 1.5 * TIMEOUT_S  # a call waiting longer than this is a store that does not answer
FORGET_S = 5.0  # a code no page has asked about for this long is read no more
THREADS = 4  # store calls at once per process: the board's read and a few pages' own


class PollBoard:
    """The store's calls and versions for one process at ``location`` (see the module notes).

    Parameters
    ----------
    location : str
        A Redis URL or a SQLite file path (:func:`labs.poll.store.store_for`).
    read_every_s : float
        Least time between two version reads (tests pass 0: a read whenever none is running).
    clock : callable
        Seconds, monotonic.
    """

    def __init__(
        self,
        location: str,
        read_every_s: float = READ_EVERY_S,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.location = location
        self.read_every_s = read_every_s
        self.clock = clock
        self.pid = os.getpid()
        self.executor = ThreadPoolExecutor(THREADS, thread_name_prefix="lab-poll")
        self.followed: dict[str, float] = {}  # code -> when a page last asked for it
        self.versions: dict[str, int] = {}
        self.reading: Future | None = None
        self.read_started = -math.inf
        self.failed = False
        self.reads = 0  # version reads made (what the one-read-per-tick test counts)

    def call(self, work: Callable[[PollStore], T]) -> Future[T]:
        """Run ``work(store)`` on one of the board's threads; its future."""
        return self.executor.submit(lambda: work(store_for(self.location)))

    def version(self, code: str) -> int | None:
        """The last version read of ``code`` (None before the first read); starts a read when due."""
        now = self.clock()
        self.followed[code] = now
        self.collect()
        if self.reading is None and now - self.read_started >= self.read_every_s:
            self._read(now)
        return self.versions.get(code)

    def answering(self) -> bool:
        """Whether the store answered its last read and no read has been waiting too long."""
        late = self.reading is not None and self.clock() - self.read_started > STALL_S
        return not (self.failed or late)

    def _read(self, now: float) -> None:
        for code in [code for code, asked in self.followed.items() if now - asked > FORGET_S]:
            del self.followed[code]
            self.versions.pop(code, None)
        codes = sorted(self.followed)
        self.read_started = now
        self.reads += 1
        self.reading = self.call(lambda store: store.versions(codes))

    def collect(self) -> None:
        """Take in a finished version read (on the event loop)."""
        if self.reading is None or not self.reading.done():
            return
        reading, self.reading = self.reading, None
        try:
            self.versions.update(reading.result())
        except STORE_ERRORS as error:
            self.failing(error)
            return
        self.answered()

    def failing(self, error: BaseException) -> None:
        """Note that a store call failed (logged once, when the store stops answering)."""
        if not self.failed:
            log.warning("class poll: its store (%s) is not answering: %s", self.location, error)
        self.failed = True

    def answered(self) -> None:
        """Note that a store call succeeded (logged once, when the store answers again)."""
        if self.failed:
            log.warning("class poll: its store (%s) answers again", self.location)
        self.failed = False


class PageCalls:
    """One page's store calls: one in flight at a time, the latest click made meanwhile waiting.

    Parameters
    ----------
    board : callable
        Returns the process's :class:`PollBoard` (the page's service makes it on first use).
    doc : bokeh.document.Document or None
        The page's document: a finished call wakes ``on_done`` on its event loop at once,
        under the document's lock. Without one (tests), the page's tick collects.
    on_done : callable
        Called on the event loop when a call has finished (the page then :meth:`collect`\\ s).
    """

    def __init__(self, board: Callable[[], PollBoard], doc=None, on_done=None) -> None:
        self.board, self.doc, self.on_done = board, doc, on_done
        self.loop = IOLoop.current() if doc is not None else None
        self.call: Future | None = None
        self.then: Callable | None = None
        self.code = ""  # the class code the call in flight reads
        self.started = -math.inf
        self.action = False  # whether the call in flight writes (a vote, a presenter's action)
        self.waiting: tuple | None = None  # (work, then, code, action)

    def submit(
        self, work: Callable[[PollStore], T], then: Callable[[T], None], code: str, action: bool
    ) -> None:
        """Run ``work(store)`` off the loop, then ``then(result)`` on it (after any call in flight)."""
        if self.call is not None:
            self.waiting = (work, then, code, action)
            return
        board = self.board()
        self.call, self.then, self.code, self.action = board.call(work), then, code, action
        self.started = board.clock()
        if self.loop is not None:
            loop = self.loop
            self.call.add_done_callback(lambda _done: loop.add_callback(self._wake))

    def _wake(self) -> None:
        context = self.doc.session_context
        if context is not None and not getattr(context, "destroyed", False):
            self.doc.add_next_tick_callback(self.on_done)

    def late(self) -> bool:
        """Whether the call in flight has waited longer than :data:`STALL_S`."""
        return self.call is not None and self.board().clock() - self.started > STALL_S

    def pending(self) -> list[Future]:
        """The calls this page waits for: its own, and its board's version read."""
        return [call for call in (self.call, self.board().reading) if call is not None]

    def collect(self) -> tuple[Callable, Future, str, bool] | None:
        """The finished call as (then, future, code, action), the waiting one started; None if none."""
        if self.call is None or not self.call.done():
            return None
        done = (self.then, self.call, self.code, self.action)
        self.call = None
        if self.waiting is not None:
            waiting, self.waiting = self.waiting, None
            self.submit(*waiting)
        return done
