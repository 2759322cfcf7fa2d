"""The serving modes in the closed form: chunked prefill and disaggregation at the engine level."""

import numpy as np
import pytest

from core import Scenario, evaluate
from core.catalog import GPUS, INFINIBAND_NDR_BYTES_PER_S
from core.catalog.workloads import TTFT_PERCENTILE, TTFT_SLO_S
from core.engine_level.serving_modes import poisson_quantile, prefill_nodes_for_slo
from core.engine_level.terms import ALL_TERMS
from core.evaluate import evaluate_terms
from core.traffic import queueing

MODES = np.array(["aggregated", "chunked", "disaggregated"])


def by_mode(terms=None, **knobs):
    """The engine level's figures for the three modes, everything else equal."""
    scenario = Scenario(realism="engine", **knobs)
    if terms is None:
        r = evaluate(scenario, serving_mode=MODES)
    else:
        r = evaluate_terms(scenario, terms, serving_mode=MODES)
    return {mode: i for i, mode in enumerate(MODES)}, r


@pytest.mark.parametrize("prompt", [512, 1200, 8000])
def test_chunking_keeps_mean_itl_and_cuts_its_tail(prompt):
    """Weights stream then math: chunks do the same work (mean ITL within the prompt's attention
    cost per chunk, 0.1 %) but cut the worst step. (Measured GEMM shapes aside: a chunk's
    GEMMs run at their own token count's rate, tested below.)"""
    at, r = by_mode(ALL_TERMS - {"gemm_shapes"}, prompt_tokens=prompt)
    agg, chunk = at["aggregated"], at["chunked"]
    assert r.itl_s[chunk] == pytest.approx(r.itl_s[agg], rel=1e-3)
    assert r.itl_s[chunk] <= r.itl_p99_s[chunk] <= r.itl_p99_s[agg] * (1 + 1e-3)
    if r.miss_tokens[chunk] > 512:
        assert r.itl_p99_s[chunk] < 0.8 * r.itl_p99_s[agg]


def test_chunks_hide_behind_the_weight_read_when_the_two_overlap():
    """Without the stream-then-math term a chunk's arithmetic overlaps the read: mean ITL falls."""
    terms = ALL_TERMS - {"stream_then_math"}
    r = evaluate_terms(Scenario(prompt_tokens=4000), terms, serving_mode=MODES[:2])
    assert r.itl_s[1] < 0.9 * r.itl_s[0]


def test_disaggregated_itl_has_no_prefill_in_it():
    """On decode nodes that never prefill, ITL p99 is one decode step, below both other modes."""
    at, r = by_mode(prompt_tokens=4000)
    apart = at["disaggregated"]
    assert r.itl_p99_s[apart] == r.itl_s[apart]
    assert r.itl_p99_s[apart] < r.itl_p99_s[at["chunked"]] < r.itl_p99_s[at["aggregated"]]


def test_disaggregated_ttft_ignores_the_decode_load():
    """Longer answers load the decode pool: aggregated TTFT moves, disaggregated TTFT does not."""
    answers = np.array([100, 400, 1600])
    r = evaluate(Scenario(realism="engine"), serving_mode="disaggregated", answer_tokens=answers)
    assert np.ptp(r.ttft_p95_s) == pytest.approx(0.0, abs=1e-12)
    assert r.itl_s[2] > r.itl_s[0]
    whole = evaluate(Scenario(realism="engine"), answer_tokens=answers)
    assert np.ptp(whole.ttft_p95_s) > 0


def test_disaggregated_pool_buys_each_pool_for_its_load():
    """More arrivals buy more prefill nodes and more decode nodes; the bill counts both."""
    rates = np.array([20.0, 200.0, 2000.0])
    r = evaluate(
        Scenario(realism="engine", serving_mode="disaggregated"), arrivals_per_min=rates * 60
    )
    assert np.all(np.diff(r.prefill_nodes) >= 0) and r.prefill_nodes[-1] > r.prefill_nodes[0]
    assert np.all(r.nodes > r.prefill_nodes)
    price = GPUS["H100 SXM"].usd_per_hour
    np.testing.assert_allclose(r.monthly_usd, r.nodes * r.cards * price * 730)


def test_kv_transfer_is_bytes_over_the_link():
    """The cache's trip is prompt tokens x KV bytes over the cards' links; IB is 9x NVLink4."""
    s = Scenario(realism="engine", serving_mode="disaggregated", prompt_tokens=8000)
    nv, ib = (evaluate(s, kv_link=link) for link in ("nvlink", "infiniband"))
    gpu = GPUS["H100 SXM"]
    expected = 8000 * nv.kv_bytes_per_token / (nv.cards * gpu.link_bytes_per_s)
    assert nv.kv_transfer_s == pytest.approx(expected, rel=1e-12)
    assert ib.kv_transfer_s / nv.kv_transfer_s == pytest.approx(
        gpu.link_bytes_per_s / INFINIBAND_NDR_BYTES_PER_S
    )


def test_the_whiteboard_ignores_the_mode():
    """The whiteboard's prefill is free, so every mode gives it the same figures."""
    r = evaluate(Scenario(), serving_mode=MODES)
    for field in ("ttft_p95_s", "itl_s", "itl_p99_s", "nodes", "monthly_usd"):
        assert np.ptp(np.asarray(getattr(r, field), dtype=float)) == 0
    assert np.all(r.kv_transfer_s == 0) and np.all(r.prefill_nodes == 0)


def test_a_chunk_budget_full_of_decodes_starves_prompts():
    """With more running streams than the chunk budget, prompts never start: unbounded TTFT."""
    s = Scenario(realism="engine", seats=2048, prompt_tokens=100, answer_tokens=50)
    busy = evaluate(s, serving_mode="chunked", concurrency=1000)
    assert busy.running_requests > 512
    assert busy.queue_unbounded and not busy.latency_ok
    assert not evaluate(s, serving_mode="chunked", concurrency=100).queue_unbounded


def test_poisson_quantile_matches_its_definition():
    """The vectorised Poisson quantile is the smallest k whose CDF reaches q."""
    assert poisson_quantile(0.0, 0.99) == 0
    assert poisson_quantile(0.005, 0.99) == 0
    assert poisson_quantile(0.2, 0.99) == 2  # P(K<=1)=0.9825, P(K<=2)=0.9989
    np.testing.assert_array_equal(poisson_quantile(np.array([1.0, 5.0]), 0.5), [1, 5])


@pytest.mark.parametrize(("rate", "prefill"), [(2.0, 0.3), (10.0, 0.25), (40.0, 0.12), (5.0, 0.9)])
def test_prefill_pool_is_the_fewest_nodes_meeting_the_slo(rate, prefill):
    """The prefill pool meets the first-token SLO at p95, and one node fewer would not."""
    nodes = float(prefill_nodes_for_slo(rate, prefill))

    def ttft(count):
        wait, unbounded = queueing.wait_quantile(count, rate, prefill, TTFT_PERCENTILE)
        return np.inf if unbounded else prefill + wait

    assert ttft(nodes) < TTFT_SLO_S
    assert nodes == 1 or ttft(nodes - 1) >= TTFT_SLO_S


def test_a_disaggregated_decode_pool_near_its_seats_holds_what_arrives_in_its_steps():
    """Arrivals that nearly fill 39 decode seats on an H200: the running batch is what arrives
    in one answer's steps at the step it makes (the step is its own image), not 20 iterations'
    halfway point (they read 31.6 running where 32.2 arrive, and a 16 % shorter step)."""
    scenario = Scenario(
        model="Mistral-7B", gpu="H200", weight_dtype="mxfp4", seats=572, prompt_tokens=25643,
        prefix_hit_rate=0.78, arrivals_per_min=89492, realism="engine",
        serving_mode="disaggregated",
    )  # fmt: skip
    r = evaluate(scenario)
    per_node = r.arrivals_per_s / (r.nodes - r.prefill_nodes)
    arriving = per_node * (r.answer_tokens - 1) * r.itl_s
    np.testing.assert_allclose(r.running_requests, min(r.seats_granted, arriving), rtol=1e-9)
    assert r.running_requests > 0.95 * r.seats_granted
