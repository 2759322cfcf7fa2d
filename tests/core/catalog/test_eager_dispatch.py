"""SGLang's first-token path as measured apart: its eager prefill's cost per launch and its server's."""

from __future__ import annotations

from numpy.testing import assert_allclose

from bench.first_token_checks import deepseek_launch_s, pair_scenario
from core.catalog.eager_dispatch import (
    PIECEWISE_PAIR_EAGER_TTFT_S,
    PIECEWISE_PAIR_GRAPHED_LAUNCHES,
    PIECEWISE_PAIR_GRAPHED_TTFT_S,
    PIECEWISE_PAIR_LAYERS,
    PIECEWISE_PAIR_PRICED_PREFILL_S,
    SGLANG_EAGER_LAUNCH_S,
    SGLANG_SERVER_PATH_S,
)
from core.catalog.engines import ENGINES
from core.engine_level.terms import TERMS
from core.evaluate import engine_node, evaluate, evaluate_terms


def test_sglang_is_priced_with_its_own_figures_not_vllms():
    """SGLang pays its measured dispatch per launch and server path, and no borrowed per-layer
    figure; vLLM keeps aiconfigurator's per-layer one."""
    assert ENGINES["sglang"].request_overhead_per_layer_s == 0.0
    assert ENGINES["sglang"].eager_launch_s == SGLANG_EAGER_LAUNCH_S
    assert ENGINES["sglang"].server_path_s == SGLANG_SERVER_PATH_S
    assert ENGINES["vllm"].eager_launch_s == 0.0 and ENGINES["vllm"].server_path_s == 0.0


def test_the_dispatch_per_launch_is_the_pairs_saving_over_the_launches_the_graph_took():
    """The piecewise graph replays every kernel of a dense layer but attention: 256 launches
    over 32 layers, and the 10.31 ms it saves is 40.3 µs each."""
    assert PIECEWISE_PAIR_GRAPHED_LAUNCHES == PIECEWISE_PAIR_LAYERS * 8
    saved = PIECEWISE_PAIR_EAGER_TTFT_S - PIECEWISE_PAIR_GRAPHED_TTFT_S
    assert_allclose(SGLANG_EAGER_LAUNCH_S * PIECEWISE_PAIR_GRAPHED_LAUNCHES, saved, rtol=1e-12)


def test_the_server_path_is_what_the_graphed_first_token_keeps_beyond_the_priced_prefill():
    """The engine level, without the engine's first-token costs, prices the pair's prefill as
    the catalog records it; the server path is the graphed first token less that and the
    attention launches still eager."""
    without = frozenset(TERMS) - {"server_overheads"}
    priced = float(evaluate_terms(pair_scenario(), without).ttft_p50_s)
    assert_allclose(priced, PIECEWISE_PAIR_PRICED_PREFILL_S, rtol=2e-3)
    attention = PIECEWISE_PAIR_LAYERS * SGLANG_EAGER_LAUNCH_S
    assert_allclose(
        SGLANG_SERVER_PATH_S, PIECEWISE_PAIR_GRAPHED_TTFT_S - priced - attention, atol=2e-5
    )


def test_the_engine_level_gives_back_the_pairs_eager_first_token():
    """At the pair's own set-up the engine level's first token is the eager one measured."""
    assert_allclose(
        float(evaluate(pair_scenario()).ttft_p50_s), PIECEWISE_PAIR_EAGER_TTFT_S, rtol=2e-3
    )


def test_a_deepseek_pass_launches_what_the_second_measurement_implies():
    """SGLang PR #12160's DeepSeek-V3 single-token prefill, eager against a whole graph, costs
    within 5 % of the pair's figure per launch counted (the fused experts' own among them)."""
    per_launch, launches = deepseek_launch_s()
    assert launches > 1000
    assert_allclose(per_launch, SGLANG_EAGER_LAUNCH_S, rtol=0.05)


def test_more_kernels_cost_an_sglang_first_token_more_and_a_vllm_one_by_its_layers():
    """A mixture's eager pass (router, top-k and the fused experts' own launches) costs SGLang
    more per layer than a dense one's; vLLM's per-layer figure does not see the difference."""
    dense = engine_node(pair_scenario(model="Llama-3-8B"))
    mixture = engine_node(pair_scenario(model="Qwen3-30B-A3B", weight_dtype="bf16"))
    per_layer = [node.eager_dispatch_s / float(node.layers) for node in (dense, mixture)]
    assert per_layer[1] > per_layer[0]
    vllm = engine_node(pair_scenario(engine="vllm", engine_version="0.10"))
    assert vllm.eager_dispatch_s == 0.0 and vllm.server_path_s == 0.0
