"""In the browser: the KV calculator and the prefix lab redraw when a knob turns."""

from playwright.sync_api import expect

from core import Scenario
from labs.kv.lab import evaluate_kv
from labs.page import format as fmt


def test_kv_cache_storage_redraws_the_ledger(page, lab_url):
    """Switching the cache to fp8 halves one cached token and redraws the memory chart."""
    page.goto(lab_url + "/kv")
    token = page.locator('[data-card="one cached token"] .value')
    expect(token).to_contain_text("131,072", timeout=20_000)
    chart = page.locator("canvas").first
    page.wait_for_timeout(300)
    before = chart.screenshot()
    page.get_by_role("button", name="fp8 \u00b7 1 byte").click()
    expected = evaluate_kv(Scenario(kv_dtype="fp8"), 4000, 16)
    expect(token).to_contain_text(fmt.count(expected.kv_bytes_per_token))
    page.wait_for_timeout(300)
    assert chart.screenshot() != before
    assert page.console_log.errors == []


def test_prefix_edited_state_recolours_the_blocks(page, lab_url):
    """Pressing 'edited preamble' invalidates the blocks and raises the first-token time."""
    page.goto(lab_url + "/prefix")
    ttft = page.locator('[data-card="TTFT p95"] .value')
    expect(ttft).to_be_visible(timeout=20_000)
    cached_text = ttft.inner_text()
    chart = page.locator("canvas").first
    page.wait_for_timeout(300)
    before = chart.screenshot()
    page.get_by_role("button", name="edited preamble").click()
    expect(ttft).not_to_have_text(cached_text)
    page.wait_for_timeout(300)
    assert chart.screenshot() != before
    assert page.console_log.errors == []
