"""Absurd but well-formed config.json files are refused at once, naming the field and a plausible
range, in the student's words; real models all fit inside the ranges."""

import json
import time
from urllib.parse import urlencode

import pytest

from core import MODELS, TIERS, Scenario, evaluate
from core.catalog.config_fields import SPANS
from core.catalog.config_json import ConfigError, compact_config, parse_config
from labs.frame.shell import lab_bindings
from labs.kv.lab import KvLab
from labs.page.links import restore
from labs.pool.lab import PoolLab
from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "configs"


def llama_with(**changes) -> dict:
    """Llama 3.1 8B's real config.json with ``changes``."""
    return {**json.loads((FIXTURES / "llama-3.1-8b.json").read_text()), **changes}


@pytest.mark.parametrize(
    ("changes", "words"),
    [
        ({"hidden_size": 1e9}, "'hidden_size' is 1,000,000,000: it must be 64 to 65,536"),
        ({"num_hidden_layers": 100_000}, "'num_hidden_layers' is 100,000: it must be 1 to 1,024"),
        ({"num_hidden_layers": 100_000_000}, "'num_hidden_layers' is 100,000,000"),
        ({"num_attention_heads": 8192}, "'num_attention_heads' is 8,192: it must be 1 to 1,024"),
        ({"vocab_size": 10**9}, "'vocab_size' is 1,000,000,000: it must be 1 to 4,000,000"),
        ({"intermediate_size": 10**7}, "'intermediate_size' is 10,000,000: it must be 1 to 262,144"),
        ({"head_dim": 100_000}, "'head_dim' is 100,000: it must be 8 to 1,024"),
        ({"num_local_experts": 10**6, "num_experts_per_tok": 2}, "'num_local_experts' is 1,000,000"),
        ({"sliding_window": 10**12}, "'sliding_window' is 1,000,000,000,000"),
        ({"num_key_value_heads": 64}, "'num_key_value_heads' is 64: it must be 1 to 32"),
    ],
)  # fmt: skip
def test_absurd_fields_are_refused_naming_the_field_and_its_range(changes, words):
    """hidden_size 1e9, 100,000 layers and their like: a ConfigError naming field, value and range."""
    with pytest.raises(ConfigError) as error:
        parse_config(json.dumps(llama_with(**changes)))
    assert words in error.value.message
    assert error.value.message.startswith("the pasted config.json's ")


def test_a_model_too_large_as_a_whole_is_refused():
    """Every field in range, but 1,024 layers of 4,096 wide experts: more than 100 trillion parameters."""
    big = llama_with(num_hidden_layers=1024, hidden_size=16384, num_attention_heads=128,
                     num_local_experts=4096, num_experts_per_tok=8, moe_intermediate_size=4096)  # fmt: skip
    with pytest.raises(ConfigError, match="at most 100 trillion"):
        parse_config(json.dumps(big))


def test_messages_speak_to_the_student_not_in_parameter_reprs():
    """Not JSON reads 'the pasted config.json is not valid JSON: line 1, column 1', no repr of the knob."""
    with pytest.raises(ConfigError) as error:
        parse_config("not json")
    assert error.value.message.startswith(
        "the pasted config.json is not valid JSON: line 1, column 1"
    )
    assert "(pasted config.json)" not in str(error.value) and "is not allowed" not in str(
        error.value
    )
    assert str(error.value).startswith("model_config: ")  # the knob is still named


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("[" * 50_000, "nest too deeply"),
        ('{"num_hidden_layers": ' + "9" * 5000 + "}", "thousands of digits"),
        ('{"text_config": "llama"}', "'text_config'"),
    ],
)
def test_hostile_json_is_refused_with_a_value_error(text, words):
    """Deep nesting and a 5,000-digit number, which json raises other errors for, are ConfigErrors."""
    with pytest.raises(ConfigError, match=words):
        parse_config(text)


def test_every_catalog_model_and_fixture_fits_the_plausible_ranges():
    """The ranges hold every published model the catalog knows, and the four real configs parse."""
    for shape in (*MODELS.values(), *TIERS.values()):
        assert SPANS["num_hidden_layers"].low <= shape.layers <= SPANS["num_hidden_layers"].high
        assert SPANS["hidden_size"].low <= shape.hidden <= SPANS["hidden_size"].high
        assert shape.query_heads <= SPANS["num_attention_heads"].high
        assert SPANS["head_dim"].low <= shape.head_dim <= SPANS["head_dim"].high
        assert shape.intermediate <= SPANS["intermediate_size"].high
        assert shape.vocab <= SPANS["vocab_size"].high
        assert shape.experts <= SPANS["num_local_experts"].high
    for path in FIXTURES.glob("*.json"):
        parse_config(path.read_text())


def test_a_link_with_a_hundred_million_layers_gets_a_notice_at_once():
    """The 100,000,000-layer link (10.6 s on the event loop before) is refused in well under 1 s."""
    text = compact_config(json.dumps(llama_with(num_hidden_layers=10**6)))
    text = text.replace('"num_hidden_layers":1000000', '"num_hidden_layers":100000000')
    for lab in (PoolLab, KvLab):
        scenario = Scenario()
        view = lab(scenario)
        query = "?" + urlencode({"model_config": text, "model": "custom"})
        start = time.perf_counter()
        notices = restore(lab_bindings(view, scenario), query)
        assert time.perf_counter() - start < 1.0
        assert scenario.model is None and scenario.model_config == ""
        assert any("'num_hidden_layers' is 100,000,000" in notice for notice in notices)


def test_the_largest_plausible_model_evaluates_quickly():
    """A config at the top of every range but the parameter cap evaluates in under a second a level."""
    big = llama_with(num_hidden_layers=1024, hidden_size=16384, num_attention_heads=1024,
                     num_key_value_heads=1024, head_dim=512, vocab_size=4_000_000,
                     intermediate_size=262_144, num_local_experts=4096, num_experts_per_tok=4095,
                     moe_intermediate_size=1, sliding_window=16_777_216)  # fmt: skip
    text = compact_config(json.dumps(big))
    for realism in ("whiteboard", "engine"):
        start = time.perf_counter()
        evaluate(Scenario(model="custom", model_config=text, realism=realism))
        assert time.perf_counter() - start < 1.0


@pytest.mark.parametrize("digits", [19, 401, 4_000])
def test_a_field_of_hundreds_of_digits_gets_a_notice_naming_it(digits):
    """A vocab_size of hundreds of digits is a notice naming the field, in core and in a link."""
    text = json.dumps(llama_with(vocab_size=1)).replace(
        '"vocab_size": 1', '"vocab_size": ' + "9" * digits
    )
    with pytest.raises(ValueError, match="'vocab_size' is a number of about"):
        parse_config(text)
    scenario = Scenario()
    view = PoolLab(scenario)
    query = "?" + urlencode({"model_config": compact_config_or(text), "model": "custom"})
    notices = restore(lab_bindings(view, scenario), query)
    assert scenario.model is None and any("vocab_size" in notice for notice in notices)


def compact_config_or(text: str) -> str:
    """The compact form a link carries, or the text itself when compacting refuses it."""
    try:
        return compact_config(text)
    except ValueError:
        return text
