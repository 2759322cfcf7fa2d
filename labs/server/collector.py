"""Garbage-collector settings for a server that holds a whole class's sessions.

A full (generation 2) collection walks every tracked object of every session while the event
loop waits, so every student's next change waits with it. Measured with bench/classroom.py
(30 sessions): full collections took 100-400 ms and, at Python's default thresholds, came every
5-8 s, because each knob change replaces chart data and HTML whose short-lived survivors
count towards the next full collection. They were the largest part of the class's p95.

Two settings, both for the server process only:

* freeze what the imports built (Panel, Bokeh, numpy, the labs: about 135k objects, a third of
  a full collection's walk with 30 sessions), since modules are never garbage;
* require 100 young-generation collections rather than 10 before a full one, so full
  collections come about ten times less often. Cyclic garbage waits longer, which costs little
  here: a closed session is freed by its own teardown, most of it by reference counting.
"""

from __future__ import annotations

import gc

# Python's defaults are (700, 10, 10).
THRESHOLDS = (700, 10, 100)


def configure() -> None:
    """Freeze the objects built so far and make full collections rarer, for this process."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*THRESHOLDS)
