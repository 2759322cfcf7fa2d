"""A prompt riding in the decodes' step has its collectives read at the step's size."""

from __future__ import annotations

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

LLAMA = dict(model="Llama-3-70B", gpu="H100 SXM", cards=8, realism="engine")


def test_a_prompt_beside_a_few_decodes_pays_its_collectives_at_the_steps_size():
    """Eight H100 all-reduce a 1,024-token step's 16 MiB a layer at a fraction of their largest
    messages' bandwidth: the prompt pays the step's tables at 1,028 tokens less the decodes'
    at 4, where it paid the largest messages' rate alone."""
    node = engine_node(Scenario(**LLAMA, engine="tensorrt-llm"))
    added = node.riding_collectives_s(4.0, 1024.0, ALL_TERMS)
    together = node.tabled_collectives(1028.0, ALL_TERMS, True)
    decoding = node.tabled_collectives(4.0, ALL_TERMS, True)
    riding = node.tabled_collectives(1024.0, ALL_TERMS, False)
    assert_allclose(added, together - decoding - riding)
    assert added > 0.0


def test_nothing_is_added_where_no_table_times_the_collectives():
    """One card reduces nothing, and where the line prices the collectives (no table for the
    cards) it is straight: a riding prompt pays its tokens' share of it and nothing more."""
    one = engine_node(Scenario(**{**LLAMA, "cards": 1}, weight_dtype="fp8", engine="vllm"))
    assert one.riding_collectives_s(4.0, 1024.0, ALL_TERMS) == 0.0
    amd = engine_node(Scenario(**{**LLAMA, "gpu": "MI300X"}, engine="vllm"))
    assert amd.riding_collectives_s(4.0, 1024.0, ALL_TERMS) == 0.0


def test_the_exchanges_of_attention_data_parallel_are_read_so_too():
    """Under DEP each expert layer gathers and scatters the step's tokens: read at the step's
    size, a riding prompt pays more than the largest messages' rate."""
    node = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                                engine="tensorrt-llm", layout="dep", realism="engine"))  # fmt: skip
    assert node.riding_collectives_s(4.0, 1024.0, ALL_TERMS) > 0.0


@pytest.mark.parametrize("engine", ["tensorrt-llm", "vllm"])
def test_a_second_user_never_brings_a_dense_first_token_sooner(engine):
    """The step a second user's prompt joins all-reduces the prompt's tokens at their size: the
    first token at two users is no sooner than at one (it read up to an eighth sooner before)."""
    first = []
    for users in (1, 2, 4):
        scenario = Scenario(**LLAMA, engine=engine, prompt_tokens=1024, answer_tokens=512,
                            prefix_hit_rate=0.0, concurrency=users)  # fmt: skip
        first.append(float(evaluate(scenario).ttft_p50_s))
    assert first == sorted(first)


def test_a_sweep_prices_each_node_as_it_does_alone():
    """Engines and cards in one vectorised evaluation: each the first token it has alone."""
    knobs = dict(model="Llama-3-70B", cards=8, realism="engine", prompt_tokens=1024,
                 answer_tokens=512, prefix_hit_rate=0.0, concurrency=4)  # fmt: skip
    pairs = [("tensorrt-llm", "H100 SXM"), ("vllm", "H200"), ("sglang", "H100 SXM"),
             ("vllm", "MI300X")]  # fmt: skip
    alone = [float(evaluate(Scenario(**knobs, engine=e, gpu=g)).ttft_p50_s) for e, g in pairs]
    swept = evaluate(Scenario(**knobs), engine=[e for e, _ in pairs], gpu=[g for _, g in pairs])
    assert_allclose(np.asarray(swept.ttft_p50_s, dtype=float), alone, rtol=1e-9)
