"""Bounded session builds: each client address and the whole process get a budget of new labs.

A session build is the server's dearest act (a whole lab: widgets, charts, models), and every
route that makes one must be bounded like a page load (issue 28, item 19). Page loads already
render from a kept session (labs/server/first_page.py) and embeds' ``autoload.js`` does too
(labs/server/embeds.py), so a session is built only when a browser's websocket connects with
a session token this server signed. That leaves the connections themselves: a client that
fetches tokens in a loop and connects each would still build a lab per token. So every new
session draws from two token buckets, one for its client's address and one for the process;
an empty bucket refuses the build (HTTP 429, or the websocket closed with "try again later"),
with one log line, and the page's reconnect script (labs/server/reconnect.py) tries again.

Each bucket holds a minute's builds and refills at that rate: a lecture hall behind one
campus NAT address can all open the lab at once; a loop gets a build a second or so.
"""

from __future__ import annotations

import logging
import time
from collections import OrderedDict
from dataclasses import dataclass, field

from bokeh.server import urls as bokeh_urls
from bokeh.server.contexts import ApplicationContext
from bokeh.util.token import check_token_signature
from panel.io import server as panel_server
from tornado.web import HTTPError

log = logging.getLogger("labs.server")

# Session builds a minute, per client address and for one process (the defaults of serve.py).
PER_CLIENT_PER_MINUTE = 120
OVERALL_PER_MINUTE = 600

# Client addresses remembered at most; the longest idle is forgotten first (it was full anyway).
MAX_CLIENTS = 4096

# Websocket close code "try again later" (RFC 6455 section 7.4.1, registered by IANA).
TRY_AGAIN_LATER = 1013
POLICY_VIOLATION = 1008


@dataclass
class Bucket:
    """A token bucket: ``capacity`` tokens at most, refilled at ``per_second``."""

    capacity: float
    per_second: float
    tokens: float = field(default=-1.0)
    stamp: float = 0.0

    def take(self, now: float) -> bool:
        """Take one token at time ``now`` (seconds); False when none is left."""
        if self.tokens < 0:
            self.tokens, self.stamp = self.capacity, now
        self.tokens = min(self.capacity, self.tokens + (now - self.stamp) * self.per_second)
        self.stamp = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


class BuildBudget:
    """Session builds a minute allowed per client address and overall, in one process."""

    def __init__(self, per_client: int, overall: int, clock=time.monotonic) -> None:
        if per_client < 1 or overall < 1:
            raise ValueError(
                f"session builds a minute must be at least 1: per client {per_client}, "
                f"overall {overall}"
            )
        self.per_client, self.clock = per_client, clock
        self.overall = Bucket(overall, overall / 60)
        self.clients: OrderedDict[str, Bucket] = OrderedDict()

    def allow(self, client: str) -> bool:
        """Whether ``client`` may have one more session built now (and count it if so)."""
        now = self.clock()
        bucket = self.clients.pop(client, None) or Bucket(self.per_client, self.per_client / 60)
        self.clients[client] = bucket
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        if not bucket.take(now):
            return False
        if not self.overall.take(now):
            bucket.tokens += 1  # the client's own budget was not what refused it
            return False
        return True


class BuildRefused(HTTPError):
    """A session build over budget: answered 429 to a page or embed request."""

    def __init__(self, client: str) -> None:
        super().__init__(429, reason="Too many new lab sessions; try again in a few seconds")
        self.client = client


def configure(budget: BuildBudget) -> None:
    """Make every new session in this process draw from ``budget``; refuse unsigned tokens quietly."""
    create = getattr(ApplicationContext.create_session_if_needed, "lab_original", None)
    create = create or ApplicationContext.create_session_if_needed

    async def create_session_if_needed(context, session_id, request=None, token=None):
        known = session_id in context._sessions or session_id in context._pending_sessions
        if not known and request is not None and not budget.allow(request.remote_ip):
            log.warning("session build refused for %s: over its budget", request.remote_ip)
            raise BuildRefused(request.remote_ip)
        return await create(context, session_id, request, token)

    create_session_if_needed.lab_original = create
    ApplicationContext.create_session_if_needed = create_session_if_needed
    bokeh_urls.per_app_patterns[:] = [
        (pattern, BoundedWebsocket if pattern == r"/ws" else handler)
        for pattern, handler in bokeh_urls.per_app_patterns
    ]


class BoundedWebsocket(panel_server.WSHandler):
    """Panel's websocket handler, refusing tokens this server did not sign and builds over budget."""

    def open(self, *args, **kwargs):
        token = getattr(self, "_token", None)
        app = self.application
        try:
            signed = token is not None and check_token_signature(
                token, secret_key=app.secret_key, signed=app.sign_sessions
            )
        except Exception:  # a made-up token may not even decode
            signed = False
        if not signed:
            log.warning(
                "websocket refused for %s: session token not signed", self.request.remote_ip
            )
            self.close(POLICY_VIOLATION, "session token not signed by this server")
            return None
        return super().open(*args, **kwargs)

    async def _async_open(self, token: str) -> None:
        try:
            return await super()._async_open(token)
        except BuildRefused:
            self.close(TRY_AGAIN_LATER, "too many new sessions; try again later")
            return None
