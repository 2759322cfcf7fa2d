"""In the browser: the Frontier lab draws, a point loads into the pool, and both downloads open."""

import csv
import struct

from playwright.sync_api import expect

from core import Scenario
from core.studies.frontier import sweep
from labs.page import format as fmt

# Finds the chart's point source (the one with a "verdict" column) and selects one row, as a
# click with Bokeh's tap tool does.
SELECT_POINT = """
(level) => {
  for (const doc of Bokeh.documents) {
    for (const model of doc.all_models) {
      const data = model.data;
      if (data && data.verdict && data.level) {
        const row = Array.from(data.level).findIndex((l, i) => l === level && data.seats[i] === 64);
        model.selected.indices = [row];
        return [data.seats[row], data.cards[row]];
      }
    }
  }
  return null;
}
"""


def test_frontier_draws_and_a_point_loads_into_the_pool(page, lab_url):
    """The lab opens with core's figures; selecting a point switches to the pool with its knobs."""
    page.goto(lab_url + "/?lab=frontier")
    card = page.locator('[data-card="per GPU"] .value')
    expect(card).to_contain_text("1,698", timeout=20_000)
    page.get_by_role("button", name="Frontier points at this level").click()
    expect(page.locator("[data-frontier-row]").first).to_be_visible()
    page.wait_for_timeout(500)
    seats, cards = page.evaluate(SELECT_POINT, "engine")
    expect(page.get_by_role("heading", name="Run the serving pool yourself")).to_be_visible(
        timeout=10_000
    )
    expect(page.locator('[data-card="live seats"] .value')).to_have_text(fmt.count(seats))
    page.wait_for_url(f"**cards={cards}**", timeout=5_000)
    assert "realism=engine" in page.url
    assert page.console_log.errors == []


def test_points_download_as_csv_and_chart_as_png(page, lab_url, tmp_path):
    """The CSV opens as a table of every configuration; the save tool writes a real PNG."""
    page.goto(lab_url + "/frontier")
    expect(page.locator('[data-card="per GPU"] .value')).to_contain_text("1,698", timeout=20_000)
    page.get_by_role("button", name="Frontier points at this level").click()
    with page.expect_download() as csv_download:
        page.get_by_role("button", name="Download points (CSV)").click()
    path = tmp_path / csv_download.value.suggested_filename
    csv_download.value.save_as(path)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert len(rows) == len(sweep(Scenario()))
    assert {"seats", "cards", "output_tokens_per_s_per_gpu", "on_frontier"} <= set(rows[0])

    with page.expect_download() as png_download:
        page.locator('[title="Save"]').first.click()
    image = tmp_path / "chart.png"
    png_download.value.save_as(image)
    blob = image.read_bytes()
    assert blob[:8] == b"\x89PNG\r\n\x1a\n" and blob[-8:-4] == b"IEND"
    width, height = struct.unpack(">II", blob[16:24])
    assert width > 300 and height > 200
    assert page.console_log.errors == []
