"""deploy/nginx.conf in front of two lab processes: knobs work, sessions stay on their process."""

from __future__ import annotations

import http.client
import re
import time
import urllib.error
import urllib.parse
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import expect

from tests.ui.nginx import CONF, access_log, free_port, lab_processes, nginx

# access-log fields (tests/ui/nginx.py LOG_FORMAT)
KEY, UPSTREAM, STATUS, METHOD, URI, ARGS = range(6)


@pytest.fixture(scope="module")
def proxied(tmp_path_factory):
    """nginx on a free port before two lab processes; yields (nginx URL, lab ports, workdir)."""
    workdir = tmp_path_factory.mktemp("deploy")
    port = free_port()
    origin = ("--allow-websocket-origin", f"127.0.0.1:{port}", "--use-xheaders")
    with (
        lab_processes(2, workdir, *origin) as (backends, _processes),
        nginx(backends, workdir / "nginx", port) as url,
    ):
        yield url, backends, workdir


def fetch(url: str, cookie: str | None = None) -> int:
    request = urllib.request.Request(url, headers={"Cookie": cookie} if cookie else {})
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def key_per_backend(url: str, workdir) -> dict[str, str]:
    """A sticky-cookie value that nginx sends to each lab process, found by asking it."""
    found: dict[str, str] = {}
    for attempt in range(40):
        key = f"probe{attempt}"
        fetch(url + "/assets/lab.css", cookie=f"lab_backend={key}")
        found.setdefault(requests_of(workdir, key, "/assets/lab.css")[0][UPSTREAM], key)
        if len(found) == 2:
            break
    return found


def test_sessions_through_nginx_work_and_stay_on_their_process(browser, proxied):
    """Two students, one per lab process: knobs recompute, and every request keeps its process."""
    url, backends, workdir = proxied
    logs = workdir / "nginx"
    keys = key_per_backend(url, logs)
    assert sorted(keys) == sorted(f"127.0.0.1:{port}" for port in backends)
    for upstream, key in keys.items():
        assert move_a_knob(browser, url, key) == []
        mine = requests_of(logs, key, "/pool/ws")  # nginx logs a websocket once it has closed
        assert {line[UPSTREAM] for line in mine} == {upstream}
        assert any(line[URI] == "/pool/ws" and line[STATUS] == "101" for line in mine)


def requests_of(logs, key: str, last: str, timeout_s: float = 10) -> list[list[str]]:
    """Access-log lines of sticky ``key`` answered by a lab process, once ``last`` is logged."""
    deadline = time.monotonic() + timeout_s
    while True:
        # "-" in the upstream field: answered from nginx's cache, by no lab process
        mine = [line for line in access_log(logs) if line[KEY] == key and line[UPSTREAM] != "-"]
        if any(line[URI] == last for line in mine) or time.monotonic() > deadline:
            return mine
        time.sleep(0.2)


def move_a_knob(browser, url: str, key: str) -> list[str]:
    """A student whose sticky cookie is ``key`` opens /pool and moves seats to 256; console errors."""
    context = browser.new_context()
    context.add_cookies([{"name": "lab_backend", "value": key, "url": url}])
    page = context.new_page()
    errors = []
    page.on("console", lambda message: message.type == "error" and errors.append(message.text))
    page.goto(url + "/pool")
    seats = page.locator('[data-card="live seats"] .value')
    expect(seats).to_have_text("16", timeout=30_000)
    handle = page.locator(".noUi-handle").first
    handle.focus()
    handle.press("End")
    expect(seats).to_have_text("256", timeout=10_000)
    context.close()
    return errors


def test_a_first_visit_gets_a_sticky_cookie(proxied):
    """A browser without the cookie is handed one, so its websocket follows its page."""
    url, _backends, _workdir = proxied
    with urllib.request.urlopen(url + "/assets/lab.css", timeout=20) as response:
        assert response.headers["Set-Cookie"].startswith("lab_backend=")


def test_nginx_refuses_component_imports_and_caches_static_files(proxied):
    """/components/... stops at nginx; Bokeh's script is fetched from a lab process once."""
    url, _backends, workdir = proxied
    assert fetch(url + "/components/this/x/_css/y") == 404
    script, query = "/static/js/bokeh.min.js", "v=deploy-test"  # a query no page asks for
    for attempt in range(3):
        assert fetch(f"{url}{script}?{query}") == 200
        if attempt == 0:
            time.sleep(0.5)  # nginx files the response in its cache once it has sent it
    asked = []
    # nginx logs a request just after answering it, so the 404 above may land in the log
    # after any snapshot taken here: pick the script's own lines rather than the latest ones
    for _ in range(50):
        asked = [
            line[UPSTREAM]
            for line in access_log(workdir / "nginx")
            if line[URI] == script and line[ARGS] == query
        ]
        if len(asked) >= 3:
            break
        time.sleep(0.1)
    assert len(asked) == 3 and asked[1:] == ["-", "-"]  # "-": answered from nginx's cache
    assert not any(
        line[URI].startswith("/components")
        for line in access_log(workdir / "nginx")
        if line[UPSTREAM] != "-"
    )


def fetch_from(url: str, source: str) -> int:
    """The status of a GET of ``url`` sent from loopback address ``source`` (nginx keys its page
    limit by the client's address, so each address has a bucket of its own)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname, parts.port, timeout=20, source_address=(source, 0)
    )
    try:
        connection.request("GET", parts.path or "/")
        response = connection.getresponse()
        response.read()
        return response.status
    finally:
        connection.close()


def test_a_page_loop_from_one_address_is_rate_limited(proxied):
    """A hall of 100 behind one address all get pages; a loop past that burst gets 429. The loop
    comes from an address of its own, so the pages this module's other tests loaded from
    127.0.0.1 have not spent part of its burst (they did, now and then, by test order)."""
    url, _backends, _workdir = proxied
    codes = [fetch_from(url + "/no-such-page", "127.0.0.7") for _ in range(150)]
    assert 429 not in codes[:100] and 429 in codes[100:]


def test_the_static_cache_directory_can_be_created_on_debian():
    """nginx makes only the last directory of proxy_cache_path, so its parent must exist on a stock machine."""
    cache = re.search(r"^proxy_cache_path (\S+)", CONF.read_text(), re.M).group(1)
    assert Path(cache).parent.is_dir(), f"{cache}: nginx -t fails, its parent does not exist"


def post(url: str) -> int:
    request = urllib.request.Request(url, data=b"username=student&password=guess", method="POST")
    try:
        with urllib.request.urlopen(request, timeout=20) as response:
            response.read()
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def test_password_tries_from_one_address_are_rate_limited(proxied):
    """Past a burst of 100, nginx refuses login POSTs with 429 itself; showing the page is not limited."""
    url, _backends, workdir = proxied
    shown = [fetch(url + "/login") for _ in range(120)]
    tries = [post(url + "/login") for _ in range(130)]
    assert 429 not in shown
    assert 429 not in tries[:100] and tries[100:].count(429) >= 20
    refused_by = [
        line[UPSTREAM]
        for line in access_log(workdir / "nginx")
        if line[METHOD] == "POST" and line[STATUS] == "429"
    ]
    assert refused_by and set(refused_by) == {"-"}  # "-": refused by nginx, no lab process asked
