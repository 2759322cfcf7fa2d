"""DEP on one node: every expert layer gathers all the cards' tokens and scatters them back."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import ALLREDUCE_LATENCY_S, NVLINK_PROTOCOL_EFFICIENCY
from core.catalog.collective_tables import gather_seconds, largest_rate
from core.engine_level.terms import ALL_TERMS, gather_scatter_seconds
from core.evaluate import engine_node


def test_each_layer_moves_the_steps_tokens_in_and_back():
    """4,096 tokens of 7,168 numbers on 8 cards over 450 GB/s: 7/8 of them arrive, in bf16
    both ways, after two latencies; a card alone moves nothing."""
    seconds = gather_scatter_seconds(4096.0, 7168.0, 58.0, 8.0, 450e9)
    moved = 7 / 8 * 4096 * 7168 * (2 + 2) / (NVLINK_PROTOCOL_EFFICIENCY * 450e9)
    assert_allclose(seconds, 58 * (2 * ALLREDUCE_LATENCY_S + moved))
    assert gather_scatter_seconds(4096.0, 7168.0, 58.0, 1.0, 450e9) == 0.0


def test_tensorrt_llm_gathers_an_nvfp4_moes_input_quantised():
    """TensorRT-LLM quantises an NVFP4 MoE's input before the gather; SGLang gathers bf16."""
    knobs = dict(model="DeepSeek-R1", gpu="B200", cards=4, weight_dtype="nvfp4",
                 kv_dtype="fp8", layout="dep", realism="engine")  # fmt: skip
    assert engine_node(Scenario(**knobs)).gathered_bytes == 4.5 / 8
    assert engine_node(Scenario(**knobs, engine="sglang")).gathered_bytes == 2.0
    fp8 = engine_node(Scenario(**{**knobs, "gpu": "H200", "cards": 8, "weight_dtype": "fp8"}))
    assert fp8.gathered_bytes == 2.0


def _dep(**knobs):
    base = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8", kv_dtype="fp8",
                layout="dep", engine="tensorrt-llm", realism="engine")  # fmt: skip
    return engine_node(Scenario(**{**base, **knobs}))


def test_tensorrt_llm_dep_gathers_are_timed_from_nccls_tables():
    """On 8 x H200 a step of 2,048 tokens pays, in each of DeepSeek-R1's 58 expert layers,
    NCCL's measured all-gather and reduce-scatter of its 29 MB in place of the line's: about
    1.6 times the line's time at that size."""
    node = _dep()
    assert node.gather_table >= 0
    line = replace(node, gather_table=-1)
    _, layers = node.expert_geometry
    tokens, size = 2048.0, 2048.0 * node.hidden * 2.0
    tabled = layers * gather_seconds(node.gather_table, 8, size, size)
    linear = gather_scatter_seconds(tokens, node.hidden, layers, 8.0, node.link_bytes_per_s,
                                    node.gathered_bytes, node._link_share,
                                    node.allreduce_latency_s)  # fmt: skip
    added = node._per_token(tokens, ALL_TERMS) - line._per_token(tokens, ALL_TERMS)
    assert_allclose(added, tabled - linear, rtol=1e-12)
    assert 1.3 < tabled / linear < 2.0


def test_riding_tokens_add_at_the_largest_messages_rate():
    """A prompt's tokens riding in a step whose gathers are paid add at the rate NCCL reaches
    on its largest messages, not at the size of their own share."""
    node = _dep()
    line = replace(node, gather_table=-1)
    _, layers = node.expert_geometry
    per_token = node.hidden * 2.0
    rate = largest_rate(node.gather_table, 8, per_token, per_token)
    added = node._per_token(4096.0, ALL_TERMS, latency=False)
    slope = added - line._per_token(4096.0, ALL_TERMS, latency=False)
    linear = gather_scatter_seconds(4096.0, node.hidden, layers, 8.0, node.link_bytes_per_s,
                                    node.gathered_bytes, node._link_share, 0.0)  # fmt: skip
    assert_allclose(slope, layers * 4096.0 * rate - linear, rtol=1e-12)


def test_other_engines_cards_and_counts_keep_the_line():
    """vLLM, an H20 node and six H200s have no measured table: their gathers stay the line's."""
    for node in (_dep(engine="vllm"), _dep(gpu="H20"), _dep(cards=6)):
        assert node._measured_gathers is None or not np.any(node._measured_gathers)


def test_a_sweep_and_one_scenario_agree():
    """The same DEP node priced in a sweep of arrays and alone in floats gives the same bits."""
    node = _dep()
    tokens = np.array([1.0, 37.0, 2048.0, 3e5])
    swept = node._per_token(tokens, ALL_TERMS)
    assert swept.tolist() == [node._per_token(float(t), ALL_TERMS) for t in tokens]
