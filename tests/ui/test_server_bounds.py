"""What a query, a token or a dead worker can do to the lab server: bounded, and never a dead page."""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import http.server
import json
import subprocess
import sys
import threading
import time
import urllib.error
import urllib.request
import uuid

import pytest
from bokeh.embed import server_document
from bokeh.util.token import generate_jwt_token, generate_session_id, get_token_payload
from playwright.sync_api import expect
from tornado.httpclient import HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from bench.browser import rss_mb
from bench.protocol_client import TOKEN
from tests.ui.conftest import ROOT, free_port, wait_for_port
from tests.ui.nginx import lab_processes, nginx

CARDS = ".cards"


@pytest.fixture(scope="module")
def bounded(tmp_path_factory):
    """One lab server counting its sessions, a small build budget per client and a short wait
    past it (the refused builds of the budget test each wait it out); (base URL, process)."""
    logdir = tmp_path_factory.mktemp("bounds")
    embed_port = free_port()
    extra = ["--session-history", "1000", "--session-builds-per-client", "12"]
    extra += ["--session-build-wait", "2"]
    extra += ["--allow-websocket-origin", f"127.0.0.1:{embed_port}"]
    with lab_processes(1, logdir, *extra) as ([port], [process]):
        yield f"http://127.0.0.1:{port}", process, embed_port


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as response:
            return response.status, response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, ""


def sessions_built(base: str) -> int:
    """Sessions the server has built so far (Panel's session_info)."""
    _status, body = fetch(base + "/rest/session_info")
    return json.loads(body)["session_info"]["total"]


async def _open_socket(base: str, path: str, token: str) -> int | None:
    """Open ``path``'s websocket with ``token``; the close code, or None if it stayed open."""
    url = base.replace("http", "ws") + path + "/ws"
    request = HTTPRequest(url, headers={"Origin": base}, request_timeout=90)
    try:
        socket = await websocket_connect(request, subprotocols=["bokeh", token])
    except HTTPClientError as error:
        return error.code  # refused at the handshake (nginx's 429)
    except OSError:
        return -1
    try:
        message = await asyncio.wait_for(socket.read_message(), timeout=90)
        return None if message is not None else socket.close_code
    finally:
        socket.close()


def open_sockets(base: str, path: str, tokens: list[str]) -> list[int | None]:
    """Open one websocket per token, ten at a time."""

    async def run():
        codes = []
        for start in range(0, len(tokens), 10):
            batch = tokens[start : start + 10]
            codes += await asyncio.gather(*(_open_socket(base, path, t) for t in batch))
        return codes

    # A thread of its own: Playwright's sync API keeps an event loop running in this one.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(lambda: asyncio.run(run())).result()


def made_up_tokens(page_token: str, count: int) -> list[str]:
    """Tokens for session ids this server never gave out (unsigned, as a probe makes them)."""
    payload = get_token_payload(page_token)
    payload.pop("session_expiry", None)
    return [
        generate_jwt_token(generate_session_id(signed=False), signed=False, extra_payload=payload)
        for _ in range(count)
    ]


def test_random_themes_keep_no_new_labs(bounded):
    """40 GETs of /batching with made-up ?theme= values keep no new lab: memory stays flat."""
    base, process, _embed = bounded
    assert fetch(base + "/batching")[0] == 200
    before, built = rss_mb(process.pid), sessions_built(base)
    deadline = time.monotonic() + 60
    for _ in range(40):
        assert fetch(f"{base}/batching?theme={uuid.uuid4().hex}")[0] == 200
        assert time.monotonic() < deadline
    assert sessions_built(base) - built <= 1
    assert rss_mb(process.pid) - before < 60


def test_made_up_session_ids_build_nothing(bounded):
    """30 websockets opened with made-up session ids build no session; a page's own token does."""
    base, _process, _embed = bounded
    _status, html = fetch(base + "/batching")
    page_token = TOKEN.search(html).group(1)
    built = sessions_built(base)
    codes = open_sockets(base, "/batching", made_up_tokens(page_token, 30))
    assert None not in codes
    assert sessions_built(base) == built
    assert open_sockets(base, "/batching", [page_token]) == [None]


def test_autoload_script_builds_no_session_per_request(bounded):
    """20 fetches of /pool/autoload.js build one kept session at most, not one each."""
    base, _process, _embed = bounded
    built = sessions_built(base)
    for index in range(20):
        status, script = fetch(f"{base}/pool/autoload.js?bokeh-autoload-element=e{index}")
        assert status == 200 and "token" in script
    assert sessions_built(base) - built <= 1


@contextlib.contextmanager
def course_page(port: int, html: str):
    """A course page at 127.0.0.1:``port`` holding ``html`` (an instructor's embed)."""

    class Handler(http.server.BaseHTTPRequestHandler):
        def do_GET(self):
            if self.path != "/":
                self.send_error(404)  # the lab's files must come from the lab's server
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(html.encode())

        def log_message(self, *_args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.shutdown()
        server.server_close()


def test_an_embedded_lab_still_loads(bounded, page):
    """A course page embedding /pool by Bokeh's autoload script shows the live lab, every
    stylesheet from the lab's server (none asked of the course page's, which answers 404)."""
    base, _process, embed_port = bounded
    script = server_document(base + "/pool")
    html = f"<!doctype html><html><body><h1>Week 3</h1>{script}</body></html>"
    missing = []
    page.on("response", lambda answer: missing.append(answer.url) if answer.status >= 400 else None)
    with course_page(embed_port, html) as url:
        page.goto(url)
        expect(page.locator('[data-card="live seats"] .value').first).to_have_text(
            "16", timeout=40_000
        )
        page.wait_for_timeout(1000)
    assert missing == []
    # The course page's own favicon.ico is its 404, outside the page's network log.
    scripts = [e for e in page.console_log.errors if not e.startswith("Failed to load resource")]
    assert scripts == []


@pytest.mark.parametrize(("query", "seats"), [("??seats=4", "4"), ("?seats=64?x=1", "64")])
def test_odd_links_open_the_lab_with_their_knobs(bounded, page, query, seats):
    """'??seats=4' opens 4 seats; 'seats=64?x=1' opens 64, the notice naming the unknown x."""
    base, _process, _embed = bounded
    page.goto(f"{base}/pool{query}")
    page.locator(CARDS).first.wait_for(timeout=30_000)
    expect(page.locator('[data-card="live seats"] .value')).to_have_text(seats, timeout=20_000)
    if "x=1" in query:
        expect(page.locator("[data-url-notice]").first).to_contain_text("x: not a setting")


def test_odd_asset_paths_are_a_404(bounded):
    """An asset path holding a NUL is a 404, on /assets/ and Bokeh's /static/, not a 500."""
    base, _process, _embed = bounded
    assert fetch(base + "/assets/lab.css%00.txt")[0] == 404
    assert fetch(base + "/static/js/bokeh.min.js%00.txt")[0] == 404
    assert fetch(base + "/assets/lab.css")[0] == 200


def test_a_killed_server_leaves_no_silently_dead_page(tmp_path, page):
    """kill -9 of the lab's process: the page says so, and reloads into a live lab once it is back."""
    with lab_processes(1, tmp_path) as ([first_port], [process]):
        base = f"http://127.0.0.1:{first_port}"
        page.goto(base + "/pool?seats=8")
        page.locator(CARDS).first.wait_for(timeout=30_000)
        page.evaluate("() => { window.labMarker = 1; }")
        process.kill()
        process.wait(timeout=10)
        expect(page.locator(".lab-connection-lost")).to_be_visible(timeout=15_000)
        expect(page.locator(".lab-connection-lost")).to_contain_text("connection")
        restarted = restart(first_port, tmp_path)
        try:
            page.wait_for_function("() => window.labMarker === undefined", timeout=60_000)
            page.locator(CARDS).first.wait_for(timeout=30_000)
            assert "seats=8" in page.url
            expect(page.locator(".lab-connection-lost")).to_have_count(0)
        finally:
            restarted.terminate()
            restarted.wait(timeout=15)


def test_a_websocket_refused_before_it_connects_shows_the_banner(bounded, page):
    """A page whose websocket is closed before a word (refused) says the connection was lost."""
    import re

    from labs.server.reconnect import MESSAGE

    base, _process, _embed = bounded
    assert MESSAGE in (ROOT / "assets" / "reconnect.js").read_text()
    page.route_web_socket(re.compile(r".*/ws(\?.*)?$"), lambda socket: socket.close())
    page.goto(base + "/pool?seats=8")
    expect(page.locator(".lab-connection-lost")).to_be_visible(timeout=20_000)
    expect(page.locator(".lab-connection-lost")).to_contain_text("connection")


def restart(port: int, logdir) -> subprocess.Popen:
    """The lab server again on ``port`` (as a supervisor would restart it)."""
    log = (logdir / f"restart-{port}.log").open("w")
    process = subprocess.Popen(
        [sys.executable, "-m", "labs.server.serve", "--port", str(port)],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    wait_for_port(port, process)
    return process


def test_session_builds_are_budgeted_per_client(bounded):
    """One address opening 24 signed page tokens gets its budget (12 a minute) built, the rest refused."""
    base, _process, _embed = bounded
    built, started = sessions_built(base), time.monotonic()
    tokens = [TOKEN.search(fetch(base + "/kv")[1]).group(1) for _ in range(24)]
    codes = open_sockets(base, "/kv", tokens)
    made = sessions_built(base) - built
    allowed = 12 + (time.monotonic() - started) * 12 / 60  # a full bucket, and its refill
    assert 1 <= made <= allowed
    assert codes.count(1013) >= 24 - allowed


@pytest.fixture(scope="module")
def proxied_bounds(tmp_path_factory):
    """deploy/nginx.conf before one lab process that counts its sessions; yields (nginx URL, lab URL)."""
    workdir = tmp_path_factory.mktemp("bounds-nginx")
    port = free_port()
    extra = ("--allow-websocket-origin", f"127.0.0.1:{port}", "--use-xheaders")
    with (
        lab_processes(1, workdir, *extra, "--session-history", "1000") as ([backend], _processes),
        nginx([backend], workdir / "nginx", port) as url,
    ):
        yield url, f"http://127.0.0.1:{backend}"


def test_nginx_limits_websocket_upgrades_and_embed_scripts(proxied_bounds):
    """Through nginx, 130 websocket upgrades or autoload.js fetches from one address: 429 past the burst of 100."""
    url, lab = proxied_bounds
    page_token = TOKEN.search(fetch(url + "/batching")[1]).group(1)
    built = sessions_built(lab)
    codes = open_sockets(url, "/batching", made_up_tokens(page_token, 130))
    assert 429 in codes[100:] and None not in codes
    assert sessions_built(lab) == built
    scripts = [fetch(f"{url}/pool/autoload.js?bokeh-autoload-element=e{i}")[0] for i in range(130)]
    assert 429 in scripts[100:] and set(scripts[:50]) == {200}
