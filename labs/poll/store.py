"""Where a class poll lives: one small interface, kept in SQLite on one machine or Redis across many.

Every server process (``WORKERS=N``) and every lab host behind nginx reads and writes the
same poll, so nothing about it is held in a process: each write goes to the store before the
page says it was recorded, and a killed or restarted worker loses no answer.

* :class:`SqliteStore` (the default): one file beside the server (``polls.sqlite3`` in
  ``$LAB_STATE_DIR``), in WAL mode so readers never wait for the writer; it serves every
  process on one machine.
* :class:`RedisStore`, when ``LAB_REDIS_URL`` is set (``redis://host:6379/0``): serves
  several lab hosts.

Both keep, per class code, the current round, its state (``open``, ``revealed``,
``closed``), its question (JSON) and a version that grows with every presenter action, and
per round one answer per student: a second vote in the same round is refused by the store
itself (a primary key, ``HSETNX``), and so is a vote for a round that is not open. In a
*named* round each vote also carries the name (or student number) its student typed: the
first ballot to vote under a name holds it, a second ballot's vote under the same name is
refused, not counted, and both are kept as the name's claims, which the presenter sees
(:meth:`PollStore.duplicates`).
:func:`store_for` keeps one connection per process (the only state a process holds).
"""

from __future__ import annotations

import json
import os
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

try:  # the client is a dependency; a store error of either backend is one of STORE_ERRORS
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - an install without it uses SQLite only
    RedisError = OSError

REDIS_URL_ENV = "LAB_REDIS_URL"
SQLITE_NAME = "polls.sqlite3"
STATES = ("open", "revealed", "closed")
# What a backend raises when it cannot answer (a locked or unwritable file, Redis down).
STORE_ERRORS = (sqlite3.Error, OSError, RedisError)
POLL_TTL_S = 86_400  # a class's poll is forgotten a day after its last presenter action (Redis)
# Longest one store call waits for a lock or an answer: a hung store costs a page's poll
# this long, off the event loop (labs/poll/board.py), never the rest of the lab.
TIMEOUT_S = 1.0


@dataclass(frozen=True)
class PollState:
    """One class code's poll as the store holds it."""

    code: str
    round: int
    state: str
    question: dict
    version: int


class PollStore(Protocol):
    """What every backend offers (see the module notes)."""

    def version(self, code: str) -> int:
        """The poll's version (0 if there is none)."""

    def versions(self, codes: list[str]) -> dict[str, int]:
        """Every code's version (0 if it has none) in one read: what a process polls."""

    def get(self, code: str) -> PollState | None:
        """The poll of ``code``, or None."""

    def open_round(self, code: str, question: dict) -> int:
        """Start a new round (the first, or a re-vote) with ``question``; its number."""

    def set_state(self, code: str, state: str) -> None:
        """Reveal or close the current round."""

    def answer(self, code: str, round_: int, student: str, choice: int, name: str = "") -> bool:
        """Record ``student``'s choice if ``round_`` is open, they have not voted in it and (a
        named round's ``name``) no other ballot voted under their name."""

    def duplicates(self, code: str, round_: int) -> dict[str, int]:
        """Each name more than one ballot voted under in ``round_``, and how many ballots did."""

    def choice_of(self, code: str, round_: int, student: str) -> int | None:
        """The choice ``student`` recorded in ``round_``, or None."""

    def counts(self, code: str, round_: int, choices: int) -> list[int]:
        """How many chose each of ``choices`` answers in ``round_``."""

    def issue(self, code: str, ballot: str) -> None:
        """Count ``ballot`` (labs/poll/ballots.py) as issued for the poll ``code``."""

    def ballots(self, code: str) -> int:
        """How many ballots have been issued for the poll ``code``."""


def _check_state(state: str) -> None:
    if state not in STATES:
        raise ValueError(f"poll state {state!r} is not one of {', '.join(STATES)}")


def _tally(values, choices: int) -> list[int]:
    counts = [0] * choices
    for value in values:
        index = int(value)
        if 0 <= index < choices:
            counts[index] += 1
    return counts


_SCHEMA = """
CREATE TABLE IF NOT EXISTS polls (
    code TEXT PRIMARY KEY, round INTEGER NOT NULL, state TEXT NOT NULL,
    question TEXT NOT NULL, version INTEGER NOT NULL, updated REAL NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    code TEXT NOT NULL, round INTEGER NOT NULL, student TEXT NOT NULL,
    choice INTEGER NOT NULL, at REAL NOT NULL, PRIMARY KEY (code, round, student));
CREATE TABLE IF NOT EXISTS ballots (
    code TEXT NOT NULL, ballot TEXT NOT NULL, at REAL NOT NULL, PRIMARY KEY (code, ballot));
CREATE TABLE IF NOT EXISTS names (
    code TEXT NOT NULL, round INTEGER NOT NULL, name TEXT NOT NULL, student TEXT NOT NULL,
    PRIMARY KEY (code, round, name, student));
"""


class SqliteStore:
    """The poll in one SQLite file (WAL mode), shared by every process on this machine."""

    def __init__(self, path: Path | str) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # autocommit: every write is its own transaction, in the file when the call returns
        self.db = sqlite3.connect(self.path, isolation_level=None, timeout=TIMEOUT_S)
        self.db.execute("PRAGMA journal_mode=WAL")
        self.db.execute("PRAGMA synchronous=NORMAL")  # a killed process loses nothing in WAL
        self.db.executescript(_SCHEMA)

    def version(self, code: str) -> int:
        row = self.db.execute("SELECT version FROM polls WHERE code = ?", (code,)).fetchone()
        return row[0] if row else 0

    def versions(self, codes: list[str]) -> dict[str, int]:
        marks = ", ".join("?" * len(codes))
        rows = self.db.execute(
            f"SELECT code, version FROM polls WHERE code IN ({marks})", list(codes)
        ).fetchall()
        return {**dict.fromkeys(codes, 0), **dict(rows)}

    def get(self, code: str) -> PollState | None:
        row = self.db.execute(
            "SELECT round, state, question, version FROM polls WHERE code = ?", (code,)
        ).fetchone()
        if row is None:
            return None
        return PollState(code, row[0], row[1], json.loads(row[2]), row[3])

    def open_round(self, code: str, question: dict) -> int:
        (round_,) = self.db.execute(
            "INSERT INTO polls VALUES (?, 1, 'open', ?, 1, ?) ON CONFLICT (code) DO UPDATE SET "
            "round = round + 1, state = 'open', question = excluded.question, "
            "version = version + 1, updated = excluded.updated RETURNING round",
            (code, json.dumps(question), time.time()),
        ).fetchone()
        return round_

    def set_state(self, code: str, state: str) -> None:
        _check_state(state)
        self.db.execute(
            "UPDATE polls SET state = ?, version = version + 1, updated = ? WHERE code = ?",
            (state, time.time(), code),
        )

    def answer(self, code: str, round_: int, student: str, choice: int, name: str = "") -> bool:
        with self.db:  # one transaction: the name's first claimant is the one whose vote counts
            self.db.execute("BEGIN IMMEDIATE")
            if name and not self._claim(code, round_, name, student):
                return False
            cursor = self.db.execute(
                "INSERT OR IGNORE INTO answers SELECT ?, ?, ?, ?, ? WHERE EXISTS "
                "(SELECT 1 FROM polls WHERE code = ? AND round = ? AND state = 'open')",
                (code, round_, student, int(choice), time.time(), code, round_),
            )
            return cursor.rowcount == 1

    def _claim(self, code: str, round_: int, name: str, student: str) -> bool:
        """Keep a ballot's claim of ``name`` (one that may vote); whether no other voted under it."""
        poll = self.get(code)
        if (poll is None or (poll.round, poll.state) != (round_, "open")
                or self.choice_of(code, round_, student) is not None):  # fmt: skip
            return False
        self.db.execute("INSERT OR IGNORE INTO names VALUES (?, ?, ?, ?)",
                        (code, round_, name, student))  # fmt: skip
        return not self.db.execute(
            "SELECT 1 FROM names JOIN answers USING (code, round, student) "
            "WHERE code = ? AND round = ? AND name = ? AND student != ?",
            (code, round_, name, student),
        ).fetchone()

    def duplicates(self, code: str, round_: int) -> dict[str, int]:
        rows = self.db.execute(
            "SELECT name, COUNT(*) FROM names WHERE code = ? AND round = ? GROUP BY name "
            "HAVING COUNT(*) > 1 ORDER BY name",
            (code, round_),
        ).fetchall()
        return dict(rows)

    def choice_of(self, code: str, round_: int, student: str) -> int | None:
        row = self.db.execute(
            "SELECT choice FROM answers WHERE code = ? AND round = ? AND student = ?",
            (code, round_, student),
        ).fetchone()
        return row[0] if row else None

    def counts(self, code: str, round_: int, choices: int) -> list[int]:
        rows = self.db.execute(
            "SELECT choice, COUNT(*) FROM answers WHERE code = ? AND round = ? GROUP BY choice",
            (code, round_),
        ).fetchall()
        counts = [0] * choices
        for choice, count in rows:
            if 0 <= choice < choices:
                counts[choice] = count
        return counts

    def issue(self, code: str, ballot: str) -> None:
        self.db.execute(
            "INSERT OR IGNORE INTO ballots VALUES (?, ?, ?)", (code, ballot, time.time())
        )

    def ballots(self, code: str) -> int:
        (count,) = self.db.execute(
            "SELECT COUNT(*) FROM ballots WHERE code = ?", (code,)
        ).fetchone()
        return count


# Records a vote only while its round is the current one and open; 1 if recorded. With a
# name (ARGV[5], a named round) the claim is kept and the first ballot voting under it holds it.
_ANSWER_LUA = """
if redis.call('HGET', KEYS[1], 'round') ~= ARGV[1] then return 0 end
if redis.call('HGET', KEYS[1], 'state') ~= 'open' then return 0 end
if ARGV[5] ~= '' then
  if redis.call('HEXISTS', KEYS[2], ARGV[2]) == 1 then return 0 end
  redis.call('SADD', KEYS[4], ARGV[5] .. '\\n' .. ARGV[2])
  redis.call('EXPIRE', KEYS[4], ARGV[4])
  if redis.call('HSETNX', KEYS[3], ARGV[5], ARGV[2]) == 0 then return 0 end
  redis.call('EXPIRE', KEYS[3], ARGV[4])
end
local added = redis.call('HSETNX', KEYS[2], ARGV[2], ARGV[3])
redis.call('EXPIRE', KEYS[2], ARGV[4])
return added
"""


class RedisStore:
    """The poll in Redis (``LAB_REDIS_URL``), shared by every lab host that reaches it."""

    def __init__(self, url: str) -> None:
        import redis  # only a deployment with LAB_REDIS_URL needs the client
        from redis.backoff import NoBackoff
        from redis.retry import Retry

        # One try per call (the client's default retries a timeout 3 times, backing off up
        # to 10 s), and one more only on a dropped connection (a restarted redis-server).
        once = Retry(NoBackoff(), 1, supported_errors=(redis.exceptions.ConnectionError,))
        self.db = redis.Redis.from_url(
            url,
            socket_timeout=TIMEOUT_S,
            socket_connect_timeout=TIMEOUT_S,
            retry=once,
            decode_responses=True,
        )
        self._answer = self.db.register_script(_ANSWER_LUA)

    @staticmethod
    def _key(code: str) -> str:
        return f"lab:poll:{code}"

    def _answers(self, code: str, round_: int) -> str:
        return f"{self._key(code)}:round:{int(round_)}"

    def version(self, code: str) -> int:
        value = self.db.hget(self._key(code), "version")
        return int(value) if value else 0

    def versions(self, codes: list[str]) -> dict[str, int]:
        with self.db.pipeline(transaction=False) as pipe:
            for code in codes:
                pipe.hget(self._key(code), "version")
            values = pipe.execute()
        return {code: int(value) if value else 0 for code, value in zip(codes, values, strict=True)}

    def get(self, code: str) -> PollState | None:
        fields = self.db.hgetall(self._key(code))
        if not fields or "round" not in fields:
            return None
        return PollState(
            code,
            int(fields["round"]),
            fields["state"],
            json.loads(fields["question"]),
            int(fields["version"]),
        )

    def open_round(self, code: str, question: dict) -> int:
        key = self._key(code)
        with self.db.pipeline(transaction=True) as pipe:
            pipe.hincrby(key, "round", 1)
            pipe.hset(key, mapping={"state": "open", "question": json.dumps(question)})
            pipe.hincrby(key, "version", 1)
            pipe.expire(key, POLL_TTL_S)
            round_, *_rest = pipe.execute()
        return int(round_)

    def set_state(self, code: str, state: str) -> None:
        _check_state(state)
        key = self._key(code)
        with self.db.pipeline(transaction=True) as pipe:
            pipe.hset(key, "state", state)
            pipe.hincrby(key, "version", 1)
            pipe.expire(key, POLL_TTL_S)
            pipe.execute()

    def answer(self, code: str, round_: int, student: str, choice: int, name: str = "") -> bool:
        answers = self._answers(code, round_)
        keys = [self._key(code), answers, f"{answers}:names", f"{answers}:claims"]
        args = [int(round_), student, int(choice), POLL_TTL_S, name]
        return bool(self._answer(keys=keys, args=args))

    def duplicates(self, code: str, round_: int) -> dict[str, int]:
        claims = self.db.smembers(f"{self._answers(code, round_)}:claims")
        names: dict[str, int] = {}
        for claim in claims:
            name = claim.partition("\n")[0]
            names[name] = names.get(name, 0) + 1
        return {name: count for name, count in sorted(names.items()) if count > 1}

    def choice_of(self, code: str, round_: int, student: str) -> int | None:
        value = self.db.hget(self._answers(code, round_), student)
        return int(value) if value is not None else None

    def counts(self, code: str, round_: int, choices: int) -> list[int]:
        return _tally(self.db.hvals(self._answers(code, round_)), choices)

    def issue(self, code: str, ballot: str) -> None:
        key = f"{self._key(code)}:ballots"
        with self.db.pipeline(transaction=False) as pipe:
            pipe.sadd(key, ballot)
            pipe.expire(key, POLL_TTL_S)
            pipe.execute()

    def ballots(self, code: str) -> int:
        return int(self.db.scard(f"{self._key(code)}:ballots"))


def default_location(state_dir: Path) -> str:
    """``LAB_REDIS_URL`` if set, else the SQLite file in ``state_dir`` (the server's state folder)."""
    url = os.environ.get(REDIS_URL_ENV, "")
    return url or str(Path(state_dir) / SQLITE_NAME)


def is_redis(location: str) -> bool:
    return location.startswith(("redis://", "rediss://", "unix://"))


def prepare(location: str) -> str:
    """Make the SQLite file and its tables once, in the parent, before workers fork.

    Returns what to print if that failed (the lab still serves; the poll bar says it is
    unavailable), else ``""``.
    """
    if is_redis(location):
        return ""
    try:
        SqliteStore(location).db.close()
    except STORE_ERRORS as error:
        return f"The class poll is unavailable: its file {location} cannot be opened ({error})."
    return ""


# The process-wide connection cache: (process id, thread id, location) -> store. A forked
# worker or another thread opens its own connection, never one made elsewhere.
_CONNECTIONS: dict[tuple[int, int, str], PollStore] = {}
_CONNECTIONS_LOCK = threading.Lock()


def store_for(location: str) -> PollStore:
    """This process's (and thread's) store at ``location``: a Redis URL or a SQLite file path."""
    key = (os.getpid(), threading.get_ident(), location)
    with _CONNECTIONS_LOCK:
        store = _CONNECTIONS.get(key)
        if store is None:
            store = RedisStore(location) if is_redis(location) else SqliteStore(location)
            _CONNECTIONS[key] = store
        return store
