"""Server settings that take two fixed delays out of every knob change.

Measured on this stack (bench/ui_latency.py reproduces it):
a default Panel server answers a widget change in about 60 ms at the median, and most of it
is not the app's work:

1. Panel holds every browser-side change for 50 ms before processing it
   (``Syncable._debounce``), so that a burst of slider events coalesces into one.
2. Bokeh sends a message as several websocket frames on a socket without TCP_NODELAY;
   the last frame waits for the client's delayed ACK (about 40 ms on Linux loopback).

A third, smaller one comes from the two libraries taking turns on the socket: Bokeh writes
its reply to each browser change frame by frame, awaiting each under the socket's write lock,
and Panel, finding the lock taken when the recomputed figures are ready, retries 10 ms later
(``panel.io.document._dispatch_msgs``). Measured on a one-slider app with the probe of
``bench/ui_latency.py``: 29 ms median / 35 ms p95 with the first two fixes, 19 / 23 ms with
the reply written in one go as well.

Beside the delays there is bookkeeping: Panel counts every widget event in ``pn.state``'s
busy counter (an entry added and removed, each through param watchers and read-only
editing), so that a template's spinner can show while a callback runs. The lab shows no busy
indicator, and skipping it took the server's CPU per knob change from 14.7 to 12.3 ms
(bench/classroom.py, 30 sessions).

``configure()`` removes all three delays and the bookkeeping for the process that serves
the lab, and makes three more pieces of Panel's per-event bookkeeping cheap
(``labs/server/panel_overhead.py``). Bursts still coalesce:
Panel queues changes that arrive while one is being processed and handles them together,
so a fast drag costs one recomputation per server round trip rather than per mouse event.

A tab closed mid-update must end quietly. Writing a reply in one go leaves several frame
writes in flight when the socket closes, and Panel, when it destroys a closed session's
document, cancels the task that would have awaited its own; each failed write must be
collected, or asyncio logs "Task exception was never retrieved". Bokeh also lets go of a connection's session as
soon as its keep-alive ping finds the socket closed; change messages still queued from that
tab, and the close itself, then fail an assertion in Bokeh. Both are a tab going away, not
an error: they are dropped here, and logged at debug level.
"""

from __future__ import annotations

import asyncio
import json
import logging

from bokeh.server import urls
from panel.io import document
from panel.io import server as panel_server
from panel.reactive import Syncable
from tornado.iostream import StreamClosedError
from tornado.websocket import WebSocketClosedError, WebSocketHandler

from labs.server import change_timing, panel_overhead

log = logging.getLogger(__name__)

CLOSED = (WebSocketClosedError, StreamClosedError)


class NoDelayWSHandler(panel_server.WSHandler):
    """Panel's websocket handler with Nagle's algorithm off: frames leave as soon as written."""

    lab_closed = False

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        return super().open(*args, **kwargs)

    def _let_go(self) -> bool:
        """Whether this tab is gone: the socket closed, or Bokeh dropped its session already."""
        connection = self.connection
        return self.lab_closed or (
            connection is not None and getattr(connection, "_session", None) is None
        )

    async def on_message(self, fragment) -> None:
        if self._let_go():
            log.debug("Dropped a message from a closed tab")
            return
        await super().on_message(fragment)

    async def _handle(self, message):
        if change_timing.enabled() and change_timing.is_change(message):
            change_timing.received(self)
        return await super()._handle(message)

    def on_close(self) -> None:
        gone = self._let_go()
        self.lab_closed = True
        if gone:  # Bokeh's keep-alive let go of the session first; nothing is left to tell
            log.debug("WebSocket closed after its session was released")
            return
        super().on_close()

    async def send_message(self, message) -> None:
        """Queue every frame of ``message`` at once, then wait for them to leave.

        Bokeh awaits each frame while holding the write lock, so the lock stays taken across
        several loop turns and Panel's patch behind it waits 10 ms. Tornado appends a frame to
        the stream as soon as ``write_message`` is called, so queuing all frames without an
        await in between keeps them in order and frees the lock at once.
        """
        if change_timing.enabled() and message.msgtype == "PATCH-DOC":
            change_timing.replied(self)
        with await self.write_lock.acquire():
            pending = write_frames(self, message)
        # Every frame's outcome is collected, failed ones included (see the module notes).
        outcomes = await asyncio.gather(*pending, return_exceptions=True)
        failures = [outcome for outcome in outcomes if isinstance(outcome, BaseException)]
        if failures and not isinstance(failures[0], CLOSED):
            raise failures[0]


def write_frames(socket, message) -> list:
    """Queue every frame of Bokeh ``message`` on ``socket``; futures of those queued.

    Stops quietly at the first frame refused because the socket closed: the frames already
    queued keep their futures, each of which retrieves its own failure when it finishes.
    """
    frames = [(message.header_json, False), (message.metadata_json, False)]
    frames.append((message.content_json, False))
    for buffer in message._buffers:
        frames += [(json.dumps(buffer.ref), False), (buffer.to_bytes(), True)]
    pending = []
    for data, binary in frames:
        try:
            future = WebSocketHandler.write_message(socket, data, binary)
        except CLOSED:
            log.debug("Did not send a message: the tab was closed")
            break
        future.add_done_callback(_collect)
        pending.append(future)
    return pending


def _collect(future) -> None:
    """Retrieve a finished frame write's outcome: a closed tab is expected, anything else is not."""
    if future.cancelled():
        return
    failure = future.exception()
    if failure is not None and not isinstance(failure, CLOSED):
        log.warning("Failed sending a message: %r", failure)


def dispatch_tornado(conn, events=None, msg=None) -> list:
    """Panel's writer of document updates, with :func:`write_frames` underneath.

    Panel's own (``panel.io.document.dispatch_tornado``) builds its list of frame futures in
    one expression, so a socket closing between two frames loses the futures of those already
    queued and their failures are never retrieved.
    """
    socket = conn._socket
    stream = getattr(socket, "ws_connection", None)
    if not stream or stream.is_closing():
        return []
    if msg is None:
        if not events:
            return []
        msg = conn.protocol.create("PATCH-DOC", events)
    if change_timing.enabled():
        change_timing.replied(socket)
    return write_frames(socket, msg)


class EveryProperty(tuple):
    """A ``Syncable._busy__ignore`` that names every property: no widget event counts as busy."""

    def __contains__(self, name) -> bool:
        return True


def configure() -> None:
    """Turn off the 50 ms change debounce, Nagle's algorithm and busy counting for this process."""
    panel_overhead.configure()
    Syncable._debounce = 0
    Syncable._busy__ignore = EveryProperty()
    document.dispatch_tornado = dispatch_tornado
    urls.per_app_patterns[:] = [
        (pattern, NoDelayWSHandler if handler is panel_server.WSHandler else handler)
        for pattern, handler in urls.per_app_patterns
    ]


def configured() -> bool:
    """Whether this process serves websockets with :class:`NoDelayWSHandler`."""
    return any(
        isinstance(handler, type) and issubclass(handler, NoDelayWSHandler)
        for _pattern, handler in urls.per_app_patterns
    )
