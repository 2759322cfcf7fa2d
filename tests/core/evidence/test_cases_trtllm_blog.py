"""NVIDIA's DeepSeek-R1 recipe page (core/evidence/cases_trtllm_blog.py): typed as printed."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases import layout_knob
from core.evidence.cases_2026 import SECOND
from core.evidence.cases_trtllm_blog import _RUNS, TRTLLM_BLOG


def printed(case, name: str) -> float:
    """A figure of the printout the row quotes, by its line's name."""
    return float(re.search(re.escape(name) + r"\): ([\d.]+)", case.quoted)[1])


def test_three_scored_rows_follow_d335_in_order():
    """D336-D338 come after every earlier row, one a max-throughput section, all scored."""
    start = [case.key for case in SECOND].index("D336")
    assert SECOND[start - 1].key == "D335"
    assert SECOND[start : start + len(TRTLLM_BLOG)] == TRTLLM_BLOG
    assert [case.key for case in TRTLLM_BLOG] == ["D336", "D337", "D338"]
    assert len(TRTLLM_BLOG) == len(_RUNS)
    assert all(case.scored for case in TRTLLM_BLOG)


@pytest.mark.parametrize("case", TRTLLM_BLOG, ids=lambda case: case.key)
def test_each_row_is_its_printouts_total_output_throughput(case):
    """The figure is the printed total output tokens a second; requests a second times the
    answer is that figure (the lengths are the run's)."""
    assert case.metric == "throughput"
    assert case.measured == printed(case, "Total Output Throughput (tokens/sec")
    requests_per_s = printed(case, "Request Throughput (req/sec")
    assert case.answer_tokens == round(case.measured / requests_per_s)


def test_the_unnamed_datasets_lengths_are_the_printouts_own():
    """The fp8-cache B200 run names its dataset by path only: its prompt is the rest of the
    token throughput over the requests."""
    case = TRTLLM_BLOG[0]
    other = printed(case, "Total Token Throughput (tokens/sec") - case.measured
    assert case.prompt_tokens == round(other / printed(case, "Request Throughput (req/sec"))
    assert [row.prompt_tokens for row in TRTLLM_BLOG[1:]] == [1024, 1024]


@pytest.mark.parametrize("case", TRTLLM_BLOG, ids=lambda case: case.key)
def test_each_run_is_typed_with_its_commands_limit_layout_and_release(case):
    """DEP8 under TensorRT-LLM 0.20, the command's per-rank batch limit over eight ranks as the
    Scenario's batch_limit, its concurrency as closed-loop users, its requests as the run's."""
    scenario = case.scenario()
    assert layout_knob(case.layout) == "dep" and case.cards == 8
    assert case.version_knob == "0.20" and case.publisher == "NVIDIA TensorRT-LLM docs"
    assert scenario.batch_limit == case.max_seqs == case.load_value
    assert scenario.batch_limit % 8 == 0
    assert scenario.concurrency == case.load_value
    assert scenario.run_requests == case.requests
