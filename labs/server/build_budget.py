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

The per-client bucket follows what a build costs this machine (issue 38, item 6: one client
fetching pages and opening their websockets honestly, in a loop, built a lab every two
seconds and pushed a bystander's change p95 from 58 ms to 3 s, far under 120 a minute).
The process measures each build's CPU time on its event loop (:class:`BuildCost`, a moving
average) and refills a client's bucket at a share of one core's worth of builds:

.. math:: s_c = \\min(s_{max}, s + s_n n_c), \\qquad r = \\min(r_{max}, s_c / c)

builds a second for a build of :math:`c` CPU seconds, holding
:math:`\\min(60 r_{max}, \\max(1, B s_c / (s c)))` at once, where :math:`s` is
:data:`CLIENT_CORE_SHARE`, :math:`s_n` :data:`SHARE_PER_STAYED`, :math:`B`
:data:`BURST_CPU_S`, :math:`r_{max}` the configured minute's rate and :math:`n_c` the client's sessions that stayed: built, settled and still
connected. The share applies only to a client that drops pages (closes sessions before their
build settled, :data:`DROPS_BEFORE_SHARE` of them lately), as a loop does: a client is an
address, and a lecture hall behind one NAT address is one client whose students keep their
pages, so it builds at the configured minute, and even beside a loop on its address its share
grows with the pages that stay. What it cannot stop: a script that keeps every session open
and drops none; the per-minute caps and each session's memory bound it then. The process's
bucket keeps the configured rate over all clients together.
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
from tornado.ioloop import IOLoop
from tornado.web import HTTPError

log = logging.getLogger("labs.server")

# Session builds a minute, per client address and for one process (the defaults of serve.py).
PER_CLIENT_PER_MINUTE = 120
OVERALL_PER_MINUTE = 600

# The share of one core one client's builds may take at their measured cost, and the CPU
# seconds of builds it may have at once before that rate applies; each of its sessions that
# stayed adds SHARE_PER_STAYED, up to MAX_CLIENT_SHARE (a hall of students on one NAT
# address beside a loop: its share reaches a core after 24 students). ``--session-build-share 0``
# leaves the configured minute alone.
CLIENT_CORE_SHARE = 0.02
SHARE_PER_STAYED = 0.04
MAX_CLIENT_SHARE = 1.0
BURST_CPU_S = 0.5
# A build's CPU seconds before any was measured (a /pool or /batching lab on the lab's
# machine, with its first render), and the weight of each new measurement in the average.
FIRST_BUILD_CPU_S = 0.3
COST_WEIGHT = 0.2

# A session's first message fragments counted into its build: a pull of the document and
# the page's "document ready" (three fragments each: header, metadata, content).
BUILD_FRAGMENTS = 6
# Then the loop's CPU for this long more: the lab's deferred first render (its second stage
# of updates, labs/page/updates.py) runs in callbacks after "document ready". Work of other
# sessions in that time is counted too: a busy process is a dearer place to build.
BUILD_SETTLE_S = 2.0

# A session closed before its build settled was dropped: a page opened and left at once, as a
# loop does and a student rarely does. An address with this many recent drops (each counting
# half after the half-life) meets the share rule; one without builds at the configured minute,
# so a hall joining together is never slowed.
DROPS_BEFORE_SHARE = 1.5  # two drops within half a minute
DROP_HALF_LIFE_S = 60.0

# Longest a build over budget waits for its token before it is refused, and how often a
# waiting build asks again (its client's share may have grown meanwhile).
MAX_WAIT_S = 10.0
# The longest wait a server may be started with: a page kept waiting longer looks dead.
LONGEST_WAIT_S = 60.0
ASK_AGAIN_S = 0.25

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


class BuildCost:
    """What one session build costs this process: a moving average of its CPU seconds.

    Notes
    -----
    After a build of :math:`x` CPU seconds, :math:`c \\leftarrow (1 - w) c + w x` with
    :math:`w` = :data:`COST_WEIGHT`, starting from :data:`FIRST_BUILD_CPU_S`.
    """

    def __init__(self, first_s: float = FIRST_BUILD_CPU_S, weight: float = COST_WEIGHT) -> None:
        self.seconds, self.weight, self.builds = first_s, weight, 0
        self.settling = 0  # builds whose settle window is open now

    def settle_started(self) -> int:
        """One more build settling; returns how many settle now, itself included."""
        self.settling += 1
        return self.settling

    def settle_measured(self, own_s: float, window_s: float, sharing: int) -> None:
        """Take in a build: its own CPU, and the settle window's CPU shared by the ``sharing``
        builds that settled in it (their first renders all ran there)."""
        self.settling = max(0, self.settling - 1)
        sharing = max(1, sharing, self.settling + 1)
        self.measured(own_s + window_s / sharing)

    def measured(self, cpu_s: float) -> None:
        """Take in one build's CPU seconds."""
        self.seconds += self.weight * (max(cpu_s, 0.0) - self.seconds)
        self.builds += 1


class BuildBudget:
    """Session builds allowed per client address and overall, in one process.

    A client's rate follows the measured build cost (see the module notes), never above
    ``per_client`` a minute; the process's is ``overall`` a minute. A session build is let in
    by :meth:`admit`, which waits for its token (asking again as the client's share grows) up
    to ``max_wait`` seconds and then refuses; :meth:`reserve` is the same rule in one step,
    with the wait computed at today's rate (the tests' view of a bucket).
    """

    def __init__(
        self,
        per_client: int,
        overall: int,
        clock=time.monotonic,
        max_wait: float = MAX_WAIT_S,
        cost: BuildCost | None = None,
        share: float = CLIENT_CORE_SHARE,
    ) -> None:
        if per_client < 1 or overall < 1:
            raise ValueError(
                f"session builds a minute must be at least 1: per client {per_client}, "
                f"overall {overall}"
            )
        if not 0 <= max_wait <= LONGEST_WAIT_S:
            raise ValueError(
                f"a session build waits 0 to {LONGEST_WAIT_S:g} s for its turn, not {max_wait:g}"
            )
        self.per_client, self.clock, self.max_wait = per_client, clock, max_wait
        self.cost, self.share = cost or BuildCost(), share
        self.overall = Bucket(overall, overall / 60)
        self.clients: OrderedDict[str, Bucket] = OrderedDict()
        # sessions of each client that stayed (built, settled, still connected), and those it
        # dropped before they settled (count, when last counted)
        self.stayed: dict[str, int] = {}
        self.dropped: dict[str, tuple[float, float]] = {}

    def client_rate(self, client: str | None = None) -> tuple[float, float]:
        """(builds ``client`` may have at once, builds a second it gets back) at the measured cost.

        A ``share`` of 0 or less leaves the configured minute alone: ``per_client`` at once.
        """
        if self.share <= 0 or self.drops(client) < DROPS_BEFORE_SHARE:
            return float(self.per_client), self.per_client / 60
        cost = max(self.cost.seconds, 1e-3)
        grown = self.share + SHARE_PER_STAYED * self.stayed.get(client, 0)
        share = min(max(MAX_CLIENT_SHARE, self.share), grown)
        per_second = min(self.per_client / 60, share / cost)
        at_once = max(1.0, BURST_CPU_S * share / (self.share * cost))
        return min(float(self.per_client), at_once), per_second

    def drops(self, client: str | None) -> float:
        """``client``'s sessions dropped before they settled, each counting half after a
        :data:`DROP_HALF_LIFE_S`."""
        count, stamp = self.dropped.get(client, (0.0, 0.0))
        return count * 0.5 ** ((self.clock() - stamp) / DROP_HALF_LIFE_S)

    def session_dropped(self, client: str) -> None:
        """A session of ``client`` closed before its build settled: a page opened and left."""
        self.dropped[client] = (self.drops(client) + 1.0, self.clock())
        while len(self.dropped) > MAX_CLIENTS:
            self.dropped.pop(next(iter(self.dropped)))

    def session_stayed(self, client: str) -> None:
        """One more of ``client``'s sessions stayed past its build: its share grows by one."""
        self.stayed[client] = self.stayed.get(client, 0) + 1

    def session_left(self, client: str) -> None:
        """A session that stayed closed: ``client``'s share shrinks by one."""
        left = self.stayed.get(client, 0) - 1
        if left > 0:
            self.stayed[client] = left
        else:
            self.stayed.pop(client, None)

    def _wait(self, client: str) -> tuple[float, Bucket]:
        """Seconds until ``client`` has a token at its rate now, and its bucket."""
        now = self.clock()
        capacity, per_second = self.client_rate(client)
        bucket = self.clients.pop(client, None) or Bucket(capacity, per_second)
        bucket.capacity, bucket.per_second = capacity, per_second
        self.clients[client] = bucket
        while len(self.clients) > MAX_CLIENTS:
            self.clients.popitem(last=False)
        return max(bucket.wait(now), self.overall.wait(now)), bucket

    def reserve(self, client: str) -> float | None:
        """Seconds ``client``'s next build must wait (its tokens then spent), or None: refused."""
        wait, bucket = self._wait(client)
        if wait > self.max_wait:
            return None
        bucket.take()
        self.overall.take()
        return wait

    async def admit(self, client: str, sleep=asyncio.sleep) -> bool:
        """Wait until ``client`` may build (True), asking again as its share grows; False past
        ``max_wait``. A hall's first students wait at the share of one address, and their
        classmates' pages that stay raise it while they wait."""
        waited = 0.0
        while True:
            wait, bucket = self._wait(client)
            if wait <= 0:
                bucket.take()
                self.overall.take()
                return True
            if waited >= self.max_wait:
                return False
            step = min(wait, ASK_AGAIN_S, self.max_wait - waited)
            await sleep(step)
            waited += step


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
        if not known and request is not None and not await budget.admit(request.remote_ip):
            log.warning("session build refused for %s: over its budget", request.remote_ip)
            raise BuildRefused(request.remote_ip)
        return await create(context, session_id, request, token)

    create_session_if_needed.lab_original = create
    ApplicationContext.create_session_if_needed = create_session_if_needed
    # Around whichever websocket handler the route has now (labs/server/latency.py's, say).
    bokeh_urls.per_app_patterns[:] = [
        (pattern, bounded(handler, budget) if pattern == r"/ws" else handler)
        for pattern, handler in bokeh_urls.per_app_patterns
    ]


def bounded(handler: type, budget: BuildBudget) -> type:
    """``handler`` (a websocket handler) with :class:`BoundedWebsocket`'s checks in front."""
    if issubclass(handler, BoundedWebsocket):  # configured again: measure into ``budget``
        handler.budget = budget
        return handler
    return type(f"Bounded{handler.__name__}", (BoundedWebsocket, handler), {"budget": budget})


class BoundedWebsocket(panel_server.WSHandler):
    """A websocket handler refusing tokens this server did not sign, and builds over budget.

    A build's cost (into ``budget.cost``) is the event loop's CPU seconds for the session's
    opening, its first :data:`BUILD_FRAGMENTS` message fragments (the document pulled, the
    page's "document ready") and the :data:`BUILD_SETTLE_S` after them, whose callbacks finish
    the lab. A session still connected then has stayed: its client's share grows until it
    closes.
    """

    budget: BuildBudget | None = None
    build_cpu_s = 0.0
    build_fragments = 0
    was_built = False
    has_stayed = False
    has_closed = False

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
        started = time.thread_time()  # the event loop's own CPU: what the build costs it
        try:
            opened = await super()._async_open(token)
        except BuildRefused:
            self.close(TRY_AGAIN_LATER, "too many new sessions; try again later")
            return None
        self.build_cpu_s, self.build_fragments = time.thread_time() - started, BUILD_FRAGMENTS
        self.was_built = True
        return opened

    async def on_message(self, fragment):
        if self.build_fragments <= 0:
            return await super().on_message(fragment)
        started = time.thread_time()
        try:
            return await super().on_message(fragment)
        finally:
            self.build_cpu_s += time.thread_time() - started
            self.build_fragments -= 1
            if self.build_fragments == 0 and self.budget is not None:
                sharing = self.budget.cost.settle_started()
                IOLoop.current().call_later(
                    BUILD_SETTLE_S, self._settled, time.thread_time(), sharing
                )

    def _settled(self, mark: float, sharing: int) -> None:
        """Count the loop's CPU since ``mark`` (the page's deferred build work, shared with the
        builds settling beside it) and measure; a session still connected has stayed."""
        window = time.thread_time() - mark
        self.budget.cost.settle_measured(self.build_cpu_s, window, sharing)
        if not self.has_closed:
            self.has_stayed = True
            self.budget.session_stayed(self.request.remote_ip)

    def on_close(self) -> None:
        if self.budget is not None and not self.has_closed:
            if self.has_stayed:
                self.budget.session_left(self.request.remote_ip)
            elif self.was_built:
                self.budget.session_dropped(self.request.remote_ip)  # built, left at once
        self.has_closed, self.has_stayed = True, False
        super().on_close()
