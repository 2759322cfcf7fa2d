"""Knob change to updated numbers in the DOM, in one browser session: prints median and p95.

Usage: ``python bench/ui_latency.py [--changes 100] [--path /pool] [--compare]``.
``--compare`` also measures a server with Panel's default debounce and Nagle's algorithm.
Target (issue 7): p95 at most 40 ms with one session on this machine.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from playwright.sync_api import sync_playwright

from bench.browser import CHROMIUM, CHROMIUM_FLAGS, PROBE_JS, lab_server, percentile, probe_args


def measure(base: str, path: str, changes: int, pause_ms: int, browser) -> list[float]:
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(base + path)
    page.locator(".cards").first.wait_for(timeout=30_000)
    page.wait_for_timeout(1500)
    page.evaluate(PROBE_JS, probe_args(path, 10, pause_ms, 2000))  # warm-up
    samples = page.evaluate(PROBE_JS, probe_args(path, changes, pause_ms, 2000))
    page.close()
    return samples


def report(label: str, samples: list) -> None:
    done = [sample for sample in samples if sample is not None]
    lost = len(samples) - len(done)
    print(
        f"{label:34s} n={len(done):3d} lost={lost}  median {statistics.median(done):6.1f} ms  "
        f"p95 {percentile(done, 0.95):6.1f} ms  max {max(done):6.1f} ms"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument(
        "--path", action="append", help="lab route(s) to measure; default /pool and /kv"
    )
    parser.add_argument(
        "--compare", action="store_true", help="also measure Panel's default settings"
    )
    parser.add_argument(
        "--pause",
        type=int,
        default=300,
        help="ms between changes (300: each starts from an idle page)",
    )
    args = parser.parse_args()
    paths = args.path or ["/pool", "/kv"]
    setups = [("lab settings", ())]
    if args.compare:
        setups.append(("Panel defaults", ("--default-latency",)))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        for label, extra in setups:
            with lab_server(*extra) as (base, _process):
                for path in paths:
                    report(
                        f"{label}, {path}", measure(base, path, args.changes, args.pause, browser)
                    )
        browser.close()


if __name__ == "__main__":
    main()
