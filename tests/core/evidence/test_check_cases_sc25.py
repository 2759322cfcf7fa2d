"""The fifth check set: Dell's SC '25 DeepSeek-R1 runs on MI300X and MI325X, read whole."""

from __future__ import annotations

from core.evidence.check_cases_sc25 import _TABLE, CHECK_SC25, SC25_USERS
from core.evidence.fidelity import PUBLISHED


def test_every_run_at_each_cards_default_power_is_taken():
    """8 input lengths x 5 output lengths x 9 loads on each of the two cards: 720 runs."""
    assert len(CHECK_SC25) == 2 * 8 * 5 * len(SC25_USERS) == 720
    assert {case.gpu for case in CHECK_SC25} == set(_TABLE) == {"MI300X", "MI325X"}
    assert {case.prompt_tokens for case in CHECK_SC25} == {100, 200, 400, 800, 1600, 3200, 6400,
                                                           12800}  # fmt: skip
    assert {case.answer_tokens for case in CHECK_SC25} == {100, 200, 400, 800, 1600}
    assert len({case.key for case in CHECK_SC25}) == 720


def test_no_run_is_a_development_row():
    """A publisher the development sets do not have: none of its runs is in them."""
    assert not any(case.publisher == CHECK_SC25[0].publisher for case in PUBLISHED)
    assert CHECK_SC25[0].publisher == "Dell (Hanindhito and Patel, SC '25)"


def test_each_run_is_typed_as_the_rule_says():
    """SGLang's 0.4 line, TP8 over eight cards, DeepSeek-R1's block-fp8 checkpoint, KV bf16,
    a closed loop of its users that ends after four prompts a user."""
    for case in CHECK_SC25:
        assert case.engine_knob == "sglang" and case.version_knob == "0.4"
        assert case.layout == "TP8" and case.cards == 8 and case.dtype == "fp8"
        assert case.kv_dtype == "bf16" and case.model == "DeepSeek-R1"
        assert case.load == "users" and case.metric == "throughput"
        assert case.requests == 4 * case.load_value
        assert case.measured > 0
