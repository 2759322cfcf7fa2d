"""One number vocabulary: core.foundation.numbers writes every quantity, for pages and practice."""

import inspect

import pytest

from core import Scenario, evaluate
from core.foundation import numbers
from core.foundation.units import number_text, significant
from core.practice import wording
from labs.page import format as fmt


@pytest.fixture(scope="module")
def pool():
    return evaluate(Scenario())


def test_headline_figures_read_as_the_seed_writes_them(pool):
    """At the defaults the headline writers give the seed's strings: 27 ms, 1.4k, 464k, $2,913."""
    assert numbers.duration(pool.ttft_p95_s) == "27 ms"
    assert numbers.tokens(pool.seat_tokens) == "1.4k"
    assert numbers.tokens(pool.kv_tokens_in_use) == "22k"
    assert numbers.tokens(pool.kv_budget_tokens) == "464k"
    assert numbers.gigabytes(pool.kv_budget_bytes) == "60.8 GB"
    assert numbers.dollars(pool.monthly_usd) == "$2,913"
    assert numbers.percent(Scenario().prefix_hit_rate) == "30%"


def test_working_figures_keep_four_figures_by_the_same_rule(pool):
    """A derivation's working figure is the headline's rounding rule with more figures."""
    assert (
        numbers.duration(pool.ttft_p95_s, figures=4) == f"{number_text(pool.ttft_p95_s * 1e3)} ms"
    )
    assert numbers.bandwidth(2.039e12) == "2.04 TB/s"
    assert numbers.bandwidth(2.039e12, figures=4) == "2.039 TB/s"
    assert numbers.percent(0.125, figures=3) == numbers.percent(0.125, digits=1) == "12.5%"


@pytest.mark.parametrize("value", [0.5243, 3.352, 27.17897, 131_072.0, 0.00451, 9.9996, 1234.5])
def test_number_text_is_significant_without_the_decimal_cap(value):
    """number_text rounds as significant does, keeping every decimal its figures need."""
    assert number_text(value, 4) == significant(value, 4, most_decimals=5)


def test_plural_agrees_with_the_number_as_written():
    """A count written '1' takes the singular, whatever its precision: 1 seat, 840.5 tokens."""
    assert numbers.plural(1, "seat") == "1 seat"
    assert numbers.plural(1.00001, "token", figures=5) == "1 token"
    assert numbers.plural(840.5, "token", figures=5) == "840.5 tokens"
    assert numbers.plural(7, "replica") == "7 replicas"


def test_the_page_writes_numbers_with_cores_writers():
    """labs.page.format's number writers are core's own functions, not copies."""
    for name in ("tokens", "duration", "percent", "flops", "bandwidth", "plural", "dollars"):
        assert getattr(fmt, name) is getattr(numbers, name), name


def test_practice_wording_defines_no_number_writer_of_its_own():
    """Practice wording names models and nodes; no writer there shares a name with core's."""
    own = {name for name, _ in inspect.getmembers(wording, inspect.isfunction)}
    own = {name for name in own if getattr(wording, name).__module__ == wording.__name__}
    assert not own & set(dir(numbers)), own & set(dir(numbers))
