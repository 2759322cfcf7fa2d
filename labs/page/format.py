"""How numbers read on the page: core's one vocabulary (:mod:`core.foundation.numbers`), the
same writers practice derivations use, plus what only a page needs: bar widths, a figure split
from its unit for a card, a chart axis's figure, an article before a figure, the model's name."""

from __future__ import annotations

from core.catalog.custom import scenario_shape
from core.foundation.numbers import (
    HUMANE_DOLLARS,
    MINUS,
    bandwidth,
    billions,
    count,
    dollars,
    duration,
    finite,
    first_token,
    flops,
    fraction,
    gigabytes,
    intensity,
    memory,
    percent,
    plural,
    price,
    rate,
    ratio,
    signed,
    signed_dollars,
    signed_duration,
    teraflops,
    times,
    token_price,
    tokens,
)
from core.scenario.knobs import Scenario

__all__ = [
    "HUMANE_DOLLARS", "MINUS", "article", "axis_text", "bandwidth", "bar_widths", "billions",
    "count", "dollars", "duration", "finite", "first_token", "flops", "fraction", "gigabytes", "intensity",
    "memory", "model_name", "percent", "plural", "price", "rate", "ratio", "signed",
    "signed_dollars", "signed_duration", "split_unit", "teraflops", "times", "token_price",
    "tokens",
]  # fmt: skip


def bar_widths(values) -> list[str]:
    """CSS widths of bars drawn to one scale, the largest full width: ['100.0%', '50.0%']."""
    widest = max(values)
    return [f"{100 * value / widest:.1f}%" if widest > 0 else "0%" for value in values]


def split_unit(text: str) -> tuple[str, str]:
    """'27 ms' -> ('27', 'ms'); a word without a unit stays whole."""
    number, _, unit = text.rpartition(" ")
    return (number, unit) if number else (text, "")


def article(text: str) -> str:
    """'a' or 'an' for a phrase that opens with a figure or a word: an 8,000-token, a 1,200-token."""
    leading = text.lstrip().split(",")[0].split(" ")[0].split("-")[0]
    if leading[:1].isdigit():
        # Said aloud: eight..., eleven, eighteen (and their thousands) open with a vowel.
        vowel = leading.startswith("8") or (len(leading) in (2, 5) and leading[:2] in ("11", "18"))
    else:
        vowel = leading[:1].lower() in "aeio"
    return f"{'an' if vowel else 'a'} {text}"


def axis_text(measure: str, value: float) -> str:
    """One figure of a chart axis as the page writes it."""
    if measure == "ttft":
        return duration(value)
    if measure == "cost":
        return token_price(value)
    return rate(value)


def model_name(scenario: Scenario) -> str:
    """The model the scenario runs, as the page names it."""
    return scenario_shape(scenario).name
