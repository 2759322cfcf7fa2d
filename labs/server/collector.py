"""Garbage-collector settings for a server that holds a whole class's sessions.

A full (generation 2) collection walks every tracked object of every session while the event
loop waits, so every student's next change waits with it. Measured with bench/classroom.py:
with 30 sessions full collections took 100-400 ms and, at Python's default thresholds, came
every 5-8 s; with 150 sessions on a worker they took 2.3-2.5 s, about once a minute, and set
the class's p99.

Three settings, all for the server process only:

* freeze what the imports built (Panel, Bokeh, numpy, the labs: about 200k objects), since
  modules are never garbage;
* freeze each session once it is built (``SessionFreezer``): a session's widgets, models and
  figures live as long as its page, so a full collection that walks them finds nothing to
  free. What a knob change makes and drops is still collected as before. A closed session
  is mostly reference cycles (its document and models refer to each other), so it waits,
  frozen, until as many sessions have closed as are open, when the process thaws
  everything, collects once and freezes what is left: memory a class held comes back in a
  few batches, not at each close;
* require 100 young-generation collections rather than 10 before a full one, so full
  collections come about ten times less often.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import logging
import time

from tornado.ioloop import IOLoop

log = logging.getLogger(__name__)

# Python's defaults are (700, 10, 10).
THRESHOLDS = (700, 10, 100)
IDLE_THAW_S = 5.0  # closed sessions still frozen are freed once nobody came or left this long


def configure() -> None:
    """Freeze the objects built so far and make full collections rarer, for this process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


class SessionFreezer:
    """Keeps open sessions out of full collections; frees closed sessions' cycles in batches.

    ``built`` is called once a session's document is whole, ``closed`` when it is destroyed.
    """

    def __init__(self, idle_thaw_s: float = IDLE_THAW_S):
        self.open = 0  # sessions built and not yet closed
        self.closed_since_thaw = 0
        self.idle_thaw_s = idle_thaw_s
        self.events = 0  # builds and closes so far: an idle check compares it with its own

    def built(self) -> None:
        """Freeze what the process holds now, the new session among it (its garbage freed first)."""
        self.open += 1
        self.events += 1
        gc.collect()  # frozen objects are not walked: this walks the new session and fresh garbage
        gc.freeze()

    def closed(self) -> None:
        """Note a closed session; thaw once as many have closed as are open, or once idle."""
        self.open = max(self.open - 1, 0)
        self.closed_since_thaw += 1
        self.events += 1
        if self.closed_since_thaw >= max(self.open, 1):
            self.thaw()
            return
        # The server's kept first pages count as open and never close, so after a class has
        # left, the last few closed sessions would wait for a class that never comes: free
        # them once no session has come or gone for a while (never in the middle of a class).
        events = self.events
        IOLoop.current().call_later(self.idle_thaw_s, lambda: self._thaw_if_idle(events))

    def _thaw_if_idle(self, events: int) -> None:
        if events == self.events and self.closed_since_thaw:
            self.thaw()

    def thaw(self) -> None:
        """Collect everything once (closed sessions' cycles with it) and freeze what is left."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        trimmed = return_free_memory()
        self.closed_since_thaw = 0
        log.info(
            "freed %d objects of closed sessions in %.0f ms (%d sessions open; %s)",
            freed, (time.perf_counter() - started) * 1000, self.open,
            "free pages returned to the system" if trimmed else "no malloc_trim here",
        )  # fmt: skip


def return_free_memory() -> bool:
    """Hand the C heap's free pages back to the system (glibc's ``malloc_trim``); False elsewhere.

    Python frees an object's memory to its allocator, not to the system: after a class has
    left, glibc keeps the freed pages of every arena until something asks. ``malloc_trim(0)``
    releases them (free pages in the middle of a heap too, since glibc 2.8), so a worker's
    RSS comes back after a class instead of staying at its high-water mark. The server runs
    its objects on glibc's malloc for this (labs/server/allocator.py).
    """
    trim = _malloc_trim()
    if trim is None:
        return False
    trim(0)
    return True


def can_return_free_memory() -> bool:
    """Whether this process's C library can hand free pages back (glibc's ``malloc_trim``)."""
    return _malloc_trim() is not None


def _malloc_trim():
    """glibc's ``malloc_trim``, ready to call, or None where the C library has none."""
    name = ctypes.util.find_library("c")
    if not name:
        return None
    try:
        trim = ctypes.CDLL(name).malloc_trim
    except (OSError, AttributeError):  # not glibc (musl, macOS): nothing to ask
        return None
    trim.argtypes, trim.restype = [ctypes.c_size_t], ctypes.c_int
    return trim
