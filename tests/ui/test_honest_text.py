"""In the browser: every sentence agrees with the state on screen, however hopeless or odd the state."""

import re

from playwright.sync_api import expect

from core import Scenario, evaluate


def open_pool(page, url: str) -> None:
    page.goto(url)
    expect(page.locator('[data-card="live seats"] .value')).to_be_visible(timeout=20_000)
    expect(page.locator("[data-binding]")).to_be_visible()


def test_giving_up_the_70b_model_is_not_a_fix(page, lab_url):
    """The 70B upgrade passes on the small tier, but the story names the 70B model as given up."""
    open_pool(page, lab_url + "/pool")
    page.locator("select").first.select_option(label="The 70B upgrade")
    story = page.locator('[data-preset="70b-upgrade"]')
    expect(story).to_contain_text("Still failing")
    page.get_by_role("button", name="small \u00b7 8B class").click()
    expect(story).to_contain_text("giving up the 70B model")
    expect(story).not_to_contain_text("Fixed.")
    expect(story).to_have_attribute("data-fixed", "false")
    assert page.console_log.errors == []


def test_the_memory_wall_on_the_small_tier_is_not_a_fix(page, lab_url):
    """Small tier and 24 seats pass every check on documents, yet the goal kept the 70B model."""
    open_pool(page, lab_url + "/pool?preset=memory-wall&tier=small&seats=24")
    story = page.locator('[data-preset="memory-wall"]')
    expect(story).to_contain_text("giving up the 70B model", timeout=10_000)
    expect(story).not_to_contain_text("Fixed.")
    expect(page.locator('[data-badge="cost"]')).to_have_attribute("data-state", "pass")
    assert page.console_log.errors == []


def test_a_state_with_no_seat_says_so_everywhere(page, lab_url):
    """A 64,000-token prompt on 70B fits no seat: no nonsense figure, and cost fails."""
    open_pool(page, lab_url + "/pool?tier=large&prompt_tokens=1000000")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("0")
    expect(page.locator("[data-binding]")).to_contain_text("Nothing can be served")
    expect(page.locator('[data-card="TTFT p95"]')).to_contain_text("no first token")
    expect(page.locator('[data-badge="cost"]')).to_have_attribute("data-state", "fail")
    expect(page.get_by_text("mattered").first).to_be_visible()
    text = page.locator("body").inner_text()
    for nonsense in ("+60.0 min", "0 seats", "Past 0", "flips cost", "1 node of", "cost: pass"):
        assert nonsense not in text, nonsense
    assert page.console_log.errors == []


def test_a_fully_cached_prompt_still_waits_one_step(page, lab_url):
    """prefix_hit_rate=1: the p95 first token is never shorter than one decode step."""
    open_pool(page, lab_url + "/pool?prefix_hit_rate=1")
    step_ms = evaluate(Scenario(prefix_hit_rate=1.0)).decode_step_s * 1000
    card = page.locator('[data-card="TTFT p95"] .value')
    expect(card).to_have_text(re.compile(r"ms$"))
    shown_ms = float(re.match(r"[\d.,]+", card.inner_text()).group().replace(",", ""))
    assert shown_ms >= round(step_ms, 1)
    assert page.console_log.errors == []


def test_counts_agree_with_their_nouns(page, lab_url):
    """One seat, one request and an 8,000-token sequence read as English; knob names are the page's."""
    open_pool(page, lab_url + "/pool?seats=1")
    expect(page.get_by_text("runs up to 1 seat at once")).to_be_visible(timeout=10_000)
    pool_text = page.locator("body").inner_text()
    for wrong in ("1 seats", "1 nodes"):
        assert not re.search(rf"(?<![\d,]){wrong}", pool_text), wrong
    open_pool(page, lab_url + "/pool?preset=memory-wall&kv_dtype=fp8")
    story = page.locator('[data-preset="memory-wall"]')
    expect(story).to_contain_text("cache storage bf16 \u2192 fp8", timeout=10_000)
    expect(story).not_to_contain_text("kv dtype")
    page.goto(lab_url + "/kv?requests=1&sequence_tokens=8000")
    expect(page.get_by_text("An 8,000-token sequence")).to_be_visible(timeout=20_000)
    kv_text = page.locator("body").inner_text()
    for wrong in ("1 requests", "1 such seats", "A 8,000"):
        assert not re.search(rf"(?<![\d,]){wrong}", kv_text), wrong
    assert page.console_log.errors == []
