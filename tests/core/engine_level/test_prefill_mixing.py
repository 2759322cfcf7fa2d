"""Whether a new prompt's prefill rides in the running step or takes a step of its own."""

from __future__ import annotations

from dataclasses import replace

from numpy.testing import assert_allclose

from core import Scenario
from core.engine_level.joining import joining
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

NO_SERVER = ALL_TERMS - {"server_overheads"}

DEEPSEEK = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8", realism="engine")


def prices(**knobs):
    """(alone, riding) prefill seconds of a 1,024-token prompt on the knobs' node, and the node."""
    node = engine_node(Scenario(**{**DEEPSEEK, **knobs}))
    alone = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=True)
    return alone, node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False), node


def test_sglang_runs_a_prompt_in_a_step_of_its_own():
    """SGLang mixes no prefill into the decodes (enable_mixed_chunk off): a joining prompt's step
    pays its own weight read and fixed costs beside its arithmetic, and its first token waits
    only for the step under way."""
    alone, riding, node = prices(engine="sglang")
    assert node.separate_prefill and riding < alone
    assert joining(node, alone, riding, NO_SERVER) == (riding, alone - riding, 0.5)


def test_tensorrt_llm_and_vllm_v1_ride_in_the_running_step():
    """In-flight batching and V1's chunked prefill put the prompt in the running decodes' step:
    it pays only its own arithmetic there, and its first token waits for that step too."""
    for engine in ("tensorrt-llm", "vllm"):
        alone, riding, node = prices(engine=engine)
        assert not node.separate_prefill
        assert joining(node, alone, riding, NO_SERVER) == (riding, 0.0, 1.5)


def test_a_scheduler_a_step_ahead_makes_a_new_prompt_wait_a_step_more():
    """An overlap scheduler has queued the next step when a prompt arrives: the prompt joins the
    step after it, one step more (priced with the server path); a release that schedules each
    step before launching it adds none."""
    for engine, version, ahead in (
        ("sglang", "0.5", True), ("tensorrt-llm", "1.0", True), ("vllm", "0.19", True),
        ("sglang", "0.3", False), ("tensorrt-llm", "0.17", False), ("vllm", "0.10", False),
    ):  # fmt: skip
        alone, riding, node = prices(engine=engine, engine_version=version)
        assert bool(node.schedules_ahead) is ahead
        without = joining(node, alone, riding, NO_SERVER)[2]
        assert joining(node, alone, riding, ALL_TERMS)[2] == without + (1.0 if ahead else 0.0)


def test_vllm_v0_without_chunked_prefill_runs_prompts_alone():
    """vLLM 0.6's V0 scheduler chunks no prefill by default: its prompts take steps of their own."""
    assert prices(engine="vllm", engine_version="0.6")[2].separate_prefill


def test_chunked_serving_mixes_whatever_the_engines_default():
    """The chunked serving mode puts prompts into the running steps, SGLang's too."""
    assert not prices(engine="sglang", serving_mode="chunked")[2].separate_prefill


def test_a_sweep_of_engines_takes_each_engines_own_way():
    """Engines in one vectorised node: each its own cost and wait, as alone."""
    from core.evaluate import engine_node as node_of

    node = node_of(Scenario(**DEEPSEEK), engine=["sglang", "tensorrt-llm"])
    alone = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=True)
    riding = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False)
    cost, extra, waited = joining(node, alone, riding, ALL_TERMS)
    assert_allclose(cost + extra, [alone[0], riding[1]])
    assert_allclose(waited, [1.5, 2.5])  # both newest releases schedule a step ahead


def test_prompts_waiting_together_share_one_prefill_step():
    """SGLang's prefill batch takes every waiting prompt: at one prompt a second each holds the
    cards for nearly its own step; at a thousand, nearly only its own arithmetic."""
    from core.engine_level.load import open_loop

    alone, riding, node = prices(engine="sglang")
    terms, held = ALL_TERMS, []
    for rate in (1.0, 1000.0):
        held.append(open_loop(node, rate, 256.0, 1024.0, 256.0, 0.0, terms)[-1])
    assert alone > held[0] > held[1] > riding
    assert held[0] > 0.9 * alone and held[1] < 1.1 * riding


def test_a_riding_prefill_pays_no_second_collective_latency():
    """Riding in a step whose decodes already pay each layer's all-reduce latency, a prompt adds
    only its per-token collective time: doubling the prompt doubles that part, with nothing
    fixed left over; a prefill alone still pays the latency (on the line, a latency plus a time
    per token; from a measured table, the table at its size, more than riding)."""
    node = engine_node(Scenario(**DEEPSEEK, engine="tensorrt-llm"))
    line = replace(node, allreduce_table=-1, gather_table=-1)
    for each in (node, line):
        riding = each._per_token(1024.0, ALL_TERMS, latency=False)
        assert_allclose(each._per_token(2048.0, ALL_TERMS, latency=False), 2.0 * riding)
        assert each._per_token(1024.0, ALL_TERMS) > riding
    latency = line._per_token(0.0, ALL_TERMS)
    assert latency > 0.0  # eight cards all-reduce every layer
    assert_allclose(line._per_token(1024.0, ALL_TERMS), latency + riding)
