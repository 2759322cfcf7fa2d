"""Tests for bench/h20_batch_one.py: Qwen's H20 decode steps split into fixed part and stream."""

from numpy.testing import assert_allclose

from bench.h20_batch_one import dense_one_token_rows, stream_split
from core.evidence.cases_qwen25_speed import QWEN25_SPEED


def test_stream_split_recovers_a_known_line():
    """Steps made of 1.5 ms and weights streamed at 1.4 TB/s are split back into them."""
    weights = [1e9, 4e9, 16e9, 64e9]
    steps = [1.5e-3 + w / 1.4e12 for w in weights]
    fixed, rate = stream_split(weights, steps)
    assert_allclose((fixed, rate), (1.5e-3, 1.4e12), rtol=1e-9)


def test_the_rows_are_the_dense_models_at_a_one_token_prompt_on_one_card():
    """Six dense bf16 models, five FP8 (the 32B's is D31, held before) and four AWQ; no
    mixture, no long prompt, no second card."""
    rows = dense_one_token_rows()
    assert {fmt: len(cases) for fmt, cases in rows.items()} == {"bf16": 6, "FP8": 5, "AWQ": 4}
    for cases in rows.values():
        assert all(case.prompt_tokens == 1 and case.cards == 1 for case in cases)
        assert not any("-A3B" in case.model_label or "-A22B" in case.model_label for case in cases)


def test_the_a100_rows_are_the_scored_dense_rows_at_a_one_token_prompt_on_one_card():
    """Qwen2.5's A100 page gives five bf16 models (the 32B's row ran eagerly, the 72B's on four
    cards), seven GPTQ-Int4 and six AWQ."""
    rows = dense_one_token_rows(QWEN25_SPEED)
    assert {fmt: len(cases) for fmt, cases in rows.items()} == {"bf16": 5, "GPTQ": 7, "AWQ": 6}
    for cases in rows.values():
        assert all(case.prompt_tokens == 1 and case.cards == 1 and case.scored for case in cases)
