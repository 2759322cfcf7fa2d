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

import gc
import logging
import time

log = logging.getLogger(__name__)

# Python's defaults are (700, 10, 10).
THRESHOLDS = (700, 10, 100)


def configure() -> None:
    """Freeze the objects built so far and make full collections rarer, for this process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)


class SessionFreezer:
    """Keeps open sessions out of full collections; frees closed sessions' cycles in batches.

    ``built`` is called once a session's document is whole, ``closed`` when it is destroyed.
    """

    def __init__(self):
        self.open = 0  # sessions built and not yet closed
        self.closed_since_thaw = 0

    def built(self) -> None:
        """Freeze what the process holds now, the new session among it (its garbage freed first)."""
        self.open += 1
        gc.collect()  # frozen objects are not walked: this walks the new session and fresh garbage
        gc.freeze()

    def closed(self) -> None:
        """Note a closed session; thaw and collect once as many have closed as are open."""
        self.open = max(self.open - 1, 0)
        self.closed_since_thaw += 1
        if self.closed_since_thaw >= max(self.open, 1):
            self.thaw()

    def thaw(self) -> None:
        """Collect everything once (closed sessions' cycles with it) and freeze what is left."""
        started = time.perf_counter()
        gc.unfreeze()
        freed = gc.collect()
        gc.freeze()
        self.closed_since_thaw = 0
        log.info(
            "freed %d objects of closed sessions in %.0f ms (%d sessions open)",
            freed, (time.perf_counter() - started) * 1000, self.open,
        )  # fmt: skip
