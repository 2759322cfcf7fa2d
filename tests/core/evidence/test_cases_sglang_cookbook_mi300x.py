"""SGLang's cookbook on eight MI300X (DeepSeek-V3.1 and DeepSeek-V3 pages): typed as printed."""

from __future__ import annotations

from core.evidence.cases import layout_knob
from core.evidence.cases_sglang_cookbook import taken
from core.evidence.cases_sglang_cookbook_mi300x import (
    SGLANG_COOKBOOK_MI300X,
    V3_DEP_RUN,
    V31_RUNS,
)
from tests.core.evidence.set_order import rows_after

V31 = SGLANG_COOKBOOK_MI300X[:9]
V3 = SGLANG_COOKBOOK_MI300X[9]


def test_the_keys_run_from_d470_to_d479_in_order():
    """Ten rows, D470-D479: the V3.1 page's nine, then the V3 page's one."""
    assert [case.key for case in SGLANG_COOKBOOK_MI300X] == [f"D{n}" for n in range(470, 480)]


def test_the_v31_page_gives_each_lengths_lightest_and_heaviest_runs():
    """Six scored runs (1 user, and 100 or 64), then the one-user runs' first tokens, shown."""
    assert [(run[0], run[1]) for run in taken(V31_RUNS)] == [
        ("1k/1k", 1),
        ("1k/1k", 100),
        ("1k/8k", 1),
        ("1k/8k", 64),
        ("8k/1k", 1),
        ("8k/1k", 64),
    ]
    assert [case.metric for case in V31] == ["itl", "throughput"] * 3 + ["ttft"] * 3
    assert [case.scored for case in V31] == [True] * 6 + [False] * 3
    assert all(case.unscored_why for case in V31 if not case.scored)


def test_the_v3_pages_run_is_its_dep8_throughput_on_sharegpt_lengths():
    """The V3 page's non-speculative run: output throughput at 100 users, attention data
    parallel with the experts whole on each card, ShareGPT's lengths as the run's means."""
    assert (V3.metric, V3.layout, layout_knob(V3.layout), V3.load_value, V3.requests) == (
        "throughput",
        "DEP8",
        "dep",
        100,
        1000,
    )
    assert V3.measured == V3_DEP_RUN[5]
    assert (V3.prompt_tokens, V3.answer_tokens) == (302, 188)
    assert "ShareGPT" in V3.assumed and "--enable-dp-attention" in V3.source


def test_the_set_up_is_deepseeks_fp8_checkpoint_on_eight_mi300x_under_sglang_05():
    """DeepSeek-V3's shape in its fp8 blocks on eight MI300X, a bf16 cache, SGLang's 0.5 line,
    the SGLang project's page."""
    for case in SGLANG_COOKBOOK_MI300X:
        assert (case.model, case.gpu, case.cards, case.dtype, case.kv_dtype) == (
            "DeepSeek-V3",
            "MI300X",
            8,
            "fp8",
            "bf16",
        )
        # 0.5.7 is the 0.5 line's patch release 0.5.6: block-fp8 GEMMs in AITER's Triton
        assert (case.engine_knob, case.version_knob) == ("sglang", "0.5.6")
        assert "128 x 128" in case.weight_formats and "AITER" in case.assumed
        assert case.publisher == "SGLang project (sgl-project, LMSYS)"
    assert {case.layout for case in V31} == {"TP8"}


def test_the_rows_follow_d469_and_come_before_the_sixty_sixth_rounds():
    """D470-D479 come after the sixty-second round's rows and before the sixty-sixth's (D480)."""
    assert rows_after("D469", SGLANG_COOKBOOK_MI300X)[0] == "D480"
