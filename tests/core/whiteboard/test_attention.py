"""Attention variants' per-token costs: the width a prompt's attention multiplies at per head."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario
from core.catalog import MODELS
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node
from core.whiteboard.attention import (
    causal_pairs,
    indexer_bytes_per_layer,
    kv_bytes_per_token,
    kv_numbers_per_layer,
    prefill_head_width,
)


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
    flops = 4.0 * layers * heads * 32.0 * causal_pairs(tokens)
    flops += 4.0 * layers * heads * 32.0 * node.prefill_attention_keys * tokens
    rate = node.cards * node.rates(ALL_TERMS)[2] * node.prefill_attention_share
    assert_allclose(extra, flops * node.prefill_waits(ALL_TERMS, False) / rate, rtol=1e-9)
    assert extra > 0


def test_a_window_layer_scores_a_full_layers_pairs_until_the_window_fills():
    """Up to w tokens a sliding window scores what a full layer does; past it, w keys a token."""
    assert_allclose(causal_pairs(3000.0, 4096.0), causal_pairs(3000.0))
    past = causal_pairs(10_000.0, 4096.0) - causal_pairs(9_000.0, 4096.0)
    assert_allclose(past, 1000.0 * 4096.0)


def test_a_chunked_layer_scores_each_chunk_as_a_prompt_of_its_own():
    """Chunked attention over three whole chunks and a part scores each as a fresh prompt."""
    chunk = 8192.0
    assert_allclose(causal_pairs(3 * chunk + 100.0, chunk, chunked=True),
                    3 * causal_pairs(chunk) + causal_pairs(100.0))  # fmt: skip
    assert causal_pairs(3 * chunk, chunk, chunked=True) < causal_pairs(3 * chunk, chunk)


def test_the_engine_level_counts_a_window_layers_prompt_at_its_window():
    """gpt-oss's 18 sliding-window layers (128 tokens) add 128 keys a token past the window, so
    its 32,768-token prompt's attention is its 18 full layers' and the windows' pairs."""
    node = engine_node(Scenario(model="gpt-oss-120b", gpu="H200", realism="engine"))
    shape = MODELS["gpt-oss-120b"]
    assert (node.window_layers, node.attention_window) == (shape.window_layers, 128)
    tokens = 32768.0
    seconds = node.prompt_attention_s(tokens, 0.0, 1e15)
    full, windows = node._attention_layers - node.window_layers, node.window_layers
    pairs = full * causal_pairs(tokens) + windows * causal_pairs(tokens, 128.0)
    pairs += node._attention_layers * node.prefill_attention_keys * tokens
    per_pair = 4.0 * node.query_heads * node._prefill_width
    assert_allclose(seconds, per_pair * pairs / (node.cards * 1e15 * node.prefill_attention_share))


def test_one_scenarios_cache_figures_have_their_sweeps_bits():
    """A token's cache bytes, a layer's numbers and an indexer's bytes in plain floats equal
    their entries in a sweep, for full, windowed, latent and hybrid layers alike."""
    # (layers, kv heads, head size, latent rank, rope, bytes, tokens, window, windowed layers,
    #  cacheless layers, state bytes, indexer width)
    cases = [
        (32, 8, 128, 0, 0, 2.0, 1200.0, 0, 0, 0, 0.0, 0),
        (48, 8, 128, 0, 0, 2.0, 70_000.0, 4096, 36, 0, 0.0, 0),
        (61, 128, 128, 512, 64, 1.0, 9000.0, 0, 0, 0, 0.0, 128),
        (40, 4, 256, 0, 0, 2.0, 30.0, 0, 0, 30, 2.5e6, 0),
    ]
    for layers, heads, head, rank, rope, width, tokens, *rest in cases:
        window, windowed, cacheless, state, indexer = rest
        numbers = kv_numbers_per_layer(heads, head, rank, rope)
        assert numbers == kv_numbers_per_layer(np.array([heads, 1]), head, rank, rope)[0]
        extra = indexer_bytes_per_layer(indexer)
        assert extra == indexer_bytes_per_layer(np.array([indexer, 64]))[0]
        common = (window, windowed, cacheless, state, extra)
        alone = kv_bytes_per_token(layers, numbers, width, tokens, *common)
        swept = kv_bytes_per_token(layers, numbers, width, np.array([tokens, 5.0]), *common)[0]
        assert alone == swept
