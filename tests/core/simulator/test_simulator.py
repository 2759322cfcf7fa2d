"""The step-level engine: conservation, determinism, the schedulers, the layouts, the timing."""

import dataclasses
import itertools

import numpy as np
import pytest
from hypothesis import given, settings

from core import Scenario
from core.catalog import GPUS
from core.simulator import (
    ANSWER_SHAPES,
    answer_ceiling,
    draw_requests,
    simulate,
)
from core.simulator.steps import step_costs
from tests import strategies
from tests.engine_reference import REFERENCE_NODES, reference_token_times

COMBOS = list(itertools.product(("static", "continuous"), ("reserved", "paged")))
PRESET = {"model": "Llama-2-13B", "gpu": "A100 40GB SXM"}


def tight(scenario, room_tokens):
    """Step costs of ``scenario`` with the KV room cut to ``room_tokens`` tokens."""
    costs = step_costs(scenario)
    return dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * room_tokens)


@pytest.fixture(scope="module")
def preset_runs():
    """The published comparison's workload on the 13B model, all four engines."""
    scenario = Scenario(**PRESET)
    costs = step_costs(scenario)
    workload = draw_requests(300, 0, arrival="offline", prompt_tokens=512, answer_mean=128)
    return {
        (policy, layout): simulate(
            scenario, policy, layout, workload=workload, batch_size=256, costs=costs
        )
        for policy, layout in COMBOS
    }


@pytest.mark.parametrize(("policy", "layout"), COMBOS)
def test_every_request_writes_exactly_its_answer(policy, layout):
    """Every admitted request finishes with its answer's tokens; tokens out = sum of answers."""
    scenario = Scenario(model="Llama-2-13B")
    costs = tight(scenario, 6000)
    workload = draw_requests(60, 3, arrival="offline", prompt_tokens=400, answer_mean=80)
    r = simulate(scenario, policy, layout, workload=workload, batch_size=32, costs=costs)
    per_request = np.diff(r.token_offsets)
    assert np.array_equal(per_request, workload.answer_tokens)
    assert r.token_s.size == r.output_tokens == workload.answer_tokens.sum()
    assert np.isfinite(r.finish_s).all() and np.isfinite(r.admit_s).all()
    stays = r.segments
    assert np.array_equal(np.bincount(stays["request"], stays["tokens"]), workload.answer_tokens)


def test_preemption_keeps_every_token():
    """Paged preemption evicts and re-admits requests without losing or repeating a token."""
    scenario = Scenario(model="Llama-2-13B")
    workload = draw_requests(80, 5, arrival="offline", prompt_tokens=300, answer_mean=120)
    r = simulate(
        scenario,
        "continuous",
        "paged",
        workload=workload,
        batch_size=64,
        costs=tight(scenario, 5000),
    )
    assert r.preemptions > 0
    assert r.token_s.size == workload.answer_tokens.sum()
    for request in range(len(workload)):
        assert np.all(np.diff(r.token_times(request)) > 0)


@pytest.mark.parametrize(("policy", "layout"), COMBOS)
def test_same_seed_same_run(policy, layout):
    """The same seed gives identical runs; another seed gives another run."""
    scenario = Scenario()
    first = simulate(scenario, policy, layout, requests=80, seed=11, batch_size=8)
    again = simulate(scenario, policy, layout, requests=80, seed=11, batch_size=8)
    other = simulate(scenario, policy, layout, requests=80, seed=12, batch_size=8)
    assert np.array_equal(first.token_s, again.token_s)
    assert first.output_tokens_per_s == again.output_tokens_per_s
    assert first.kv_waste == again.kv_waste
    assert not np.array_equal(first.arrival_s, other.arrival_s)


@pytest.mark.parametrize(("policy", "layout"), COMBOS)
@pytest.mark.parametrize("arrival", ["poisson", "offline"])
@pytest.mark.parametrize("node", REFERENCE_NODES, ids=["dense", "moe"])
def test_fast_engine_matches_step_by_step_reference(policy, layout, arrival, node):
    """Event jumps change no token's time: the engine agrees with a naive per-step loop."""
    scenario = Scenario(**node)
    costs = tight(scenario, 4000)
    for seed, batch in ((0, 1), (1, 5), (2, 64)):
        workload = draw_requests(
            30,
            seed,
            arrival=arrival,
            rate_per_s=3.0,
            prompt_tokens=300,
            answer_mean=50,
            answer_cap=400,
        )
        r = simulate(
            scenario,
            policy,
            layout,
            workload=workload,
            batch_size=batch,
            costs=costs,
            wait_cap_s=0.3,
        )
        expected = reference_token_times(costs, workload, policy, layout, batch, 0.3)
        np.testing.assert_allclose(r.token_s, np.concatenate(expected), rtol=1e-9)


@pytest.mark.parametrize("node", [{}, *REFERENCE_NODES[1:]], ids=["dense", "moe"])
def test_a_lone_request_runs_on_the_timing_model(node):
    """Alone, a request's first token takes its prefill and each next token one decode step."""
    scenario = Scenario(**node)
    costs = step_costs(scenario)
    r = simulate(scenario, "continuous", "paged", requests=1, answer="fixed", answer_mean=5)
    times = r.token_times(0)
    assert times[0] - r.arrival_s[0] == pytest.approx(costs.prefill_s(scenario.prompt_tokens))
    expected_steps = [costs.decode_s(1, scenario.prompt_tokens + i) for i in range(1, 5)]
    np.testing.assert_allclose(np.diff(times), expected_steps, rtol=1e-9)


@pytest.mark.parametrize("layout", ["reserved", "paged"])
@pytest.mark.parametrize("answer", ["capped exponential", "exponential", "uniform"])
@pytest.mark.parametrize("batch", [1, 4, 32, 256])
def test_continuous_never_slower_than_static(layout, answer, batch):
    """At the same B and arrivals, continuous batching's throughput is never below static's."""
    scenario = Scenario(model="Llama-2-13B", gpu="L40S")
    costs = step_costs(scenario)
    for arrival in ("poisson", "offline"):
        workload = draw_requests(
            150,
            1,
            arrival=arrival,
            rate_per_s=2.0,
            prompt_tokens=512,
            answer=answer,
            answer_mean=128,
            answer_cap=1000,
        )
        runs = {
            policy: simulate(
                scenario, policy, layout, workload=workload, batch_size=batch, costs=costs
            )
            for policy in ("static", "continuous")
        }
        assert runs["continuous"].output_tokens_per_s >= runs["static"].output_tokens_per_s


def test_identical_answers_leave_no_convoy():
    """With every answer the same length, no straggler exists: static is within 2 % of continuous."""
    scenario = Scenario()
    workload = draw_requests(200, 0, arrival="offline", answer="fixed", answer_mean=100)
    static = simulate(scenario, "static", "paged", workload=workload, batch_size=16)
    continuous = simulate(scenario, "continuous", "paged", workload=workload, batch_size=16)
    assert static.output_tokens_per_s == pytest.approx(continuous.output_tokens_per_s, rel=0.02)
    assert static.idle_seat_s == pytest.approx(0.0, abs=1e-9)


@pytest.mark.parametrize(("policy", "layout"), COMBOS)
def test_percentiles_are_ordered(policy, layout):
    """TTFT p99 >= p95 >= p50 and ITL p95 >= p50, all finite and non-negative."""
    r = simulate(Scenario(), policy, layout, requests=150, seed=4, batch_size=16)
    assert 0 <= r.ttft_p50_s <= r.ttft_p95_s <= r.ttft_p99_s
    assert 0 <= r.itl_p50_s <= r.itl_p95_s
    assert np.isfinite([r.ttft_p99_s, r.itl_p95_s, r.output_tokens_per_s, r.kv_waste]).all()


def test_preset_waste_paged_under_4_percent_reserved_over_half(preset_runs):
    """On the capped-exponential preset, paged KV wastes under 4 %, reserved KV over 50 %."""
    for policy in ("static", "continuous"):
        assert preset_runs[policy, "paged"].kv_waste < 0.04
        assert preset_runs[policy, "reserved"].kv_waste > 0.5


def test_preset_paging_grants_more_seats(preset_runs):
    """Paging grants several times the seats that reserving prompt plus the cap does."""
    reserved = preset_runs["continuous", "reserved"].peak_seats
    paged = preset_runs["continuous", "paged"].peak_seats
    costs = step_costs(Scenario(**PRESET))
    assert reserved == costs.kv_budget_tokens // (512 + 1536)
    assert paged >= 3 * reserved


def test_preset_continuous_paged_several_times_static_reserved(preset_runs):
    """The published comparison's engines: continuous + paged far outruns static + reserved."""
    ratio = (
        preset_runs["continuous", "paged"].output_tokens_per_s
        / preset_runs["static", "reserved"].output_tokens_per_s
    )
    assert ratio > 3.5


def test_slowed_kernels_stretch_every_step_by_the_factor():
    """Kernels k times slower divide an offline batch's throughput by exactly k."""
    scenario = Scenario(**PRESET)
    costs = step_costs(scenario)
    workload = draw_requests(80, 1, arrival="offline", prompt_tokens=512, answer_mean=128)
    base = simulate(scenario, "static", "reserved", workload=workload, costs=costs)
    slow = simulate(scenario, "static", "reserved", workload=workload, costs=costs.slowed(4.0))
    np.testing.assert_allclose(slow.output_tokens_per_s * 4.0, base.output_tokens_per_s, rtol=1e-9)
    assert slow.peak_seats == base.peak_seats
    with pytest.raises(ValueError, match=r"^factor=0.5 is not allowed: factor must be"):
        costs.slowed(0.5)


def test_static_waves_admit_only_between_waves():
    """Under static batching every stay of a wave starts together and the wave ends together."""
    r = simulate(Scenario(), "static", "reserved", requests=120, seed=2, batch_size=8)
    stays = r.segments
    for wave in np.unique(stays["wave"]):
        members = stays["wave"] == wave
        assert np.ptp(stays["start_s"][members]) == 0
        assert np.ptp(stays["held_s"][members]) == 0
        assert members.sum() <= 8
    assert r.waves == len(np.unique(stays["wave"]))


@pytest.mark.parametrize("policy", ["static", "continuous"])
def test_memory_wall_caps_seats_below_batch_size(policy):
    """Admission stops when reserved memory is out: seats stay at what the room holds, below B."""
    scenario = Scenario(model="Llama-2-13B")
    costs = tight(scenario, 10_000)
    workload = draw_requests(
        100, 0, arrival="offline", prompt_tokens=500, answer_mean=100, answer_cap=1500
    )
    r = simulate(scenario, policy, "reserved", workload=workload, batch_size=200, costs=costs)
    assert r.peak_seats == 10_000 // 2000
    assert r.memory_stalls > 0
    assert r.output_tokens == workload.answer_tokens.sum()


def test_roomy_memory_never_stalls():
    """When the room holds every seat B allows, memory never refuses a waiting request."""
    r = simulate(Scenario(), "continuous", "reserved", requests=100, seed=0, batch_size=8)
    assert r.memory_stalls == 0
    assert r.peak_seats == 8


@given(strategies.engine_runs())
@settings(max_examples=40, deadline=None)
def test_any_small_run_conserves_and_orders(knobs):
    """For any valid small run: every token once, arrival <= admission < first token <= finish."""
    room = knobs.pop("kv_room_tokens")
    scenario = Scenario(model="Llama-2-13B")
    costs = tight(scenario, room)
    try:
        r = simulate(scenario, costs=costs, **knobs)
    except ValueError as error:
        assert "prompt_tokens + answer_cap" in str(error)
        return
    assert r.token_s.size == r.answer_tokens.sum() == r.output_tokens
    assert np.all(r.arrival_s <= r.admit_s)
    assert np.all(r.admit_s < r.first_token_s)
    assert np.all(r.first_token_s <= r.finish_s)
    assert r.peak_seats <= knobs["batch_size"]
    assert 0.0 <= r.kv_waste < 1.0
    assert r.queue_length.min() >= 0 and r.queue_length[-1] == 0


def test_answer_shapes_have_their_mean_and_ceiling():
    """Each answer shape draws around its mean and never past the ceiling a reservation covers."""
    for shape in ANSWER_SHAPES:
        w = draw_requests(20_000, 1, answer=shape, answer_mean=100, answer_cap=300)
        ceiling = answer_ceiling(shape, 100, 300)
        assert w.answer_tokens.min() >= 1
        assert w.answer_tokens.max() <= ceiling == w.max_answer_tokens[0]
        expected = 100 * (1 - (1 - 1 / 100) ** 300) if shape == "capped exponential" else 100
        assert w.answer_tokens.mean() == pytest.approx(expected, rel=0.03)


def test_offline_arrivals_all_wait_at_zero():
    """An offline batch has every request waiting at time 0; Poisson arrivals increase."""
    assert np.all(draw_requests(50, arrival="offline").arrival_s == 0)
    poisson = draw_requests(50, arrival="poisson", rate_per_s=5.0).arrival_s
    assert np.all(np.diff(poisson) > 0) and poisson[0] > 0


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"policy": "greedy"}, "policy"),
        ({"kv_layout": "contiguous"}, "kv_layout"),
        ({"requests": 0}, "requests"),
        ({"batch_size": 0}, "batch_size"),
        ({"wait_cap_s": -1.0}, "wait_cap_s"),
        ({"arrival": "burst"}, "arrival"),
        ({"answer": "normal"}, "answer"),
        ({"seed": -1}, "seed"),
        ({"arrival_rate_per_s": 0.0}, "arrival_rate_per_s"),
        ({"answer_cap": 10**9}, "answer_cap"),
    ],
)
def test_bad_arguments_name_themselves(kwargs, named):
    """Bad input raises ValueError naming the argument, its value and what is allowed."""
    with pytest.raises(ValueError, match=rf"^{named}=.* is not allowed: {named} must be"):
        simulate(Scenario(), **kwargs)


def test_a_request_too_big_for_memory_is_refused():
    """A request whose reservation exceeds the node's KV room is refused with the room's size."""
    scenario = Scenario(model="Llama-2-13B", gpu="L40S")
    with pytest.raises(ValueError, match=r"prompt_tokens \+ answer_cap=.* at most [\d,]+ tokens"):
        simulate(scenario, "static", "reserved", requests=5, prompt_tokens=20_000, answer_cap=9000)


def test_weights_that_fill_the_node_are_refused():
    """A node whose weights leave no KV room raises a ValueError naming the scenario."""
    with pytest.raises(ValueError, match=r"^scenario=.* is not allowed"):
        simulate(Scenario(tier="large", cards=1), requests=5)


@pytest.mark.parametrize("gpu", ["H100 SXM", "B200"])
@pytest.mark.parametrize("weight", ["bf16", "fp8", "mxfp4"])
def test_steps_multiply_at_the_weight_formats_tensor_rate(gpu, weight):
    """fp8 weights at the fp8 peak, 4-bit at fp4 where the card has it (else bf16), bf16 at bf16."""
    card = GPUS[gpu]
    expected = {"bf16": card.bf16_flops, "fp8": card.fp8_flops,
                "mxfp4": card.fp4_flops or card.bf16_flops}[weight]  # fmt: skip
    assert step_costs(Scenario(gpu=gpu, weight_dtype=weight)).peak_flops == expected
