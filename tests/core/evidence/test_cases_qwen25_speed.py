"""Tests for core/evidence/cases_qwen25_speed.py: Qwen2.5's speed tables on A100, typed."""

import json
import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_qwen25_speed import _CONFIGS, _ROWS, QWEN25_SPEED


def test_forty_four_rows_follow_d291_in_order():
    """D292-D335 are the rows, in the page's order, after D291 in the second set."""
    assert [case.key for case in QWEN25_SPEED] == [f"D{n}" for n in range(292, 336)]
    start = [case.key for case in SECOND].index("D292")
    assert SECOND[start - 1].key == "D291"
    assert SECOND[start : start + len(QWEN25_SPEED)] == QWEN25_SPEED


def test_each_table_gives_its_shortest_and_longest_prompt_only():
    """Every model's rows sit at a one-token prompt and at its table's longest one, in BF16,
    GPTQ-Int4 and AWQ (no GPTQ-Int8)."""
    short_tables = {"Qwen2.5-0.5B", "Qwen2.5-1.5B", "Qwen2.5-3B"}
    for model, prompt, fmt, *_ in _ROWS:
        assert prompt in (1, 30720 if model in short_tables else 129024)
        assert fmt in ("BF16", "GPTQ-Int4", "AWQ")


@pytest.mark.parametrize("case", QWEN25_SPEED, ids=lambda case: case.key)
def test_each_figure_is_one_requests_seconds(case):
    """A row's figure is 2,048 / the printed speed (the prompt not counted), one request at
    batch 1 on A100 under vLLM 0.6."""
    speed = float(re.search(r"/ ([\d.]+) s$", case.quoted)[1])
    assert case.measured == pytest.approx(2048 / speed, abs=0.006)
    assert (case.metric, case.load, case.load_value, case.answer_tokens) == (
        "request", "users", 1, 2048,
    )  # fmt: skip
    assert (case.gpu, case.engine, case.layout) == ("A100 80GB SXM", "vLLM", "TP")
    assert case.engine_version in ("0.6.2", "0.6.3")
    assert case.publisher == "Qwen docs"
    case.scenario()  # the Scenario takes every row


def test_rows_run_eagerly_are_shown_not_scored():
    """The three rows whose setting sets enforce_eager=True are left out of the score, with
    the reason; every other row is scored."""
    unscored = [case for case in QWEN25_SPEED if not case.scored]
    assert [case.key for case in unscored] == ["D322", "D328", "D331"]
    assert all("enforce_eager=True" in case.unscored_why for case in unscored)
    assert all(re.search(r"[Ss]etting ?[123]\b", case.quoted) for case in unscored)


def test_a_setting_that_states_another_memory_share_is_typed_with_it():
    """32B's "setting1" and 72B's "Setting 2"-"3" give vLLM the whole card, 72B's "Setting 1"
    0.98 (the page's lists of settings); the default's 0.9 is the release's own, so those rows
    leave the knob unset."""
    shares = {case.key: case.memory_share for case in QWEN25_SPEED if case.memory_share}
    assert shares == {"D322": 1.0, "D328": 0.98, "D331": 1.0}
    assert QWEN25_SPEED[328 - 292].scenario().memory_share == 0.98


def test_the_pasted_configs_carry_the_files_fields():
    """Qwen2.5-7B pastes 28 layers of 3,584 with 28 heads, 4 of them key-value heads, and an
    untied head over 152,064 tokens; the 0.5B ties its head over 151,936; the 72B has 80
    layers of 8,192 and 8 key-value heads."""
    seven = json.loads(_CONFIGS["Qwen2.5-7B"])
    assert (seven["num_hidden_layers"], seven["hidden_size"], seven["num_attention_heads"]) == (
        28, 3584, 28,
    )  # fmt: skip
    assert (seven["num_key_value_heads"], seven["intermediate_size"]) == (4, 18944)
    assert seven["tie_word_embeddings"] is False and seven["vocab_size"] == 152064
    half = json.loads(_CONFIGS["Qwen2.5-0.5B"])
    assert half["tie_word_embeddings"] is True and half["vocab_size"] == 151936
    big = json.loads(_CONFIGS["Qwen2.5-72B"])
    assert (big["num_hidden_layers"], big["hidden_size"], big["num_key_value_heads"]) == (
        80, 8192, 8,
    )  # fmt: skip
