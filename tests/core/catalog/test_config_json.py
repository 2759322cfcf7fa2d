"""Real config.json files: the shapes, KV bytes per token and parameter counts derived from them."""

import json

import pytest
from numpy.testing import assert_allclose

from core import MODELS, Scenario, evaluate
from core.catalog.config_json import compact_config, parse_config
from core.whiteboard.attention import attention_variants, shape_kv_bytes_per_token
from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "configs"
# Each model card's parameter counts (total, active) and what its "active" count includes.
CARDS = {
    # Llama 3.1 model card: 8.03B; every parameter is active but the input embedding lookup.
    "llama-3.1-8b.json": {"total": 8.03e9, "stated": "Llama-3-8B"},
    # Qwen3-30B-A3B card: 30.5B total, 3.3B activated, counting the input embedding too.
    "qwen3-30b-a3b.json": {"total": 30.5e9, "active_with_embedding": 3.3e9},
    # DeepSeek-V3 README_WEIGHTS: 671B main model, 36.6B activated (with the 0.9B output head).
    "deepseek-v3.json": {"total": 671e9, "active": 36.6e9},
    # gpt-oss model card, Table 1: 116.83B total, 5.13B active (unembedding, not embedding).
    "gpt-oss-120b.json": {"total": 116.83e9, "active": 5.13e9},
}


def fixture(name: str) -> str:
    return (FIXTURES / name).read_text()


@pytest.mark.parametrize("name", sorted(CARDS))
def test_parameter_counts_are_within_two_percent_of_the_model_card(name):
    """Parameters counted from each config's dimensions land within 2 % of the card's figures."""
    derived = parse_config(fixture(name))
    card = CARDS[name]
    assert_allclose(derived.params_total, card["total"], rtol=0.02)
    if "active" in card:
        assert_allclose(derived.params_active, card["active"], rtol=0.02)
    if "active_with_embedding" in card:
        active = derived.params_active + derived.embedding_params
        assert_allclose(active, card["active_with_embedding"], rtol=0.02)


def test_kv_bytes_per_token_of_each_fixture_match_what_the_papers_state():
    """Llama 3.1 8B stores 128 KiB a token, DeepSeek-V3's latent 576 x 61 numbers (70,272 B)."""
    llama = parse_config(fixture("llama-3.1-8b.json")).shape
    assert shape_kv_bytes_per_token(llama, 2, 4096) == 2 * 2 * 32 * 8 * 128 == 131_072
    deepseek = parse_config(fixture("deepseek-v3.json")).shape
    # DeepSeek-V2 paper Table 1: MLA caches (d_c + d_h^R) l = 4.5 d_h l numbers, d_h = 128.
    assert shape_kv_bytes_per_token(deepseek, 2, 4096) == 2 * 4.5 * 128 * 61 == 70_272
    qwen = parse_config(fixture("qwen3-30b-a3b.json")).shape
    assert shape_kv_bytes_per_token(qwen, 2, 4096) == 2 * 2 * 48 * 4 * 128


def test_gpt_oss_pays_for_the_window_only_on_its_windowed_layers():
    """gpt-oss: 18 full layers grow with the context, 18 banded layers stop at 128 tokens."""
    shape = parse_config(fixture("gpt-oss-120b.json")).shape
    assert (shape.sliding_window, shape.window_layers) == (128, 18)
    per_layer = 2 * 2 * 8 * 64  # bf16 key and value, 8 KV heads of 64
    assert shape_kv_bytes_per_token(shape, 2, 128) == 36 * per_layer
    long = 100_000
    expected = per_layer * (18 * long + 18 * 128) / long
    assert_allclose(shape_kv_bytes_per_token(shape, 2, long), expected)


@pytest.mark.parametrize("name", sorted(CARDS))
def test_only_gpt_oss_has_attention_sinks_pasted_or_named(name):
    """A pasted gpt-oss config.json (model_type gpt_oss) has sinks, as the named model does;
    Llama, Qwen and DeepSeek have none."""
    shape = parse_config(fixture(name)).shape
    assert shape.attention_sinks is name.startswith("gpt-oss")
    assert MODELS["gpt-oss-120b"].attention_sinks and not MODELS["Llama-3-8B"].attention_sinks


@pytest.mark.parametrize("name", sorted(CARDS))
def test_a_fixture_matches_its_named_catalog_model(name):
    """Each fixture finds the catalog model with its dimensions, and both store the same cache."""
    derived = parse_config(fixture(name))
    assert derived.stated is not None
    for tokens in (1, 128, 5000):
        assert_allclose(
            shape_kv_bytes_per_token(derived.shape, 2, tokens),
            shape_kv_bytes_per_token(derived.stated, 2, tokens),
        )
    assert_allclose(derived.params_total, derived.stated.params, rtol=0.02)


@pytest.mark.parametrize("name", sorted(CARDS))
def test_the_compact_form_parses_to_the_same_model(name):
    """The link's compact config gives the same model as the pasted file."""
    text = fixture(name)
    assert parse_config(compact_config(text)) == parse_config(text)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("", "paste"),
        ("{not json", "valid JSON"),
        ("[1, 2]", "JSON object"),
        ('{"model_type": "t5", "num_layers": 6}', "decoder-only"),
        ('{"is_encoder_decoder": true}', "decoder-only"),
        ('{"architectures": ["BertForMaskedLM"], "num_hidden_layers": 2}', "decoder-only"),
        ('{"hidden_size": 64, "num_attention_heads": 4, "vocab_size": 9}', "'num_hidden_layers'"),
        ('{"num_hidden_layers": 2, "num_attention_heads": 4, "vocab_size": 9}', "'hidden_size'"),
        ('{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 9}',
         "'intermediate_size'"),
        ('{"num_hidden_layers": 2.5, "hidden_size": 64}', "'num_hidden_layers' is 2.5: it must be a whole number"),
        ('{"num_hidden_layers": 2, "hidden_size": 64, "num_attention_heads": 4, "vocab_size": 9, '
         '"intermediate_size": 8, "num_local_experts": 8}', "'num_experts_per_tok'"),
    ],
)  # fmt: skip
def test_bad_configs_raise_value_errors_naming_the_field(text, words):
    """Not JSON, not a decoder, or a field missing: a ValueError naming model_config and the field."""
    with pytest.raises(ValueError, match="model_config") as error:
        parse_config(text)
    assert words in str(error.value)


def test_a_pasted_config_runs_every_figure_like_its_catalog_twin():
    """model='custom' with DeepSeek-V3's config gives the catalog DeepSeek-V3's cache and seats."""
    text = compact_config(fixture("deepseek-v3.json"))
    knobs = {"gpu": "H200", "cards": 8, "weight_dtype": "fp8"}
    pasted = evaluate(Scenario(model_config=text, model="custom", **knobs))
    named = evaluate(Scenario(model="DeepSeek-V3", **knobs))
    assert pasted.kv_bytes_per_token == named.kv_bytes_per_token == 70_272
    assert pasted.seats_granted == named.seats_granted
    assert_allclose(pasted.weight_bytes, named.weight_bytes, rtol=0.01)


def test_custom_without_a_config_falls_back_to_the_tier():
    """Asking for the pasted model with nothing pasted keeps the tier instead of failing."""
    assert Scenario(model="custom").model is None
    with pytest.raises(ValueError, match="model_config"):
        Scenario(model_config="{broken")


def test_the_custom_card_runs_as_entered():
    """A hand-entered card equal to an H200 gives the H200's figures (at its price)."""
    h200 = Scenario(gpu="H200", model="DeepSeek-V3", weight_dtype="fp8", usd_per_gpu_hour=4.99)
    typed = Scenario(
        gpu="custom", card_memory_gb=141, card_tb_per_s=4.8, card_tflops=1979,
        model="DeepSeek-V3", weight_dtype="fp8", usd_per_gpu_hour=4.99,
    )  # fmt: skip
    assert evaluate(typed) == evaluate(h200)


def test_attention_comparison_puts_mha_gqa_and_mla_side_by_side():
    """DeepSeek-V3 under MHA, GQA and MLA: 128 heads x 256 numbers, 8 groups, or one latent."""
    rows = {row.name: row for row in attention_variants(MODELS["DeepSeek-V3"], 2)}
    assert rows["MHA"].bytes_per_token == 2 * 61 * 2 * 128 * 128
    assert rows["MLA"].bytes_per_token == 70_272 and rows["MLA"].the_models_own
    for row in rows.values():
        product = 1.0
        for _, value in row.factors:
            product *= value
        assert product == row.bytes_per_token
    llama = {row.name: row for row in attention_variants(MODELS["Llama-3-8B"], 2)}
    assert llama["GQA"].the_models_own and llama["GQA"].bytes_per_token == 131_072
    # an MLA as DeepSeek-V2 sizes it: 4.5 head dims a layer
    assert llama["MLA"].bytes_per_token == 2 * 32 * 4.5 * 128


def test_named_models_store_what_their_papers_state():
    """Catalog KV bytes per token (bf16) for the 2025-26 models, from their stated shapes."""
    expected = {
        "DeepSeek-V3": 61 * 576 * 2,  # MLA latent 512 + rotary 64
        "DeepSeek-R1": 61 * 576 * 2,
        "Kimi-K2": 61 * 576 * 2,
        "Qwen3-235B-A22B": 94 * 2 * 4 * 128 * 2,  # GQA, 4 KV heads
        "gpt-oss-120b": 36 * 2 * 8 * 64 * 2,  # below the 128-token band every layer pays
        "Llama-4-Scout": 48 * 2 * 8 * 128 * 2,  # within the first 8,192-token chunk
    }
    for name, figure in expected.items():
        assert shape_kv_bytes_per_token(MODELS[name], 2, 100) == figure, name
    assert json.loads(compact_config(fixture("gpt-oss-120b.json")))["sliding_window"] == 128


def test_a_pasted_model_runs_on_the_fewest_cards_that_hold_it():
    """DeepSeek-V3 pasted: 8 H200s in fp8 (671 GB in 0.9 x 8 x 141 GB), 32 H100s in bf16."""
    text = compact_config(fixture("deepseek-v3.json"))
    h200 = evaluate(Scenario(model_config=text, model="custom", gpu="H200", weight_dtype="fp8"))
    assert h200.cards == 8 and h200.weights_fit
    h100 = evaluate(Scenario(model_config=text, model="custom"))
    assert h100.cards == 32
    llama = evaluate(Scenario(model_config=fixture("llama-3.1-8b.json"), model="custom"))
    assert llama.cards == 1


def test_a_windowed_models_own_row_is_the_cards_figure():
    """gpt-oss's 'this model' row is its windowed cache at the length (the card's 38,044 B)."""
    shape = MODELS["gpt-oss-120b"]
    rows = attention_variants(shape, 2, 4000, 1e10)
    own = [row for row in rows if row.the_models_own]
    assert [row.name for row in own] == ["GQA + window"]
    assert own[0].bytes_per_token == pytest.approx(shape_kv_bytes_per_token(shape, 2, 4000))
    assert round(own[0].bytes_per_token) == 38_044
    assert next(row for row in rows if row.name == "GQA").bytes_per_token == 73_728
