"""Serve the lab the way `make serve` does and drive it in Debian's headless Chromium."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import expect

# Three workers share two cores in CI: a lab switch can take longer than Playwright's 5 s
# default there, so an expectation waits up to 30 s unless it names its own limit (15 s was
# once too short for a fold building its tables under the whole suite's load). A passing
# expectation returns as soon as it holds; only a failing one waits the whole limit.
expect.set_options(timeout=30_000)

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("LAB_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def wait_for_port(port: int, process: subprocess.Popen, timeout: float = 120.0) -> None:
    """Wait until ``process`` listens on ``port``. A lab server opens in about 10 s alone; two
    starting while the suite's other workers drive Chromium on a two-core machine once took over
    60 s, so the bound is generous: it catches a server that never opens, not a slow one."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the lab server exited early with code {process.returncode}")
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the lab server did not open port {port} within {timeout:.0f} s")


@contextmanager
def serving(process: subprocess.Popen, port: int, stop_within: float = 10.0):
    """The base URL once ``process`` listens on ``port``; the process is stopped afterwards."""
    try:
        wait_for_port(port, process)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        try:
            process.wait(timeout=stop_within)
        except subprocess.TimeoutExpired:
            process.kill()


def lab_command(port: int) -> list[str]:
    """The command of a test's lab server on ``port``, at 127.0.0.1.

    Every test's pages come from one address: the per-client rule of builds at their measured
    cost is tested on servers of its own (tests/ui/test_server_bounds.py), so it is left off.
    """
    return [sys.executable, "-m", "labs.server.serve", "--port", str(port),
            "--address", "127.0.0.1", "--session-build-share", "0"]  # fmt: skip


@pytest.fixture(scope="session")
def lab_url():
    """Base URL of a lab server started for this test session."""
    port = free_port()
    process = subprocess.Popen(
        lab_command(port),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with serving(process, port) as url:
        yield url


# The codes of the polls open on ``poll_lab``'s server: one for each test that votes.
POLL_CODES = ("PH2N", "KD3C")


@pytest.fixture(scope="session")
def poll_lab(tmp_path_factory):
    """(base URL, poll file) of a lab server with its own poll store, a poll open on each of POLL_CODES."""
    from core.practice.poll import challenge_question
    from labs.poll.store import SQLITE_NAME, store_for

    state = tmp_path_factory.mktemp("poll-lab") / "state"
    port = free_port()
    process = subprocess.Popen(
        lab_command(port),
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "LAB_STATE_DIR": str(state), "LAB_REDIS_URL": ""},
    )
    with serving(process, port) as url:
        location = str(state / SQLITE_NAME)  # made by the server before it listens
        for code in POLL_CODES:
            store_for(location).open_round(code, challenge_question("kv_bytes", 0).to_dict())
        yield url, location


@pytest.fixture(scope="session")
def browser():
    playwright_api = pytest.importorskip("playwright.sync_api")
    if not Path(CHROMIUM).exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}; `make test` installs it")
    with playwright_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_FLAGS)
        yield chromium
        chromium.close()


class ConsoleLog(list):
    """Console messages of one page; ``errors`` are those a student's session must never show."""

    @property
    def errors(self) -> list[str]:
        return [text for kind, text in self if kind == "error"]


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    new_page = context.new_page()
    log = ConsoleLog()
    new_page.on("console", lambda message: log.append((message.type, message.text)))
    new_page.on("pageerror", lambda error: log.append(("error", str(error))))
    new_page.console_log = log
    yield new_page
    context.close()
