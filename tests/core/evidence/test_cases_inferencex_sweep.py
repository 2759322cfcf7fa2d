"""InferenceX's bot sweep (issue #870): typed as read, each figure from the column it quotes."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_inferencex import INFERENCEX
from core.evidence.cases_inferencex_sweep import INFERENCEX_SWEEP

POINTS, FIRST_TOKENS = INFERENCEX_SWEEP[:4], INFERENCEX_SWEEP[4:]


def test_the_sweep_follows_d205_four_points_scored_then_their_first_tokens():
    """D206-D209 (scored) and D210-D213 (first tokens, shown) come after every earlier row."""
    keys = [case.key for case in SECOND]
    start = keys.index("D206")
    assert start == keys.index("D205") + 1
    assert SECOND[start : start + len(INFERENCEX_SWEEP)] == INFERENCEX_SWEEP
    assert [case.key for case in INFERENCEX_SWEEP] == [f"D{n}" for n in range(206, 214)]
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
        assert case.answer_tokens == case.prompt_tokens == dashboard[0].answer_tokens
        assert case.requests == 10 * case.load_value
        assert case.engine_knob == "sglang" and case.version_knob == "0.5"


@pytest.mark.parametrize("case", INFERENCEX_SWEEP, ids=lambda case: case.key)
def test_a_point_is_its_tpot_at_light_load_its_throughput_above_or_its_first_token(case):
    """Up to 16 users the TPOT, from 32 the output tok/s/GPU times eight, as the column prints
    them; a first-token row is the column's mean TTFT."""
    quoted = dict(re.findall(r"([A-Za-z][^;:]*?\)) ([\d.]+)", case.quoted))
    assert case.quoted.startswith(f"conc={int(case.load_value)}:")
    if case.metric == "ttft":
        assert case.measured == pytest.approx(float(quoted["Mean TTFT (ms)"]) / 1000)
    elif case.load_value <= 16:
        assert case.metric == "itl"
        assert case.measured == pytest.approx(float(quoted["Mean TPOT (ms)"]) / 1000)
    else:
        assert case.metric == "throughput"
        assert case.measured == pytest.approx(8 * float(quoted["Output tput/GPU (tok/s)"]))
