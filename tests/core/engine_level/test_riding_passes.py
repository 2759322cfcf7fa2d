"""A chunked prompt riding in the decodes' steps waits one step for each of its passes."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.joining import joining
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

NO_SERVER = ALL_TERMS - {"server_overheads"}
LLAMA = dict(model="Llama-2-7B", gpu="B200", cards=8, realism="engine", engine="vllm")


def test_a_prompt_in_four_chunks_waits_four_steps_and_the_one_under_way():
    """vLLM 0.8 chunks prefills at 2,048 tokens: an 8,192-token prompt rides in four steps, so
    its first token waits half a step for the one under way, then four; a prompt of one chunk
    waits 1.5 as before."""
    node = engine_node(Scenario(**LLAMA, engine_version="0.8"))
    assert node.prompt_passes(8192.0) == 4.0 and node.prompt_passes(1024.0) == 1.0
    assert joining(node, 1.0, 0.5, NO_SERVER, 8192.0)[2] == 4.5
    assert joining(node, 1.0, 0.5, NO_SERVER, 1024.0)[2] == 1.5


def test_a_release_that_prefills_apart_waits_for_the_step_under_way_only():
    """SGLang runs a prompt's passes in steps of their own, priced with the prompt alone: its
    first token waits only for the step under way, however many passes."""
    node = engine_node(Scenario(**{**LLAMA, "engine": "sglang"}, engine_version="0.3"))
    assert node.separate_prefill
    assert joining(node, 1.0, 0.5, NO_SERVER, 65536.0)[2] == 0.5


def test_a_second_user_never_brings_a_chunked_first_token_sooner():
    """Alone, an 8,192-token prompt pays its four passes; riding, it waits through four decode
    steps too: the first token at two users is no sooner than at one (it read 4 % sooner)."""
    first = []
    for users in (1, 2, 4):
        scenario = Scenario(**LLAMA, engine_version="0.8", prompt_tokens=8192,
                            answer_tokens=256, prefix_hit_rate=0.0, concurrency=users)  # fmt: skip
        first.append(float(evaluate(scenario).ttft_p50_s))
    assert first == sorted(first)


def test_a_sweep_waits_as_each_release_does_alone():
    """Releases in one vectorised evaluation: each the first token it has alone."""
    knobs = dict(model="Llama-2-7B", cards=8, realism="engine", prompt_tokens=8192,
                 answer_tokens=256, prefix_hit_rate=0.0, concurrency=4, gpu="B200")  # fmt: skip
    releases = [("vllm", "0.8"), ("vllm", "0.19"), ("sglang", "0.5"), ("tensorrt-llm", "1.0")]
    alone = [float(evaluate(Scenario(**knobs, engine=e, engine_version=v)).ttft_p50_s)
             for e, v in releases]  # fmt: skip
    swept = evaluate(Scenario(**knobs), engine=[e for e, _ in releases],
                     engine_version=[v for _, v in releases])  # fmt: skip
    assert_allclose(np.asarray(swept.ttft_p50_s, dtype=float), alone, rtol=1e-9)
