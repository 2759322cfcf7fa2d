"""What a checkpoint keeps of its embeddings and output head, and what a decode step streams of them."""

from __future__ import annotations

import dataclasses
import json

from numpy.testing import assert_allclose

from core import MODELS, Scenario
from core.catalog.checkpoints import kept_embedding_params
from core.catalog.config_json import parse_config
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

_SMALL = {"architectures": ["Qwen2ForCausalLM"], "hidden_size": 896, "intermediate_size": 4864,
          "num_attention_heads": 14, "num_hidden_layers": 24, "num_key_value_heads": 2,
          "vocab_size": 151936, "tie_word_embeddings": True, "max_position_embeddings": 32768}  # fmt: skip


def test_a_quantised_checkpoint_keeps_its_embeddings_and_head_in_bf16():
    """DeepSeek-R1's fp8 checkpoint keeps its embedding and head (V d each) in bf16; checkpoints
    that state their own bf16 tensors (NVIDIA's NVFP4 DeepSeek, gpt-oss) are taken at their word,
    and a tied model keeps one matrix."""
    deepseek = MODELS["DeepSeek-R1"]
    assert kept_embedding_params(deepseek, "fp8") == 2 * deepseek.vocab * deepseek.hidden
    assert kept_embedding_params(deepseek, "nvfp4") == 0.0
    assert kept_embedding_params(MODELS["gpt-oss-120b"], "mxfp4") == 0.0
    tied = parse_config(json.dumps(_SMALL)).shape
    assert tied.tied_embeddings and not MODELS["Llama-3-8B"].tied_embeddings
    assert kept_embedding_params(tied, "int4") == tied.vocab * tied.hidden


def test_a_decode_step_streams_the_head_but_not_the_embedding_table():
    """An untied model's step streams its weights less the embedding table (in bf16, as kept);
    a tied model's table is its head, streamed whole; without checkpoint formats priced, the
    step streams every weight as before."""
    llama = engine_node(Scenario(model="Llama-3-8B", gpu="H100 SXM", realism="engine"))
    table = MODELS["Llama-3-8B"].vocab * MODELS["Llama-3-8B"].hidden * 2
    held = llama.engine_weight_bytes(ALL_TERMS)
    assert_allclose(held - llama.streamed_weight_bytes(ALL_TERMS), table)
    without = ALL_TERMS - {"checkpoint_formats"}
    assert llama.streamed_weight_bytes(without) == llama.engine_weight_bytes(without)
    tied = engine_node(Scenario(model="custom", model_config=json.dumps(_SMALL), realism="engine"))
    assert tied.unstreamed_bytes == 0.0


def test_under_dep_every_card_leaves_its_own_copy_of_the_table_out():
    """Under attention data parallelism each card holds the embedding table and streams none of
    it, so the node's stream drops one table a card."""
    knobs = {"model": "DeepSeek-R1", "gpu": "B200", "cards": 8, "weight_dtype": "fp8",
             "layout": "dep", "realism": "engine"}  # fmt: skip
    node = engine_node(Scenario(**knobs))
    dropped = node.engine_weight_bytes(ALL_TERMS) - node.streamed_weight_bytes(ALL_TERMS)
    assert_allclose(dropped, 8 * node.unstreamed_bytes)
    plain = dataclasses.replace(node, data_parallel_attention=False)
    assert plain.streamed_weight_bytes(ALL_TERMS) < plain.engine_weight_bytes(ALL_TERMS)
