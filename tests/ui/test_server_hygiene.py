"""What the lab's server must not do: import modules named in URLs, forge log lines, starve, or crash noisily."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
import time
import urllib.error
import urllib.request

import pytest
from playwright.sync_api import expect

from bench.browser import PROBE_JS, probe_args, rss_mb
from bench.protocol_client import Student
from tests.ui.nginx import lab_processes

NOISE = ("Task exception was never retrieved", "AssertionError", "Traceback")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """One lab server as `make serve` runs it, its log kept; yields (base URL, process, log path)."""
    logdir = tmp_path_factory.mktemp("hygiene")
    with lab_processes(1, logdir) as ([port], [process]):
        yield f"http://127.0.0.1:{port}", process, logdir / f"lab-{port}.log"


def status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=20) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_component_route_imports_nothing(served):
    """/components/<module>/... answers 404 for `this` and `app` without importing either."""
    base, _process, log_path = served
    assert status(base + "/components/this/x/_css/y") == 404
    assert status(base + "/components/app/create_app/_css/y") == 404
    time.sleep(0.5)
    log = log_path.read_text()
    assert "Beautiful is better than ugly" not in log


def test_query_problems_are_logged_escaped_and_cut(page, served):
    """A newline in a query key cannot start a log line, and a 20,000-character value is cut."""
    base, _process, log_path = served
    forged = "2026-12-01 09:00:00,000 ERROR: FORGED"
    query = f"x%0A{forged.replace(' ', '%20')}=%7B&y=%5B{'a' * 20_000}%00"
    page.goto(f"{base}/kv?{query}")
    expect(page.get_by_role("heading", name="The KV cache calculator")).to_be_visible(
        timeout=30_000
    )
    deadline = time.monotonic() + 10
    while "query parameter y" not in log_path.read_text() and time.monotonic() < deadline:
        time.sleep(0.2)
    lines = log_path.read_text().splitlines()
    assert any("query parameter x\\x0a2026" in line for line in lines)
    assert not any(line.startswith(forged) for line in lines)
    assert max(len(line) for line in lines) < 1_000
    assert "\x00" not in log_path.read_text()


def test_tabs_closed_mid_update_end_quietly(browser, served):
    """Tabs closed while their knob changes are in flight leave no traceback in the log."""
    base, _process, log_path = served
    flood = """async () => {
      const models = [...Bokeh.documents[0].all_models];
      const slider = models.find((m) => 'start' in m && m.title === 'Batch size (seats)');
      for (let i = 0; i < 300; i++) {
        slider.value = 1 + (i % 100);
        await new Promise((resolve) => setTimeout(resolve, 3));
      }
    }"""
    for _round in range(2):
        contexts = [browser.new_context() for _ in range(3)]
        pages = [context.new_page() for context in contexts]
        for tab in pages:
            tab.goto(base + "/pool")
            tab.locator(".cards").first.wait_for(timeout=30_000)
        for tab in pages:
            tab.evaluate(f"() => {{ ({flood})(); }}")
        pages[0].wait_for_timeout(400)
        for context in contexts:
            context.close()
    time.sleep(3)
    log = log_path.read_text()
    assert [noise for noise in NOISE if noise in log] == []


def test_a_get_loop_does_not_starve_a_live_session(page, served):
    """Two clients fetching /batching in a loop: every knob change still shows within 3 s, memory stays flat."""
    base, process, _log = served
    page.goto(base + "/pool")
    page.locator(".cards").first.wait_for(timeout=30_000)
    page.evaluate(PROBE_JS, probe_args("/pool", 3, 200, 3000))  # warm-up
    status(base + "/batching")  # the one lab a route's first page load builds, kept after
    before = rss_mb(process.pid)
    stop, fetched = threading.Event(), []

    def loop() -> None:
        while not stop.is_set():
            fetched.append(status(base + "/batching"))

    clients = [threading.Thread(target=loop) for _ in range(2)]
    for client in clients:
        client.start()
    try:
        samples = page.evaluate(PROBE_JS, probe_args("/pool", 12, 300, 3000))
    finally:
        stop.set()
        for client in clients:
            client.join(timeout=30)
    assert None not in samples, f"changes lost under the GET loop: {samples}"
    assert len(fetched) > 20 and set(fetched) == {200}
    assert rss_mb(process.pid) - before < 60


CHART_ROWS_JS = """(column) => {
  const rows = {};
  for (const doc of Bokeh.documents)
    for (const model of doc._all_models.values())
      if (model.type === "ColumnDataSource") {
        const data = model.data instanceof Map ? model.data : new Map(Object.entries(model.data));
        if (data.has(column)) rows.count = data.get(column).length;
      }
  return rows.count ?? -1;
}"""


def test_every_session_of_a_route_gets_its_charts_data(served, page):
    """Later pages of a route (sessions built when the browser connects) open with full charts."""
    url, _process, _log = served
    for _ in range(3):
        page.goto(url + "/pool")
        expect(page.locator('[data-card="live seats"] .value').first).to_have_text(
            "16", timeout=30_000
        )
        # The memory ledger's bars: one row per card and segment, there from the start.
        rows = page.evaluate(CHART_ROWS_JS, "segment")
        assert rows >= 4


def test_a_protocol_student_gets_a_change_in_two_messages(served):
    """bench's browserless student says the page is ready, so a change comes back as a browser's does: in two messages."""
    base, _process, _log = served

    async def changes() -> tuple[list, int]:
        student = Student(base, "/pool", cookie="lab_backend=hygiene")
        await student.open("Batch size (seats)")
        # Once the page is drawn the session sends its charts' data again (a kept first page
        # would show another visitor's charts): one message, before any change.
        await asyncio.sleep(1.0)
        student.patches = 0
        try:
            samples = []
            for _ in range(4):
                samples.append(await student.change(1, 10))
                await asyncio.sleep(0.3)  # the second stage (charts and prose) follows the cards
            return samples, student.patches
        finally:
            student.close()

    # Its own thread: Playwright's sync API may have an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        samples, patches = pool.submit(asyncio.run, changes()).result(timeout=120)
    assert None not in samples
    # Two per change (the cards, then the charts and prose), plus at most one link write once
    # the changes settle. Without the ready event Panel sends each pane's update on its own.
    assert len(samples) <= patches <= 2 * len(samples) + 1
