"""In the browser: /teach's lessons shown and printable, and one lesson walked link by link."""

import re

from playwright.sync_api import expect

from labs.frame.routes import LABS
from labs.teach.lessons import MEMORY


def test_a_lesson_walked_link_by_link(page, lab_url, tmp_path):
    """/teach shows three lessons and prints; each memory-lesson link opens its lab, no notice."""
    page.goto(lab_url + "/teach")
    expect(page.locator("[data-lesson]")).to_have_count(3, timeout=30_000)
    expect(page.locator("[data-poll]").first).to_contain_text("right")
    page.emulate_media(media="print")
    # the print layout settles (fonts loaded, two frames drawn) before it is printed
    page.evaluate(
        "document.fonts.ready.then(() => new Promise(r => "
        "requestAnimationFrame(() => requestAnimationFrame(r))))"
    )
    pdf = tmp_path / "lessons.pdf"
    page.pdf(path=str(pdf))
    # each lesson starts a printed page, so three lessons print on three pages or more
    printed = pdf.read_bytes()  # its text drawn in an embedded font, not left blank
    assert len(re.findall(rb"/Type\s*/Page(?!s)", printed)) >= 3 and b"/FontFile" in printed
    page.emulate_media(media="screen")
    links = page.locator('[data-lesson="memory"] [data-lesson-link]')
    expect(links).to_have_count(len(MEMORY.steps))
    hrefs = [links.nth(i).get_attribute("href") for i in range(len(MEMORY.steps))]
    for href, step in zip(hrefs, MEMORY.steps, strict=True):
        page.goto(f"{lab_url}/{href.removeprefix('./')}")  # ./ on /teach is the whole lab
        tab = page.get_by_role("button", name=LABS[step.lab][0], exact=True).first
        expect(tab).to_have_class(re.compile("bk-active"), timeout=30_000)
        page.wait_for_timeout(1000)  # a notice would come with the link's first reading
        expect(page.locator("[data-url-notice]")).to_have_count(0)
    assert page.console_log.errors == []
