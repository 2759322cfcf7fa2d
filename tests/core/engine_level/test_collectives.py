"""A step's collectives: the engine's measured all-reduce under tensor parallelism where the
catalog has it (DEP's gathers: test_gather_scatter.py), the line elsewhere; one node's floats
and a sweep's arrays agree; any split node's collectives grow with its tokens."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from hypothesis import assume, given
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog.collective_tables import allreduce_largest_rate, allreduce_seconds
from core.engine_level.terms import ALL_TERMS
from core.engine_level.terms import allreduce_seconds as line_allreduce
from core.evaluate import engine_node
from tests.strategies import split_knobs


def _tp(**knobs):
    base = dict(model="Llama-3-70B", gpu="H100 SXM", cards=8, weight_dtype="fp8",
                engine="vllm", realism="engine")  # fmt: skip
    return engine_node(Scenario(**{**base, **knobs}))


def _line(node, tokens, latency):
    """The line's all-reduces of ``tokens`` tokens on ``node``."""
    return line_allreduce(tokens, node.hidden, node.layers, node.cards, node.link_bytes_per_s,
                          node._link_share, node.allreduce_latency_s if latency else 0.0)  # fmt: skip


def test_a_tensor_parallel_step_pays_its_engines_measured_allreduce():
    """Llama-3-70B on eight H100s under vLLM: a step of 512 tokens pays, twice in each of its
    80 layers, vLLM's measured all-reduce of 8 MiB in place of the line's."""
    node = _tp()
    assert node.allreduce_table >= 0
    line = replace(node, allreduce_table=-1)
    tokens = 512.0
    size = tokens * node.hidden * 2.0
    tabled = 2 * node.layers * allreduce_seconds(node.allreduce_table, 8, size)
    added = node._per_token(tokens, ALL_TERMS) - line._per_token(tokens, ALL_TERMS)
    assert_allclose(added, tabled - _line(node, tokens, True), rtol=1e-9)
    assert tabled > _line(node, tokens, True)  # a mid-sized all-reduce is slower than the line


def test_riding_tokens_allreduce_at_the_largest_messages_rate():
    """A prompt's tokens riding in a step add at the rate of the table's largest message."""
    node = _tp(engine="sglang", gpu="H200", cards=4)
    line = replace(node, allreduce_table=-1)
    rate = allreduce_largest_rate(node.allreduce_table, 4, node.hidden * 2.0)
    added = node._per_token(4096.0, ALL_TERMS, False) - line._per_token(4096.0, ALL_TERMS, False)
    assert_allclose(added, 2 * node.layers * 4096.0 * rate - _line(node, 4096.0, False),
                    rtol=1e-9)  # fmt: skip


def test_unmeasured_cards_and_counts_keep_the_line():
    """L40S (PCIe), MI300X, three H100s and DEP's nodes have no all-reduce table."""
    for node in (_tp(gpu="L40S", cards=4), _tp(gpu="MI300X"), _tp(cards=3),
                 _tp(model="DeepSeek-R1", gpu="H200", layout="dep")):  # fmt: skip
        assert node._measured_allreduces is None


def test_a_sweep_and_one_scenario_agree():
    """The same node priced in a sweep of arrays and alone in floats gives the same bits."""
    node = _tp(engine="tensorrt-llm", gpu="B200")
    tokens = np.array([1.0, 37.0, 2048.0, 3e5, 1e7])
    for latency in (True, False):
        swept = node._per_token(tokens, ALL_TERMS, latency)
        assert swept.tolist() == [node._per_token(float(t), ALL_TERMS, latency) for t in tokens]


@given(knobs=split_knobs, tokens=st.floats(1.0, 1e6), more=st.floats(1.0, 1e6))
def test_a_steps_collectives_never_shrink_with_more_tokens(knobs, tokens, more):
    """On any tensor-parallel or DEP node, measured or on the line, more tokens never take less
    time in its collectives, alone or riding, and the time is finite and not negative."""
    node = engine_node(Scenario(**knobs))
    for latency in (True, False):
        less = node._per_token(tokens, ALL_TERMS, latency=latency)
        most = node._per_token(tokens + more, ALL_TERMS, latency=latency)
        assert 0.0 <= less <= most < float("inf")


@given(knobs=split_knobs)
def test_every_split_scenario_reads_finite_figures(knobs):
    """A tensor-parallel or DEP scenario whose engine leaves its cache room to run a request
    reads a finite, positive first token, time between tokens and throughput."""
    result = evaluate(Scenario(**knobs))
    assume(bool(result.weights_fit) and float(result.running_requests) > 0)
    for figure in (result.ttft_p50_s, result.itl_s, result.throughput_tokens_per_s):
        assert 0.0 < float(figure) < float("inf")


def test_a_sweep_over_cards_and_engines_prices_each_scenario_as_alone():
    """Measured tables and the line mixed in one array call (H100s under each engine, an
    L40S pair, six H200s, a DEP node) give each scenario's own figures to the last bit."""
    base = Scenario(model="Qwen3-30B-A3B", weight_dtype="fp8", realism="engine",
                    prompt_tokens=1024, answer_tokens=256, concurrency=64)  # fmt: skip
    gpus = np.array(["H100 SXM", "H100 SXM", "H100 SXM", "L40S", "H200", "B200"])
    cards = np.array([8, 2, 4, 2, 6, 4])
    engines = np.array(["tensorrt-llm", "vllm", "sglang", "vllm", "tensorrt-llm", "tensorrt-llm"])
    layouts = np.array(["tp", "tp", "tp", "tp", "tp", "dep"])
    swept = evaluate(base, gpu=gpus, cards=cards, engine=engines, layout=layouts)
    for index in range(gpus.size):
        alone = evaluate(base, gpu=str(gpus[index]), cards=int(cards[index]),
                         engine=str(engines[index]), layout=str(layouts[index]))  # fmt: skip
        for field in ("itl_s", "ttft_p50_s", "throughput_tokens_per_s"):
            assert getattr(swept, field)[index] == getattr(alone, field), (index, field)
