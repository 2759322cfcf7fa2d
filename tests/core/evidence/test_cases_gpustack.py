"""GPUStack's rows: each figure and its lengths read back from the run they quote."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_gpustack import GPUSTACK


def test_gpustacks_rows_close_the_second_set_in_key_order():
    """D99-D108 follow the ROCm blog's rows, all scored, all from GPUStack."""
    start = [case.key for case in SECOND].index("D99")
    assert SECOND[start : start + len(GPUSTACK)] == GPUSTACK
    assert [case.key for case in GPUSTACK] == [f"D{n}" for n in range(99, 109)]
    assert all(case.scored for case in GPUSTACK)
    assert {case.publisher for case in GPUSTACK} == {"GPUStack performance lab"}


@pytest.mark.parametrize("case", GPUSTACK, ids=lambda case: case.key)
def test_a_gpustack_row_is_the_mean_tpot_it_quotes_at_a_few_users(case):
    """The case is the quoted mean TPOT, in seconds, at the one to eight users the run held."""
    quoted_ms = float(re.search(r"Mean TPOT \(ms\): ([\d.]+)", case.quoted)[1])
    assert case.measured == pytest.approx(quoted_ms / 1000)
    assert case.metric == "itl" and case.load == "users" and 1 <= case.load_value <= 8
