"""In the browser: controls say which model runs, read from the back row, and fit both screen sizes."""

import re

from playwright.sync_api import expect

from labs.widgets import knobs

FONT_PX = "element => parseFloat(getComputedStyle(element).fontSize)"
# Bokeh draws chart text on a canvas: the sizes are read from the models in the page's document.
CHART_TEXT_PX = """() => {
  const sizes = [];
  for (const doc of Bokeh.documents) {
    for (const model of doc.all_models) {
      if ('major_label_text_font_size' in model) {
        sizes.push(parseFloat(model.major_label_text_font_size), parseFloat(model.axis_label_text_font_size));
      }
    }
  }
  return sizes;
}"""

# Each headline card's height, its figure's top, and its label's lines.
CARD_BOXES = """cards => cards.map(card => {
  const label = card.querySelector('.label');
  const lines = label.getBoundingClientRect().height / parseFloat(getComputedStyle(label).lineHeight);
  return [card.getBoundingClientRect().height, card.querySelector('.value').getBoundingClientRect().top,
          Math.round(lines)];
})"""


def smallest_font(locator) -> float:
    """The smallest computed font size, in px, among the elements ``locator`` finds."""
    sizes = [element.evaluate(FONT_PX) for element in locator.all()]
    assert sizes, "nothing to measure"
    return min(sizes)


def test_the_tier_row_shows_the_exact_model_that_runs(page, lab_url):
    """With Qwen2-7B chosen, no tier button stays lit; a tier button clears the exact model."""
    page.goto(lab_url + "/?lab=kv&tier=large&model=Qwen2-7B")
    exact = page.get_by_role("button", name="Qwen2-7B \u00b7 exact")
    expect(exact).to_have_class(re.compile("bk-active"), timeout=20_000)
    large = page.get_by_role("button", name="large \u00b7 70B class")
    expect(large).not_to_have_class(re.compile("bk-active"))
    page.get_by_role("button", name="Pool", exact=True).click()
    expect(page.get_by_role("heading", name="Run the serving pool yourself")).to_be_visible()
    expect(page.locator('[data-knob="model"]')).to_contain_text("Qwen2-7B")
    assert "default default" not in page.locator("body").inner_text()
    page.get_by_role("button", name="small \u00b7 8B class").click()
    expect(page.get_by_role("button", name="Qwen2-7B \u00b7 exact")).to_have_count(0)
    page.get_by_role("button", name="KV cache", exact=True).click()
    expect(page.locator("select").nth(1)).to_have_value(knobs.USE_TIER)
    assert page.console_log.errors == []


def test_presenter_mode_makes_every_control_readable_at_1280(page, lab_url):
    """Slider labels, buttons, the workload text, chart ticks and the header are all ~20 px or more;
    the headline cards stay even, their figures level, though one label wraps."""
    page.goto(lab_url + "/?presenter=1")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    page.wait_for_timeout(500)
    assert smallest_font(page.locator(".bk-slider-title")) >= 19.5
    assert smallest_font(page.locator("button.bk-btn")) >= 19.5
    assert smallest_font(page.locator("input.bk-input, select.bk-input")) >= 19.5
    assert smallest_font(page.get_by_text("The SLO: first token")) >= 19.5
    assert smallest_font(page.locator(".lab.header .brand, .lab.header .tagline")) >= 19.5
    chart = page.evaluate(CHART_TEXT_PX)
    assert chart and min(chart) >= 19.5
    cards = page.locator(".lab .cards > .card").evaluate_all(CARD_BOXES)
    assert len({round(height) for height, _, _ in cards}) == 1, cards
    assert len({round(top) for _, top, _ in cards}) == 1, cards
    assert max(lines for _, _, lines in cards) >= 2  # the test can fail: a label does wrap
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.console_log.errors == []


def test_sidebar_text_sits_close_to_the_body_text(page, lab_url):
    """At normal size the knob column's labels, buttons and notes are 14 px, not Bokeh's 11-12 px."""
    page.goto(lab_url + "/pool")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    assert smallest_font(page.locator(".bk-slider-title")) >= 14
    assert smallest_font(page.locator("button.bk-btn")) >= 14
    assert smallest_font(page.get_by_text("The SLO: first token")) >= 13.9
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    assert page.console_log.errors == []


def test_the_prompt_slider_is_logarithmic_with_a_number_box(page, lab_url):
    """Typing 4,000 into the prompt box sets it; the slider spans 100 to 2^20 in log10 steps."""
    page.goto(lab_url + "/pool")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    box = page.get_by_role("textbox", name="Prompt length (tokens)")
    box.fill("4000")
    box.press("Enter")
    expect(page.get_by_text("Every request carries a 4,000-token prompt")).to_be_visible()
    handle = page.locator(".noUi-handle").nth(1)
    assert 6.0 <= float(handle.get_attribute("aria-valuemax")) < 6.1  # log10(2^20) = 6.02
    expect(handle).to_have_attribute("aria-valuenow", re.compile(r"^3\.6"))
    assert page.console_log.errors == []


def test_editable_slider_numbers_have_a_visible_box(page, lab_url):
    """The concurrent-requests and edit-position numbers are drawn as boxes one can see to type into."""
    for route, value in (("/kv", "16"), ("/prefix", "0")):
        page.goto(lab_url + route)
        expect(page.locator("div.cards").first).to_be_visible(timeout=20_000)
        box = page.locator(".slider-edit input.bk-input").first
        expect(box).to_have_value(value)
        border = box.evaluate("element => parseFloat(getComputedStyle(element).borderTopWidth)")
        assert border >= 1, route
    assert page.console_log.errors == []


def test_wide_pages_leave_no_gap_beside_the_knobs(browser, lab_url):
    """At 1920 x 1080 the pool's results reach past its knob column and practice fills the width."""
    page = browser.new_page(viewport={"width": 1920, "height": 1080})
    page.goto(lab_url + "/pool")
    expect(page.locator('[data-card="live seats"]')).to_be_visible(timeout=20_000)
    page.wait_for_timeout(500)
    knobs_bottom = page.locator(".knob-column").first.evaluate(
        "element => element.getBoundingClientRect().bottom"
    )
    # the results column (its last panel: the read curve, one line for a dense model) ends
    # past the knob column
    last = page.locator("[data-moe-caption]").first.bounding_box()
    assert last["y"] + last["height"] >= knobs_bottom
    page.goto(lab_url + "/practice")
    question = page.locator("[data-question]")
    expect(question).to_be_visible(timeout=20_000)
    working = page.locator("[data-working]")
    top = "element => element.getBoundingClientRect().top"
    assert abs(working.evaluate(top) - page.locator(".problem-head").evaluate(top)) < 80
    page.close()


def test_the_sources_table_fits_and_names_no_seed(page, lab_url):
    """At 1280 the sources table stays inside the window, its value column narrower than its sources."""
    page.goto(lab_url + "/sources")
    table = page.locator("table.grid").first
    expect(table).to_be_visible(timeout=20_000)
    assert page.evaluate("document.documentElement.scrollWidth") <= 1280
    value = table.locator("th").nth(1).evaluate("element => element.getBoundingClientRect().width")
    source = table.locator("th").nth(3).evaluate("element => element.getBoundingClientRect().width")
    assert value < source
    assert "the seed" not in page.locator("body").inner_text()
    assert page.console_log.errors == []
