"""Attention variants' per-token costs: the width a prompt's attention multiplies at per head."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import MODELS
from core.engine_level.terms import ALL_TERMS, attention_prefill_flops
from core.evaluate import engine_node
from core.whiteboard.attention import prefill_head_width


def test_a_latent_prompt_scores_keys_wider_than_its_values():
    """DeepSeek-R1's keys carry 128 + 64 rotary numbers, its values 128: a width of 160."""
    deepseek = MODELS["DeepSeek-R1"]
    width = deepseek.head_dim + deepseek.qk_rope_head_dim / 2
    assert_allclose(prefill_head_width(deepseek), width)
    assert_allclose(width, (128 + 64 + 128) / 2)


def test_grouped_query_attention_multiplies_at_its_head_size():
    """A grouped-query model's keys and values are both one head wide."""
    llama = MODELS["Llama-3-70B"]
    assert_allclose(prefill_head_width(llama), llama.head_dim)


def test_the_engine_level_prefills_latent_attention_at_its_own_width():
    """A DeepSeek prompt of 32,768 tokens takes, beyond what it would at the value head's 128,
    exactly the attention FLOPs of the 32 extra numbers a head (its causal pairs and its
    kernel's extra keys) at the prompt-attention kernel's rate."""
    knobs = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8", realism="engine")
    node = engine_node(Scenario(**knobs))
    at_head = replace(node, prefill_head_width=None)  # falls back to the head size, 128
    tokens = np.float64(32768.0)
    extra = node.prefill_s(tokens, 0.0, ALL_TERMS, alone=False) - at_head.prefill_s(
        tokens, 0.0, ALL_TERMS, alone=False
    )
    layers, heads = node._attention_layers, node.query_heads
    flops = attention_prefill_flops(layers, heads, 32.0, tokens, 0.0)
    flops += 4.0 * layers * heads * 32.0 * node.prefill_attention_keys * tokens
    rate = node.cards * node.rates(ALL_TERMS)[2] * node.prefill_attention_share
    assert_allclose(extra, flops * node.prefill_waits(ALL_TERMS, False) / rate, rtol=1e-9)
    assert extra > 0
