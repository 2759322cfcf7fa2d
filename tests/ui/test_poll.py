"""In the browser: a class poll across two worker processes, and a worker killed mid-poll."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import time

import pytest
from playwright.sync_api import expect

from labs.server.workers import children
from tests.ui.nginx import lab_processes

PRESENTER = "front row"
BUILD_S = 60_000  # a fresh page builds the whole lab: several seconds on a busy machine


@pytest.fixture(scope="module")
def poll_server(tmp_path_factory):
    """A lab server with two workers, a presenter password and its own poll file; (URL, workers)."""
    logdir = tmp_path_factory.mktemp("poll")
    env = {"LAB_PRESENTER_PASSWORD": PRESENTER, "LAB_STATE_DIR": str(logdir / "state")}
    env.pop("LAB_REDIS_URL", None)
    with lab_processes(1, logdir, workers=2, env=env) as ([port], [process]):
        deadline = time.monotonic() + 60
        while len(children(process.pid)) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", process


@contextlib.contextmanager
def only(worker: int, others: list[int]):
    """Every new connection reaches ``worker``: the other workers stop accepting meanwhile."""
    for pid in others:
        os.kill(pid, signal.SIGSTOP)
    try:
        yield
    finally:
        for pid in others:
            os.kill(pid, signal.SIGCONT)


def open_page(browser, url: str):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.goto(url)
    expect(page.get_by_placeholder("code")).to_be_visible(timeout=BUILD_S)
    return page


def vote(page, letter: str) -> None:
    page.get_by_role("button", name=letter, exact=True).click()
    page.get_by_role("button", name="Vote").click()
    expect(page.locator(".poll-status")).to_contain_text(f"Your answer {letter}", timeout=5_000)


def test_a_poll_across_two_workers_survives_one_killed(browser, poll_server):
    """Presenter and students on two workers: live tally, reveal, re-vote; a killed worker loses no vote."""
    url, process = poll_server
    first, second = sorted(children(process.pid))
    with only(first, [second]):
        teacher = open_page(browser, url + "/?lab=sources&presenter=1")
        teacher.get_by_placeholder("presenter password").fill(PRESENTER)
        teacher.get_by_role("button", name="Unlock").click()
        teacher.get_by_role("button", name="Open poll").click()
        code = teacher.locator(".poll-question .code").inner_text().strip()
        students = [open_page(browser, f"{url}/?lab=sources&poll={code}") for _ in range(2)]
    with only(second, [first]):
        students.append(open_page(browser, url + "/?lab=sources"))
    students[2].get_by_placeholder("code").fill(code.lower())
    students[2].get_by_role("button", name="Join").click()
    for page in students:  # the open poll reaches every page, whichever worker holds it
        expect(page.get_by_role("button", name="Vote")).to_be_visible(timeout=5_000)
        expect(page.locator(".poll-tally")).to_have_count(0)  # no tally before the reveal

    tally = teacher.locator(".poll-tally")
    vote(students[0], "A")
    vote(students[2], "B")
    expect(tally.locator("h3")).to_contain_text("2 answers", timeout=2_000)
    students[2].wait_for_url(re.compile(f"poll={code}"), timeout=10_000)  # the link keeps the code
    students[2].evaluate("window.labBeforeKill = true")
    os.kill(second, signal.SIGKILL)  # the worker holding student 3, after its vote
    # The page reloads from its link (on the other worker, or the restarted one), keeps its vote.
    students[2].wait_for_function("() => window.labBeforeKill === undefined", timeout=BUILD_S)
    expect(students[2].locator(".poll-status")).to_contain_text("Your answer B", timeout=BUILD_S)
    expect(students[2].get_by_role("button", name="Vote")).to_have_count(0)
    vote(students[1], "B")
    expect(tally.locator("h3")).to_contain_text("3 answers", timeout=2_000)
    expect(tally.locator(".row .count")).to_have_text(["1", "2", "0", "0"])

    teacher.get_by_role("button", name="Reveal").click()
    for page in students:
        expect(page.locator(".poll-tally h3")).to_contain_text("3 answers this round, revealed")
    expect(students[0].locator(".poll-tally .row.right")).to_have_count(1)

    teacher.get_by_role("button", name="Re-vote").click()
    expect(tally.locator("h3")).to_contain_text("0 answers", timeout=2_000)
    vote(students[0], "B")
    expect(tally.locator("h3")).to_contain_text("1 answer this round", timeout=2_000)
    expect(tally).to_contain_text("first vote 2")
    assert re.fullmatch(r"[A-Z2-9]{4}", code)
