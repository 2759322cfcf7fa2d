"""Core reads types strictly: booleans, numbers and text are checked as what they are, every bad
value is a ValueError, and a message quotes at most a few dozen characters of it."""

import json

import numpy as np
import pytest

from core import Scenario, evaluate
from core.catalog.config_json import parse_config
from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "configs"


def llama_text(**changes) -> str:
    return json.dumps({**json.loads((FIXTURES / "llama-3.1-8b.json").read_text()), **changes})


@pytest.mark.parametrize(
    ("knob", "value"),
    [
        ("seats", True),
        ("seats", np.True_),
        ("seats", "16"),
        ("seats", [1, True]),
        ("seats", np.array([True, False])),
        ("prefix_hit_rate", True),
        ("arrivals_per_min", "16"),
        ("answer_tokens", [None, True]),
        ("card_memory_gb", True),
        ("card_memory_gb", 1 + 2j),
        ("seats", 1 + 2j),
        ("workload", "chat\x00"),
        ("workload", b"chat"),
        ("workload", {}),
        ("model", [{}]),
        ("gpu", {"H100": 1}),
        ("model_config", {}),
    ],
)
def test_evaluate_refuses_values_of_the_wrong_type_with_a_value_error(knob, value):
    """True is not 1, "16" is not 16, "chat\\x00" is not "chat"; dicts and complex are ValueErrors."""
    with pytest.raises(ValueError, match=knob):
        evaluate(**{knob: value})


@pytest.mark.parametrize(
    ("knob", "value"),
    [("seats", True), ("card_tflops", 1 + 2j), ("prefix_hit_rate", np.True_), ("workload", {})],
)
def test_a_scenario_refuses_values_of_the_wrong_type_with_a_value_error(knob, value):
    """Scenario(seats=True) and Scenario(card_tflops=1+2j) raise ValueError naming the knob."""
    with pytest.raises(ValueError, match=knob):
        Scenario(**{knob: value})


def test_real_numbers_of_every_kind_are_still_read():
    """Python and numpy integers and floats, and arrays of them, evaluate as before."""
    plain = evaluate(seats=16)
    assert evaluate(seats=np.int64(16)) == plain
    assert evaluate(seats=16.0) == plain
    swept = evaluate(seats=[8, np.int32(16)])
    assert swept.seats_granted.tolist() == [8, 16]


@pytest.mark.parametrize("knob", ["seats", "workload", "model_config", "card_memory_gb"])
def test_a_hundred_thousand_character_value_gives_a_short_error(knob):
    """The message quotes the first few dozen characters and says how long the value was."""
    with pytest.raises(ValueError) as error:
        evaluate(**{knob: "x" * 100_000})
    assert len(str(error.value)) < 400
    if knob != "model_config":
        assert "100,000 characters" in str(error.value)
    with pytest.raises(ValueError) as error:
        Scenario(**{knob: "y" * 100_000})
    assert len(str(error.value)) < 400


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("tie_word_embeddings", "false"),
        ("multi_query", "0"),
        ("attention_bias", 1),
        ("num_hidden_layers", True),
        ("num_hidden_layers", "32"),
        ("model_type", 7),
        ("architectures", "LlamaForCausalLM"),
        ("mlp_only_layers", [[1]]),
        ("layer_types", "sliding_attention"),
        ("_name_or_path", ["a"]),
    ],
)
def test_a_config_field_of_the_wrong_json_type_is_refused(field, value):
    """'tie_word_embeddings': "false" (read as true before, a wrong count) and its like are refused."""
    mixture = {"num_local_experts": 8, "num_experts_per_tok": 2}  # mlp_only_layers is read
    with pytest.raises(ValueError, match=f"'{field}' is "):
        parse_config(llama_text(**mixture, **{field: value}))


def test_tied_embeddings_count_only_when_stated_as_true():
    """JSON true ties the embeddings (one copy fewer); false and left out count two copies."""
    untied = parse_config(llama_text(tie_word_embeddings=False))
    tied = parse_config(llama_text(tie_word_embeddings=True))
    assert untied.params_total - tied.params_total == untied.embedding_params


def test_a_hundred_thousand_character_field_gives_a_short_error():
    """A 100,000-character model_type is quoted in at most a few dozen characters."""
    with pytest.raises(ValueError) as error:
        parse_config(llama_text(model_type=7, _name_or_path="z" * 100_000))
    assert len(str(error.value)) < 300
    with pytest.raises(ValueError) as error:
        parse_config(llama_text(num_hidden_layers="9" * 100_000))
    assert len(str(error.value)) < 300


def test_a_long_model_name_is_shortened_for_the_page():
    """A pasted model's name is printable and at most 48 characters, however long the config's is."""
    shape = parse_config(llama_text(_name_or_path="org/" + "n" * 5000 + "\x00")).shape
    assert len(shape.name) <= 48 + len(" (pasted)") and "\x00" not in shape.name
