"""In the browser: "My report" downloaded after two predictions, a practice answer and a pin,
opened offline and printed to PDF."""

import re

from playwright.sync_api import expect

from core import Scenario, evaluate
from labs.page import format as fmt


def test_my_report_opens_offline_and_prints(browser, lab_url, tmp_path):
    """The report holds each part, opens from file:// with the network blocked and prints."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(lab_url + "/?lab=pool&predict=1")
    for label, text in (("live seats", "16"), ("monthly bill", "$2,900")):
        box = page.get_by_label(label, exact=True)
        box.fill(text)
        box.press("Enter")
        expect(page.locator(f'[data-reveal="{label}"]')).to_be_visible(timeout=20_000)
    page.get_by_role("button", name="Pin as A").click()
    page.get_by_role("button", name="Practice", exact=True).first.click()
    box = page.get_by_placeholder(re.compile(r"^e\.g\."))
    box.fill("12345")
    box.press("Enter")
    expect(page.locator("[data-verdict]")).to_be_visible(timeout=20_000)
    with page.expect_download() as download:
        page.get_by_role("button", name="My report").click()
    path = tmp_path / "report.html"
    download.value.save_as(path)
    html = path.read_text()
    assert "of 2 guesses within" in html and "12345" in html
    assert fmt.dollars(evaluate(Scenario()).monthly_usd) in html
    offline = browser.new_context()
    offline.route("**/*", lambda route: route.abort() if not route.request.url.startswith("file:") else route.continue_())  # fmt: skip
    reader = offline.new_page()
    fetched = []
    reader.on("request", lambda request: fetched.append(request.url))
    reader.goto(path.as_uri())
    expect(reader.locator('[data-report="pins"] table')).to_be_visible()
    pdf = tmp_path / "report.pdf"
    reader.pdf(path=str(pdf))
    assert pdf.stat().st_size > 10_000 and fetched == [path.as_uri()]
    offline.close()
    page.close()
