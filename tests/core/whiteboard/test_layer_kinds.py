"""Hybrid and sparse layers read from real config.json files, counted by hand.

Each expected figure is written out from the config's own fields (see the comments), not from
the code under test: bytes per token of the attention layers, the state one sequence keeps in
its linear-attention or Mamba layers, and the parameters the model card states.
"""

from __future__ import annotations

import json

import pytest

from core import evaluate
from core.catalog.config_json import ConfigError, compact_config, parse_config
from core.whiteboard.attention import attention_variants, shape_kv_bytes_per_token
from core.whiteboard.layer_kinds import layer_kind_rows, paged_full_bytes_per_token, seat_total
from tests.paths import FIXTURES_DIR

CONFIGS = FIXTURES_DIR / "configs"
BF16 = 2


def shape_of(name: str):
    return parse_config((CONFIGS / f"{name}.json").read_text()).shape


def test_qwen3_next_keeps_a_kv_on_one_layer_in_four_and_a_fixed_state_on_the_rest():
    """Qwen3-Next: 12 full-attention layers of 2 x 2 x 256 numbers, 36 Gated DeltaNet states."""
    shape = shape_of("qwen3-next-80b-a3b")
    assert (shape.layers, shape.state_layers, shape.mlp_layers) == (48, 36, 0)
    # 32 value heads x 128 x 128 recurrent state + 3 x (2 x 16 x 128 + 32 x 128) conv inputs
    assert shape.state_numbers == 32 * 128 * 128 + 3 * (2 * 16 * 128 + 32 * 128) == 548_864
    rows = {row.kind: row for row in layer_kind_rows(shape, BF16, 8192)}
    assert rows["full attention"].per_layer_bytes == 2 * 2 * 256 * BF16 == 2048
    assert rows["linear attention (Gated DeltaNet)"].seat_bytes == 36 * 548_864 * BF16
    per_token = 12 * 2048 + 36 * 548_864 * BF16 / 8192
    assert float(shape_kv_bytes_per_token(shape, BF16, 8192)) == pytest.approx(per_token)


def test_nemotron_h_reads_its_pattern_string():
    """Nemotron-H 8B: 'M', '*', '-' give 24 Mamba-2, 4 attention and 24 MLP-only blocks."""
    shape = shape_of("nemotron-h-8b")
    assert (shape.state_layers, shape.mlp_layers, shape.layers - shape.cacheless_layers) == (
        24, 24, 4,
    )  # fmt: skip
    # 128 heads x 64 x 128 state + 3 x (8192 inner + 2 x 8 groups x 128) conv inputs
    assert shape.state_numbers == 128 * 64 * 128 + 3 * (8192 + 2 * 8 * 128)
    rows = layer_kind_rows(shape, BF16, 1000)
    assert seat_total(rows) == 4 * 2 * 8 * 128 * BF16 * 1000 + 24 * shape.state_numbers * BF16


def test_nemotron_h_and_jamba_parameters_match_their_model_cards():
    """Counted with each layer's own mixer, Nemotron-H is about 8.1B and Jamba 52B (12B active)."""
    nemotron = parse_config((CONFIGS / "nemotron-h-8b.json").read_text())
    jamba = parse_config((CONFIGS / "jamba-v0.1.json").read_text())
    qwen = parse_config((CONFIGS / "qwen3-next-80b-a3b.json").read_text())
    assert nemotron.params_total == pytest.approx(8.1e9, rel=0.03)
    assert jamba.params_total == pytest.approx(52e9, rel=0.03)
    assert jamba.params_active == pytest.approx(12e9, rel=0.05)
    assert jamba.moe_layers == 16  # expert_layer_period 2 from offset 1
    assert qwen.params_total == pytest.approx(80e9, rel=0.03)


def test_jamba_places_attention_by_period_and_offset():
    """Jamba v0.1: attention every 8th layer from layer 4, Mamba (d_in 8192, N 16) elsewhere."""
    shape = shape_of("jamba-v0.1")
    assert (shape.state_layers, shape.layers - shape.cacheless_layers) == (28, 4)
    assert shape.state_numbers == 8192 * 16 + 3 * 8192


def test_gemma3_windows_five_layers_in_six():
    """Gemma 3 1B: 22 of 26 layers keep 512 tokens; a full-size paging engine pays all 26."""
    shape = shape_of("gemma-3-1b")
    assert (shape.window_layers, shape.sliding_window) == (22, 512)
    rows = {row.kind: row for row in layer_kind_rows(shape, BF16, 8192)}
    assert rows["sliding window"].seat_bytes == 22 * 2 * 256 * BF16 * 512
    assert rows["full attention"].seat_bytes == 4 * 2 * 256 * BF16 * 8192
    assert paged_full_bytes_per_token(shape, BF16) == 26 * 2 * 256 * BF16


def test_gpt_oss_rows_add_up_to_its_own_cache():
    """gpt-oss-120b: 18 full and 18 banded layers; the rows add up to the model's cache."""
    shape = shape_of("gpt-oss-120b")
    rows = layer_kind_rows(shape, BF16, 4096)
    assert [row.layers for row in rows] == [18, 18]
    assert seat_total(rows) == pytest.approx(
        float(shape_kv_bytes_per_token(shape, BF16, 4096)) * 4096
    )


def test_variants_of_a_hybrid_count_its_attention_layers_only():
    """MHA/GQA/MLA for Qwen3-Next compare its 12 attention layers, not all 48."""
    gqa = next(
        v for v in attention_variants(shape_of("qwen3-next-80b-a3b"), BF16) if v.the_models_own
    )
    assert gqa.bytes_per_token == 12 * 2 * 2 * 256 * BF16


def test_a_pasted_hybrid_runs_through_evaluate_and_the_link_form():
    """A pasted Qwen3-Next evaluates, and its compact (link) form gives the same shape."""
    text = (CONFIGS / "qwen3-next-80b-a3b.json").read_text()
    assert parse_config(compact_config(text)).shape == parse_config(text).shape
    result = evaluate(model="custom", model_config=compact_config(text), gpu="H200", cards=2)
    per_token = 12 * 2048 + 36 * 548_864 * BF16 / float(result.seat_tokens)
    assert float(result.kv_bytes_per_token) == pytest.approx(per_token)


@pytest.mark.parametrize(
    "change",
    [
        {"hybrid_override_pattern": "M*"},
        {"hybrid_override_pattern": "Q" * 52},
        {"layers_block_type": ["attention"] * 51 + ["transformer"]},
        {"mamba_num_heads": 0},
    ],
)
def test_a_bad_hybrid_field_is_refused_by_name(change):
    """A pattern of the wrong length or letters, an unknown layer name, or zero heads is refused."""
    data = json.loads((CONFIGS / "nemotron-h-8b.json").read_text()) | change
    with pytest.raises(ConfigError) as refused:
        parse_config(json.dumps(data))
    assert next(iter(change)) in str(refused.value)


def test_deepseek_v32_caches_an_indexer_key_and_reads_its_top_k():
    """DeepSeek-V3.2: 61 x (576 x 2 B + 128 + 4 B of indexer) a token; decode reads top 2,048."""
    from core.whiteboard.attention import sparse_read_share

    shape = shape_of("deepseek-v3.2")
    assert (shape.sparse_top_k, shape.indexer_dim, shape.indexer_heads) == (2048, 128, 64)
    assert float(shape_kv_bytes_per_token(shape, BF16, 100_000)) == 61 * (576 * 2 + 132)
    share = float(sparse_read_share(576, BF16, 132, 2048, 100_000))
    assert share == pytest.approx((2048 * 1152 + 100_000 * 132) / (100_000 * 1284))
    rows = layer_kind_rows(shape, BF16, 100_000)
    assert rows[0].kind == "sparse attention (DSA)" and rows[0].per_layer_bytes == 1284


def test_sparse_attention_makes_long_decode_steps_cheaper_at_both_levels():
    """At 100,000 tokens V3.2's decode step reads less cache than V3's, at both levels."""
    v3 = (CONFIGS / "deepseek-v3.json").read_text()
    v32 = (CONFIGS / "deepseek-v3.2.json").read_text()
    for realism in ("whiteboard", "engine"):
        knobs = {"model": "custom", "gpu": "H200", "cards": 8, "weight_dtype": "fp8",
                 "prompt_tokens": 100_000, "realism": realism}  # fmt: skip
        dense = evaluate(model_config=v3, **knobs)
        sparse = evaluate(model_config=v32, **knobs)
        assert sparse.kv_bytes_per_token > dense.kv_bytes_per_token  # it stores more
        assert sparse.decode_step_s < dense.decode_step_s  # and reads less


def test_sparse_attention_prefill_flops_grow_linearly_past_top_k():
    """Past k = 2,048, DSA's mixing grows as k T; the indexer's T^2 term is the quadratic one."""
    from core.whiteboard.long_context import attention_flops

    shape = shape_of("deepseek-v3.2")
    t, k = 1_048_576.0, 2048.0
    width = (128 + 64 + 128) / 2  # keys of 128 + 64 rotary numbers, values of 128
    mixed = 4 * 61 * 128 * width * (k * t - k * k / 2)
    scored = 61 * 64 * 128 * t * t
    assert float(attention_flops(shape, t)) == pytest.approx(mixed + scored)
