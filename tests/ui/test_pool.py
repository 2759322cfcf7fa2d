"""In the browser: the seats slider moves the cards and the ledger; a preset turns a badge red;
/pool opens on the walkthrough, everything beyond it folded under a line that says what differs."""

from playwright.sync_api import expect

from core import Scenario, evaluate
from labs.page import format as fmt


def test_seats_slider_updates_cards_and_ledger(page, lab_url):
    """Dragging the batch size to its end shows core's seats and redraws the ledger charts."""
    page.goto(lab_url + "/")
    cards = page.locator("div.cards").first
    expect(cards).to_contain_text("1,698", timeout=20_000)
    seat_chart = page.locator("canvas:visible").first  # the ledger: a dense model's MoE chart folds
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


def test_pool_opens_on_the_walkthrough_with_nothing_greyed(page, lab_url):
    """At the defaults: the walkthrough's knobs, one closed area 'as the walkthrough', no greyed row."""
    page.goto(lab_url + "/pool")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    expect(page.locator("[data-beyond-summary]")).to_have_text("as the walkthrough")
    knobs = page.locator(".knob-column").first
    for hidden in ("Exact model", "Level of detail", "real engine", "Off: the whiteboard"):
        expect(knobs.get_by_text(hidden)).to_have_count(0)
    assert page.locator(".knob-column .bk-btn:disabled, .knob-column input:disabled").count() == 0
    expect(page.locator("[data-moe-folded]")).to_contain_text("is dense")
    expect(page.locator("[data-idle-knob]")).to_have_count(0)
    page.get_by_role("button", name="Beyond the walkthrough").click()
    expect(knobs.get_by_text("Level of detail")).to_be_visible()
    expect(knobs.get_by_role("button", name="vLLM")).to_have_count(0)  # the engine level's own
    knobs.get_by_role("button", name="real engine").click()
    expect(knobs.get_by_role("button", name="vLLM")).to_be_visible()
    expect(page.locator("[data-beyond-summary]")).to_have_text("real engine")
    assert page.console_log.errors == []


def test_a_link_beyond_the_walkthrough_opens_the_area_and_says_so(page, lab_url):
    """A link with three replicas and the affinity router opens the area; its line names both."""
    page.goto(lab_url + "/pool?replicas=3&router=prefix-affinity")
    summary = page.locator("[data-beyond-summary]")
    expect(summary).to_have_text("3 replicas \u00b7 prefix-affinity router", timeout=20_000)
    expect(page.get_by_role("button", name="affinity", exact=True)).to_be_visible()
    expect(page.get_by_text("The fleet: routers side by side")).to_be_visible()
    assert page.console_log.errors == []
