"""A class of 30 on one lab server: latency under load, errors, and memory per session.

One browser, 30 contexts (30 students), each opening the lab and moving a knob once a
second for a minute. Students work independently, so each starts at its own moment within
the first second (seeded); ``--lockstep`` makes them all move at the same instant instead,
the worst case of an instructor saying "everyone, now". Prints the latency distribution of
every change, the errors, the server's memory per session, and whether that memory comes
back once the sessions close (with the same session clean-up settings ``make serve`` uses).
Targets (issue 7): p95 at most 120 ms, zero errors, at most 5 MB per session.

Usage: ``python bench/classroom.py [--students 30] [--seconds 60] [--path /] [--lockstep]``
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import sys
import time
import urllib.request
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from playwright.async_api import async_playwright

from bench.browser import (
    CHROMIUM,
    CHROMIUM_FLAGS,
    PROBE_JS,
    cpu_seconds,
    lab_server,
    percentile,
    probe_args,
    processes_named,
    rss_mb,
)


def live_sessions(base: str) -> int:
    with urllib.request.urlopen(base + "/rest/session_info", timeout=5) as response:
        return int(json.load(response)["session_info"]["live"])


async def open_class(browser, base: str, path: str, students: int, errors: list):
    contexts, pages = [], []
    for _ in range(students):
        context = await browser.new_context(viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        page.on(
            "console",
            lambda message: errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: errors.append(str(error)))
        contexts.append(context)
        pages.append(page)
    for page in pages:  # one at a time, as a class arrives
        await page.goto(base + path)
        await page.locator(".cards").first.wait_for(timeout=60_000)
    return contexts, pages


async def wait_until_closed(base: str, timeout_s: float) -> float:
    start = time.monotonic()
    while time.monotonic() - start < timeout_s:
        if live_sessions(base) == 0:
            return time.monotonic() - start
        await asyncio.sleep(1.0)
    return float("nan")


async def run(args) -> None:
    with lab_server("--session-history", "1000") as (base, server):
        async with async_playwright() as playwright:
            browser = await playwright.chromium.launch(
                executable_path=CHROMIUM, args=CHROMIUM_FLAGS
            )
            errors: list[str] = []
            # warm the server's imports with one session, then let it close
            contexts, _pages = await open_class(browser, base, args.path, 1, errors)
            for context in contexts:
                await context.close()
            await wait_until_closed(base, 120)
            baseline = rss_mb(server.pid)

            contexts, pages = await open_class(browser, base, args.path, args.students, errors)
            opened = rss_mb(server.pid)
            print(
                f"server RSS: {baseline:.1f} MB idle, {opened:.1f} MB with {args.students} sessions "
                f"-> {(opened - baseline) / args.students:.2f} MB per session"
            )

            changes = args.seconds  # one change a second
            browsers = processes_named("chrom")
            server_cpu, browser_cpu = cpu_seconds([server.pid]), cpu_seconds(browsers)
            started = time.monotonic()
            starts = random.Random(0)
            offsets = [
                0.0 if args.lockstep else starts.uniform(0.0, 1.0) for _ in range(len(pages))
            ]

            async def student(page, offset_s: float) -> list:
                await asyncio.sleep(offset_s)
                return await page.evaluate(PROBE_JS, probe_args(args.path, changes, 1000, 5000))

            results = await asyncio.gather(
                *(student(page, offset) for page, offset in zip(pages, offsets, strict=True))
            )
            elapsed = time.monotonic() - started
            server_share = (cpu_seconds([server.pid]) - server_cpu) / elapsed
            browser_share = (cpu_seconds(browsers) - browser_cpu) / elapsed
            samples = [sample for per_page in results for sample in per_page]
            done = [sample for sample in samples if sample is not None]
            lost = len(samples) - len(done)
            print(
                f"{len(samples)} knob changes from {args.students} sessions over ~{args.seconds} s: "
                f"median {statistics.median(done):.1f} ms, p95 {percentile(done, 0.95):.1f} ms, "
                f"p99 {percentile(done, 0.99):.1f} ms, max {max(done):.1f} ms"
            )
            print(
                f"CPU while the class worked: server {server_share:.0%} of a core, the "
                f"{args.students} browser tabs {browser_share:.0%} ({os.cpu_count()} cores in all)"
            )
            print(
                f"errors: {lost} changes never shown, {len(errors)} console errors",
                *errors[:5],
                sep="\n  ",
            )
            loaded = rss_mb(server.pid)

            for context in contexts:
                await context.close()
            waited = await wait_until_closed(base, 180)
            closed = rss_mb(server.pid)
            print(
                f"after closing: live sessions 0 after {waited:.0f} s; RSS {loaded:.1f} MB under load -> "
                f"{closed:.1f} MB"
            )

            contexts, _pages = await open_class(browser, base, args.path, args.students, errors)
            reopened = rss_mb(server.pid)
            for context in contexts:
                await context.close()
            await wait_until_closed(base, 180)
            print(
                f"a second class of {args.students}: RSS {reopened:.1f} MB open, {rss_mb(server.pid):.1f} MB "
                "after it closed (memory is reused, not accumulated)"
            )
            await browser.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--students", type=int, default=30)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--path", default="/")
    parser.add_argument(
        "--lockstep", action="store_true", help="every student moves at the same instant"
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
