"""A closed loop's run opens with every user's first prompt at once: its first token averages that in."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.load import ClosedLoop, opening_burst
from core.engine_level.terms import ALL_TERMS
from core.evaluate import evaluate_terms

KNOBS = dict(
    model="Llama-3-70B", gpu="H100 SXM", cards=8, weight_dtype="fp8", kv_dtype="fp8",
    prompt_tokens=2048, answer_tokens=512, realism="engine", engine="vllm", concurrency=64,
)  # fmt: skip


def steady_loop(running=64.0, ttft=0.1, alone=0.08) -> ClosedLoop:
    """A closed loop's steady state with only the fields the opening burst reads set."""
    return ClosedLoop(
        throughput=1.0, itl=0.02, ttft=ttft, request=10.0, running=running, step=0.02, busy=0.1,
        company=1.0, seat_wait=0.0, alone=alone,
    )  # fmt: skip


def test_the_runs_mean_weighs_the_opening_prompts_queue_against_the_steady_state():
    """640 requests at 64 running: 64 open with 0.08 s + (64 - 1) / 2 x 0.01 s, 576 see 0.1 s."""
    mean, _ = opening_burst(steady_loop(), 640.0, 0.01, 0.2)
    assert_allclose(mean, (64 * (0.08 + 31.5 * 0.01) + 576 * 0.1) / 640, rtol=1e-12)


def test_a_run_that_never_ends_is_the_steady_state():
    """An endless run (inf requests) keeps the steady state's mean and 95th percentile."""
    mean, p95 = opening_burst(steady_loop(), np.inf, 0.01, 0.2)
    assert (mean, p95) == (0.1, 0.2)


def test_the_95th_percentile_is_the_opening_burst_s_own_where_it_holds_one_in_twenty():
    """Ten requests a user: the burst is a tenth of the run, so the run's p95 is the burst's
    median prompt, 0.08 s + 0.5 x 63 x 0.01 s, where that is later than the steady state's."""
    _, p95 = opening_burst(steady_loop(), 640.0, 0.01, 0.2)
    assert_allclose(p95, 0.08 + 0.5 * 63 * 0.01, rtol=1e-12)
    _, later = opening_burst(steady_loop(), 640.0, 0.01, 1.0)
    assert later == 1.0
    _, rare = opening_burst(steady_loop(), 64.0 * 40, 0.01, 0.2)
    assert rare == 0.2  # a fortieth of the run: the steady state's own tail


def test_a_benchmark_run_s_first_token_counts_its_opening_burst_and_nothing_else_moves():
    """Ten requests a user: the mean first token rises above the endless run's; throughput and
    the time between tokens are the steady state's (ten whole waves)."""
    endless = evaluate(Scenario(**KNOBS))
    run = evaluate(Scenario(**KNOBS, run_requests=640))
    assert run.ttft_p50_s > endless.ttft_p50_s
    assert run.ttft_p95_s >= endless.ttft_p95_s
    assert_allclose(run.throughput_tokens_per_s, endless.throughput_tokens_per_s, rtol=1e-9)
    assert_allclose(run.itl_s, endless.itl_s, rtol=1e-12)


def test_one_user_s_run_opens_as_it_goes_on():
    """One user's first prompt finds the node idle, as every later one does: no burst."""
    endless = evaluate(Scenario(**{**KNOBS, "concurrency": 1}))
    run = evaluate(Scenario(**{**KNOBS, "concurrency": 1}, run_requests=10))
    assert_allclose(run.ttft_p50_s, endless.ttft_p50_s, rtol=1e-9)


def test_the_burst_belongs_to_the_finite_run_term():
    """Without the finite_run term a run's length leaves its first token as the endless run's."""
    scenario = Scenario(**KNOBS, run_requests=640)
    without = evaluate_terms(scenario, ALL_TERMS - {"finite_run"}).ttft_p50_s
    assert_allclose(without, evaluate(Scenario(**KNOBS)).ttft_p50_s, rtol=1e-12)


def test_a_chunked_run_that_is_all_burst_opens_on_an_idle_node():
    """Chunked prefill moves a steady prompt's first token, not the opening prompts': a run no
    longer than its users is all burst, its mean first token the burst's own (it once went
    negative, the chunk's shift taken off prompts that never waited for a step)."""
    knobs = {**KNOBS, "serving_mode": "chunked", "concurrency": 64}
    run = evaluate(Scenario(**knobs, run_requests=64))
    whole = evaluate(Scenario(**{**knobs, "serving_mode": "aggregated"}, run_requests=64))
    assert run.ttft_p50_s > 0
    assert_allclose(run.ttft_p50_s, whole.ttft_p50_s, rtol=1e-12)
