"""In the browser: the Reality check lab and the engine level's line in the pool lab."""

from playwright.sync_api import expect

from core import Scenario, evaluate
from core.evidence.fidelity import report
from labs.page import format as fmt
from labs.page.format import times


def test_reality_opens_the_linked_case_and_follows_the_picker(page, lab_url):
    """?case=N3 opens N3's waterfall; picking T10 redraws it and writes case=T10 in the link."""
    page.goto(lab_url + "/?lab=reality&case=N3")
    heading = page.get_by_role("heading", name="N3: Llama-3-70B", exact=False)
    expect(heading).to_be_visible(timeout=20_000)
    index = [case.key for case in report().cases].index("N3")
    expect(page.locator("body")).to_contain_text(times(report().steps[index, -1]))
    chart = page.locator("canvas").nth(2)
    page.wait_for_timeout(300)
    before = chart.screenshot()
    page.get_by_label("Published case", exact=True).select_option(
        label=page.locator("option", has_text="T10 ").inner_text()
    )
    expect(page.get_by_role("heading", name="T10: Llama-3-70B", exact=False)).to_be_visible()
    page.wait_for_timeout(300)
    assert chart.screenshot() != before
    page.wait_for_url("**case=T10**", timeout=5_000)
    assert page.console_log.errors == []


def test_pool_level_toggle_shows_the_engine_figures_and_the_whiteboard_line(page, lab_url):
    """'real engine' puts the engine level's TTFT on the card and the whiteboard's in the line."""
    page.goto(lab_url + "/pool")
    ttft = page.locator('[data-card="TTFT p95"] .value')
    expect(ttft).to_contain_text("27", timeout=20_000)
    note = page.locator("[data-engine-note]")
    expect(note).to_contain_text("A real engine would see")
    page.get_by_role("button", name="Beyond the walkthrough").click()
    page.get_by_role("button", name="real engine").click()
    engine = evaluate(Scenario(realism="engine"))
    expect(ttft).to_contain_text(fmt.split_unit(fmt.duration(engine.ttft_p95_s))[0])
    expect(note).to_contain_text("On the whiteboard these would read")
    assert page.console_log.errors == []


def test_reality_in_presenter_mode_scrolls_its_tables_not_the_page(page, lab_url):
    """At 1280 px in presenter mode the wide case tables scroll inside their box; the page never sideways."""
    page.goto(lab_url + "/reality?presenter=1")
    for fold in ("How far to trust each level, by family", "Every published case"):
        page.get_by_role("button", name=fold).click(timeout=30_000)
    expect(page.locator("table.grid")).to_have_count(2)
    expect(page.locator("table.grid").last).to_be_visible()
    page.wait_for_timeout(500)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280


def test_reality_opens_on_its_lesson_and_folds_the_long_parts(page, lab_url):
    """At 1280x800 the page is at most 2.5 screens; opening 'Every published case' shows every case."""
    page.goto(lab_url + "/reality")
    fold = page.get_by_role("button", name="Every published case")
    expect(fold).to_be_visible(timeout=30_000)
    # neither table nor the drop zone sent yet
    assert page.locator("table.grid").count() == page.locator("input[type=file]").count() == 0
    page.wait_for_timeout(500)
    assert page.evaluate("document.body.scrollHeight") <= 2.5 * 800
    fold.click()
    rows = page.locator("table.grid tbody tr:not([data-set])")
    expect(rows).to_have_count(len(report().cases))
    assert page.console_log.errors == []
