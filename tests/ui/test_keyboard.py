"""The keyboard alone: walk the pool lab (batch size, a preset, pin A) and answer a poll.

Only Playwright's keyboard acts; every control that takes the focus on the way must show a
focus ring.
"""

from __future__ import annotations

from playwright.sync_api import expect

from core import Scenario, evaluate
from labs.page import format as fmt
from labs.pool.presets import POOL_PRESETS
from labs.widgets.knobs import UI_RANGES, round_figures
from tests.ui.conftest import POLL_CODES

BUILD_MS = 60_000  # a fresh page builds the whole lab: several seconds on a busy machine
MOST_STEPS = 80  # more Tab presses than any control here is away
# The focused element, through the shadow roots Panel draws in: what it is, and its ring
# (an outline or a box shadow at least 2 px wide).
FOCUSED_JS = """() => {
  let el = document.activeElement;
  while (el && el.shadowRoot && el.shadowRoot.activeElement) el = el.shadowRoot.activeElement;
  if (!el || el === document.body) return null;
  const style = getComputedStyle(el);
  const outline = style.outlineStyle !== "none" && parseFloat(style.outlineWidth) >= 2;
  const shadow = /\\b([2-9]|\\d{2,})px( [^,]*)?$/.test(style.boxShadow.split(",").pop().trim())
    || /0px 0px 0px [2-9]px/.test(style.boxShadow);
  const title = el.getRootNode().querySelector && el.getRootNode().querySelector(".bk-slider-title");
  return {
    tag: el.tagName, cls: String(el.className), text: (el.innerText || "").trim(),
    placeholder: el.getAttribute("placeholder") || "", title: title ? title.innerText : "",
    ring: outline || shadow,
  };
}"""


def focus(page, found, backwards: bool = False) -> dict:
    """Press Tab (Shift+Tab) until the focused element satisfies ``found``; each one on the way has a ring."""
    unringed = []
    for _ in range(MOST_STEPS):
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
        now = page.evaluate(FOCUSED_JS)
        if now is None:
            continue
        if not now["ring"]:
            unringed.append(now)
        if found(now):
            assert unringed == [], unringed
            return now
    raise AssertionError(f"not reached in {MOST_STEPS} presses")


def test_the_pool_lab_by_keyboard(page, lab_url):
    """Tab to the batch size and move it, back to the famous failures and load one, back to Pin as A."""
    page.goto(lab_url + "/?lab=pool")
    seats = page.locator('[data-card="live seats"] .value')
    expect(seats).to_have_text("16", timeout=BUILD_MS)

    focus(page, lambda el: "noUi-handle" in el["cls"] and el["title"].startswith("Batch size"))
    page.keyboard.press("End")
    expect(seats).to_have_text(fmt.count(evaluate(Scenario(seats=256)).seats_granted))

    focus(page, lambda el: el["tag"] == "SELECT" and "famous failure" in el["text"], True)
    page.keyboard.press("ArrowDown")  # the first famous failure
    preset = POOL_PRESETS[0]
    expect(page.locator(f'[data-preset="{preset.key}"]')).to_be_visible()

    focus(page, lambda el: el["text"] == "Pin as A", True)
    page.keyboard.press("Enter")
    expect(page.locator('[data-pin="A"]')).to_be_visible(timeout=15_000)
    assert page.console_log.errors == []


def test_a_poll_answered_by_keyboard(page, poll_lab):
    """Tab to the code box, type the code and Enter; Tab to a choice, Enter; Tab to Vote, Enter."""
    url, _location = poll_lab
    code = POLL_CODES[1]
    page.goto(url + "/?lab=pool")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("16", timeout=BUILD_MS)

    focus(page, lambda el: el["tag"] == "INPUT" and el["placeholder"] == "code")
    page.keyboard.type(code.lower())
    page.keyboard.press("Enter")
    expect(page.get_by_role("button", name="Vote")).to_be_visible(timeout=10_000)

    focus(page, lambda el: el["tag"] == "BUTTON" and el["text"] == "B")
    page.keyboard.press("Enter")
    focus(page, lambda el: el["tag"] == "BUTTON" and el["text"] == "Vote")
    page.keyboard.press("Enter")
    expect(page.locator(".poll-status")).to_contain_text("Your answer B is recorded", timeout=5_000)
    assert page.console_log.errors == []


SLIDER_WORDS_JS = """() => {
  const out = {};
  const walk = (root) => { for (const el of root.querySelectorAll('*')) {
    if (el.getAttribute && el.getAttribute('role') === 'slider') {
      out[el.getAttribute('aria-label')] = el.getAttribute('aria-valuetext');
    }
    if (el.shadowRoot) walk(el.shadowRoot);
  } };
  walk(document);
  return out;
}"""


def test_a_slider_speaks_the_figure_it_shows(page, lab_url):
    """A screen reader hears each slider's figure (the prompt's count, not its log position)."""
    page.goto(lab_url + "/?lab=pool")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text("16", timeout=BUILD_MS)
    defaults = Scenario()
    expected = {
        "Batch size (seats)": fmt.count(defaults.seats),
        "Prompt length (tokens)": fmt.count(defaults.prompt_tokens),
        "Prefix cache hit rate": fmt.percent(defaults.prefix_hit_rate),
    }
    page.wait_for_function(
        "(want) => { const got = (" + SLIDER_WORDS_JS + ")(); "
        "return Object.entries(want).every(([k, v]) => got[k] === v); }",
        arg=expected,
        timeout=20_000,
    )
    focus(page, lambda el: "noUi-handle" in el["cls"] and not el["title"])  # the prompt's
    bounds = UI_RANGES["prompt_tokens"]
    page.keyboard.press("End")
    page.wait_for_function(
        "(want) => (" + SLIDER_WORDS_JS + ")()['Prompt length (tokens)'] === want",
        arg=fmt.count(round_figures(max(bounds), bounds)),
        timeout=20_000,
    )
