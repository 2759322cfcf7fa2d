"""InferenceX's bot on eight B200 (issue #870's third answer): typed as the stored copy prints it."""

from __future__ import annotations

import re

import pytest

from core.catalog.release_lines import release_line
from core.evidence.cases_inferencex_b200 import INFERENCEX_B200, USERS
from core.evidence.cases_inferencex_sweep import INFERENCEX_SWEEP
from tests.core.evidence.set_order import rows_after

POINTS = INFERENCEX_B200[: len(USERS)]
FIRST_TOKENS = INFERENCEX_B200[len(USERS) :]


def test_the_rows_follow_d442():
    """D443-D452 come right after every earlier row (the sixty-second round's follow them)."""
    assert rows_after("D442", INFERENCEX_B200)[0] == "D453"


def test_the_points_come_first_then_their_first_tokens_in_key_order():
    """D443-D447 are the five points, D448-D452 their first tokens, one of each a column."""
    assert [case.key for case in INFERENCEX_B200] == [f"D{n}" for n in range(443, 453)]
    assert [case.load_value for case in POINTS] == list(USERS)
    assert [case.load_value for case in FIRST_TOKENS] == list(USERS)
    assert all(case.metric == "throughput" for case in POINTS)
    assert all(case.metric == "ttft" for case in FIRST_TOKENS)


def test_four_points_are_scored_the_flagged_one_and_every_first_token_shown():
    """4 to 32 users are scored; the 64-user point (flagged by its table) and every first token
    are shown, each with its reason."""
    assert [case.key for case in INFERENCEX_B200 if case.scored] == ["D443", "D444", "D445", "D446"]
    shown = [case for case in INFERENCEX_B200 if not case.scored]
    assert all(case.unscored_why for case in shown)
    assert "flags" in POINTS[-1].unscored_why and "flags" in FIRST_TOKENS[-1].unscored_why


@pytest.mark.parametrize("case", INFERENCEX_B200, ids=lambda case: case.key)
def test_a_case_is_its_columns_printed_figure(case):
    """A point is the column's output tok/s/GPU times eight, a first token its mean TTFT."""
    quoted = dict(re.findall(r"([A-Za-z][^;:]*?\)) ([\d.]+)", case.quoted))
    assert case.quoted.startswith(f"conc={int(case.load_value)}:")
    if case.metric == "ttft":
        assert case.measured == pytest.approx(float(quoted["Mean TTFT (ms)"]) / 1000)
    else:
        assert case.measured == pytest.approx(8 * float(quoted["Output tput/GPU (tok/s)"]))


def test_the_recipe_is_the_b200_scripts_on_the_threads_publisher():
    """Eight B200, NVIDIA's FP4 weights, an fp8 cache at a 0.85 share, experts spread over
    eight cards, SGLang 0.5.6 priced as the 0.5 line, ten prompts a user, the sweep's lengths
    and publisher."""
    for case in INFERENCEX_B200:
        assert (case.model, case.gpu, case.cards, case.dtype, case.kv_dtype) == (
            "DeepSeek-R1",
            "B200",
            8,
            "nvfp4",
            "fp8",
        )
        assert (case.layout, case.memory_share, case.requests) == (
            "TP8/EP8",
            0.85,
            10 * case.load_value,
        )
        assert case.engine_knob == "sglang" and release_line(case.version_knob) == "0.5"
        assert (case.prompt_tokens, case.answer_tokens) == (922, 922)
        assert case.publisher == INFERENCEX_SWEEP[0].publisher


def test_each_row_polls_as_the_script_sets_it():
    """The script's --scheduler-recv-interval: 10 below 16 users, 30 from 16, on the Scenario."""
    for case in INFERENCEX_B200:
        assert case.recv_interval == (30 if case.load_value >= 16 else 10)
        assert case.scenario().recv_interval == case.recv_interval
