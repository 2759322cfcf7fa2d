"""The class login against a real server (two workers): deep links, next paths, guessing, logout."""

from __future__ import annotations

import html
import http.client
import re
import time
import urllib.parse

import pytest
from playwright.sync_api import expect

from tests.labs.server.test_login import OFF_SITE
from tests.ui.nginx import lab_processes

PASSWORD = "correct horse battery"
WORKER_LINE = re.compile(r"worker (\d+): change debounce")
HIDDEN_NEXT = re.compile(r'name="next" value="([^"]*)"')


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """A lab server with two workers, a class password and its own state folder; (port, log)."""
    logdir = tmp_path_factory.mktemp("login")
    env = {"LAB_PASSWORD": PASSWORD, "LAB_STATE_DIR": str(logdir / "state")}
    with lab_processes(1, logdir, "--use-xheaders", workers=2, env=env) as ([port], _processes):
        log_path = logdir / f"lab-{port}.log"
        deadline = time.monotonic() + 60
        while len(WORKER_LINE.findall(log_path.read_text())) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)
        yield port, log_path


class Client:
    """One browser-like client on one kept-alive connection (so one worker), from ``address``."""

    def __init__(self, port: int, address: str) -> None:
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=20)
        self.address = address
        self.cookies: dict[str, str] = {}

    def request(self, method: str, path: str, form: dict | None = None):
        headers = {"X-Real-IP": self.address}
        if self.cookies:
            headers["Cookie"] = "; ".join(f"{k}={v}" for k, v in self.cookies.items())
        body = None
        if form is not None:
            body = urllib.parse.urlencode(form)
            headers["Content-Type"] = "application/x-www-form-urlencoded"
        self.connection.request(method, path, body=body, headers=headers)
        response = self.connection.getresponse()
        text = response.read().decode()
        for header in response.headers.get_all("Set-Cookie") or []:
            name, _, rest = header.partition("=")
            self.cookies[name] = rest.split(";", 1)[0]
        return response, text

    def log_in(self, next_query: str, password: str = PASSWORD):
        """Open the login page as ``/login?<next_query>``, then post its form with ``password``."""
        _page, text = self.request("GET", f"/login?{next_query}")
        form = {"username": "student", "password": password}
        hidden = HIDDEN_NEXT.search(text)
        if hidden:
            form["next"] = html.unescape(hidden.group(1))
        response, _text = self.request("POST", "/login", form)
        return response


@pytest.mark.parametrize("probe", OFF_SITE)
def test_the_login_page_never_leads_off_the_site(server, probe):
    """Opened as login?next=<probe>, the right password leads to / (to no other site)."""
    port, _log = server
    response = Client(port, "198.51.100.1").log_in(urllib.parse.urlencode({"next": probe}))
    assert response.status == 302 and response.getheader("Location") == "/"


def test_a_same_site_next_is_followed(server):
    """login?next=/kv?kv_dtype=fp8 leads there after the right password."""
    port, _log = server
    response = Client(port, "198.51.100.2").log_in("next=%2Fkv%3Fkv_dtype%3Dfp8")
    assert response.getheader("Location") == "/kv?kv_dtype=fp8"


def test_the_21st_wrong_password_in_a_minute_is_refused_then_the_right_one_works(server):
    """20 wrong tries are answered, the 21st gets 429 (the right one too, while locked), then it works."""
    port, log_path = server
    client = Client(port, "203.0.113.21")
    answers = [client.log_in("next=%2Fpool", f"guess {n}").status for n in range(20)]
    assert answers == [302] * 20
    refused = client.log_in("next=%2Fpool", "guess 21")
    assert refused.status == 429
    wait = int(refused.getheader("Retry-After"))
    assert 0 < wait <= 10
    assert client.log_in("next=%2Fpool").status == 429  # locked: refused unchecked
    assert "20 wrong class passwords from 203.0.113.21" in log_path.read_text()
    assert Client(port, "203.0.113.22").log_in("next=%2Fpool").status == 302  # a neighbour is not
    time.sleep(wait + 0.2)
    welcome = client.log_in("next=%2Fpool")
    assert welcome.status == 302 and welcome.getheader("Location") == "/pool"
    lab, _text = client.request("GET", "/pool")
    assert lab.status == 200


def test_logging_out_revokes_the_cookie_in_every_worker(server):
    """After /logout, the old cookie replayed on fresh connections (either worker) gets no lab."""
    port, _log = server
    student = Client(port, "198.51.100.3")
    assert student.log_in("next=%2F").status == 302
    stolen = dict(student.cookies)
    assert student.request("GET", "/assets/lab.css")[0].status == 200
    gone, _text = student.request("GET", "/logout")
    assert gone.getheader("Location") == "/login?logged_out=1"
    for _ in range(8):
        replay = Client(port, "198.51.100.3")
        replay.cookies = dict(stolen)
        response, _text = replay.request("GET", "/assets/lab.css")
        assert response.status == 302 and response.getheader("Location").startswith("/login")


def test_a_query_value_that_is_not_utf8_gets_the_page(server):
    """/pool?theme=%FF answers the page (it answered 500), for a logged-in student."""
    port, _log = server
    student = Client(port, "198.51.100.4")
    assert student.log_in("next=%2F").status == 302
    response, text = student.request("GET", "/pool?theme=%FF")
    assert response.status == 200 and "bokeh" in text


def test_a_wrong_password_keeps_the_deep_link_and_bad_theme_gets_a_notice(page, server):
    """In Chromium: /pool?seats=4, a wrong password, the right one: the lab at /pool?seats=4."""
    port, _log = server
    base = f"http://127.0.0.1:{port}"
    page.goto(base + "/pool?seats=4")
    page.get_by_label("Class password").fill("not it")
    page.get_by_role("button", name="Open the lab").click()
    expect(page.get_by_role("alert")).to_contain_text("not the class password")
    page.get_by_label("Class password").fill(PASSWORD)
    page.get_by_role("button", name="Open the lab").click()
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("4", timeout=30_000)
    assert urllib.parse.urlsplit(page.url)[2:4] == ("/pool", "seats=4")
    page.goto(base + "/pool?theme=%FF")
    expect(page.locator("[data-url-notice]")).to_contain_text("theme", timeout=30_000)
    assert page.console_log.errors == []


def test_an_unauthenticated_embed_script_is_refused_without_a_traceback(server):
    """autoload.js without a login answers 403, and the log gets no traceback for it (it got
    one per request); 20 such requests write one access line."""
    port, log_path = server
    client = Client(port, "198.51.100.9")
    for _ in range(20):
        response, _text = client.request("GET", "/pool/autoload.js?bokeh-autoload-element=x")
        assert response.status == 403
    time.sleep(0.5)
    log = log_path.read_text()
    assert "Traceback" not in log
    assert log.count("/pool/autoload.js") <= 2  # one line per worker at most
