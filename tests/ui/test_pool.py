"""In the browser: the seats slider moves the cards and the ledger; a preset turns a badge red."""

from playwright.sync_api import expect

from core import Scenario, evaluate
from labs.page import format as fmt


def test_seats_slider_updates_cards_and_ledger(page, lab_url):
    """Dragging the batch size to its end shows core's seats and redraws the ledger charts."""
    page.goto(lab_url + "/")
    cards = page.locator("div.cards").first
    expect(cards).to_contain_text("1,698", timeout=20_000)
    seat_chart = page.locator("canvas:visible").nth(1)  # hidden sections hold charts too
    expect(seat_chart).to_be_visible()
    page.wait_for_timeout(300)
    before = seat_chart.screenshot()

    handle = page.locator(".noUi-handle").first
    handle.focus()
    handle.press("End")

    expected = evaluate(Scenario(seats=256))
    expect(page.locator('[data-card="live seats"] .value')).to_have_text(
        fmt.count(expected.seats_granted)
    )
    expect(page.get_by_text(f"{fmt.count(expected.seats_granted)} of 256")).to_be_visible()
    page.wait_for_timeout(300)
    assert seat_chart.screenshot() != before
    assert page.console_log.errors == []


def test_loading_a_preset_turns_a_badge_red(page, lab_url):
    """Choosing the batch of one fails the latency badge and shows the story."""
    page.goto(lab_url + "/")
    latency = page.locator('[data-badge="latency"]')
    expect(latency).to_have_attribute("data-state", "pass", timeout=20_000)
    page.locator("select").first.select_option(label="The batch of one")
    expect(latency).to_have_attribute("data-state", "fail")
    expect(page.locator('[data-preset="batch-of-one"]')).to_contain_text("Still failing")
    assert page.console_log.errors == []
