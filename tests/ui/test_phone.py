"""On a phone (390x844): no route is wider than the screen; the class poll is answered with a thumb."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from core.practice.poll import LETTERS
from labs.frame.routes import LABS, PAGES
from labs.poll.store import store_for
from tests.ui.conftest import POLL_CODES

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,  # a phone's browser: without a declared viewport it lays out 980 px wide
    "has_touch": True,
    "device_scale_factor": 3,
}
BUILD_MS = 60_000  # a fresh page builds its lab: several seconds on a busy machine
TARGET_PX = 44  # WCAG 2.5.5's smallest target
WIDTHS_JS = "() => [document.documentElement.scrollWidth, window.innerWidth]"


@pytest.fixture
def phone(browser):
    context = browser.new_context(**PHONE)
    yield context.new_page()
    context.close()


def on_screen(page, locator) -> bool:
    """Whether ``locator`` lies wholly inside the phone's screen as it is scrolled now."""
    box = locator.bounding_box()
    height = page.viewport_size["height"]
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= height


def test_no_route_is_wider_than_a_phone(phone, poll_lab):
    """At 390x844 each route (the whole lab with a poll open, the tour, each lab alone, the
    Reality check with a case's waterfall drawn) takes the phone's width as its viewport and
    nothing on it is wider."""
    url, _location = poll_lab
    routes = [f"/?poll={POLL_CODES[0]}", "/tour", *(f"/{key}" for key in LABS)]
    routes += ["/?lab=reality&case=D113"]  # a chart's overlays ran 27 px past the screen
    routes += [f"/{key}" for key in PAGES]
    wider = {}
    for route in routes:
        phone.goto(url + route)
        expect(phone.locator(".lab h1, .lab h2").first).to_be_visible(timeout=BUILD_MS)
        phone.wait_for_timeout(1_000)  # charts and late panes draw after the heading
        scroll_width, inner_width = phone.evaluate(WIDTHS_JS)
        if inner_width != PHONE["viewport"]["width"] or scroll_width > inner_width:
            wider[route] = (scroll_width, inner_width)
    assert wider == {}


def test_a_student_answers_the_poll_with_a_thumb(phone, poll_lab):
    """From the link on a phone: the question, its choices and Vote on the first screen in
    targets of 44 px or more; "recorded" shows without scrolling; the reveal's tally fits."""
    url, location = poll_lab
    code = POLL_CODES[0]
    phone.goto(f"{url}/?lab=pool&poll={code}")
    vote = phone.get_by_role("button", name="Vote")
    expect(vote).to_be_visible(timeout=BUILD_MS)
    choices = store_for(location).get(code).question["choices"]
    letters = [
        phone.get_by_role("button", name=letter, exact=True) for letter in LETTERS[: len(choices)]
    ]
    targets = [
        *letters,
        vote,
        phone.get_by_role("button", name="Join"),
        phone.get_by_placeholder("code"),
    ]
    for target in targets:
        box = target.bounding_box()
        assert box["width"] >= TARGET_PX and box["height"] >= TARGET_PX, (target, box)
    question = phone.locator(".poll-question")
    for part in (question.locator("h2"), question.locator(".choices li").last, vote):
        assert on_screen(phone, part), part

    letters[2].tap()
    vote.tap()
    status = phone.locator(".poll-status")
    expect(status).to_contain_text(f"Your answer {LETTERS[2]} is recorded", timeout=5_000)
    assert phone.evaluate("window.scrollY") == 0 and on_screen(phone, status)

    store_for(location).set_state(code, "revealed")  # the presenter's reveal
    tally = phone.locator(".poll-tally")
    expect(tally.locator("h3")).to_contain_text("revealed", timeout=5_000)
    expect(tally.locator(".row")).to_have_count(len(choices))
    box = tally.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["viewport"]["width"], box
    scroll_width, inner_width = phone.evaluate(WIDTHS_JS)
    assert scroll_width <= inner_width


def test_the_sources_table_stacks_each_row_on_a_phone(phone, poll_lab):
    """At 390 px each source row is a card as wide as the table: its constant is never squeezed
    into a column a few letters wide."""
    url, _location = poll_lab
    phone.goto(url + "/sources")
    table = phone.locator("table.grid.sources").first
    expect(table).to_be_visible(timeout=BUILD_MS)
    constant = table.locator("tbody tr td").first
    assert constant.bounding_box()["width"] >= 0.9 * table.bounding_box()["width"]
    assert not table.locator("thead").first.is_visible()


def test_nothing_runs_a_word_a_line_on_a_phone(phone, poll_lab):
    """At 390 px the pins' bar takes its own row (its sentence a few lines, not a word a line
    beside Predict first and My report), and each of the KV lab's attention designs is a card:
    its derivation runs the table's width and each figure carries its heading."""
    url, _location = poll_lab
    phone.goto(url + "/?lab=kv")
    table = phone.locator("table.grid.attention[data-variants]").first
    expect(table).to_be_visible(timeout=BUILD_MS)
    sentence = phone.get_by_text("Pin this configuration").first
    assert sentence.bounding_box()["width"] >= 200
    assert sentence.bounding_box()["height"] <= 80  # three lines at most
    derivation = table.locator("tbody tr td.mono").first
    assert derivation.bounding_box()["width"] >= 0.9 * table.bounding_box()["width"]
    assert not table.locator("thead").first.is_visible()
    label = table.locator("td.num").first.evaluate(
        "cell => getComputedStyle(cell, '::before').content"
    )
    assert "per token" in label
