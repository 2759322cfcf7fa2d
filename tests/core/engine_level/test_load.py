"""A closed loop's run of a set number of requests: waves, the last partial, never more at once."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.load import prefill_wait_quantile
from core.engine_level.terms import ALL_TERMS
from core.evaluate import evaluate_terms

KNOBS = dict(
    model="Llama-3-70B", gpu="H100 SXM", cards=8, weight_dtype="fp8", kv_dtype="fp8",
    prompt_tokens=128, answer_tokens=2048, realism="engine", engine="tensorrt-llm",
    concurrency=896, seats=4096,
)  # fmt: skip


def throughput(**knobs) -> float:
    return float(evaluate(Scenario(**{**KNOBS, **knobs})).throughput_tokens_per_s)


def test_a_run_of_whole_waves_is_the_steady_state():
    """896 or 3 x 896 requests at 896 users: whole waves, the steady state's throughput."""
    steady = throughput()
    assert_allclose(throughput(run_requests=896), steady, rtol=1e-9)
    assert_allclose(throughput(run_requests=3 * 896), steady, rtol=1e-9)


def test_a_partial_last_wave_takes_its_own_time():
    """1,000 requests at 896 users: one wave of 896, then 104 alone, N / (896/X(896) + 104/X(104))."""
    steady, tail = throughput(), throughput(concurrency=104)
    assert_allclose(throughput(run_requests=1000), 1000 / (896 / steady + 104 / tail), rtol=1e-9)
    assert throughput(run_requests=1000) < steady


def test_a_run_never_holds_more_requests_than_it_sends():
    """A run of 104 requests at 896 users runs 104 at once, as 104 users do."""
    short = evaluate(Scenario(**{**KNOBS, "run_requests": 104}))
    alone = evaluate(Scenario(**{**KNOBS, "concurrency": 104}))
    assert short.running_requests == alone.running_requests == 104
    assert_allclose(short.throughput_tokens_per_s, alone.throughput_tokens_per_s, rtol=1e-9)


def test_the_run_length_is_a_term_of_its_own():
    """Without the finite_run term the run's length moves nothing; with it, the partial wave does."""
    scenario = Scenario(**{**KNOBS, "run_requests": 1000})
    without = evaluate_terms(scenario, ALL_TERMS - {"finite_run"}).throughput_tokens_per_s
    assert_allclose(without, throughput(), rtol=1e-9)
    assert evaluate_terms(scenario, ALL_TERMS).throughput_tokens_per_s < without


def test_an_open_loop_ignores_the_run_length():
    """Arrivals at the peak-minute rate have no run to end: run_requests changes no figure."""
    open_loop = {**KNOBS, "concurrency": None}
    assert evaluate(Scenario(**open_loop, run_requests=10)) == evaluate(Scenario(**open_loop))


def test_runs_sweep_as_one_array():
    """Run lengths in one vectorised call give each run's own throughput."""
    runs = np.array([896, 1000, 2000])
    swept = evaluate(Scenario(**KNOBS), run_requests=runs).throughput_tokens_per_s
    assert_allclose(swept, [throughput(run_requests=int(n)) for n in runs], rtol=1e-9)


@pytest.mark.parametrize("bad", [0, -5, 20_000_000])
def test_a_run_length_outside_its_range_is_refused_naming_the_knob(bad):
    """run_requests must be 1 to 10,000,000: anything else raises ValueError naming it."""
    with pytest.raises(ValueError, match="run_requests"):
        Scenario(run_requests=bad)


def test_one_closed_loop_gives_the_same_bits_alone_as_in_a_sweep():
    """One scenario's fixed point runs in plain floats, a sweep's in arrays: every figure is the
    same to the last bit, for one user, a loaded node and a saturated one, on every engine."""
    users = np.array([1, 64, 896, 4096])
    for engine in ("tensorrt-llm", "vllm", "sglang"):
        knobs = {**KNOBS, "engine": engine}
        swept = evaluate(Scenario(**knobs), concurrency=users)
        for index, count in enumerate(users):
            alone = evaluate(Scenario(**{**knobs, "concurrency": int(count)}))
            for name in ("throughput_tokens_per_s", "itl_s", "ttft_p50_s", "request_s"):
                assert getattr(swept, name)[index] == getattr(alone, name), (engine, count, name)


@pytest.mark.parametrize(
    "gpu, cards, seats, kv, prompt",
    [("H100 SXM", 3, 108, "fp8", 41585), ("H200", None, 24, "bf16", 41707)],
)
def test_a_saturated_closed_loop_waits_for_at_most_its_other_prompts(gpu, cards, seats, kv, prompt):
    """Eight users sending long prompts and no answer keep the node saturated: a new prompt waits
    for the other seven at most, so a higher hit rate (less to prefill) never makes the first
    token later, at the median or the 95th percentile (the cases Hypothesis found)."""
    knobs = dict(
        workload="chat", tier="small", model="gpt-oss-120b", gpu=gpu, cards=cards,
        weight_dtype="mxfp4", kv_dtype=kv, seats=seats, prompt_tokens=prompt, answer_tokens=0,
        realism="engine", concurrency=8,
    )  # fmt: skip
    rates = (0.0, 0.1, 0.25, 0.4, 0.5, 0.6, 0.9)
    results = [evaluate(Scenario(**knobs, prefix_hit_rate=rate)) for rate in rates]
    for name in ("ttft_p50_s", "ttft_p95_s"):
        figures = np.array([getattr(result, name) for result in results])
        assert np.all(np.diff(figures) <= 1e-9 * figures[:-1]), (name, figures)
    for result in results:  # the closed population's bound: the alone prefill, then 7 more
        assert result.ttft_p50_s <= 8.0 * result.prefill_s + 1.0


def test_the_closed_loop_fixed_point_is_reached_near_saturation():
    """92 others' prompts keep the prefill queue 97-99 % busy: the request time found is its own
    image under the loop's equations to a part in 10^12, the scalar path gives the array path's
    bits, and the first token falls as each prompt's prefill does."""
    from core.engine_level.load import _loop_arrays, _solved_arrays, _solved_scalar

    added = np.linspace(0.040, 0.080, 41)
    parts = (92.0, added, 0.0, 0.0, 0.0, 2.5, 0.01056, 1.0, added + 0.003)
    cycle, share, ttft, request = _solved_arrays(*parts)
    assert_allclose(_loop_arrays(request, *parts)[3], request, rtol=1e-12)
    assert np.all(share > 0.97) and np.all(np.diff(ttft) > 0) and np.all(np.diff(request) > 0)
    for index, one in enumerate(added):
        alone = _solved_scalar(
            92.0, float(one), 0.0, 0.0, 0.0, 2.5, 0.01056, 1.0, float(one) + 0.003
        )
        assert alone == (cycle[index], share[index], ttft[index], request[index])


def test_a_server_path_delays_the_first_token_and_holds_no_card():
    """At one request time, the server's own path (SGLang's tokenizer and detokenizer beside the
    scheduler) adds itself to the first token and leaves the prefill the cards hold unchanged,
    where the eager dispatch adds to both; the scalar path gives the array path's bits."""
    from core.engine_level.load import _loop_arrays, _solved_arrays, _solved_scalar

    added = np.linspace(0.040, 0.080, 5)
    plain = (12.0, added, 0.0, 0.0, 0.0, 2.5, 0.01056, 100.0, added + 0.003)
    served = (12.0, added, 0.0, 0.0, 0.009, 2.5, 0.01056, 100.0, added + 0.003)
    dispatched = (12.0, added, 0.0, 0.009, 0.0, 2.5, 0.01056, 100.0, added + 0.003)
    cycle, _, ttft, _ = _loop_arrays(3.0, *plain)
    cycle_served, _, ttft_served, _ = _loop_arrays(3.0, *served)
    cycle_dispatched, _, _, _ = _loop_arrays(3.0, *dispatched)
    assert_allclose(cycle_served, cycle, rtol=0, atol=0)
    assert np.all(cycle_dispatched > cycle)
    assert_allclose(ttft_served - ttft, 0.009, rtol=1e-12)
    solved = _solved_arrays(*served)
    for index, one in enumerate(added):
        scalar = _solved_scalar(12.0, float(one), 0.0, 0.0, 0.009, 2.5, 0.01056, 100.0,
                                float(one) + 0.003)  # fmt: skip
        assert scalar == tuple(part[index] for part in solved)


def test_an_open_loop_near_its_seats_holds_as_many_as_arrive_in_a_request_time():
    """Arrivals that nearly fill 53 seats on four L40S cards: the running batch is Little's law
    of the request time found (the loop's own image), not 30 iterations' halfway point (it read
    42.4 running where arrivals in one request time were 43.5)."""
    scenario = Scenario(
        model="Qwen2-7B", gpu="L40S", cards=4, weight_dtype="mxfp4", seats=310,
        prompt_tokens=231, answer_tokens=59272, prefix_hit_rate=0.4, arrivals_per_min=90329,
        realism="engine",
    )  # fmt: skip
    result = evaluate(scenario)
    per_node = result.arrivals_per_s / result.nodes
    running = min(result.seats_granted, per_node * result.request_s)
    assert_allclose(result.running_requests, running, rtol=1e-9)
    assert result.running_requests > 0.95 * result.seats_granted


@pytest.mark.parametrize("busy", [0.0, 0.02, 0.3, 0.9, 0.999])
@pytest.mark.parametrize("quantile", [0.5, 0.95])
def test_one_prefill_waits_quantile_has_its_sweeps_bits(busy, quantile):
    """The prefill queue's wait quantile in plain floats equals its entry in a sweep."""
    alone = prefill_wait_quantile(0.04, busy, quantile)
    swept = prefill_wait_quantile(np.array([0.04, 0.5]), np.array([busy, 0.1]), quantile)[0]
    assert alone == swept
