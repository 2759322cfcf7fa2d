"""InferenceX's dashboard rows: each figure read back from the table row it quotes."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_inferencex import INFERENCEX, INFERENCEX_FIRST_TOKENS


def test_inferencexs_rows_follow_gpustacks_in_key_order():
    """D109-D117 follow GPUStack's rows in the second set, all scored, all InferenceX's."""
    start = [case.key for case in SECOND].index("D109")
    assert SECOND[start : start + len(INFERENCEX)] == INFERENCEX
    assert [case.key for case in INFERENCEX] == [f"D{n}" for n in range(109, 118)]
    assert all(case.scored for case in INFERENCEX)
    assert {case.publisher for case in INFERENCEX} == {"SemiAnalysis InferenceX"}


@pytest.mark.parametrize("case", INFERENCEX, ids=lambda case: case.key)
def test_an_inferencex_row_is_its_tpot_at_light_load_or_its_output_throughput(case):
    """Up to 16 users the case is the row's TPOT; from 32 the output tok/s/GPU times 8 GPUs."""
    cells = [cell.strip() for cell in case.quoted.split("|")]
    numbers = [float(cell.replace(",", "")) for cell in cells if re.fullmatch(r"[\d,.]+", cell)]
    tpot_ms, output_per_gpu = numbers[-1], numbers[-3]
    if case.load_value <= 16:
        assert case.metric == "itl" and case.measured == pytest.approx(tpot_ms / 1000)
    else:
        assert case.metric == "throughput" and case.measured == pytest.approx(8 * output_per_gpu)


def test_the_same_rows_first_tokens_follow_d176_shown_not_scored():
    """D177-D185 are D109-D117's rows again, each its mean TTFT, after D176 and not scored."""
    keys = [case.key for case in SECOND]
    assert keys.index("D177") == keys.index("D176") + 1
    assert [case.key for case in INFERENCEX_FIRST_TOKENS] == [f"D{n}" for n in range(177, 186)]
    assert all(case.metric == "ttft" and not case.scored for case in INFERENCEX_FIRST_TOKENS)
    for row, first in zip(INFERENCEX, INFERENCEX_FIRST_TOKENS, strict=True):
        ttft_ms = float(first.quoted.split("|")[-3].strip().replace(",", ""))
        assert first.measured == pytest.approx(ttft_ms / 1000)
        assert (first.quoted, first.gpu, first.prompt_tokens, first.load_value) == (
            row.quoted,
            row.gpu,
            row.prompt_tokens,
            row.load_value,
        )
