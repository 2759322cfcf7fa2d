"""The practice lab in the browser: a seeded problem from the link, answered right and wrong."""

import re

from playwright.sync_api import expect


def answer_box(page):
    """The answer field (its placeholder starts with an example)."""
    return page.get_by_placeholder(re.compile(r"^e\.g\."))


def test_right_and_wrong_answers_get_their_verdicts(page, lab_url):
    """The classic KV problem from a link: wrong, then right, each with its verdict; the link keeps the answer."""
    page.goto(lab_url + "/practice?challenge=kv_bytes&seed=0")
    expect(page.get_by_text("How many bytes of KV cache")).to_be_visible(timeout=20_000)
    expect(page.locator("[data-seed='0']")).to_be_visible()

    box = answer_box(page)
    box.fill("65536")
    box.press("Enter")
    wrong = page.locator("[data-verdict='wrong']")
    expect(wrong).to_be_visible(timeout=10_000)
    expect(wrong).to_contain_text("Not yet")
    expect(page.locator("[data-hint]")).to_be_visible()

    box.fill("128 KiB")
    page.get_by_role("button", name="Check", exact=True).click()
    right = page.locator("[data-verdict='right']")
    expect(right).to_be_visible(timeout=10_000)
    expect(right).to_contain_text("131,072 B")
    expect(page.locator("[data-card='right after a hint'] .value")).to_have_text("1")
    assert page.console_log.errors == []

    # The typed answer lives in the link: reopening it puts the answer back in the box.
    page.wait_for_function("() => location.search.includes('answer=128+KiB')", timeout=10_000)
    page.goto(page.url)
    expect(page.locator("[data-seed='0']")).to_be_visible(timeout=20_000)
    expect(answer_box(page)).to_have_value("128 KiB")


def test_garbage_and_show_me(page, lab_url):
    """Unreadable input gets a message, not an error; Show me ends on core's figure."""
    page.goto(lab_url + "/practice?challenge=prefill_time&seed=0")
    expect(page.get_by_text("How long does prefill take")).to_be_visible(timeout=20_000)
    box = answer_box(page)
    box.fill("27 GB")
    box.press("Enter")
    expect(page.locator("[data-verdict='unreadable']")).to_contain_text("time", timeout=10_000)
    page.get_by_role("button", name="Show me", exact=True).click()
    derivation = page.locator("[data-derivation]")
    expect(derivation).to_contain_text("27.18 ms", timeout=10_000)
    expect(page.locator("[data-card='revealed'] .value")).to_have_text("1")
    assert page.console_log.errors == []
