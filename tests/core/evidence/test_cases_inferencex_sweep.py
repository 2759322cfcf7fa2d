"""InferenceX's bot sweep (issue #870): typed as read, each figure from the column it quotes."""

from __future__ import annotations

import re

import pytest

from core.catalog.release_lines import release_line
from core.evidence.cases_2026 import SECOND
from core.evidence.cases_inferencex import INFERENCEX
from core.evidence.cases_inferencex_sweep import INFERENCEX_SWEEP

POINTS = [case for case in INFERENCEX_SWEEP if case.scored]
FIRST_TOKENS = [case for case in INFERENCEX_SWEEP if not case.scored]


def test_the_threads_points_follow_d205_each_table_scored_then_its_first_tokens():
    """D206-D209 (scored) and D210-D213 (their first tokens, shown), then D214-D216 (scored) and
    D217-D219 (shown) come after every earlier row."""
    keys = [case.key for case in SECOND]
    start = keys.index("D206")
    assert start == keys.index("D205") + 1
    assert SECOND[start : start + len(INFERENCEX_SWEEP)] == INFERENCEX_SWEEP
    assert [case.key for case in INFERENCEX_SWEEP] == [f"D{n}" for n in range(206, 220)]
    assert [case.key for case in POINTS] == [f"D{n}" for n in (206, 207, 208, 209, 214, 215, 216)]
    assert all(case.scored for case in POINTS)
    assert not any(case.scored for case in FIRST_TOKENS)
    assert all(case.unscored_why for case in FIRST_TOKENS)


def test_the_sweep_is_the_dashboards_publisher_and_recipe_on_an_earlier_release():
    """Its rows are InferenceX's, on the H200 recipe the dashboard's D109-D112 ran: same card,
    model, layout, cache, lengths and ten prompts a user, SGLang 0.5.7 priced as the 0.5 line."""
    dashboard = [case for case in INFERENCEX if case.gpu == "H200"]
    assert {case.publisher for case in INFERENCEX_SWEEP} == {dashboard[0].publisher}
    for case in INFERENCEX_SWEEP:
        assert (case.gpu, case.cards, case.dtype, case.kv_dtype, case.layout) == (
            "H200",
            8,
            "fp8",
            dashboard[0].kv_dtype,
            "TP8",
        )
        assert {case.prompt_tokens, case.answer_tokens} <= {922, 7373}
        assert case.requests == 10 * case.load_value
        assert case.engine_knob == "sglang" and release_line(case.version_knob) == "0.5"


@pytest.mark.parametrize("case", INFERENCEX_SWEEP, ids=lambda case: case.key)
def test_a_point_is_its_tpot_at_light_load_its_throughput_above_or_its_first_token(case):
    """Up to 16 users the TPOT, from 32 the output tok/s/GPU times eight, as the column prints
    them; a first-token row is the column's mean TTFT."""
    quoted = dict(re.findall(r"([A-Za-z][^;:]*?\)) ([\d.]+)", case.quoted))
    assert case.quoted.split(":")[0] in {f"conc={int(case.load_value)}", "1k/1k", "1k/8k", "8k/1k"}
    if case.metric == "ttft":
        assert case.measured == pytest.approx(float(quoted["Mean TTFT (ms)"]) / 1000)
    elif case.load_value <= 16:
        assert case.metric == "itl"
        assert case.measured == pytest.approx(float(quoted["Mean TPOT (ms)"]) / 1000)
    else:
        assert case.metric == "throughput"
        assert case.measured == pytest.approx(8 * float(quoted["Output tput/GPU (tok/s)"]))
