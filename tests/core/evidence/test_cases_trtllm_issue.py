"""A TensorRT-LLM user's report (issue #5929): typed as read, figures as the table prints them."""

from __future__ import annotations

import pytest

from core.evidence.cases import layout_knob
from core.evidence.cases_2026 import SECOND
from core.evidence.cases_trtllm_issue import _TABLE, TRTLLM_ISSUE
from core.evidence.fidelity import PUBLISHED


def test_the_reports_cells_follow_d185_in_key_order_none_scored():
    """D186-D205 come after every earlier row, four cells a printed row, shown but not scored."""
    start = [case.key for case in SECOND].index("D186")
    assert start == [case.key for case in SECOND].index("D185") + 1
    assert SECOND[start : start + len(TRTLLM_ISSUE)] == TRTLLM_ISSUE
    assert [case.key for case in TRTLLM_ISSUE] == [f"D{n}" for n in range(186, 206)]
    assert len(TRTLLM_ISSUE) == 4 * len(_TABLE.splitlines())
    assert not any(case.scored for case in TRTLLM_ISSUE)
    assert all(case.unscored_why for case in TRTLLM_ISSUE)


def test_the_report_is_a_publisher_no_other_row_has():
    """The user's report is its own publisher, apart from NVIDIA's perf overview pages."""
    assert len({case.publisher for case in TRTLLM_ISSUE}) == 1
    others = [case for case in PUBLISHED if case not in TRTLLM_ISSUE]
    assert TRTLLM_ISSUE[0].publisher not in {case.publisher for case in others}


@pytest.mark.parametrize("case", TRTLLM_ISSUE, ids=lambda case: case.key)
def test_a_cell_is_its_printed_p50_under_ep_none_or_ep8(case):
    """Each cell is the printed ITL or TTFT p50 of its row, EP=None as tp and EP=8 as ep, FP8
    on eight H200 and FP4 on eight B200 (each with its checkpoint's cache), priced as
    TensorRT-LLM 0.20."""
    cells = [cell.strip() for cell in case.quoted.split(" (")[0].split("|")]
    column = {("itl", "tp"): 4, ("itl", "ep"): 6, ("ttft", "tp"): 7, ("ttft", "ep"): 9}
    assert case.measured == pytest.approx(
        float(cells[column[case.metric, layout_knob(case.layout)]])
    )
    checkpoints = {"FP8": ("H200", "fp8", "bf16"), "FP4": ("B200", "nvfp4", "fp8")}
    assert (case.gpu, case.dtype, case.kv_dtype) == checkpoints[cells[0].split()[-1]]
    assert (case.load, case.load_value) == ("users", int(cells[1]))
    assert (case.prompt_tokens, case.answer_tokens) == (int(cells[2]), int(cells[3]))
    assert case.cards == 8 and case.version_knob == "0.20" and case.engine_knob == "tensorrt-llm"
