"""After continuous batching: chunked prefill and prefill/decode disaggregation in the engine."""

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings

from core import Scenario
from core.catalog import CHUNKED_PREFILL_TOKENS, INFINIBAND_NDR_BYTES_PER_S
from core.simulator import draw_requests, simulate, transfer_seconds
from core.simulator.steps import step_costs
from tests import strategies
from tests.engine_reference import REFERENCE_NODES, reference_token_times

MIXED = {"prompt_tokens": 512, "answer_mean": 128, "long_every": 50, "long_prompt_tokens": 16_384}


@pytest.fixture(scope="module")
def mixed_runs():
    """One mixed stream (short prompts, one in 50 of 16k tokens) on two H100s, three ways."""
    scenario = Scenario()
    costs = step_costs(scenario)
    workload = draw_requests(1500, 0, rate_per_s=4.0, **MIXED)
    short = draw_requests(1500, 0, rate_per_s=4.0, **{**MIXED, "long_every": 0})
    run = {"workload": workload, "costs": costs, "batch_size": 32}
    return {
        "aggregated": simulate(
            scenario, "continuous", "paged", mode="aggregated", replicas=2, **run
        ),
        "chunked": simulate(scenario, "continuous", "paged", mode="chunked", replicas=2, **run),
        "disaggregated": simulate(scenario, "continuous", "paged", mode="disaggregated", **run),
        "more prefill": simulate(
            scenario, "continuous", "paged", mode="disaggregated", prefill_nodes=2, **run
        ),
        "more decode": simulate(
            scenario, "continuous", "paged", mode="disaggregated", decode_nodes=2, **run
        ),
        "aggregated short": simulate(
            scenario, "continuous", "paged", replicas=2, **{**run, "workload": short}
        ),
        "disaggregated short": simulate(
            scenario, "continuous", "paged", mode="disaggregated", **{**run, "workload": short}
        ),
    }


@pytest.mark.parametrize("layout", ["reserved", "paged"])
@pytest.mark.parametrize("arrival", ["poisson", "offline"])
@pytest.mark.parametrize("node", REFERENCE_NODES, ids=["dense", "moe"])
def test_chunked_engine_matches_step_by_step_reference(layout, arrival, node):
    """Chunked event jumps change no token's time, preemptions included, against a naive loop."""
    scenario = Scenario(**node)
    costs = step_costs(scenario)
    for room in (4000, 100_000):
        tight = dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * room)
        for seed, batch, chunk in ((0, 1, 64), (1, 5, 100), (2, 64, 256), (3, 8, 7)):
            workload = draw_requests(
                30,
                seed,
                arrival=arrival,
                rate_per_s=3.0,
                prompt_tokens=300,
                answer_mean=50,
                answer_cap=400,
                long_every=7,
                long_prompt_tokens=900,
            )
            r = simulate(
                scenario,
                "continuous",
                layout,
                workload=workload,
                batch_size=batch,
                costs=tight,
                mode="chunked",
                chunk_tokens=chunk,
            )
            expected = reference_token_times(tight, workload, "continuous", layout, batch, 0, chunk)
            np.testing.assert_allclose(r.token_s, np.concatenate(expected), rtol=1e-9)


def test_chunked_prefill_lowers_itl_p99_on_a_mixed_stream(mixed_runs):
    """A few 16k prompts stall every stream; chunked prefill cuts ITL p99 on the same cards."""
    whole, chunked = mixed_runs["aggregated"], mixed_runs["chunked"]
    assert chunked.itl_p99_s < 0.8 * whole.itl_p99_s
    # The stall itself: the longest gap shrinks from a whole 16k prefill to about one chunk.
    assert chunked.itl_s().max() < 0.2 * whole.itl_s().max()
    # The price: the long prompts' own first tokens come no sooner.
    long = whole.prompt_tokens > 512
    assert chunked.ttft_s[long].mean() >= 0.95 * whole.ttft_s[long].mean()


def test_disaggregation_keeps_long_prompts_out_of_itl(mixed_runs):
    """Disaggregated, no prefill stalls a stream: ITL p99 below both aggregated modes'."""
    apart, whole = mixed_runs["disaggregated"], mixed_runs["aggregated"]
    assert apart.itl_p99_s < mixed_runs["chunked"].itl_p99_s < whole.itl_p99_s
    assert apart.itl_s().max() < 0.1 * whole.itl_s().max()
    # What is left of the long prompts is their cache, read at every decode step.
    short = mixed_runs["disaggregated short"]
    assert short.itl_p99_s <= apart.itl_p99_s < 1.2 * short.itl_p99_s


def test_disaggregation_decouples_ttft_from_itl(mixed_runs):
    """Prefill cards move TTFT and leave ITL; decode cards move ITL and nothing of TTFT."""
    base, prefill, decode = (
        mixed_runs[key] for key in ("disaggregated", "more prefill", "more decode")
    )
    assert prefill.ttft_p95_s < 0.5 * base.ttft_p95_s
    for q in ("itl_p50_s", "itl_p95_s", "itl_p99_s"):
        assert getattr(prefill, q) == pytest.approx(getattr(base, q), rel=0.02)
    np.testing.assert_array_equal(decode.ttft_s, base.ttft_s)
    assert decode.itl_p50_s < base.itl_p50_s


def test_kv_transfer_is_bytes_over_the_link():
    """A lone request: first token after its prefill, second after the transfer and one step."""
    scenario = Scenario()
    costs = step_costs(scenario)
    prompt = 4096
    for link, rate in (("nvlink", costs.link_bytes_per_s), ("infiniband", 400e9 / 8)):
        r = simulate(
            scenario,
            "continuous",
            "paged",
            requests=1,
            prompt_tokens=prompt,
            answer="fixed",
            answer_mean=4,
            mode="disaggregated",
            link=link,
        )
        shipped = (prompt + 1) * costs.kv_bytes_per_token / (costs.cards * rate)
        assert r.transfer_s[0] == pytest.approx(shipped, rel=1e-12)
        assert float(transfer_seconds(costs, prompt + 1, link)) == pytest.approx(shipped)
        times = r.token_times(0)
        assert times[0] - r.arrival_s[0] == pytest.approx(costs.prefill_s(prompt), rel=1e-12)
        step = float(costs.decode_s(1, prompt + 1))
        assert times[1] - times[0] == pytest.approx(shipped + step, rel=1e-9)
    assert INFINIBAND_NDR_BYTES_PER_S == 50e9


def test_chunk_budget_defaults_to_vllm():
    """The chunked mode's default budget is the catalog's sourced vLLM default."""
    r = simulate(Scenario(), "continuous", "paged", requests=20, mode="chunked")
    assert r.chunk_tokens == CHUNKED_PREFILL_TOKENS == 512


def test_a_lone_chunked_prompt_takes_its_chunks():
    """Alone, a 2,000-token prompt in 512-token chunks takes four steps to its first token."""
    scenario = Scenario()
    costs = step_costs(scenario)
    r = simulate(
        scenario,
        "continuous",
        "paged",
        requests=1,
        prompt_tokens=2000,
        answer="fixed",
        answer_mean=2,
        mode="chunked",
        chunk_tokens=512,
    )
    chunks = [512, 512, 512, 464]
    expected = sum(max(float(costs.read_s(0)), float(costs.compute_s(c))) for c in chunks)
    assert r.ttft_s[0] == pytest.approx(expected, rel=1e-12)


@given(strategies.engine_mode_runs())
@settings(max_examples=40, deadline=None)
def test_any_mode_conserves_and_orders(knobs):
    """In every mode: every token once, arrival <= admission < first token <= finish."""
    room = knobs.pop("kv_room_tokens")
    scenario = Scenario(model="Llama-2-13B")
    costs = step_costs(scenario)
    costs = dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * room)
    try:
        r = simulate(scenario, "continuous", costs=costs, **knobs)
    except ValueError as error:
        assert "prompt_tokens + answer_cap" in str(error)
        return
    assert r.token_s.size == r.answer_tokens.sum() == r.output_tokens
    assert np.all(r.arrival_s <= r.admit_s)
    assert np.all(r.admit_s < r.first_token_s)
    assert np.all(r.first_token_s <= r.finish_s)
    assert np.all(r.itl_s() > 0)
    assert np.all(r.transfer_s >= 0)
    assert r.peak_seats <= knobs["batch_size"]
    assert r.queue_length.min() >= 0 and r.queue_length[-1] == 0


@pytest.mark.parametrize(
    ("kwargs", "named"),
    [
        ({"mode": "split"}, "mode"),
        ({"mode": "disaggregated", "link": "ethernet"}, "link"),
        ({"mode": "chunked", "chunk_tokens": 0}, "chunk_tokens"),
        ({"replicas": 0}, "replicas"),
        ({"mode": "disaggregated", "prefill_nodes": 65}, "prefill_nodes"),
        ({"mode": "disaggregated", "decode_nodes": 0}, "decode_nodes"),
        ({"mode": "chunked", "policy": "static"}, "policy"),
        ({"long_every": -1}, "long_every"),
    ],
)
def test_bad_mode_arguments_name_themselves(kwargs, named):
    """Bad input raises ValueError naming the argument, its value and what is allowed."""
    kwargs = {"policy": "continuous", **kwargs}
    with pytest.raises(ValueError, match=rf"^{named}=.* is not allowed: {named} must be"):
        simulate(Scenario(), requests=10, **kwargs)
