"""The walkthrough's own figures, reproduced exactly by the capacity model."""

import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate


@pytest.fixture
def pool():
    return evaluate(Scenario())


@pytest.fixture
def kv_calculator():
    # a sequence length is a prompt with no answer yet
    return evaluate(Scenario(prompt_tokens=4000, answer_tokens=0, seats=16))


def test_pool_defaults_headline_figures(pool):
    """The pool's four headline cards at the defaults: 16 seats, 27 ms, 1,698 tok/s, $2,913."""
    assert pool.seats_granted == 16
    assert round(pool.ttft_p95_s * 1000) == 27
    assert round(pool.decode_tokens_per_s) == 1698
    assert round(pool.monthly_usd) == 2913


def test_pool_defaults_memory_ledger(pool):
    """1.4k KV tokens per seat, 22k in use against a 464k budget."""
    assert pool.seat_tokens == 1400
    assert round(pool.kv_tokens_in_use, -3) == 22_000
    assert round(pool.kv_budget_tokens, -3) == 464_000


def test_pool_defaults_prefill_and_cards(pool):
    """840 cache-miss tokens; the small tier spans 1 card, 16 GB of weights, 60.8 GB of KV room."""
    assert pool.miss_tokens == 840
    assert pool.cards == 1
    assert_allclose(pool.weight_bytes_per_card, 16e9)
    assert_allclose(pool.kv_budget_bytes, 60.8e9)


def test_pool_defaults_pass_every_check(pool):
    """The default chat pool passes latency, capacity and cost."""
    assert pool.latency_ok and pool.capacity_ok and pool.cost_ok


def test_document_analysis_passes_at_default_knobs():
    """The other workload reads pass, pass, pass on the default knobs."""
    other = evaluate(Scenario(workload="document analysis"))
    assert (other.latency_ok, other.capacity_ok, other.cost_ok) == (True, True, True)


def test_kv_calculator_defaults(kv_calculator):
    """131,072 B a token, 0.52 GB a seat, 16 of 16 with room for 115, 8.4 GB in use, 52 %."""
    r = kv_calculator
    assert r.kv_bytes_per_token == 131_072
    assert round(r.seat_kv_bytes / 1e9, 2) == 0.52
    assert (r.seats_granted, r.seats_requested, r.seats_room) == (16, 16, 115)
    assert round(r.kv_bytes_in_use / 1e9, 1) == 8.4
    assert round(r.kv_share_of_weights * 100) == 52


def test_kv_calculator_largest_sequence_and_outweigh(kv_calculator):
    """The room holds one 463,867-token sequence; one sequence outweighs the model at 122k."""
    assert kv_calculator.kv_budget_tokens == 463_867
    assert round(kv_calculator.outweigh_tokens, -3) == 122_000


def test_fp8_halves_bytes_and_doubles_seats():
    """fp8 halves the bytes per token and doubles the room in seats."""
    bf16 = evaluate(Scenario(prompt_tokens=4000, answer_tokens=0))
    fp8 = evaluate(Scenario(prompt_tokens=4000, answer_tokens=0, kv_dtype="fp8"))
    assert fp8.kv_bytes_per_token * 2 == bf16.kv_bytes_per_token
    assert fp8.seats_room in (2 * bf16.seats_room, 2 * bf16.seats_room + 1)


def test_large_tier_kv_and_room():
    """The 70B class stores 320 KiB a token and leaves about 19 GB of KV room on two cards."""
    r = evaluate(Scenario(tier="large"))
    assert r.kv_bytes_per_token == 320 * 1024
    assert r.cards == 2
    assert_allclose(r.kv_budget_bytes, 19e9, rtol=0.02)


def test_single_stream_ceiling_of_70b_on_one_card():
    """One request on 70B bf16 with one H100's bandwidth streams about 24 tok/s at most."""
    r = evaluate(Scenario(tier="large", cards=1))
    assert round(r.single_stream_tokens_per_s) == 24
