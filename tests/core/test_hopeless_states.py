"""Valid but hopeless configurations are results, never errors, NaN or infinity."""

import math

from core import UNBOUNDED_WAIT_S, Scenario, evaluate


def test_context_no_room_can_hold_grants_zero_seats():
    """A 1M-token context on the small tier does not fit: 0 seats, an unbounded queue."""
    r = evaluate(Scenario(prompt_tokens=1_000_000, answer_tokens=0))
    assert r.seats_granted == 0
    assert r.queue_unbounded
    assert not r.capacity_ok and not r.latency_ok
    assert r.ttft_p95_s == UNBOUNDED_WAIT_S
    assert r.decode_tokens_per_s == 0


def test_weights_larger_than_the_cards_say_how_many_cards_are_needed():
    """70B in bf16 on one 80 GB card leaves no room; the result names the cards needed."""
    r = evaluate(Scenario(tier="large", cards=1))
    assert not r.weights_fit
    assert r.kv_budget_bytes == 0
    assert r.seats_granted == 0
    assert r.cards_needed == 2


def test_pool_that_cannot_keep_up_reports_unbounded_queue():
    """Offered load exactly equal to the servers is an unstable queue, flagged, not infinite."""
    base = evaluate(Scenario(seats=1))
    # arrivals such that one seat's offered load is exactly 1 Erlang
    r = evaluate(Scenario(seats=1, arrivals_per_min=60.0 / base.request_s))
    assert r.nodes >= 1
    assert math.isfinite(r.ttft_p95_s)
    assert r.utilization <= 1.0


def test_answer_of_zero_tokens_is_prefill_only():
    """A request with no answer lasts only its prefill and prefix read."""
    r = evaluate(Scenario(answer_tokens=0))
    assert r.request_s == r.prefill_s + r.prefix_read_s


def test_a_fully_cached_prompt_still_takes_one_step():
    """With every prompt token cached the first token still waits for one forward pass."""
    r = evaluate(Scenario(prefix_hit_rate=1.0))
    assert r.prefill_s == 0
    assert r.ttft_p95_s >= r.decode_step_s


def test_a_pool_that_serves_nothing_fails_cost():
    """No seat fits: the node's bill buys nothing, so the cost check fails at either level."""
    for realism in ("whiteboard", "engine"):
        r = evaluate(Scenario(tier="large", prompt_tokens=200_000, realism=realism))
        assert r.seats_granted == 0
        assert not r.cost_ok
