"""In the browser: pins survive a copied link, and the comparison downloads as CSV."""

import csv
import re

from playwright.sync_api import expect

from core import Scenario, evaluate
from core.foundation.units import rounded
from labs.page import format as fmt


def test_pins_survive_a_copied_link_and_download(page, lab_url, tmp_path):
    """Pin A, change the tier, pin B, copy the link: a new page shows both pins and the CSV opens."""
    page.goto(lab_url + "/?lab=pool")
    expect(page.locator('[data-card="live seats"] .value').first).to_have_text("16", timeout=20_000)
    page.get_by_role("button", name="Pin as A").click()
    expect(page.locator('[data-pin="A"]')).to_contain_text("the defaults", timeout=15_000)
    page.get_by_role("button", name="large · 70B class").click()
    page.get_by_role("button", name="Pin as B").click()
    expect(page.locator('[data-pin="B"]')).to_contain_text("70B class", timeout=15_000)
    # Columns added after the page loaded keep following the knobs.
    expect(page.locator('[data-pin-column="pin B"]')).to_contain_text("70B class")
    expect(page.locator('[data-pin-column="now"]')).to_be_visible()
    page.get_by_role("button", name="Copy link").click()
    # Wait for the link with both pins: an earlier write (pin A alone) may still be in the bar.
    page.wait_for_url(re.compile(r"pins=[^&]*tier%3Alarge"), timeout=15_000)
    link = page.url

    other = page.context.new_page()
    other.goto(link)
    # A fresh page builds the whole lab first: 7-12 s on this machine when it is busy.
    expect(other.locator('[data-pin="B"]')).to_contain_text("70B class", timeout=45_000)
    large = evaluate(Scenario(tier="large"))
    table = other.locator("[data-comparison]")
    expect(table).to_contain_text(fmt.dollars(large.monthly_usd), timeout=20_000)
    expect(other.locator('[data-pin-column="now"]')).to_be_visible(timeout=20_000)

    with other.expect_download() as download:
        other.get_by_role("button", name="Download comparison (CSV)").click()
    path = tmp_path / download.value.suggested_filename
    download.value.save_as(path)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["configuration"] for row in rows] == ["pin A", "pin B", "now"]
    # the CSV carries figures at four significant figures (labs.widgets.exports.rounded_frame)
    assert float(rows[1]["monthly_usd"]) == float(rounded(large.monthly_usd))
    assert page.console_log.errors == []
