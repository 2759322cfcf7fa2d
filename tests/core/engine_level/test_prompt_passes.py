"""A lone prompt prefilled in several forward passes pays each pass's weights, fixed costs and
(where eager) dispatch."""

from __future__ import annotations

import dataclasses

import pytest

from core.engine_level.terms import ALL_TERMS
from tests.core.engine_level.test_engine_versions import _tiny_node


def test_one_pass_where_the_release_does_not_chunk_or_the_prompt_fits_a_chunk():
    """No chunk, or a prompt within one chunk, is one pass and the same prefill to the bit."""
    node = _tiny_node()
    chunked = dataclasses.replace(node, prefill_chunk_tokens=8192.0, eager_prompt_steps=True)
    assert node.prompt_passes(129024.0) == 1.0 and chunked.prompt_passes(8192.0) == 1.0
    assert chunked.prefill_s(8000.0, 0.0, ALL_TERMS, True) == node.prefill_s(
        8000.0, 0.0, ALL_TERMS, True
    )


def test_each_further_pass_reads_the_weights_and_pays_a_steps_fixed_costs():
    """A 4,096-token prompt in 512-token passes takes 8 passes; compiled passes add 7 weight
    reads and a step's fixed costs each, eager ones the engine's dispatch besides."""
    node = dataclasses.replace(_tiny_node(), request_overhead_s=2e-3)
    compiled = dataclasses.replace(node, prefill_chunk_tokens=512.0)
    eager = dataclasses.replace(compiled, eager_prompt_steps=True)
    assert compiled.prompt_passes(4096.0) == 8.0 and compiled.prompt_passes(4097.0) == 9.0
    one = node.prefill_s(4096.0, 0.0, ALL_TERMS, True)
    passes = compiled.prefill_s(4096.0, 0.0, ALL_TERMS, True)
    stream = node.engine_weight_bytes(ALL_TERMS) / (node.cards * node.measured_bandwidth)
    assert passes - one >= 7 * stream  # every further pass streams the weights again
    dispatched = eager.prefill_s(4096.0, 0.0, ALL_TERMS, True)
    assert dispatched - passes == pytest.approx(7 * 2e-3, rel=1e-9)


def test_a_prompt_riding_in_others_steps_is_not_split():
    """Passes are a lone prompt's: riding beside decodes, the prefill is priced as before."""
    node = _tiny_node()
    chunked = dataclasses.replace(node, prefill_chunk_tokens=512.0, eager_prompt_steps=True)
    assert chunked.prefill_s(4096.0, 0.0, ALL_TERMS, False) == node.prefill_s(
        4096.0, 0.0, ALL_TERMS, False
    )


def test_arrays_of_prompts_take_their_own_passes():
    """An array of prompts gives each its own count of passes; a 0 chunk gives one."""
    node = dataclasses.replace(_tiny_node(), prefill_chunk_tokens=[512.0, 0.0, 512.0])
    assert list(node.prompt_passes([100.0, 100000.0, 1025.0])) == [1.0, 1.0, 3.0]


def test_each_pass_of_a_mixture_runs_its_chunks_expert_layers():
    """A lone 32,768-token prompt of DeepSeek-R1 in vLLM's 8,192-token passes runs the expert
    layers four times over a chunk each (their floors, streams and part-filled tiles every
    pass): four times one chunk's, more than the whole prompt's in one pass."""
    from core import Scenario
    from core.evaluate import engine_node

    node = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                                engine="vllm", realism="engine"))  # fmt: skip
    assert node.prompt_passes(32768.0) == 4.0
    one_pass = dataclasses.replace(node, prefill_chunk_tokens=0.0)
    split = node.prefill_s(32768.0, 0.0, ALL_TERMS, True)
    whole = one_pass.prefill_s(32768.0, 0.0, ALL_TERMS, True)
    experts = 4.0 * node.expert_seconds(8192.0, ALL_TERMS) - node.expert_seconds(32768.0, ALL_TERMS)
    assert experts > 0.0
    assert split > whole + experts  # the three further passes' weights and fixed costs besides
    riding = node.prefill_s(32768.0, 0.0, ALL_TERMS, False)
    assert riding == one_pass.prefill_s(32768.0, 0.0, ALL_TERMS, False)  # riding: not split
