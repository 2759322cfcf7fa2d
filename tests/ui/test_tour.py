"""The tour walked end to end in the browser, and predict-then-reveal on the pool lab's four cards."""

import re

from playwright.sync_api import expect

from core import Scenario, evaluate
from labs.page import format as fmt
from labs.pool.lab import PREDICTED
from labs.tour.steps import STEPS
from labs.widgets.predict import GUESSED
from tests.ui.tour_answers import answer_right


def test_the_tour_walked_end_to_end(page, lab_url):
    """Every step answered right (the figure or option core computes), then Next, up to the last."""
    page.goto(lab_url + "/tour")
    for number, step in enumerate(STEPS, start=1):
        expect(page.locator(f'[data-tour-step="{number}"]')).to_be_visible(timeout=20_000)
        figure = answer_right(page, step)
        question = step.question
        expect(page.locator('[data-tour-verdict="right"]')).to_be_visible(timeout=10_000)
        if question.is_guess:
            expect(page.locator("[data-tour-verdict]")).to_contain_text(
                GUESSED[question.field][1](figure)
            )
        if number < len(STEPS):
            page.get_by_role("button", name="Next \u2192").click()
    expect(page.get_by_role("button", name="Next \u2192")).to_be_disabled()
    expect(page).to_have_url(re.compile(rf"step={len(STEPS)}"), timeout=10_000)
    assert page.console_log.errors == []


def test_predict_then_reveal_on_the_pool_labs_four_cards(page, lab_url):
    """With ?predict=1 the four cards wait for a guess; each guess reveals its card and a row."""
    page.goto(lab_url + "/?lab=pool&predict=1")
    result = evaluate(Scenario())
    for label in PREDICTED:
        expect(page.locator(f'[data-card="{label}"] .value')).to_have_text("?", timeout=20_000)
    guesses = {"live seats": "16", "TTFT p95": "27 ms", "aggregate decode rate": "1.7k tok/s",
               "monthly bill": "$2,900"}  # fmt: skip
    for label, text in guesses.items():
        box = page.get_by_label(label, exact=True)
        box.fill(text)
        box.press("Enter")
        expect(page.locator(f'[data-reveal="{label}"]')).to_be_visible(timeout=10_000)
        expect(page.locator(f'[data-card="{label}"] .value')).not_to_have_text("?")
    expect(page.locator('[data-card="live seats"] .value')).to_have_text(
        fmt.count(result.seats_granted)
    )
    expect(page.locator('[data-reveal="monthly bill"]')).to_contain_text(
        fmt.dollars(result.monthly_usd)
    )
    expect(page.locator("[data-calibration]")).to_contain_text("100% of 4 guesses within 25%")
    assert page.console_log.errors == []
