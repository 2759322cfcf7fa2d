"""Figures at the edges of the knobs: first-token times ordered and non-negative, prices finite."""

import math

import pytest

from core import Scenario, evaluate
from core.scenario.knobs import SERVING_MODES
from labs.frame.shell import lab_bindings
from labs.page.links import restore
from labs.pool.lab import PoolLab


@pytest.mark.parametrize("mode", SERVING_MODES)
def test_a_closed_loop_of_one_token_answers_has_an_ordered_first_token(mode):
    """The reported link (engine, 62 users, 1-token answers): 0 <= TTFT p50 <= TTFT p95."""
    r = evaluate(Scenario(realism="engine", serving_mode=mode, concurrency=62, answer_tokens=1))
    assert 0.0 <= r.ttft_p50_s <= r.ttft_p95_s


def test_chunks_never_take_back_more_first_token_than_a_closed_loop_holds():
    """Chunked prefill under a closed loop keeps the first token at least one chunked pass long."""
    knobs = {"realism": "engine", "concurrency": 62, "answer_tokens": 1}
    chunked = evaluate(Scenario(serving_mode="chunked", **knobs))
    assert chunked.ttft_p95_s >= chunked.ttft_p50_s >= chunked.decode_step_s


def test_a_whiteboard_closed_loop_has_one_first_token_time():
    """On the whiteboard every closed-loop request is alike: its p50 and p95 are one figure."""
    r = evaluate(Scenario(concurrency=62, answer_tokens=1))
    assert r.ttft_p95_s == r.ttft_p50_s


def test_a_closed_loop_first_token_is_its_prompt_plus_its_wait():
    """The latency card's breakdown adds up under a closed loop: prompt work + wait for a seat."""
    r = evaluate(Scenario(concurrency=62, answer_tokens=1))
    first_token = max(r.prompt_s, r.decode_step_s)
    assert r.queue_wait_p95_s > 0
    assert math.isclose(r.ttft_p95_s, first_token + r.queue_wait_p95_s, rel_tol=1e-12)


@pytest.mark.parametrize("arrivals_per_min", [0.5, 5.0, 30.0])
def test_a_light_prefill_load_keeps_the_engine_p50_below_its_p95(arrivals_per_min):
    """Most prompts wait for no prefill: the p50 takes the median wait, not the (larger) mean."""
    r = evaluate(Scenario(realism="engine", arrivals_per_min=arrivals_per_min, prompt_tokens=1200))
    assert r.ttft_p50_s <= r.ttft_p95_s


def test_a_disaggregated_p50_is_capped_like_its_p95():
    """A first token past an hour reads as the unbounded figure at both percentiles."""
    r = evaluate(
        Scenario(
            model="Mistral-7B", gpu="MI355X", cards=2, kv_dtype="fp8", seats=256,
            prompt_tokens=3_313_965, answer_tokens=1, prefix_hit_rate=0.0,
            arrivals_per_min=14.121435442782337, realism="engine", serving_mode="disaggregated",
        )
    )  # fmt: skip
    assert r.ttft_p50_s <= r.ttft_p95_s


@pytest.mark.parametrize("arrivals_per_min", [1e-300, 2.2e-311, 0.001])
def test_an_implausibly_quiet_peak_is_refused_naming_the_range(arrivals_per_min):
    """Arrivals below 0.01 a minute are refused with the knob, the value and the range."""
    with pytest.raises(ValueError, match=r"arrivals_per_min.*0\.01 to 1,000,000"):
        Scenario(arrivals_per_min=arrivals_per_min)
    with pytest.raises(ValueError, match=r"arrivals_per_min.*0\.01 to 1,000,000"):
        evaluate(Scenario(), arrivals_per_min=arrivals_per_min)


@pytest.mark.parametrize("realism", ["whiteboard", "engine"])
def test_the_quietest_allowed_peak_prices_tokens_finitely(realism):
    """At 0.01 arrivals a minute with 1-token answers the price per million tokens is finite."""
    r = evaluate(Scenario(arrivals_per_min=0.01, answer_tokens=1, realism=realism))
    for price in (r.usd_per_million_output_tokens, r.usd_per_million_input_tokens):
        assert math.isfinite(price) and price > 0


def test_a_link_with_an_implausibly_quiet_peak_clamps_with_a_notice():
    """``?arrivals_per_min=1e-300`` opens the pool at 0.01 a minute and says so."""
    scenario = Scenario()
    view = PoolLab(scenario)
    notices = restore(lab_bindings(view, scenario), "?arrivals_per_min=1e-300")
    assert scenario.arrivals_per_min == 0.01
    assert any("arrivals_per_min" in notice and "using 0.01" in notice for notice in notices)


def test_dollar_figures_past_a_billion_read_as_a_bound():
    """A bill or a price past $1 billion (or infinite) reads 'more than $1 billion', not 300 digits."""
    from labs.page import format as fmt

    for write in (fmt.dollars, fmt.price, fmt.token_price):
        assert write(1e300) == "more than $1 billion"
        assert write(float("inf")) == "more than $1 billion"
    assert fmt.dollars(2913.0) == "$2,913"
