"""One session's seat in a class poll: who may do what, and what a student may see.

A :class:`PollRoom` is made per browser session around the shared store. A student votes
once per round and sees the tally only after the reveal; only a session unlocked with the
presenter password (:class:`PresenterGate`, ``LAB_PRESENTER_PASSWORD``) may open a round,
reveal it, start a re-vote or close the poll. The rules are checked here, on the server, so
a page that sends a presenter's message without the password is refused, whatever it shows.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import os
import re
import secrets
import time
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


NAME_CHARS = 60  # the longest name or student number kept


def read_name(text: str) -> str:
    """``text`` as a voter's name in a named round: spaces collapsed, case folded, cut short."""
    return " ".join(str(text).split()).casefold()[:NAME_CHARS]


def read_code(text: str) -> str:
    """``text`` as a class code (spaces dropped, upper case), or ``""`` if it is not one."""
    code = "".join(str(text).split()).upper()
    return code if _CODE.match(code) else ""


PRESENTER_COOKIE = "lab_presenter"  # a presenter's browser, unlocked: survives reloads and workers
PRESENTER_COOKIE_S = 12 * 3600  # a lecture day


def signature(secret: bytes, purpose: str, value: str) -> str:
    """HMAC-SHA256 of ``value`` for ``purpose`` under the deployment's ``secret`` (hex, 32 chars)."""
    message = f"{purpose}\n{value}".encode()
    return hmac.new(secret, message, hashlib.sha256).hexdigest()[:32]


def signed(secret: bytes, purpose: str, value: str) -> str:
    """``value.signature``: what a page keeps in a cookie."""
    return f"{value}.{signature(secret, purpose, value)}"


def unsigned(secret: bytes, purpose: str, text: str) -> str | None:
    """The value of ``text`` if this deployment signed it for ``purpose``, else None."""
    value, _, mac = str(text).rpartition(".")
    if not value or not hmac.compare_digest(
        mac.encode(), signature(secret, purpose, value).encode()
    ):
        return None
    return value


class PresenterGate:
    """Checks the presenter password, with its own limit on wrong guesses, and the presenter key.

    Parameters
    ----------
    password : str
        ``LAB_PRESENTER_PASSWORD``; empty means no session can become the presenter.
    limiter : object
        Counts wrong presenter passwords per client address, apart from the class login's
        (:class:`labs.server.login_limit.LoginLimiter`, one per server process):
        ``wait_s(address)`` and ``wrong(address)``.
    key : str
        The presenter key printed in the server's terminal at start (empty: none). It unlocks
        even an address locked out by wrong guesses: students behind the lecture hall's one
        address cannot lock the presenter out. While an address is locked the password is
        refused unchecked (a guesser would otherwise learn at full speed which guess was
        right); the key needs no limit, being 128 random bits only the terminal shows.
    secret : bytes
        The deployment's signing secret: a presenter's cookie (:meth:`cookie`) is signed with
        it and the password, so it outlives reloads and worker restarts and dies with a new
        password.
    """

    def __init__(self, password: str, limiter, key: str = "", secret: bytes = b"") -> None:
        self.password = password
        self.limiter = limiter
        self.key = key
        self.secret = secret or secrets.token_bytes(32)

    @classmethod
    def from_env(cls, limiter, key: str = "", secret: bytes = b"") -> PresenterGate:
        return cls(os.environ.get(PRESENTER_ENV, ""), limiter, key, secret)

    def check(self, typed: str, address: str) -> tuple[bool, str]:
        """(whether ``typed`` is the presenter password or key, what to tell the page)."""
        if not self.password:
            return False, f"No presenter password is set: start the server with {PRESENTER_ENV}."
        typed = str(typed).strip()
        if self.key and hmac.compare_digest(typed.encode(), self.key.encode()):
            return True, "Presenter controls unlocked for this browser (with the presenter key)."
        wait = self.limiter.wait_s(address)
        if wait > 0:
            return False, (
                f"Too many wrong presenter passwords from this address: try again in {wait:.0f} s, "
                "or type the presenter key printed in the server's terminal."
            )
        if hmac.compare_digest(typed.encode(), self.password.encode()):
            return True, "Presenter controls unlocked for this browser."
        self.limiter.wrong(address)
        return False, "That is not the presenter password."

    def _purpose(self) -> str:
        return f"presenter {hashlib.sha256(self.password.encode()).hexdigest()}"

    def cookie(self, now: float | None = None) -> str:
        """The signed value a presenter's browser keeps (until :data:`PRESENTER_COOKIE_S` from now)."""
        until = int((time.time() if now is None else now) + PRESENTER_COOKIE_S)
        return signed(self.secret, self._purpose(), str(until))

    def kept(self, cookie: str, now: float | None = None) -> bool:
        """Whether ``cookie`` is a presenter cookie this deployment signed that has not expired."""
        until = unsigned(self.secret, self._purpose(), cookie) if self.password else None
        now = time.time() if now is None else now
        return until is not None and until.isdigit() and int(until) > now


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
    ballots: int | None = None  # ballots issued for this poll: the presenter's only
    duplicates: dict | None = None  # named round: names two ballots or more voted under

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
        self.name = ""  # a named round's name or student number, typed once per session

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

    def open(self, question: dict, named: bool = False) -> int:
        """Open a new round with ``question`` (a code is made on the first one); its number.

        A ``named`` round asks each student for a name or student number: one vote per name.
        """
        self._presenter_only("open")
        if not self.code:
            self.code = new_code()
        return self.store.open_round(self.code, {**question, "revote": False, "named": named})

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
        name = read_name(self.name) if poll.question.get("named") else ""
        if poll.question.get("named") and not name:
            raise ValueError("This round is named: type your name or student number first.")
        return self.store.answer(self.code, poll.round, self.student, int(choice), name)

    def changed(self) -> bool:
        """Whether a presenter action happened since :meth:`view` last looked (one cheap read)."""
        return bool(self.code) and self.store.version(self.code) != self.seen_version

    def view(self, issue: bool = False) -> View:
        """The poll as this session may see it (students: no tally before the reveal).

        With ``issue``, a student's ballot is first counted as issued for this poll.
        """
        if issue and self.code and not self.presenter:
            self.store.issue(self.code, self.student)
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
        ballots = self.store.ballots(self.code) if self.presenter else None
        named = self.presenter and poll.question.get("named")
        duplicates = self.store.duplicates(self.code, poll.round) if named else None
        return View(poll, mine, counts, earlier, ballots, duplicates)
