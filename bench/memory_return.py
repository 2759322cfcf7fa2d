"""Does a worker give its memory back after a class? Open and close sessions, read the RSS.

A lab server on loopback (one worker), warmed by a few sessions of every route, gives its
warm baseline RSS. Then ``--rounds`` classes of ``--sessions`` students each open a page of
every route in turn over Bokeh's websocket protocol (bench/protocol_client.py: the page, its
document pulled, "document ready" sent), and leave. After each class the server's sweep drops
the sessions (10 s after their sockets closed) and the collector frees them in a batch; the
RSS is read once it settles. The target (issue 38): back within 60 MB of the warm baseline.

    python bench/memory_return.py --sessions 100 --rounds 2

The server runs on glibc's malloc (labs/server/allocator.py); ``PYTHONMALLOC=pymalloc`` in
the environment runs it on Python's own allocator instead, to compare (on this machine, 100
sessions twice: +74 and +78 MB over warm on pymalloc, -6 and -5 MB on malloc).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.browser import rss_mb
from bench.protocol_client import Student
from labs.frame.shell import LABS
from tests.ui.conftest import free_port, wait_for_port

ROUTES = ["/", "/tour", *(f"/{key}" for key in LABS)]
SETTLE_S = 30  # the sweep drops a left session after 10-12 s; then the batch is freed


async def visit(base: str, path: str) -> Student:
    """A student's session of ``path``, built and rendered (no slider needed)."""
    student = Student(base, path, "")
    # The document arrives before the slider is looked for; these pages have none by that name.
    with contextlib.suppress(RuntimeError):
        await student.open("\u2400 no such slider")
    return student


async def one_class(base: str, sessions: int, at_once: int) -> float:
    """``sessions`` students over every route, ``at_once`` arriving together; seconds taken."""
    started = time.perf_counter()
    students = []
    for first in range(0, sessions, at_once):
        batch = [ROUTES[(first + i) % len(ROUTES)] for i in range(min(at_once, sessions - first))]
        students += await asyncio.gather(*(visit(base, path) for path in batch))
    for student in students:
        student.close()
    return time.perf_counter() - started


def settled_rss(pid: int) -> float:
    """The process's RSS once the sweep and the collector have had their time."""
    time.sleep(SETTLE_S)
    return rss_mb(pid)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=100, help="students per class")
    parser.add_argument("--rounds", type=int, default=2, help="classes, one after another")
    parser.add_argument("--at-once", type=int, default=10, help="students arriving together")
    parser.add_argument("--log", default="", help="write the server's log to this file")
    args = parser.parse_args()
    port = free_port()
    server = subprocess.Popen(
        # A class from one address: its builds must not wait on one client's share of a core.
        [
            sys.executable,
            "-m",
            "labs.server.serve",
            "--port",
            str(port),
            "--workers",
            "1",
            "--session-build-share",
            "0",
        ],
        cwd=Path(__file__).resolve().parents[1],
        env={
            **os.environ,
            "PYTHONPATH": os.pathsep.join(
                filter(
                    None,
                    [
                        str(Path(__file__).resolve().parents[1]),
                        os.environ.get("BENCH_EXTRA_PATH", ""),
                    ],
                )
            ),
        },
        stdout=subprocess.DEVNULL,
        stderr=open(args.log, "w") if args.log else subprocess.DEVNULL,  # noqa: SIM115
    )
    try:
        wait_for_port(port, server, 120)
        base = f"http://127.0.0.1:{port}"
        asyncio.run(one_class(base, 2 * len(ROUTES), len(ROUTES)))
        warm = settled_rss(server.pid)
        print(f"warm baseline (every route opened twice and left): {warm:,.0f} MB")
        for round_ in range(1, args.rounds + 1):
            took = asyncio.run(one_class(base, args.sessions, args.at_once))
            after = settled_rss(server.pid)
            print(
                f"class {round_}: {args.sessions} sessions in {took:,.0f} s; "
                f"after they left {after:,.0f} MB ({after - warm:+,.0f} MB over warm)"
            )
    finally:
        server.terminate()
        server.wait(timeout=10)


if __name__ == "__main__":
    main()
