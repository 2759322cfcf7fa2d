"""Classroom use in the browser: links restore state, sessions stay apart, nothing leaves localhost."""

import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlparse

from playwright.sync_api import expect

from core import Scenario
from labs.frame.shell import LABS
from labs.kv.lab import evaluate_kv
from labs.page import format as fmt


def test_a_link_restores_lab_and_knobs(page, lab_url):
    """Opening ?lab=kv&kv_dtype=fp8&sequence_tokens=8000 shows that state's figures."""
    page.goto(lab_url + "/?lab=kv&kv_dtype=fp8&sequence_tokens=8000")
    expected = evaluate_kv(Scenario(kv_dtype="fp8"), 8000, 16)
    expect(page.locator('[data-card="one cached token"] .value')).to_contain_text(
        fmt.count(expected.kv_bytes_per_token), timeout=20_000
    )
    expect(page.locator('[data-card="one seat\'s cache at this length"]')).to_contain_text(
        "8,000 tokens"
    )
    assert page.console_log.errors == []


def test_bad_link_values_show_a_notice_not_a_crash(page, lab_url):
    """seats=-3, tier=huge, prompt_tokens=abc and a 10,000-character value yield a notice."""
    page.goto(lab_url + "/?seats=-3&tier=huge&prompt_tokens=abc&model=" + "x" * 10_000)
    notice = page.locator("[data-url-notice]")
    expect(notice).to_be_visible(timeout=20_000)
    for text in ("seats='-3'", "tier='huge'", "prompt_tokens='abc'", "10,000-character"):
        expect(notice).to_contain_text(text)
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("1")
    assert page.console_log.errors == []


def test_the_link_follows_the_knobs(page, lab_url):
    """Loading a preset and switching labs rewrite the query, keyed by parameter names."""
    page.goto(lab_url + "/")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    page.locator("select").first.select_option(label="The 70B upgrade")
    expect(page).to_have_url(re.compile(r"preset=70b-upgrade.*tier=large"))
    page.get_by_role("button", name="KV cache", exact=True).click()
    # The link settles 1.5 s after the lab is built; a loaded machine needs more than 5 s.
    expect(page).to_have_url(re.compile(r"lab=kv"), timeout=15_000)


def test_two_sessions_never_share_knobs(browser, lab_url):
    """A knob moved in one browser session leaves another session at its defaults."""
    first = browser.new_context().new_page()
    second = browser.new_context().new_page()
    for page in (first, second):
        page.goto(lab_url + "/")
        expect(page.locator('[data-card="live seats"] .value')).to_have_text("16", timeout=20_000)
    handle = first.locator(".noUi-handle").first
    handle.focus()
    handle.press("End")
    expect(first.locator('[data-card="live seats"] .value')).to_have_text("256")
    second.wait_for_timeout(500)
    expect(second.locator('[data-card="live seats"] .value')).to_have_text("16")
    second.reload()
    expect(second.locator('[data-card="live seats"] .value')).to_have_text("16", timeout=20_000)
    first.context.close()
    second.context.close()


def test_no_request_leaves_localhost(page, lab_url):
    """Every asset of every lab is served by the lab itself: nothing is fetched from elsewhere."""
    outside = []

    def guard(route):
        host = urlparse(route.request.url).hostname
        if host in ("127.0.0.1", "localhost"):
            route.continue_()
        else:
            outside.append(route.request.url)
            route.abort()

    page.route("**/*", guard)
    page.goto(lab_url + "/")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    for label, _module in LABS.values():
        page.get_by_role("button", name=label, exact=True).click()
        page.wait_for_timeout(1500)
    page.get_by_role("button", name="Presenter mode").click()
    page.wait_for_timeout(500)
    assert outside == []


def test_each_lab_is_served_alone_for_embedding(page, lab_url):
    """Every lab's own route renders that lab without the site header."""
    for route, heading in (
        ("pool", "Run the serving pool yourself"),
        ("kv", "The KV cache calculator"),
        ("prefix", "The prefix lab"),
        ("batching", "Run the engine yourself"),
        ("practice", "Practice the interview arithmetic"),
    ):
        page.goto(f"{lab_url}/{route}")
        expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=20_000)
        expect(page.get_by_text("LLM Serving Lab")).to_have_count(0)
    assert page.console_log.errors == []


def test_a_course_page_on_another_site_embeds_a_live_lab(page, lab_url):
    """An iframe on another origin shows the KV lab, and its knobs still recompute."""
    iframe = f'<iframe src="{lab_url}/kv?requests=200" width="1200" height="900"></iframe>'

    class CoursePage(BaseHTTPRequestHandler):
        def do_GET(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            self.wfile.write(iframe.encode())

        def log_message(self, *args):
            pass

    # A real server on another port: another origin, as a course site is.
    course = ThreadingHTTPServer(("127.0.0.1", 0), CoursePage)
    threading.Thread(target=course.serve_forever, daemon=True).start()
    try:
        page.goto(f"http://127.0.0.1:{course.server_port}/lesson")
        frame = page.frame_locator("iframe")
        heading = frame.get_by_role("heading", name="The KV cache calculator")
        expect(heading).to_be_visible(timeout=20_000)
        token = frame.locator('[data-card="one cached token"] .value')
        expect(token).to_contain_text(
            fmt.count(evaluate_kv(Scenario(), 4000, 200).kv_bytes_per_token)
        )
        frame.get_by_role("button", name="fp8 \u00b7 1 byte").click()
        fp8 = evaluate_kv(Scenario(kv_dtype="fp8"), 4000, 200)
        expect(token).to_contain_text(fmt.count(fp8.kv_bytes_per_token), timeout=10_000)
        assert page.console_log.errors == []
    finally:
        course.shutdown()


def test_presenter_flag_enlarges_the_type(page, lab_url):
    """?presenter=1 scales the lab's type up for a projector."""
    page.goto(lab_url + "/?presenter=1")
    title = page.get_by_role("heading", name="Run the serving pool yourself")
    expect(title).to_be_visible(timeout=20_000)
    large = title.evaluate("element => parseFloat(getComputedStyle(element).fontSize)")
    page.goto(lab_url + "/")
    expect(title).to_be_visible(timeout=20_000)
    normal = title.evaluate("element => parseFloat(getComputedStyle(element).fontSize)")
    assert large > normal * 1.2


def test_copy_link_copies_the_current_state(browser, lab_url):
    """Copy link puts a link to the state on screen on the clipboard, at once."""
    context = browser.new_context(permissions=["clipboard-read", "clipboard-write"])
    page = context.new_page()
    page.goto(lab_url + "/")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    page.locator("select").first.select_option(label="The batch of one")
    page.get_by_role("button", name="Copy link").click()
    expect(page.get_by_role("button", name="Link copied")).to_be_visible(timeout=5_000)
    copied = page.evaluate("navigator.clipboard.readText()")
    assert "preset=batch-of-one" in copied and "seats=1" in copied
    context.close()
