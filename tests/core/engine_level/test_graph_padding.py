"""Under trtllm-bench, TensorRT-LLM's decode steps run the next captured CUDA-graph batch up."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog.engine_versions import engine_version
from core.catalog.engines import TRTLLM_BENCH_GRAPH_SIZES
from core.engine_level.terms import ALL_TERMS, graph_padded_batch
from core.evaluate import engine_node

# Qwen3-235B on eight H100 under DEP, driven as trtllm-bench drives it: a closed loop.
BENCH = dict(model="Qwen3-235B-A22B", gpu="H100 SXM", cards=8, weight_dtype="fp8",
             kv_dtype="fp8", layout="dep", engine="tensorrt-llm", prompt_tokens=1000,
             answer_tokens=1000, realism="engine", concurrency=3000, seats=4096)  # fmt: skip


def test_a_batch_runs_the_smallest_captured_size_that_holds_it():
    """5 runs 8, 129 runs 256, 300 runs 384, 600 runs 1,024; a captured size runs itself."""
    found = graph_padded_batch(np.array([5.0, 129.0, 300.0, 600.0, 256.0, 1.0]), 8192.0)
    assert_allclose(found, [8, 256, 384, 1024, 256, 1])


def test_the_engines_limit_takes_the_place_of_the_sizes_above_it():
    """With a limit of 768, 600 runs 768 (not 1,024); above the limit a step runs eagerly."""
    assert_allclose(graph_padded_batch(np.array([600.0, 700.0, 900.0]), 768.0), [768, 768, 900])


def test_padding_never_shrinks_a_batch():
    """Every padded batch holds the requests it pads, and an empty step stays empty."""
    batches = np.linspace(0.0, 10_000.0, 997)
    padded = graph_padded_batch(batches, 4096.0)
    assert np.all(padded >= batches)
    assert padded[0] == 0.0
    assert set(np.unique(padded[(batches > 0) & (batches <= 4096)])) <= {
        *map(float, TRTLLM_BENCH_GRAPH_SIZES),
        4096.0,
    }


def test_only_a_closed_loop_on_the_pytorch_backend_pads():
    """TensorRT-LLM 1.0 under a closed loop pads; an open loop, the 0.17 C++ runtime and vLLM
    do not."""
    assert engine_version("tensorrt-llm", "1.0").pads_to_graph_sizes
    assert engine_node(Scenario(**BENCH)).graph_padding
    open_loop = {key: value for key, value in BENCH.items() if key != "concurrency"}
    assert not engine_node(Scenario(**open_loop)).graph_padding
    assert not engine_node(Scenario(**BENCH, engine_version="0.17")).graph_padding
    assert not engine_node(Scenario(**{**BENCH, "engine": "vllm"})).graph_padding


def test_a_padded_step_pays_for_its_matmuls_not_for_more_cache():
    """Each rank's 219 requests run a 256 graph: the step costs more than unpadded and less than
    a real batch of 256 a rank, whose cache it does not read."""
    node = engine_node(Scenario(**BENCH))
    plain = replace(node, graph_padding=False)
    batch, context = 8 * 219.0, 1500.0
    padded = node.step_s(batch, context, ALL_TERMS)
    assert plain.step_s(batch, context, ALL_TERMS) < padded
    assert padded < plain.step_s(8 * 256.0, context, ALL_TERMS)


def test_a_step_carrying_a_prompts_chunk_runs_unpadded():
    """A mixed step (its requests given apart from its tokens) runs eagerly: no padding."""
    node = engine_node(Scenario(**BENCH))
    plain = replace(node, graph_padding=False)
    mixed = (8 * 219.0 + 512.0, 1200.0, ALL_TERMS, 8 * 219.0)
    assert node.step_s(*mixed) == plain.step_s(*mixed)
