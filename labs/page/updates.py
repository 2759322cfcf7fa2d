"""When a lab's outputs reach the page: headline numbers at once, everything else just after.

A knob change is answered in two messages. The first carries what the student is watching
(the headline cards and the checks); the second, a few milliseconds later, carries the
charts, the prose and the tables. The delay matters: the first message is written to the
socket by a task on the same event loop, so a second stage run on the very next tick would
be computed before the first message left. Several changes arriving together share one
second stage. Outside a server session (tests, notebooks) both stages run at once.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable

import numpy as np
import panel as pn

# Long enough for the first stage's message to reach the socket, short enough to go unseen.
DETAILS_DELAY_MS = 15


def session_doc():
    """The Bokeh document of the server session being built or served, else None."""
    doc = pn.state.curdoc
    return doc if doc is not None and doc.session_context is not None else None


class Later:
    """Run ``callback`` once, soon after requests for it, on this session's event loop.

    With ``settle=False`` the call comes ``delay_ms`` after the first request of a burst
    (0: the next tick); with ``settle=True`` every request restarts the wait, so the call
    comes once the requests have stopped for ``delay_ms``. With ``first_now`` the very first
    request runs the callback at once.
    """

    def __init__(
        self,
        callback: Callable[[], None],
        delay_ms: int = 0,
        settle: bool = False,
        first_now: bool = False,
    ):
        self._callback = callback
        self._delay_ms = delay_ms
        self._settle = settle
        # A lab's first request comes while it is built: run it then, so the document the
        # browser first receives is whole. (Sent later, as a change, it can reach a page whose
        # document is still being built from the server's copy, and its chart data is lost.)
        self._now = first_now
        self._pending = None  # the scheduled callback, if any
        self._requested = 0.0  # time.monotonic() of the latest request
        self._doc = None  # the session document it came from

    def request(self) -> None:
        """Ask for one run of the callback."""
        doc = session_doc()
        if doc is None or self._now:
            self._now = False
            self._callback()
            return
        # A settling wait is not restarted per request (removing and adding a session
        # callback costs more than the rest of a slider step's bookkeeping): the request's
        # time is noted, and a wait that ends too early waits again for the remainder.
        self._requested, self._doc = time.monotonic(), doc
        if self._pending is not None:
            return
        if self._delay_ms:
            self._pending = doc.add_timeout_callback(self._run, self._delay_ms)
        else:
            self._pending = doc.add_next_tick_callback(self._run)

    def _run(self) -> None:
        self._pending = None
        if self._settle:
            left_ms = (self._requested - time.monotonic()) * 1000 + self._delay_ms
            if left_ms >= 1:  # a request came during the wait
                self._pending = self._doc.add_timeout_callback(self._run, math.ceil(left_ms))
                return
        self._doc = None
        try:
            with pn.io.hold():
                self._callback()
        except Exception as exception:  # reported like a knob change's: the session's handler
            handler = pn.config.exception_handler
            if handler is None:
                raise
            handler(exception)


def _same(new, old) -> bool:
    try:
        return bool(np.array_equal(np.asarray(new), np.asarray(old)))
    except (TypeError, ValueError):  # ragged or mixed columns: compare them as Python objects
        return list(new) == list(old)


def refill(source, data: dict) -> bool:
    """Give a ``ColumnDataSource`` ``data``, unless it holds exactly that already.

    Bokeh sends a source's whole data on every assignment, equal or not (each array as a
    binary buffer of its own), and a knob that leaves a chart alone, such as the batch size
    under a dense model's read curve, would resend it at every change. Returns whether
    anything was sent.
    """
    old = source.data
    if old.keys() == data.keys() and all(_same(data[key], old[key]) for key in data):
        return False
    source.data = data
    return True


def assign(model, **values) -> None:
    """Set the Bokeh ``model``'s properties to ``values``, skipping those it holds already.

    Bokeh validates every assignment, equal or not (about 0.1 ms each): a knob that moves a
    chart's data and leaves its range, height and lines alone should not pay for them.
    """
    for name, value in values.items():
        if getattr(model, name) != value:
            setattr(model, name, value)
