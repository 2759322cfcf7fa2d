"""One session's seat in a class poll: who may do what, and what a student may see.

A :class:`PollRoom` is made per browser session around the shared store. A student votes
once per round and sees the tally only after the reveal; only a session unlocked with the
presenter password (:class:`PresenterGate`, ``LAB_PRESENTER_PASSWORD``) may open a round,
reveal it, start a re-vote or close the poll. The rules are checked here, on the server, so
a page that sends a presenter's message without the password is refused, whatever it shows.
"""

from __future__ import annotations

import copy
import hmac
import os
import re
import secrets
from dataclasses import dataclass

from labs.poll.store import PollState, PollStore

PRESENTER_ENV = "LAB_PRESENTER_PASSWORD"
# Class codes: four characters no projector or handwriting confuses (no 0/O, 1/I/L, 5/S).
CODE_ALPHABET = "ACDEFGHJKMNPQRTUVWXY2346789"
CODE_LENGTH = 4
_CODE = re.compile(rf"^[{CODE_ALPHABET}]{{{CODE_LENGTH}}}$")


def new_code() -> str:
    """A fresh class code, e.g. ``"K7QW"``."""
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


def read_code(text: str) -> str:
    """``text`` as a class code (spaces dropped, upper case), or ``""`` if it is not one."""
    code = "".join(str(text).split()).upper()
    return code if _CODE.match(code) else ""


class PresenterGate:
    """Checks the presenter password, with the class login's limit on wrong guesses.

    Parameters
    ----------
    password : str
        ``LAB_PRESENTER_PASSWORD``; empty means no session can become the presenter.
    limiter : object
        Counts wrong passwords per client address (:class:`labs.server.login_limit.LoginLimiter`,
        one per server process): ``wait_s(address)`` and ``wrong(address)``.
    """

    def __init__(self, password: str, limiter) -> None:
        self.password = password
        self.limiter = limiter

    @classmethod
    def from_env(cls, limiter) -> PresenterGate:
        return cls(os.environ.get(PRESENTER_ENV, ""), limiter)

    def check(self, typed: str, address: str) -> tuple[bool, str]:
        """(whether ``typed`` is the presenter password, what to tell the page)."""
        if not self.password:
            return False, f"No presenter password is set: start the server with {PRESENTER_ENV}."
        wait = self.limiter.wait_s(address)
        if wait > 0:
            return False, f"Too many wrong passwords: try again in {wait:.0f} s."
        if hmac.compare_digest(str(typed).encode(), self.password.encode()):
            return True, "Presenter controls unlocked for this page."
        self.limiter.wrong(address)
        return False, "That is not the presenter password."


@dataclass(frozen=True)
class View:
    """What one session may see of the poll now.

    ``counts`` is None for a student until the reveal; ``earlier`` holds the previous
    round's counts when this round re-runs its question, under the same rule.
    """

    poll: PollState | None
    mine: int | None
    counts: list[int] | None
    earlier: list[int] | None

    @property
    def total(self) -> int:
        return sum(self.counts or ())


class PollRoom:
    """One session's view of the class poll ``code`` (see the module notes)."""

    def __init__(self, store: PollStore, student: str, code: str = "") -> None:
        self.store = store
        self.student = student
        self.code = read_code(code)
        self.presenter = False
        self.seen_version = -1

    def bound(self, store: PollStore | None) -> PollRoom:
        """A copy of this seat calling ``store``: one store call's own, taken on the event loop."""
        seat = copy.copy(self)
        seat.store = store
        return seat

    # -- presenter ----------------------------------------------------------------------
    def unlock(self, gate: PresenterGate, typed: str, address: str) -> str:
        """Make this session the presenter if ``typed`` is the password; what to say."""
        ok, message = gate.check(typed, address)
        self.presenter = self.presenter or ok
        return message

    def _presenter_only(self, action: str) -> None:
        if not self.presenter:
            raise PermissionError(f"only the presenter can {action} a poll")

    def open(self, question: dict) -> int:
        """Open a new round with ``question`` (a code is made on the first one); its number."""
        self._presenter_only("open")
        if not self.code:
            self.code = new_code()
        return self.store.open_round(self.code, {**question, "revote": False})

    def revote(self) -> int:
        """A new round of the current question (peer instruction's second vote)."""
        self._presenter_only("re-run")
        poll = self._poll()
        return self.store.open_round(self.code, {**poll.question, "revote": True})

    def reveal(self) -> None:
        self._presenter_only("reveal")
        self._poll()
        self.store.set_state(self.code, "revealed")

    def close(self) -> None:
        self._presenter_only("close")
        self._poll()
        self.store.set_state(self.code, "closed")

    def _poll(self) -> PollState:
        poll = self.store.get(self.code) if self.code else None
        if poll is None:
            raise ValueError("no poll is open: open one first")
        return poll

    # -- everyone -----------------------------------------------------------------------
    def join(self, text: str) -> bool:
        """Follow the class code ``text``; False (and no change) if it is not a code."""
        code = read_code(text)
        if code:
            self.code = code
            self.seen_version = -1
        return bool(code)

    def vote(self, choice: int) -> bool:
        """Record this student's ``choice`` in the open round; False if refused."""
        poll = self.store.get(self.code) if self.code else None
        if poll is None or poll.state != "open":
            return False
        if not 0 <= int(choice) < len(poll.question.get("choices", ())):
            return False
        return self.store.answer(self.code, poll.round, self.student, int(choice))

    def changed(self) -> bool:
        """Whether a presenter action happened since :meth:`view` last looked (one cheap read)."""
        return bool(self.code) and self.store.version(self.code) != self.seen_version

    def view(self) -> View:
        """The poll as this session may see it (students: no tally before the reveal)."""
        poll = self.store.get(self.code) if self.code else None
        if poll is None:
            self.seen_version = 0
            return View(None, None, None, None)
        self.seen_version = poll.version
        choices = len(poll.question.get("choices", ()))
        shown = self.presenter or poll.state == "revealed"
        counts = self.store.counts(self.code, poll.round, choices) if shown else None
        earlier = None
        if shown and poll.round > 1 and poll.question.get("revote"):
            earlier = self.store.counts(self.code, poll.round - 1, choices)
        mine = self.store.choice_of(self.code, poll.round, self.student)
        return View(poll, mine, counts, earlier)
