"""DEP on one node: every expert layer gathers all the cards' tokens and scatters them back."""

from __future__ import annotations

from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import ALLREDUCE_LATENCY_S, NVLINK_PROTOCOL_EFFICIENCY
from core.engine_level.terms import gather_scatter_seconds
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
