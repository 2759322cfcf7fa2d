"""Server settings that take two fixed delays out of every knob change.

Measured on this stack (see ../shared/notes/latency-findings.md and bench/ui_latency.py):
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

``configure()`` removes all three for the process that serves the lab. Bursts still coalesce:
Panel queues changes that arrive while one is being processed and handles them together,
so a fast drag costs one recomputation per server round trip rather than per mouse event.
"""

from __future__ import annotations

import json
import logging

from bokeh.server import urls
from panel.io import server as panel_server
from panel.reactive import Syncable
from tornado.websocket import WebSocketClosedError, WebSocketHandler

log = logging.getLogger(__name__)


class NoDelayWSHandler(panel_server.WSHandler):
    """Panel's websocket handler with Nagle's algorithm off: frames leave as soon as written."""

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        return super().open(*args, **kwargs)

    async def send_message(self, message) -> None:
        """Queue every frame of ``message`` at once, then wait for them to leave.

        Bokeh awaits each frame while holding the write lock, so the lock stays taken across
        several loop turns and Panel's patch behind it waits 10 ms. Tornado appends a frame to
        the stream as soon as ``write_message`` is called, so queuing all frames without an
        await in between keeps them in order and frees the lock at once.
        """
        frames = [(message.header_json, False), (message.metadata_json, False)]
        frames.append((message.content_json, False))
        for buffer in message._buffers:
            frames += [(json.dumps(buffer.ref), False), (buffer.to_bytes(), True)]
        try:
            with await self.write_lock.acquire():
                pending = [
                    WebSocketHandler.write_message(self, data, binary) for data, binary in frames
                ]
            for future in pending:
                await future
        except WebSocketClosedError:
            log.warning("Failed sending message as connection was closed")


def configure() -> None:
    """Turn off the 50 ms change debounce and Nagle's algorithm for this server process."""
    Syncable._debounce = 0
    urls.per_app_patterns[:] = [
        (pattern, NoDelayWSHandler if handler is panel_server.WSHandler else handler)
        for pattern, handler in urls.per_app_patterns
    ]
