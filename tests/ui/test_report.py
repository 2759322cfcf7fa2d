"""In the browser: "My report" downloaded after the tour, two predictions, a practice answer and
a pin, opened offline and printed to PDF."""

import re

from playwright.sync_api import expect

from core import Scenario, evaluate
from core.practice import tour
from labs.page import format as fmt
from labs.tour.steps import STEPS, option_label, step_knobs


def test_my_report_opens_offline_and_prints(browser, lab_url, tmp_path):
    """The report holds each part, the tour's answer too, opens from file:// offline and prints."""
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    page.goto(lab_url + "/tour")
    first = STEPS[0].question
    right = tour.answer(first.answer, Scenario(**step_knobs(STEPS[0])), **(first.args or {}))
    page.locator(".tour-choices").get_by_role(
        "button", name=option_label(right), exact=True
    ).click()
    expect(page.locator("[data-tour-verdict]")).to_be_visible(timeout=20_000)
    page.locator("[data-leave-tour]").click()  # the way out carries the answer into the lab
    page.wait_for_url(re.compile(r"tour="), timeout=20_000)
    page.get_by_role("button", name="Predict first").click()
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
    assert "1 of 1 steps right" in html
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
    printed = pdf.read_bytes()  # a page or more, with its text drawn in an embedded font
    assert re.search(rb"/Type\s*/Page(?!s)", printed) and b"/FontFile" in printed
    assert fetched == [path.as_uri()]
    offline.close()
    page.close()
