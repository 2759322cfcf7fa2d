"""Server settings that take two fixed delays out of every knob change.

Measured on this stack (see ../shared/notes/latency-findings.md and bench/ui_latency.py):
a default Panel server answers a widget change in about 60 ms at the median, and most of it
is not the app's work:

1. Panel holds every browser-side change for 50 ms before processing it
   (``Syncable._debounce``), so that a burst of slider events coalesces into one.
2. Bokeh sends a message as several websocket frames on a socket without TCP_NODELAY;
   the last frame waits for the client's delayed ACK (about 40 ms on Linux loopback).

``configure()`` removes both for the process that serves the lab. Bursts still coalesce:
Panel queues changes that arrive while one is being processed and handles them together,
so a fast drag costs one recomputation per server round trip rather than per mouse event.
"""

from __future__ import annotations

from bokeh.server import urls
from panel.io import server as panel_server
from panel.reactive import Syncable


class NoDelayWSHandler(panel_server.WSHandler):
    """Panel's websocket handler with Nagle's algorithm off: frames leave as soon as written."""

    def open(self, *args, **kwargs):
        self.set_nodelay(True)
        return super().open(*args, **kwargs)


def configure() -> None:
    """Turn off the 50 ms change debounce and Nagle's algorithm for this server process."""
    Syncable._debounce = 0
    urls.per_app_patterns[:] = [
        (pattern, NoDelayWSHandler if handler is panel_server.WSHandler else handler)
        for pattern, handler in urls.per_app_patterns
    ]
