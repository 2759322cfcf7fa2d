"""A mixture's prompt riding in the decodes' step streams the experts they do not touch."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.joining import joining, step_size_s
from core.engine_level.load import closed_loop, open_loop
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.whiteboard.experts import distinct_experts

DEEPSEEK = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8", realism="engine")


def node_of(**knobs):
    """The engine node of DeepSeek-R1 on eight H200 with ``knobs`` over it."""
    return engine_node(Scenario(**{**DEEPSEEK, **knobs}))


def test_a_prompt_beside_few_decodes_streams_the_experts_they_leave():
    """Beside four decodes (about 31 of 256 experts a layer) a 1,024-token prompt touches nearly
    every expert: the step is priced as one of 1,028 tokens, and the prompt pays its difference
    from the decodes' step beyond the arithmetic it already pays."""
    node = node_of(engine="vllm")
    assert distinct_experts(256.0, 8.0, 4.0) < 32.0 < 255.0 < distinct_experts(256.0, 8.0, 1028.0)
    added = node.riding_stream_s(4.0, 1024.0, ALL_TERMS)
    together = node.expert_seconds(1028.0, ALL_TERMS)
    decoding = node.expert_seconds(4.0, ALL_TERMS)
    riding = node.expert_seconds(1024.0, ALL_TERMS, alone=False)
    assert_allclose(added, together - decoding - riding)
    assert 0.25 * (together - decoding) < added < together - decoding


def test_the_more_decodes_the_less_a_prompt_streams_for_them():
    """Decodes that already touch most experts leave a prompt little to stream: the price falls
    as the batch beside grows, to nothing beyond its arithmetic once they touch them all."""
    node = node_of(engine="vllm")
    added = [float(node.riding_stream_s(beside, 1024.0, ALL_TERMS)) for beside in (1, 4, 8, 32, 64)]
    assert added == sorted(added, reverse=True)
    assert added[0] > 0.0 and added[-1] == 0.0


def test_a_chunked_prompt_streams_the_experts_once_a_pass():
    """A prompt the release chunks rides in one step a chunk, and each chunk's step streams the
    experts its tokens route to: in 512-token passes a 2,048-token prompt pays four times what
    one 512-token chunk beside the same decodes does."""
    node = replace(node_of(engine="vllm"), prefill_chunk_tokens=512.0)
    assert node.prompt_passes(2048.0) == 4.0
    chunk = node.riding_stream_s(4.0, 512.0, ALL_TERMS)
    assert chunk > 0.0
    assert_allclose(node.riding_stream_s(4.0, 2048.0, ALL_TERMS), 4.0 * chunk)


def test_a_dense_prompt_streams_nothing_more():
    """A dense model's decodes already read every weight: nothing is added."""
    node = engine_node(Scenario(model="Llama-3-70B", gpu="H200", cards=8, realism="engine"))
    assert node.riding_stream_s(4.0, 1024.0, ALL_TERMS) == 0.0
    assert node_of(engine="vllm").riding_stream_s(4.0, 1024.0, ALL_TERMS - {"expert_reads"}) == 0.0


def test_prompts_in_steps_of_their_own_already_stream_them():
    """SGLang prefills a prompt in a step of its own, whose price (alone) streams its experts:
    the decodes beside change nothing there. Where the prompt rides, it pays the stream."""
    for engine, rides in (("sglang", False), ("vllm", True), ("tensorrt-llm", True)):
        node = node_of(engine=engine)
        alone = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=True)
        riding = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False)
        size = step_size_s(node, 4.0, 1024.0, ALL_TERMS)
        plain = joining(node, alone, riding, ALL_TERMS, 1024.0)
        beside = joining(node, alone, riding, ALL_TERMS, 1024.0, size)
        extra = size if rides else 0.0
        assert_allclose(beside[0], plain[0] + extra)
        assert beside[1:] == plain[1:]


@pytest.mark.parametrize(
    "model, gpu, cards, weights, engine",
    [("DeepSeek-R1", "MI355X", 8, "fp8", "vllm"), ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm"),
     ("gpt-oss-120b", "B200", 1, "mxfp4", "tensorrt-llm"),
     ("Qwen3-30B-A3B", "H100 SXM", 1, "bf16", "vllm")],
)  # fmt: skip
def test_a_second_user_never_brings_a_mixtures_first_token_sooner(
    model, gpu, cards, weights, engine
):
    """The step a second user's prompt joins streams what the prompt alone would, and more: the
    first token at two users is no sooner than at one (it read up to a third sooner before)."""
    first = []
    for users in (1, 2, 4):
        scenario = Scenario(realism="engine", model=model, gpu=gpu, cards=cards, engine=engine,
                            weight_dtype=weights, prompt_tokens=1024, answer_tokens=512,
                            prefix_hit_rate=0.0, concurrency=users)  # fmt: skip
        first.append(float(evaluate(scenario).ttft_p50_s))
    assert first == sorted(first)


def test_the_closed_loop_prices_the_stream_beside_its_other_users():
    """At four users a prompt rides beside three decodes: its cards' time in the loop's prefill
    share is the riding prefill plus the experts those three leave."""
    node = node_of(engine="vllm")
    loop = closed_loop(node, 4.0, 1024.0, 1024.0, 512.0, 0.0, ALL_TERMS)
    riding = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False)
    stream = node.riding_stream_s(3.0, 1024.0, ALL_TERMS)
    alone = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False)
    assert stream > 0.0 and alone == riding
    step = float(loop.step)
    overhead, latency = node.request_overhead(ALL_TERMS), node.server_path(ALL_TERMS)
    waited = joining(node, 1.0, riding, ALL_TERMS)[2]
    ahead = float(loop.ttft) - (overhead + latency + waited * step)
    assert ahead >= riding + stream - 1e-12  # the prompt's own step, and any queued ahead of it


def test_the_open_loop_prices_the_stream_beside_the_requests_it_finds():
    """Arrivals at a low rate find few requests running: each prompt holds the cards for its
    arithmetic and the experts those few leave (and its collectives at the step's size), more
    than its arithmetic alone."""
    node = node_of(engine="vllm")
    riding = node.prefill_s(1024.0, 0.0, ALL_TERMS, alone=False)
    running, *_, held = open_loop(node, 0.5, 1024.0, 1024.0, 512.0, 0.0, ALL_TERMS)
    assert_allclose(held, riding + step_size_s(node, running, 1024.0, ALL_TERMS), rtol=1e-3)
    assert held > riding


def test_a_sweep_prices_each_mixture_as_it_does_alone():
    """Engines and cards in one vectorised evaluation: each the first token it has alone."""
    knobs = dict(model="DeepSeek-R1", cards=8, weight_dtype="fp8", realism="engine",
                 prompt_tokens=1024, answer_tokens=512, prefix_hit_rate=0.0,
                 concurrency=4)  # fmt: skip
    pairs = [("vllm", "H200"), ("tensorrt-llm", "B200"), ("sglang", "H200"), ("vllm", "MI355X")]
    alone = [float(evaluate(Scenario(**knobs, engine=e, gpu=g)).ttft_p50_s) for e, g in pairs]
    swept = evaluate(Scenario(**knobs), engine=[e for e, _ in pairs], gpu=[g for _, g in pairs])
    assert_allclose(np.asarray(swept.ttft_p50_s, dtype=float), alone, rtol=1e-9)
