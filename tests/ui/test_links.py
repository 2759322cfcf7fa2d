"""Links in the browser: the address names what is on screen, and bad values read as the lab's own words."""

import re

from playwright.sync_api import expect


def test_back_and_forward_step_through_deliberate_changes(page, lab_url):
    """A tier click and a lab switch are one entry each: Back restores them in turn, Forward again."""
    page.goto("about:blank")
    page.goto(lab_url + "/?seats=46")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("46", timeout=20_000)
    page.wait_for_timeout(2000)  # the first write of the address, after the page settles
    entries = page.evaluate("history.length")
    page.get_by_role("button", name="large \u00b7 70B class").click()
    expect(page).to_have_url(re.compile(r"tier=large"), timeout=10_000)
    page.get_by_role("button", name="KV cache", exact=True).click()
    expect(page).to_have_url(re.compile(r"lab=kv.*tier=large.*seats=46"), timeout=10_000)
    assert page.evaluate("history.length") == entries + 2
    page.go_back()
    expect(page).to_have_url(re.compile(r"tier=large"), timeout=10_000)
    expect(page).not_to_have_url(re.compile(r"lab=kv"))
    expect(page.locator('[data-card="live seats"] .value')).to_be_visible(timeout=20_000)
    page.go_back()
    expect(page).not_to_have_url(re.compile(r"tier=large"), timeout=10_000)
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("46", timeout=20_000)
    page.go_forward()
    expect(page).to_have_url(re.compile(r"tier=large"), timeout=10_000)
    assert page.console_log.errors == []


def test_a_burst_of_changes_is_one_history_entry(page, lab_url):
    """Several knob changes inside the link's rest time add one entry, not one per change."""
    page.goto(lab_url + "/?seats=20")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("20", timeout=20_000)
    page.wait_for_timeout(2000)
    entries = page.evaluate("history.length")
    for name in ("large \u00b7 70B class", "small \u00b7 8B class", "large \u00b7 70B class"):
        page.get_by_role("button", name=name).click()
        page.wait_for_timeout(150)
    expect(page).to_have_url(re.compile(r"tier=large"), timeout=10_000)
    page.wait_for_timeout(2000)
    assert page.evaluate("history.length") == entries + 1
    assert page.console_log.errors == []


def test_an_edit_past_the_preamble_is_clamped_everywhere(page, lab_url):
    """edit_position=150000 on a 1,200-token preamble reads 1,200 in the text, the box and the address."""
    page.goto(lab_url + "/prefix?edit_position=150000&state=edited")
    notice = page.locator("[data-url-notice]")
    expect(notice).to_be_visible(timeout=20_000)
    expect(notice).to_contain_text("using 1,200")
    expect(notice).not_to_contain_text("parameter")
    expect(page.get_by_text("Edited at token 1,200")).to_be_visible()
    box = page.get_by_role("textbox").first  # the edit's own number box
    expect(box).to_have_value(re.compile(r"^1,?200$"))
    expect(page).to_have_url(re.compile(r"edit_position=1200(&|$)"), timeout=10_000)
    assert page.console_log.errors == []


def test_a_bad_preset_lists_only_real_presets(page, lab_url):
    """preset=bogus names the presets it could have been, without an empty first option."""
    page.goto(lab_url + "/pool?preset=bogus")
    notice = page.locator("[data-url-notice]")
    expect(notice).to_be_visible(timeout=20_000)
    expect(notice).to_contain_text("is not one of memory-wall, ")
    assert page.console_log.errors == []


def _weight_bars(image) -> int:
    """Rows of the memory ledger drawn in the weights colour, scanning down one column."""
    rows, inside = 0, False
    column = image.width // 4
    for y in range(image.height):
        red, green, blue = image.getpixel((column, y))[:3]
        weight = abs(red - 0x3D) < 14 and abs(green - 0x5A) < 14 and abs(blue - 0x98) < 14
        rows += weight and not inside
        inside = weight
    return rows


def test_a_shared_links_later_visitors_see_its_own_charts(browser, lab_url):
    """Every page opened from one link draws that link's ledger (4 cards), not the defaults' one card."""
    import io

    from PIL import Image

    drawn = []
    for _visit in range(
        3
    ):  # the first page of a route builds the kept session; later ones reuse it
        page = browser.new_page(viewport={"width": 1280, "height": 800})
        page.goto(lab_url + "/?lab=pool&model=Llama-3-70B&cards=4")
        expect(page.locator('[data-card="live seats"] .value')).to_be_visible(timeout=20_000)
        page.wait_for_timeout(3000)
        ledger = page.locator(".bk-Figure:visible").first  # the hour's chart hides on Poisson
        drawn.append(_weight_bars(Image.open(io.BytesIO(ledger.screenshot()))))
        page.close()
    assert drawn == [4, 4, 4]
