"""Bounded session builds: each client address and the whole process get a budget of new labs.

A session build is the server's dearest act (a whole lab: widgets, charts, models), and every
route that makes one must be bounded like a page load (issue 28, item 19). Page loads already
render from a kept session (labs/server/first_page.py) and embeds' ``autoload.js`` does too
(labs/server/embeds.py), so a session is built only when a browser's websocket connects with
a session token this server signed. That leaves the connections themselves: a client that
fetches tokens in a loop and connects each would still build a lab per token. So every new
session draws from two token buckets, one for its client's address and one for the process;
a build over budget waits for its token, up to ``MAX_WAIT_S``; past that it is refused (HTTP
429, or the websocket closed with "try again later"), with one log line.

Each bucket holds a minute's builds and refills at that rate: a lecture hall behind one
campus NAT address can all open the lab at once; a loop gets two builds a second (defaults).
"""

from __future__ import annotations

import asyncio
import logging
import math
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

# Longest a build over budget waits for its token before it is refused.
MAX_WAIT_S = 10.0

# Client addresses remembered at most; the longest idle is forgotten first (it was full anyway).
MAX_CLIENTS = 4096

# Websocket close code "try again later" (RFC 6455 section 7.4.1, registered by IANA).
TRY_AGAIN_LATER = 1013
POLICY_VIOLATION = 1008


@dataclass
class Bucket:
    """A token bucket: ``capacity`` tokens at most, refilled at ``per_second``; it may owe a few."""

    capacity: float
    per_second: float
    credit: float = field(default=math.nan)
    stamp: float = 0.0

    def wait(self, now: float) -> float:
        """Seconds from ``now`` until this bucket has a token for one more build."""
        if math.isnan(self.credit):
            self.credit, self.stamp = self.capacity, now
        self.credit = min(self.capacity, self.credit + (now - self.stamp) * self.per_second)
        self.stamp = now
        return max(0.0, (1 - self.credit) / self.per_second)

    def take(self) -> None:
        """Spend one token (owing it when the bucket is empty: the build waits for it)."""
        self.credit -= 1


class BuildBudget:
    """Session builds a minute allowed per client address and overall, in one process.

    A build over budget waits for its token, up to ``max_wait`` seconds (a lecture hall
    behind one address is served, a little later); one that would wait longer is refused.
    """

    def __init__(
        self, per_client: int, overall: int, clock=time.monotonic, max_wait: float = MAX_WAIT_S
    ) -> None:
        if per_client < 1 or overall < 1:
            raise ValueError(
                f"session builds a minute must be at least 1: per client {per_client}, "
                f"overall {overall}"
            )
        self.per_client, self.clock, self.max_wait = per_client, clock, max_wait
        self.overall = Bucket(overall, overall / 60)
        self.clients: OrderedDict[str, Bucket] = OrderedDict()

    def reserve(self, client: str) -> float | None:
        """Seconds ``client``'s next build must wait (its tokens then spent), or None: refused."""
        now = self.clock()
        bucket = self.clients.pop(client, None) or Bucket(self.per_client, self.per_client / 60)
        self.clients[client] = bucket
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        wait = max(bucket.wait(now), self.overall.wait(now))
        if wait > self.max_wait:
            return None
        bucket.take()
        self.overall.take()
        return wait


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
        if not known and request is not None:
            wait = budget.reserve(request.remote_ip)
            if wait is None:
                log.warning("session build refused for %s: over its budget", request.remote_ip)
                raise BuildRefused(request.remote_ip)
            if wait > 0:
                await asyncio.sleep(wait)
        return await create(context, session_id, request, token)

    create_session_if_needed.lab_original = create
    ApplicationContext.create_session_if_needed = create_session_if_needed
    # Around whichever websocket handler the route has now (labs/server/latency.py's, say).
    bokeh_urls.per_app_patterns[:] = [
        (pattern, bounded(handler) if pattern == r"/ws" else handler)
        for pattern, handler in bokeh_urls.per_app_patterns
    ]


def bounded(handler: type) -> type:
    """``handler`` (a websocket handler) with :class:`BoundedWebsocket`'s checks in front."""
    if issubclass(handler, BoundedWebsocket):
        return handler
    return type(f"Bounded{handler.__name__}", (BoundedWebsocket, handler), {})


class BoundedWebsocket(panel_server.WSHandler):
    """A websocket handler refusing tokens this server did not sign, and builds over budget."""

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
