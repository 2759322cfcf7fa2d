"""In the browser: the published cases and mattered-vs-noise download as CSV, the ledger as PNG."""

import csv
import struct

from playwright.sync_api import expect

from core.evidence.fidelity import report


def _png_size(blob: bytes) -> tuple[int, int]:
    assert blob[:8] == b"\x89PNG\r\n\x1a\n" and blob[-8:-4] == b"IEND"
    return struct.unpack(">II", blob[16:24])


def test_cases_and_mattered_csv_and_ledger_png(page, lab_url, tmp_path):
    """Each download opens: a CSV row per case, a row per pool knob, and a real PNG."""
    page.goto(lab_url + "/reality")
    page.get_by_role("button", name="Every published case").click(timeout=20_000)
    button = page.get_by_role("button", name="Download cases (CSV)")
    expect(button).to_be_visible(timeout=20_000)
    with page.expect_download() as download:
        button.click()
    path = tmp_path / "cases.csv"
    download.value.save_as(path)
    with path.open(newline="") as handle:
        rows = list(csv.DictReader(handle))
    assert [row["case"] for row in rows] == [case.key for case in report().cases]

    page.goto(lab_url + "/pool?seats=64")
    button = page.get_by_role("button", name="Download table (CSV)")
    expect(button).to_be_visible(timeout=20_000)
    with page.expect_download() as download:
        button.click()
    path = tmp_path / "mattered.csv"
    download.value.save_as(path)
    with path.open(newline="") as handle:
        rows = {row["knob"]: row for row in csv.DictReader(handle)}
    assert rows["seats"]["setting"] == "64" and rows["tier"]["verdict"] == "at default"

    # The ledger's toolbar shows while the pointer is over the chart.
    chart = page.locator(".bk-Figure:visible").first  # the hour's chart hides on Poisson
    chart.hover()
    with page.expect_download() as download:
        page.locator('[title="Save"]').first.click()
    image = tmp_path / "ledger.png"
    download.value.save_as(image)
    width, height = _png_size(image.read_bytes())
    assert width > 200 and height > 50
    assert page.console_log.errors == []
