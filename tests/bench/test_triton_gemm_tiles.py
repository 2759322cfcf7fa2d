"""bench/triton_gemm_tiles.py: the sixty-fourth round's switch and the check it reads."""

from __future__ import annotations

from bench.triton_gemm_tiles import pr_1930_check, without_triton_tiles
from core import Scenario, evaluate

DEEPSEEK = dict(model="DeepSeek-R1", gpu="MI300X", cards=8, weight_dtype="fp8", engine="sglang",
                realism="engine", concurrency=1)  # fmt: skip


def test_the_switch_prices_every_release_with_the_tuned_rows():
    """Under the switch SGLang 0.5.6 on eight MI300X decodes as fast as 0.5 (AITER's tuned rows
    for every shape); without it, slower; 0.5.10, whose tuned shapes are DeepSeek's attention
    GEMMs alone, in between."""
    tuned = float(evaluate(Scenario(**DEEPSEEK, engine_version="0.5")).itl_s)
    with without_triton_tiles():
        switched = float(evaluate(Scenario(**DEEPSEEK, engine_version="0.5.6")).itl_s)
    assert switched == tuned
    default = float(evaluate(Scenario(**DEEPSEEK, engine_version="0.5.6")).itl_s)
    assert default > float(evaluate(Scenario(**DEEPSEEK, engine_version="0.5.10")).itl_s) > tuned


def test_the_rule_prices_what_aiters_tuning_saved_within_the_band():
    """AITER PR #1930 tuned one shape and measured the step fall; the rule, fitted to none of
    it, prices that fall within x0.80-x1.25."""
    check = pr_1930_check()
    assert check.measured_s > 0
    assert 0.8 <= check.ratio <= 1.25
