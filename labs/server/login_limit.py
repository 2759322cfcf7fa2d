"""How many wrong class passwords the login page takes: per client address and overall.

(The same rule, with its own rations and log wording, limits the presenter's password and
the class poll's joins of codes that have no poll: labs/poll/room.py.)

Without a limit, one client tried about 2,000 passwords a second and not one line reached
the log. The rule here, per address and for the whole server alike:

* ``free`` wrong passwords are answered as such while each comes within ``window_s`` of
  the one before; the ``free``-th locks that key out for ``first_lock_s``.
* Every further wrong password (once the lock has passed) doubles the lock, up to
  ``longest_lock_s``: a growing delay, not a fixed ration.
* A key with no wrong password for ``window_s`` (and no lock left) starts again from 0.
* While a key is locked its logins are refused *unchecked*, the right password too: a
  check that let the right one through would tell a guesser, at full speed, which guess
  was right. The lock is short, so a student behind the same address waits seconds and
  then logs in; a right password does not clear the count (a guesser sharing a campus
  address would gain a fresh ration with each classmate who logs in).
* Each lock writes one warning line (address, wrong passwords, seconds) for the instructor.

The overall key uses its own, larger ration (a whole class mistyping at the start of a
lesson) and a shorter longest lock, since it holds back every new login. Students already
logged in are never affected. The table of addresses is capped at ``max_addresses``; when
it is full, the least recently failed address is forgotten (the overall ration still holds).

Notes
-----
The lock after the ``n``-th wrong password within the window is

.. math:: t_{lock}(n) = \\min(t_{first} \\cdot 2^{\\,n - free},\\ t_{longest}), \\quad n \\ge free

One limiter belongs to one server process (several workers each hold their own, so a client
spread over ``N`` workers gets up to ``N`` times the ration; nginx's ``lab_logins`` zone is the
machine-wide wall).
"""

from __future__ import annotations

import logging
import math
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

log = logging.getLogger("labs.server.login")

OVERALL = "all addresses"


@dataclass
class Strikes:
    """What one key (an address, or every address together) has got wrong lately."""

    wrong: int = 0
    last_wrong: float = -math.inf
    locked_until: float = -math.inf


@dataclass(frozen=True)
class Ration:
    """How many wrong passwords a key may give, and how long it is locked past that."""

    free: int
    window_s: float
    first_lock_s: float
    longest_lock_s: float

    def lock_s(self, wrong: int) -> float:
        """Seconds locked after the ``wrong``-th wrong password in a row (0 below ``free``)."""
        if wrong < self.free:
            return 0.0
        return min(self.first_lock_s * 2.0 ** min(wrong - self.free, 64), self.longest_lock_s)


PER_ADDRESS = Ration(free=20, window_s=60.0, first_lock_s=5.0, longest_lock_s=300.0)
EVERY_ADDRESS = Ration(free=200, window_s=60.0, first_lock_s=2.0, longest_lock_s=60.0)


@dataclass(frozen=True)
class Wording:
    """How a limiter's lock reads in the log: ``<topic>: <n> <wrong> from <who>, ...``."""

    topic: str = "login"
    wrong: str = "wrong class passwords"
    refused: str = "logins"


CLASS_LOGIN = Wording()
# The presenter's password: its own count and its own line, so a student's guesses are not
# taken for class passwords (and the presenter key, labs/poll/room.py, gets in regardless).
PRESENTER = Wording("presenter", "wrong presenter passwords", "presenter unlocks")
# Joins of class codes that have no poll: a scan of the 531,441 codes, not a mistyped one.
POLL_JOINS = Wording("poll", "joins of codes with no poll", "joins")
JOIN_MISSES_PER_ADDRESS = Ration(free=30, window_s=60.0, first_lock_s=5.0, longest_lock_s=300.0)
JOIN_MISSES_EVERY_ADDRESS = Ration(free=1000, window_s=60.0, first_lock_s=2.0, longest_lock_s=10.0)


class LoginLimiter:
    """Wrong-password counts per client address and overall, for one server process.

    Parameters
    ----------
    per_address, overall : Ration
        The ration of one address, and of all addresses together.
    max_addresses : int
        Most addresses remembered at once (memory stays bounded under a spoofed-address flood).
    clock : callable
        Seconds, monotonic (``time.monotonic``; tests pass their own).
    wording : Wording
        What its log line calls the key's mistakes (the class login's by default; the
        presenter's password and the poll's joins have their own).
    """

    def __init__(
        self,
        per_address: Ration = PER_ADDRESS,
        overall: Ration = EVERY_ADDRESS,
        max_addresses: int = 10_000,
        clock: Callable[[], float] = time.monotonic,
        wording: Wording = CLASS_LOGIN,
    ) -> None:
        self.per_address, self.overall = per_address, overall
        self.wording = wording
        self.max_addresses = max_addresses
        self.clock = clock
        self.addresses: OrderedDict[str, Strikes] = OrderedDict()
        self.everyone = Strikes()

    def wait_s(self, address: str) -> float:
        """Seconds before ``address`` may try a password (0 when it may now)."""
        now = self.clock()
        mine = self.addresses.get(address)
        until = max(self.everyone.locked_until, mine.locked_until if mine else -math.inf)
        return max(until - now, 0.0)

    def wrong(self, address: str) -> float:
        """Count a wrong password from ``address``; the seconds it (or everyone) is now locked."""
        now = self.clock()
        mine = self.addresses.pop(address, None) or Strikes()
        self.addresses[address] = mine  # most recently failed last
        self._forget()
        locks = (
            self._strike(mine, self.per_address, now, address),
            self._strike(self.everyone, self.overall, now, OVERALL),
        )
        return max(locks)

    def _strike(self, strikes: Strikes, ration: Ration, now: float, who: str) -> float:
        if now - strikes.last_wrong > ration.window_s and now >= strikes.locked_until:
            strikes.wrong = 0
        strikes.wrong += 1
        strikes.last_wrong = now
        lock = ration.lock_s(strikes.wrong)
        if lock > 0:
            strikes.locked_until = now + lock
            log.warning(
                "%s: %d %s from %s, each within %g s of the last: its %s are refused for %g s",
                self.wording.topic,
                strikes.wrong,
                self.wording.wrong,
                who,
                ration.window_s,
                self.wording.refused,
                lock,
            )
        return lock

    def _forget(self) -> None:
        """Drop the least recently failed addresses down to the cap (O(1) each: kept in order)."""
        while len(self.addresses) > self.max_addresses:
            self.addresses.popitem(last=False)
