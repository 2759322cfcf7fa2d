"""The served lab opens on the pool lab with the walkthrough's default figures."""

import re

from playwright.sync_api import expect


def test_opens_on_pool_with_default_figures(page, lab_url):
    """16 seats, 27 ms, 1,698 tok/s and $2,913 are on the page, and the console is clean."""
    page.goto(lab_url + "/")
    cards = page.locator("div.cards").first
    expect(cards).to_contain_text("1,698", timeout=20_000)
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("16")
    expect(page.locator('[data-card="TTFT p95"] .value')).to_have_text(re.compile(r"^27\s*ms$"))
    expect(page.locator('[data-card="aggregate decode rate"] .value')).to_contain_text("1,698")
    expect(page.locator('[data-card="monthly bill"] .value')).to_contain_text("$2,913")
    assert page.console_log.errors == []


def test_navigation_reaches_every_lab(page, lab_url):
    """Each navigation button shows its lab's heading."""
    page.goto(lab_url + "/")
    expect(page.locator("div.cards").first).to_be_visible(timeout=20_000)
    for label, heading in (
        ("Sources", "Where the numbers come from"),
        ("Pool", "Run the serving pool yourself"),
    ):
        page.get_by_role("button", name=label, exact=True).click()
        expect(page.get_by_role("heading", name=heading)).to_be_visible(timeout=10_000)
    assert page.console_log.errors == []


def test_presenter_mode_at_1920_keeps_the_header_on_one_row(browser, lab_url):
    """On a 1920 px projector the header's tabs, tour, presenter and Copy link buttons share one row."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(lab_url + "/?lab=pool&presenter=1")
    copy = page.get_by_role("button", name="Copy link")
    expect(copy).to_be_visible(timeout=30_000)
    tab = page.get_by_role("button", name="Pool", exact=True).first
    page.wait_for_timeout(500)
    copy_box, tab_box = copy.bounding_box(), tab.bounding_box()
    assert abs(copy_box["y"] - tab_box["y"]) < tab_box["height"], (copy_box, tab_box)
    page.close()
