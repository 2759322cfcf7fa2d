"""The batching lab's model questions in core: sweep marks, shares, the decode ceiling, pass terms."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import GPUS, TIERS, Scenario, evaluate
from core.simulator.batching import (
    CHANGE_WORK,
    RUN_TOKENS,
    SWEEP_BATCHES,
    SWEEP_TOKENS,
    Stream,
    decode_context_tokens,
    first_within,
    gain,
    idle_share,
    run_simulations,
    run_sweep,
    sweep_marks,
    wasted_kv_bytes,
    work,
)
from core.simulator.decode_ceiling import MOST_SEATS, decode_ceiling, reference_ceiling
from core.simulator.roofline import roofline
from core.simulator.speculative import pass_seconds, pass_terms, speedup
from core.simulator.steps import step_costs
from core.whiteboard import timing

STREAM = Stream("poisson", 10.0, 512, "capped exponential", 128, 1536, 0)


@pytest.fixture(scope="module")
def sweep():
    return run_sweep(Scenario(), STREAM, 100, "reserved", 0.5)


def test_sweep_knee_is_where_the_token_gap_doubles(sweep):
    """The latency knee is the first B whose continuous ITL p95 is at least twice B = 1's."""
    itl = np.array([run.itl_p95_s for run in sweep["continuous"]])
    marks = sweep_marks(sweep)
    expected = [b for b, value in zip(SWEEP_BATCHES, itl, strict=True) if value >= 2 * itl[0]]
    assert marks.knee == (expected[0] if expected else None)
    assert marks.best.output_tokens_per_s == max(r.output_tokens_per_s for r in sweep["continuous"])


def test_a_full_run_that_met_memory_names_the_wall():
    """A tight node stalls on memory: the wall is the peak seats of the first stalled run."""
    scenario = Scenario(gpu="A100 40GB SXM", model="Llama-2-13B")
    stream = Stream("offline", 10.0, 512, "capped exponential", 128, 1536, 0)
    runs = run_simulations(scenario, stream, 300, 256, 0.5)
    sweep = run_sweep(scenario, stream, 300, "reserved", 0.5)
    marks = sweep_marks(sweep, runs["continuous", "reserved"])
    assert marks.wall is not None
    stalled = [r for r in sweep["continuous"] if r.memory_stalls]
    if stalled:
        assert marks.wall == stalled[0].peak_seats and not marks.wall_from_run
    assert gain(runs, "reserved") == pytest.approx(
        runs["continuous", "reserved"].output_tokens_per_s
        / runs["static", "reserved"].output_tokens_per_s
    )


def test_shares_of_a_run_stay_between_zero_and_one(sweep):
    """Idle seat share and wasted KV bytes are never negative, and idle share is at most 1."""
    for run in sweep["static"]:
        assert 0.0 <= idle_share(run) <= 1.0
        assert 0.0 <= wasted_kv_bytes(run) <= run.kv_allocated_bytes


def test_decode_context_is_prompt_and_half_the_answer():
    """A decoding seat holds its prompt and, on average, half its answer."""
    assert decode_context_tokens(512, 128) == 576


def test_reference_ceiling_is_the_textbook_70b_figure():
    """70B in bf16 is 140 GB; one H100 streams it about 24 times a second."""
    ref = reference_ceiling()
    assert ref.weight_bytes == TIERS["large"].params * 2
    assert_allclose(ref.tokens_per_s, GPUS["H100 SXM"].hbm_bytes_per_s / 140e9)


def test_decode_ceiling_has_its_wall_where_seats_run_out():
    """The wall is the last seat count memory grants in full; past it the aggregate is flat."""
    scenario = Scenario()
    curve = decode_ceiling(scenario, 4096, 128)
    granted = evaluate(scenario, seats=curve.seats, prompt_tokens=4096, answer_tokens=128)
    room = int(np.max(granted.seats_granted))
    assert curve.wall == (room if room < MOST_SEATS else None)
    one = evaluate(scenario, seats=1, prompt_tokens=4096, answer_tokens=128, prefix_hit_rate=0.0)
    assert_allclose(
        curve.ceiling,
        timing.single_stream_ceiling(
            one.weight_bytes, one.cards, GPUS[scenario.gpu].hbm_bytes_per_s
        ),
    )
    assert curve.best == pytest.approx(np.nanmax(curve.aggregate))


def test_pass_terms_add_up_to_the_pass():
    """Draft and verify add up to the pass, and the speed-up is the one speedup() gives."""
    costs = step_costs(Scenario())
    terms = pass_terms(costs, 8, 4, 0.7, 0.05, 576)
    assert_allclose(terms.draft_s + terms.verify_s, terms.pass_s)
    assert_allclose(terms.pass_s, pass_seconds(costs, 8, 4, 0.05, 576))
    assert_allclose(terms.speedup, speedup(costs, 8, 4, 0.7, 0.05, 576))
    assert terms.read_bound == (terms.read_s >= terms.arithmetic_s)


def test_roofline_places_decode_below_and_long_prefill_above_the_ridge():
    """A small batch's decode waits on memory; a 4,096-token prefill reaches the roof."""
    roof = roofline(step_costs(Scenario()), 8, 576, 4096)
    assert roof.decode_memory_bound and roof.prefill_compute_bound
    assert_allclose(roof.attainable.max(), roof.peak_flops)


def test_first_within_keeps_the_first_requests_whose_answers_fit():
    """A budget keeps the longest prefix of the stream that fits it, never fewer than one."""
    workload = STREAM.draw(200)
    total = int(workload.answer_tokens.sum())
    assert first_within(workload, total) is workload
    cut = first_within(workload, total // 3)
    kept = len(cut)
    assert int(cut.answer_tokens.sum()) <= total // 3
    assert int(workload.answer_tokens[: kept + 1].sum()) > total // 3
    np.testing.assert_array_equal(cut.arrival_s, workload.arrival_s[:kept])
    assert len(first_within(workload, 0)) == 1


def test_each_run_and_sweep_point_keeps_to_its_token_budget():
    """Answers of 2,048 tokens: the four runs and every sweep point write at most their budgets."""
    stream = Stream("offline", 50.0, 512, "capped exponential", 2048, 16384, 0)
    runs = run_simulations(Scenario(), stream, 1000, 64, 0.5)
    assert all(0 < run.output_tokens <= RUN_TOKENS for run in runs.values())
    sweep = run_sweep(Scenario(), stream, 1000, "paged", 0.5)
    points = [run for policy in sweep.values() for run in policy]
    assert all(0 < run.output_tokens <= SWEEP_TOKENS for run in points)
    assert work(runs.values()) + work(points) <= CHANGE_WORK
