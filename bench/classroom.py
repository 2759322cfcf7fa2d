"""A class on the lab server: knob latency under load, lost changes, errors, memory per session.

Each student opens the lab and moves a knob once a second. Students work independently, so
each starts at its own moment within the first second (seeded); ``--lockstep`` makes them
all move at the same instant, the worst case of an instructor saying "everyone, now".

Printed: the latency of every change (median, p95, p99; from the browser's change to the
updated cards, or, with ``--client protocol``, to the server's first update on the wire),
changes never shown, console errors, the server's memory per session and per worker (and
whether each worker gives it back once the sessions close), and the server's own time per
change, measured inside the server (``labs/server/change_timing.py``), with its CPU time per
change: on a small machine the students' browsers compete with the server for the cores,
and these two figures say how much of the latency is the server's.

Usage (the runs behind the README's deployment table, and a GET loop beside one live
session; 100 browser tabs take the machine's cores from the server on a small machine,
hence the protocol runs)::

    python bench/classroom.py --sessions 30 --client protocol
    python bench/classroom.py --sessions 100 --client protocol
    python bench/classroom.py --sessions 100 --workers 2 --via-nginx --client protocol --again
    python bench/classroom.py --sessions 300 --workers 2 --via-nginx --client protocol
    python bench/classroom.py --sessions 1 --get-clients 2
    python bench/classroom.py --sessions 100 --workers 2 --via-nginx
    python bench/classroom.py --poll --sessions 300 --workers 2 --via-nginx
    python bench/classroom.py --sessions 100 --workers 2 --client protocol --arrive-within 30

    python bench/classroom.py [--sessions 30] [--workers 1] [--via-nginx] [--seconds 60]
        [--path /pool] [--lockstep] [--client browser|protocol] [--get-clients 0] [--again]

``--via-nginx`` puts deploy/nginx.conf in front (its page-load rate limit raised, since all
simulated students share one address, as behind a NAT). ``--get-clients N`` runs N plain
HTTP clients fetching ``--get-path`` in a loop while the class works (load that is not a
class). ``--client protocol`` drives sessions over Bokeh's websocket protocol without a
browser (bench/protocol_client.py), for classes too big to open as browser tabs here.
``--again`` then opens and closes a second class, to show each worker reuses the memory.
``--arrive-within S`` lets protocol students arrive together, each at its own moment within S
seconds, and prints every student's join time (page asked -> live page) against 10 s.
``--cost-budget`` lets the class meet the lab's default build budget (its share of a core per
address, growing with the sessions that stayed), as a hall behind one NAT address would.
``--poll`` runs a class poll instead of knob changes (bench/poll_run.py): a presenter and
``--sessions`` protocol students answering within 10 s. ``--minimal`` serves one slider and
one HTML pane at every route (bench/minimal_server.py), with the lab's server settings: the
floor any Panel page has on this machine.
"""

from __future__ import annotations

import argparse
import asyncio
import math
import os
import random
import statistics
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from functools import partial
from math import nan
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from playwright.async_api import async_playwright

from bench.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    PROBE_JS,
    PROBED_SLIDER,
    cpu_seconds,
    percentile,
    probe_args,
    rss_mb,
)
from bench.poll_run import poll_run
from bench.protocol_client import Student
from labs.poll.room import PRESENTER_ENV
from labs.server import change_timing
from labs.server.build_budget import CLIENT_CORE_SHARE
from labs.server.workers import children
from tests.ui.nginx import free_port, lab_processes, nginx

POLL_PASSWORD = "bench presenter"
# Session sweeps run every 2 s and drop a session 10 s after its browser left (labs/server/serve.py).
CLOSE_WAIT_S = 16
# Issue 35: a class of 100 arriving within 30 s all see a live page within this.
JOIN_TARGET_S = 10.0


def spread(values: list[float]) -> str:
    if not values:
        return "no samples"
    return (
        f"median {statistics.median(values):.1f} ms, p95 {percentile(values, 0.95):.1f} ms, "
        f"p99 {percentile(values, 0.99):.1f} ms, max {max(values):.1f} ms (n={len(values)})"
    )


class Browsers:
    """Students as Chromium tabs, each in its own browser context."""

    def __init__(self, browser, base: str, path: str, errors: list):
        self.browser, self.base, self.path, self.errors = browser, base, path, errors
        self.contexts, self.pages = [], []

    async def open(self, count: int) -> None:
        for _ in range(count):  # one at a time, as a class arrives
            context = await self.browser.new_context(viewport={"width": 1280, "height": 800})
            page = await context.new_page()
            page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
            page.on("pageerror", lambda error: self.errors.append(str(error)))
            await page.goto(self.base + self.path)
            await page.locator(".cards").first.wait_for(timeout=120_000)
            self.contexts.append(context)
            self.pages.append(page)

    async def run(self, index: int, changes: int) -> list:
        return await self.pages[index].evaluate(
            PROBE_JS, probe_args(self.path, changes, 1000, 5000)
        )

    async def close(self) -> None:
        for context in self.contexts:
            await context.close()
        self.contexts, self.pages = [], []


class Sockets:
    """Students as protocol clients (bench/protocol_client.py).

    With ``arrive_within`` > 0 the class arrives at once, each student at its own moment within
    that many seconds (seeded), as a class told "open the lab now" does; else one at a time.
    ``joins`` holds each student's seconds from asking for the page to holding it live (the
    document pulled over its websocket, ready for a knob).
    """

    def __init__(self, base: str, path: str, errors: list, arrive_within: float = 0.0):
        self.base, self.path, self.errors = base, path, errors
        self.arrive_within = arrive_within
        self.pages: list[Student] = []
        self.joins: list[float] = []

    async def _join(self, index: int, offset_s: float) -> Student | None:
        await asyncio.sleep(offset_s)
        started = time.monotonic()
        student = Student(self.base, self.path, cookie=f"lab_backend=student{index}")
        try:
            await student.open(PROBED_SLIDER[self.path][0], timeout_s=120)
        except Exception as error:  # a student who never got a page: counted, not fatal
            if self.arrive_within <= 0:
                raise
            self.errors.append(f"join failed: {error!r}")
            self.joins.append(math.inf)
            return None
        self.joins.append(time.monotonic() - started)
        return student

    async def open(self, count: int) -> None:
        if self.arrive_within <= 0:
            for index in range(count):
                self.pages.append(await self._join(index, 0.0))
            return
        starts = random.Random(1)
        offsets = sorted(starts.uniform(0, self.arrive_within) for _ in range(count))
        joined = await asyncio.gather(*(self._join(i, o) for i, o in enumerate(offsets)))
        self.pages.extend(student for student in joined if student is not None)

    async def run(self, index: int, changes: int) -> list:
        return await self.pages[index].run(PROBED_SLIDER[self.path], changes, 1000, 5000)

    async def close(self) -> None:
        for student in self.pages:
            student.close()
        self.pages = []


def get_loop(url: str, clients: int, stop: threading.Event, codes: Counter) -> list:
    """``clients`` threads fetching ``url`` until ``stop``; ``codes`` counts their answers."""

    def loop() -> None:
        while not stop.is_set():
            try:
                with urllib.request.urlopen(url, timeout=30) as response:
                    response.read()
                    codes[response.status] += 1
            except urllib.error.HTTPError as error:
                codes[error.code] += 1
            except OSError:
                codes["failed"] += 1

    threads = [threading.Thread(target=loop, daemon=True) for _ in range(clients)]
    for thread in threads:
        thread.start()
    return threads


def descendants(pid: int) -> list[int]:
    """Every process started, directly or not, by process ``pid``."""
    found = children(pid)
    for child in list(found):
        found += descendants(child)
    return found


def memory(parent: int) -> dict[int, float]:
    """RSS in MB of the server's processes that hold sessions (its workers, or itself)."""
    pids = children(parent) or [parent]
    return {pid: rss_mb(pid) for pid in pids}


async def open_class(make, args, parent: int):
    """Warm each worker, then open the class one student at a time: (students, idle RSS)."""
    warm = make()  # each worker builds the first page of the route once
    await warm.open(2 * args.workers)
    await warm.close()
    await asyncio.sleep(CLOSE_WAIT_S)
    idle = memory(parent)

    started_opening = time.monotonic()
    students = make()
    await students.open(args.sessions)
    opened = memory(parent)
    per_session = (sum(opened.values()) - sum(idle.values())) / args.sessions
    print(
        f"{args.sessions} sessions opened in {time.monotonic() - started_opening:.0f} s; "
        f"server RSS {sum(idle.values()):.0f} MB idle -> {sum(opened.values()):.0f} MB "
        f"({per_session:.2f} MB per session)"
    )
    joins = getattr(students, "joins", [])
    if joins:
        within = sum(join <= JOIN_TARGET_S for join in joins)
        joined = [join * 1000 for join in joins if math.isfinite(join)]
        print(
            f"join (page asked -> live page): {spread(joined)}; {within} of {len(joins)} "
            f"within {JOIN_TARGET_S:.0f} s; {len(joins) - len(joined)} never joined"
        )
    return students, idle


async def change_knobs(students, args, base: str, parent: int, times_dir: str, what: str) -> None:
    """Every student moves the slider once a second (a GET loop beside, if asked); prints the
    latency, the server's time and CPU per change."""
    get_url = base + args.get_path
    if args.get_clients:  # each worker builds one lab for a route's first page, once
        for _ in range(2 * args.workers):
            urllib.request.urlopen(get_url, timeout=120).read()
    for path in Path(times_dir).glob("*.txt"):
        path.unlink()  # page loads and warm-up are not knob changes
    server_pids = [parent, *children(parent)]
    browsers = [pid for pid in descendants(os.getpid()) if pid not in server_pids]
    server_cpu, browser_cpu = cpu_seconds(server_pids), cpu_seconds(browsers)
    stop, codes = threading.Event(), Counter()
    flood = get_loop(get_url, args.get_clients, stop, codes) if args.get_clients else []
    starts = random.Random(0)
    offsets = [0.0 if args.lockstep else starts.uniform(0, 1) for _ in students.pages]
    started = time.monotonic()

    async def student(index: int, offset_s: float) -> list:
        await asyncio.sleep(offset_s)
        return await students.run(index, args.seconds)

    results = await asyncio.gather(*(student(i, o) for i, o in enumerate(offsets)))
    elapsed = time.monotonic() - started
    stop.set()
    for thread in flood:
        thread.join(timeout=30)
    server_share = (cpu_seconds(server_pids) - server_cpu) / elapsed
    browser_share = (cpu_seconds(browsers) - browser_cpu) / elapsed
    samples = [sample for per_page in results for sample in per_page]
    done = [sample for sample in samples if sample is not None]
    print(f"knob latency ({what}): {spread(done)}")
    print(f"lost changes: {len(samples) - len(done)} of {len(samples)}")
    server_times = change_timing.read(times_dir)
    print(f"server's own time per change (message in -> update out): {spread(server_times)}")
    cpu_ms = server_share * elapsed * 1000 / max(len(samples), 1)
    print(
        f"server CPU: {server_share:.0%} of a core in all, {cpu_ms:.1f} ms per change; "
        f"this bench's students {browser_share:.0%} ({os.cpu_count()} cores in all)"
    )
    if args.get_clients:
        print(f"GET loop on {get_url}: {dict(codes)} in {elapsed:.0f} s")


async def close_class(students, make, args, parent: int, idle: dict) -> None:
    """Close the class (and open and close a second, if asked); print each worker's RSS."""
    loaded = memory(parent)
    await students.close()
    await asyncio.sleep(CLOSE_WAIT_S)
    closed = memory(parent)
    second = {}
    if args.again:  # memory a closed session left behind would pile up class after class
        again = make()
        await again.open(args.sessions)
        await again.close()
        await asyncio.sleep(CLOSE_WAIT_S)
        second = memory(parent)
    for pid in sorted(loaded):
        print(
            f"worker {pid}: RSS {idle.get(pid, nan):.0f} MB idle, {loaded[pid]:.0f} MB "
            f"under load, {closed.get(pid, nan):.0f} MB once the class closed"
            + (f", {second[pid]:.0f} MB after a second class came and went" if second else "")
        )


async def run(args, base: str, parent: int, times_dir: str) -> None:
    """One class: open it, move every student's slider for a while, close it."""
    errors: list[str] = []
    async with async_playwright() as playwright:
        browser = None
        if args.client == "browser":
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
            make = partial(Browsers, browser, base, args.path, errors)
        else:
            make = partial(Sockets, base, args.path, errors, args.arrive_within)
        students, idle = await open_class(make, args, parent)
        what = (
            "browser change -> cards updated" if browser else "change -> first update on the wire"
        )
        await change_knobs(students, args, base, parent, times_dir, what)
        print(f"console errors: {len(errors)}", *errors[:5], sep="\n  ")
        await close_class(students, make, args, parent, idle)
        if browser is not None:
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", "--students", type=int, default=30)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--via-nginx", action="store_true")
    parser.add_argument("--seconds", type=int, default=60, help="changes per student (1 a second)")
    parser.add_argument("--path", default="/pool", choices=sorted(PROBED_SLIDER))
    parser.add_argument("--lockstep", action="store_true", help="everyone moves at once")
    parser.add_argument(
        "--arrive-within", type=float, default=0.0,
        help="protocol students arrive together, each within this many seconds (0: one at a time)",
    )  # fmt: skip
    parser.add_argument("--client", choices=["browser", "protocol"], default="browser")
    parser.add_argument("--get-clients", type=int, default=0)
    parser.add_argument("--get-path", default="/batching")
    parser.add_argument("--again", action="store_true", help="then open and close a second class")
    parser.add_argument("--cost-budget", action="store_true",
                        help="the class meets the lab's default share of a core per address "
                        "(labs/server/build_budget.py), as a hall behind one NAT address does")  # fmt: skip
    parser.add_argument("--poll", action="store_true", help="a class poll (bench/poll_run.py)")
    parser.add_argument(
        "--minimal", action="store_true", help="serve one slider and one pane: the stack's floor"
    )
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        times_dir = work / "change-times"
        times_dir.mkdir()
        proxy_port = free_port()
        extra = ["--allow-websocket-origin", f"127.0.0.1:{proxy_port}", "--use-xheaders"]
        # The whole class comes from one address: its builds must not hit a client's budget.
        extra += ["--session-builds-per-client", str(max(120, 2 * args.sessions))]
        extra += ["--session-builds-overall", str(max(600, 2 * args.sessions))]
        if args.cost_budget:  # or meet the lab's default share of a core, as a NAT'd hall does
            extra += ["--session-build-share", str(CLIENT_CORE_SHARE)]
        elif not args.minimal:  # nor its share of a core at the builds' measured cost
            extra += ["--session-build-share", "0"]
        env = {change_timing.ENV: str(times_dir)}
        if args.poll:  # its own poll file, and a presenter password for the bench's presenter
            env |= {"LAB_STATE_DIR": str(work / "state"), PRESENTER_ENV: POLL_PASSWORD}

        def one_run(url: str, pid: int):
            if args.poll:
                return poll_run(url, args.sessions, POLL_PASSWORD)
            return run(args, url, pid, str(times_dir))

        module = "bench.minimal_server" if args.minimal else "labs.server.serve"
        with lab_processes(1, work, *extra, workers=args.workers, env=env, module=module) as (
            ports,
            processes,
        ):
            time.sleep(2 * args.workers)  # workers start after the port opens
            if args.via_nginx:
                with nginx(ports, work / "nginx", proxy_port, page_rate="1000r/s") as url:
                    asyncio.run(one_run(url, processes[0].pid))
            else:
                asyncio.run(one_run(f"http://127.0.0.1:{ports[0]}", processes[0].pid))


if __name__ == "__main__":
    main()
