"""Tests for core/evidence/cases_qwen_speed.py: the rest of Qwen's speed tables, typed."""

import json
import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_qwen_speed import _CONFIGS, _ROWS, QWEN_SPEED
from core.evidence.configs import QWEN3_8B, QWEN3_32B, qwen3_dense, with_fp8_blocks


def test_forty_one_rows_follow_the_second_set_in_order():
    """D251-D291 are the rows, in the page's order, in the second set after D250."""
    assert [case.key for case in QWEN_SPEED] == [f"D{n}" for n in range(251, 292)]
    assert SECOND[250:291] == QWEN_SPEED
    assert all(case.scored for case in QWEN_SPEED)


def test_each_table_gives_its_shortest_and_longest_prompt_only():
    """Every model's rows sit at a one-token prompt and at its table's longest one."""
    longest = {"Qwen3-0.6B": 30720, "Qwen3-1.7B": 30720}
    for model, prompt, *_ in _ROWS:
        assert prompt in (1, longest.get(model, 129024))
    assert not any(fmt == "GPTQ-Int8" for _, _, fmt, *_ in _ROWS)


@pytest.mark.parametrize("case", QWEN_SPEED, ids=lambda case: case.key)
def test_each_figure_is_one_requests_seconds(case):
    """A row's figure is (prompt + 2,048) / the printed speed, one request at batch 1 on H20."""
    speed = float(re.search(r"/ ([\d.]+) s$", case.quoted)[1])
    assert case.measured == pytest.approx((case.prompt_tokens + 2048) / speed, abs=0.006)
    assert (case.metric, case.load, case.load_value, case.answer_tokens) == (
        "request", "users", 1, 2048,
    )  # fmt: skip
    assert (case.gpu, case.engine, case.engine_version) == ("H20", "SGLang", "0.4.6.post1")
    case.scenario()  # the Scenario takes every row


def test_the_pasted_dense_configs_carry_the_files_fields():
    """A dense Qwen3 config pastes its file's shape: Qwen3-8B's 36 layers of 4,096 with 32 heads,
    8 of them key-value heads of 128, an untied head; Qwen3-0.6B ties its head to its
    embeddings; Qwen3-32B's 64 layers of 5,120."""
    eight = json.loads(QWEN3_8B)
    assert (eight["num_hidden_layers"], eight["hidden_size"], eight["num_attention_heads"]) == (
        36, 4096, 32,
    )  # fmt: skip
    assert (eight["num_key_value_heads"], eight["head_dim"], eight["intermediate_size"]) == (
        8, 128, 12288,
    )  # fmt: skip
    assert eight["tie_word_embeddings"] is False and eight["vocab_size"] == 151936
    assert json.loads(_CONFIGS["Qwen3-0.6B"])["tie_word_embeddings"] is True
    assert json.loads(QWEN3_32B)["num_hidden_layers"] == 64
    assert json.loads(qwen3_dense(40, 5120, 40, 17408, tied=False))["intermediate_size"] == 17408


def test_fp8_rows_paste_the_block_scaled_checkpoint():
    """An FP8 row runs the model's config with its 128 x 128 block fp8 quantization_config."""
    for case in QWEN_SPEED:
        blocks = json.loads(case.model_config).get("quantization_config")
        assert (case.dtype == "fp8") == (blocks is not None)
        if blocks:
            assert blocks["weight_block_size"] == [128, 128]
            assert case.model_config == with_fp8_blocks(_CONFIGS[case.model_label.split("-FP8")[0]])
