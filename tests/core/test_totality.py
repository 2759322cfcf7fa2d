"""Core is total over what validation lets through: a pasted shape it accepts evaluates to finite,
non-negative figures, and the two shapes that crashed labs are refused by name."""

import json
import math
import time

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog.config_json import compact_config, parse_config
from core.scenario.result import RESULT_FIELDS, package
from core.traffic import queueing
from core.whiteboard.experts import expert_weight_bytes_read
from tests.paths import FIXTURES_DIR
from tests.strategies_configs import pasted_configs

FIXTURES = FIXTURES_DIR / "configs"


def llama_with(**changes) -> str:
    """Llama 3.1 8B's real config.json with ``changes``, as text."""
    return json.dumps({**json.loads((FIXTURES / "llama-3.1-8b.json").read_text()), **changes})


def plain_erlang_b(servers: int, load: float) -> float:
    blocking = 1.0
    for k in range(1, servers + 1):
        blocking = load * blocking / (k + load * blocking)
    return blocking


def test_a_mixtral_whose_tokens_take_all_eight_experts_is_refused_naming_the_field():
    """8 of 8 experts a token (which crashed /pool in erlang_b) is refused, naming num_experts_per_tok."""
    text = llama_with(num_local_experts=8, num_experts_per_tok=8)
    with pytest.raises(ValueError, match="'num_experts_per_tok' is 8") as error:
        Scenario(model="custom", model_config=text)
    assert "1 to 7" in str(error.value)


def test_eight_thousand_query_heads_are_refused_naming_the_field():
    """8,192 heads on a 4,096 hidden size (a head dim of 0, an OverflowError) is refused by name."""
    text = llama_with(num_attention_heads=8192, num_key_value_heads=8192)
    with pytest.raises(ValueError, match="'num_attention_heads' is 8,192"):
        parse_config(text)


def test_heads_that_leave_too_small_a_head_are_refused_unless_head_dim_is_stated():
    """1,024 heads on 4,096 would give 4 dimensions a head: refused; stating head_dim allows it."""
    with pytest.raises(ValueError, match=r"'num_attention_heads' is 1,024.*1 to 512"):
        parse_config(llama_with(num_attention_heads=1024, num_key_value_heads=8))
    shape = parse_config(llama_with(num_attention_heads=1024, num_key_value_heads=8, head_dim=64))
    assert shape.shape.head_dim == 64


def test_a_mixture_whose_every_token_takes_every_expert_reads_like_a_dense_model():
    """k = E reads every weight at any batch, never NaN (the divide by E - k that crashed)."""
    read = expert_weight_bytes_read(2e9, 1e9, 0.9e9, 8, 8, np.array([1.0, 64.0]))
    assert_allclose(read, 2e9)


@pytest.mark.parametrize("load", [1.2e4, 3e5, 2e6])
@pytest.mark.parametrize("sigmas", [-8.0, -1.0, 0.0, 0.7, 4.0])
def test_erlang_b_at_large_loads_matches_the_exact_recursion(load, sigmas):
    """Above LARGE_LOAD the integral form agrees with the exact recursion to 1e-5."""
    servers = int(load + sigmas * math.sqrt(load))
    assert_allclose(queueing.erlang_b(servers, load), plain_erlang_b(servers, load), rtol=1e-5)
    swept = queueing.erlang_b(np.array([servers, 10]), np.array([load, 9.0]))
    assert_allclose(swept, [plain_erlang_b(servers, load), plain_erlang_b(10, 9.0)], rtol=1e-5)


def test_erlang_b_is_quick_at_any_load():
    """A sweep of a thousand queues of 10^8 Erlangs takes well under a second (was O(sqrt(a)) steps)."""
    servers, load = np.full(1000, 1.0001e8), np.full(1000, 1e8)
    start = time.perf_counter()
    blocking = queueing.erlang_b(servers, load)
    assert time.perf_counter() - start < 1.0
    assert np.all((blocking > 0) & (blocking < 1))


def test_queueing_is_total_over_non_finite_inputs():
    """NaN or infinite loads and servers give NaN blocking and an unbounded queue, never an exception."""
    assert math.isnan(queueing.erlang_b(np.nan, 3.0))
    assert math.isnan(queueing.erlang_b(5.0, np.inf))
    wait, unbounded = queueing.wait_quantile(np.array([np.nan, 10.0]), 1.0, np.inf, 0.95)
    assert unbounded.all() and np.all(wait == 0.0)


def test_result_packing_refuses_a_count_that_is_not_finite():
    """An infinite seat count raises a ValueError naming the field (it was an OverflowError)."""
    values = dict.fromkeys(RESULT_FIELDS, 1.0)
    values["kv_budget_tokens"] = math.inf
    with pytest.raises(ValueError, match="kv_budget_tokens"):
        package(values)
    with pytest.raises(ValueError, match="kv_budget_tokens"):
        package({**values, "kv_budget_tokens": np.array([1.0, math.inf])})


def assert_whole(result) -> None:
    for name in RESULT_FIELDS:
        value = getattr(result, name)
        if isinstance(value, bool):
            continue
        assert math.isfinite(value) and value >= 0, f"{name} = {value}"


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(config=pasted_configs(), realism=st.sampled_from(["whiteboard", "engine"]),
       seats=st.sampled_from([1, 16, 4096]), prompt=st.sampled_from([1, 1200, 4_000_000]),
       answer=st.sampled_from([None, 0, 1, 1_000_000]))  # fmt: skip
def test_any_config_parse_accepts_evaluates_to_finite_non_negative_figures(
    config, realism, seats, prompt, answer
):
    """Every pasted shape parse_config accepts gives finite, non-negative figures at both levels."""
    text = json.dumps(config)
    try:
        parse_config(text)
    except ValueError:
        return  # refused with a message: the other tests check what it says
    scenario = Scenario(model="custom", model_config=compact_config(text), realism=realism)
    result = evaluate(scenario, seats=seats, prompt_tokens=prompt, answer_tokens=answer)
    assert_whole(result)


def test_a_huge_mixture_that_does_not_fit_still_gives_whole_figures():
    """4,095 of 4,096 tiny experts beside a 4M-word untied embedding: no NaN decode rate, no negative read."""
    big = json.loads(llama_with(num_hidden_layers=1024, hidden_size=16384, num_attention_heads=1024,
                                num_key_value_heads=1024, head_dim=512, vocab_size=4_000_000,
                                num_local_experts=4096, num_experts_per_tok=4095,
                                moe_intermediate_size=1))  # fmt: skip
    result = evaluate(Scenario(model="custom", model_config=compact_config(json.dumps(big))))
    assert result.seats_granted == 0
    assert_whole(result)
