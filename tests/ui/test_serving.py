"""`python -m labs.server.serve --workers 2 --password ...`: every worker tuned, no lab without the password."""

from __future__ import annotations

import http.cookiejar
import re
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from playwright.sync_api import expect

from labs.frame.shell import LABS
from labs.server.workers import children
from tests.ui.nginx import lab_processes

PASSWORD = "correct horse"
WORKER_LINE = re.compile(
    r"worker (\d+): change debounce 0 ms, TCP_NODELAY on, gc thresholds \(700, 10, 100\), "
    r"[\d,]+ objects frozen, allocator malloc"  # started again on malloc: memory comes back
)


@pytest.fixture(scope="module")
def guarded(tmp_path_factory):
    """A lab server with two workers and a class password; yields (base URL, process, log path)."""
    logdir = tmp_path_factory.mktemp("serving")
    with lab_processes(1, logdir, workers=2, env={"LAB_PASSWORD": PASSWORD}) as (
        [port],
        [process],
    ):
        log_path = logdir / f"lab-{port}.log"
        deadline = time.monotonic() + 60
        while len(WORKER_LINE.findall(log_path.read_text())) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        yield f"http://127.0.0.1:{port}", process, log_path


def opener() -> urllib.request.OpenerDirector:
    return urllib.request.build_opener(
        urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar())
    )


def test_every_worker_runs_with_the_lab_settings(guarded):
    """Both workers report debounce 0, TCP_NODELAY and the class GC thresholds, and stop with the parent."""
    _base, process, log_path = guarded
    pids = {int(pid) for pid in WORKER_LINE.findall(log_path.read_text())}
    assert len(pids) == 2
    assert pids == set(children(process.pid))


def test_start_prints_every_route_and_that_it_keeps_the_terminal(guarded):
    """The start-up message lists the URL of the whole lab and of each lab, and says how to stop."""
    base, _process, log_path = guarded
    text = log_path.read_text()
    assert f"{base}/ " in text
    for key in LABS:
        assert f"{base}/{key} " in text
    assert "Ctrl+C" in text and "class password required" in text


def test_a_request_without_the_password_gets_no_lab(guarded):
    """Pages, the lab's assets and the websocket all refuse a browser that has not logged in."""
    base, _process, _log = guarded
    page = opener().open(base + "/pool?seats=8", timeout=20)
    html = page.read().decode()
    assert urllib.parse.urlparse(page.url).path == "/login"
    assert "Class password" in html and "Bokeh" not in html and "bokeh" not in html
    css = opener().open(base + "/assets/lab.css", timeout=20)
    assert urllib.parse.urlparse(css.url).path == "/login"
    socket = urllib.request.Request(
        base + "/pool/ws",
        headers={"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13"},
    )
    socket.add_header("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==")
    with pytest.raises(urllib.error.HTTPError) as refused:
        urllib.request.urlopen(socket, timeout=20)
    assert refused.value.code == 403


def test_a_wrong_password_is_refused_and_the_right_one_opens_the_lab(guarded):
    """POSTing a wrong password returns the login page with a notice; the right one opens the lab."""
    base, _process, _log = guarded
    browser_like = opener()
    browser_like.open(base + "/pool", timeout=20).read()
    form = {"username": "student", "password": "wrong"}
    refused = browser_like.open(base + "/login", urllib.parse.urlencode(form).encode(), timeout=20)
    assert "not the class password" in refused.read().decode()
    form["password"] = PASSWORD
    browser_like.open(base + "/login", urllib.parse.urlencode(form).encode(), timeout=20).read()
    lab = browser_like.open(base + "/pool", timeout=20)
    assert urllib.parse.urlparse(lab.url).path == "/pool"
    assert "bokeh" in lab.read().decode()


def test_a_student_logs_in_and_uses_the_lab(page, guarded):
    """In Chromium: the styled login page, then the lab with a working knob, served offline."""
    base, _process, _log = guarded
    page.goto(base + "/kv")
    expect(page.get_by_role("heading", name="This lab is for a class")).to_be_visible()
    page.get_by_label("Class password").fill(PASSWORD)
    page.get_by_role("button", name="Open the lab").click()
    expect(page.get_by_role("heading", name="The KV cache calculator")).to_be_visible(
        timeout=30_000
    )
    page.get_by_role("button", name="fp8 \u00b7 1 byte").click()
    expect(page).to_have_url(re.compile(r"kv_dtype=fp8"), timeout=10_000)
    assert page.console_log.errors == []
