"""The batching lab in the browser: it runs, and switching the scheduler redraws the timeline."""

import re

from playwright.sync_api import expect


def timeline_pixels(page) -> bytes:
    """A screenshot of the top timeline chart, just below its caption."""
    caption = page.locator("[data-timeline-top]").first
    box = caption.bounding_box()
    clip = {"x": box["x"], "y": box["y"] + box["height"] + 4, "width": box["width"], "height": 180}
    return page.screenshot(clip=clip)


def test_switching_policy_redraws_the_timeline(page, lab_url):
    """The lab shows the static engine, and clicking 'continuous' swaps the timeline and figures."""
    page.goto(lab_url + "/batching")
    cards = page.locator("div.cards").first
    expect(cards).to_contain_text("tok/s", timeout=30_000)
    expect(page.locator('[data-timeline-top="static"]')).to_be_visible(timeout=10_000)
    page.wait_for_timeout(800)  # let Bokeh paint the canvases
    before_pixels = timeline_pixels(page)
    before_cards = cards.inner_text()

    page.get_by_role("button", name="continuous", exact=True).click()

    expect(page.locator('[data-timeline-top="continuous"]')).to_be_visible(timeout=10_000)
    expect(page.locator('[data-timeline-bottom="static"]')).to_be_visible()
    expect(cards).not_to_have_text(before_cards, timeout=10_000)
    page.wait_for_timeout(800)
    assert timeline_pixels(page) != before_pixels
    assert re.search(r"[\d,]+\s*tok/s", cards.inner_text())
    assert page.console_log.errors == []
