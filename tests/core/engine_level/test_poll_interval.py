"""SGLang's scheduler polls for new requests every few decode steps: the wait it adds to a first token."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.joining import polled_steps
from core.evaluate import engine_node

# decode steps between prefills, in steps of a second (prefills 1 / BETWEEN a second)
BETWEEN = np.array([0.5, 3.0, 30.0, 300.0, 3e4, 3e8])
STEP_S = 1.0


def test_a_poll_every_step_adds_nothing():
    """An interval of one is the wait every engine's loop already gives: exactly zero."""
    assert polled_steps(1.0, 1.0 / 40.0, STEP_S) == 0.0
    assert_allclose(polled_steps(1.0, 1.0 / BETWEEN, STEP_S), 0.0, rtol=0, atol=0)


@pytest.mark.parametrize("interval", [2.0, 10.0, 30.0])
def test_with_prefills_rare_a_request_waits_half_the_interval_more(interval):
    """Prefills far apart: polls come every k steps, a random arrival waits k/2 where a poll every
    step leaves it 1/2, so (k - 1) / 2 more."""
    assert polled_steps(interval, 1e-9, STEP_S) == pytest.approx((interval - 1.0) / 2.0, rel=1e-6)


@pytest.mark.parametrize("interval", [2.0, 10.0, 30.0])
def test_prefills_that_come_often_poll_sooner(interval):
    """A prefill step polls at once: the more often prefills come, the shorter the wait, never
    below zero, never above (k - 1) / 2; plain floats give the arrays' figures."""
    waits = polled_steps(np.full(BETWEEN.shape, interval), 1.0 / BETWEEN, STEP_S)
    assert np.all(np.diff(waits) > 0.0)
    assert np.all(waits >= 0.0) and np.all(waits <= (interval - 1.0) / 2.0 + 1e-12)
    plain = [polled_steps(interval, 1.0 / float(between), STEP_S) for between in BETWEEN]
    assert_allclose(plain, waits, rtol=1e-12)


def _sglang(**knobs) -> Scenario:
    """DeepSeek-R1 in nvfp4 on eight B200 under SGLang at 16 closed-loop users, 1k/1k."""
    return Scenario(
        model="DeepSeek-R1", gpu="B200", cards=8, weight_dtype="nvfp4", kv_dtype="fp8",
        engine="sglang", layout="ep", prompt_tokens=922, answer_tokens=922, concurrency=16,
        realism="engine", **knobs,
    )  # fmt: skip


def test_sglang_at_a_recv_interval_pays_the_wait_in_its_first_token_only():
    """At --scheduler-recv-interval 30 the first token waits about 14.5 decode steps more (less
    as the others' prefills poll sooner), the time between tokens all but the same and the throughput
    barely moves."""
    every, thirty = evaluate(_sglang()), evaluate(_sglang(recv_interval=30))
    node = engine_node(_sglang(recv_interval=30))
    assert float(node.poll_interval) == 30.0
    added = float(thirty.ttft_p50_s - every.ttft_p50_s)
    step = float(every.itl_s)
    assert 10.0 * step < added < 14.5 * step
    assert float(thirty.itl_s) == pytest.approx(float(every.itl_s), rel=3e-3)
    assert float(thirty.throughput_tokens_per_s) < float(every.throughput_tokens_per_s)
    assert float(thirty.throughput_tokens_per_s) == pytest.approx(
        float(every.throughput_tokens_per_s), rel=0.03
    )


@pytest.mark.parametrize("engine", ["vllm", "tensorrt-llm"])
def test_other_engines_poll_every_step_whatever_the_knob(engine):
    """vLLM and TensorRT-LLM take new requests each step: the knob moves none of their figures."""
    knobs = dict(model="Llama-3-70B", gpu="H100 SXM", cards=4, engine=engine, realism="engine",
                 concurrency=32)  # fmt: skip
    assert float(engine_node(Scenario(**knobs, recv_interval=30)).poll_interval) == 1.0
    assert float(evaluate(Scenario(**knobs, recv_interval=30)).ttft_p50_s) == float(
        evaluate(Scenario(**knobs)).ttft_p50_s
    )


def test_an_open_loop_waits_for_the_poll_too():
    """Arrivals at a rate under SGLang at interval 10 see a later first token than at 1."""
    knobs = dict(model="Llama-3-70B", gpu="H100 SXM", cards=4, engine="sglang", realism="engine",
                 arrivals_per_min=600.0)  # fmt: skip
    assert float(evaluate(Scenario(**knobs, recv_interval=10)).ttft_p50_s) > float(
        evaluate(Scenario(**knobs)).ttft_p50_s
    )


@pytest.mark.parametrize("value", [0, 1001, -3])
def test_an_interval_outside_its_range_is_refused_by_name(value):
    """The knob takes 1 to 1,000 decode steps; anything else names it."""
    with pytest.raises(ValueError, match="recv_interval"):
        Scenario(recv_interval=value)
