"""In the browser: the sources page shows its constants grouped by kind, and no pin bar."""

from playwright.sync_api import expect

from core.evidence.source_groups import KINDS

HEADINGS = [heading for heading, _about in KINDS.values()]


def test_sources_route_shows_every_group_and_no_pin_bar(page, lab_url):
    """/sources has a heading per kind, a link that opens a new tab, and no 'Pin as A' button."""
    page.goto(lab_url + "/sources")
    expect(page.get_by_role("heading", name="Where the numbers come from")).to_be_visible(
        timeout=20_000
    )
    for heading in HEADINGS:
        expect(page.get_by_role("heading", name=heading, exact=True)).to_be_visible()
    link = page.get_by_role("link", name="arxiv.org/abs/2405.04434")
    expect(link).to_have_attribute("target", "_blank")
    expect(page.get_by_role("button", name="Pin as A")).to_have_count(0)
    assert page.console_log.errors == []


def test_pin_bar_leaves_on_sources_and_returns_on_a_lab(page, lab_url):
    """In the shell, switching to Sources hides the pin bar and switching back shows it."""
    page.goto(lab_url + "/")
    pin = page.get_by_role("button", name="Pin as A")
    expect(pin).to_be_visible(timeout=20_000)
    page.get_by_role("button", name="Sources", exact=True).click()
    expect(page.get_by_role("heading", name=HEADINGS[0], exact=True)).to_be_visible(timeout=10_000)
    expect(pin).to_be_hidden()
    page.get_by_role("button", name="Pool", exact=True).click()
    expect(pin).to_be_visible(timeout=10_000)
