"""What the server gives every poll page: where the poll lives, who checks the presenter, limits."""

from __future__ import annotations

import os

from labs.poll.board import READ_EVERY_S, PollBoard
from labs.poll.room import PresenterGate


class PollService:
    """What the server gives every page: where the poll lives and who checks the presenter.

    ``board()`` is this process's :class:`~labs.poll.board.PollBoard`, made on first use in
    each process (a worker forked after the service was made gets its own).

    Parameters
    ----------
    location : str
        The store: a Redis URL or a SQLite file path.
    gate : PresenterGate
        Checks the presenter's password or key, and signs the presenter's cookie.
    read_every_s : float
        Least time between two version reads of one process (tests pass 0).
    joins : object or None
        Limits joins of codes that have no poll per client address (``wait_s``, ``wrong``:
        :class:`labs.server.login_limit.LoginLimiter`); None: no limit.
    login_secret : str
        The class login's cookie secret when a class password is on: ballots are then one
        per login (labs/poll/ballots.py).
    """

    def __init__(
        self,
        location: str,
        gate: PresenterGate,
        read_every_s: float = READ_EVERY_S,
        joins=None,
        login_secret: str = "",
    ) -> None:
        self.location = location
        self.gate = gate
        self.read_every_s = read_every_s
        self.joins = joins
        self.login_secret = login_secret
        self._board: PollBoard | None = None

    def board(self) -> PollBoard:
        if self._board is None or self._board.pid != os.getpid():
            self._board = PollBoard(self.location, self.read_every_s)
        return self._board
