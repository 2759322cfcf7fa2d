"""The rows found in issue 37's second round: each figure read back from its own quote."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases import PERF_OVERVIEW_REQUESTS
from core.evidence.cases_2026 import SECOND
from core.evidence.cases_found import FOUND, README_THROUGHPUT_REQUESTS

LAMBDA = [case for case in FOUND if case.publisher.startswith("Lambda")]
ROCM_BLOG = [case for case in FOUND if case.publisher == "AMD ROCm blogs"]


def test_the_found_rows_close_the_second_set_in_key_order():
    """D44-D98 follow the first rows, 23 from Lambda and 32 from the ROCm blog."""
    start = [case.key for case in SECOND].index("D44")
    assert SECOND[start : start + len(FOUND)] == FOUND
    assert [case.key for case in FOUND] == [f"D{n}" for n in range(44, 99)]
    assert (len(LAMBDA), len(ROCM_BLOG)) == (23, 32)


@pytest.mark.parametrize("case", LAMBDA, ids=lambda case: case.key)
def test_a_lambda_row_is_its_run_file_read_back(case):
    """The table's figure is the run file's throughput rounded, its lengths the file's means."""
    tokens_in, tokens_out, exact = (
        float(re.search(rf"{name} ([\d.]+)", case.quoted)[1])
        for name in ("total_input_tokens", "total_output_tokens", "output_throughput")
    )
    assert round(exact, 2) == case.measured
    assert (case.prompt_tokens, case.answer_tokens) == (
        round(tokens_in / 320),
        round(tokens_out / 320),
    )


@pytest.mark.parametrize("case", ROCM_BLOG, ids=lambda case: case.key)
def test_a_rocm_blog_row_quotes_its_figure(case):
    """The quoted row holds the case's figure: tok/s as given, a latency in milliseconds."""
    figure = case.measured if case.metric == "throughput" else round(case.measured * 1000)
    assert f"| {figure:g}" in case.quoted
    assert f"| {case.prompt_tokens} | {case.answer_tokens} |" in case.quoted


def test_the_blogs_throughput_rows_send_the_counts_their_method_states():
    """MI300X: each row sends the prompts the image's page prints for it (its max-num-seqs too)
    and, run with multi-step scheduling, is shown but not scored; H100 (TensorRT-LLM, "the same
    method as TRT-LLM published throughput data"): the perf overview's count for its lengths."""
    for case in FOUND:
        number = int(case.key[1:])
        if case.metric != "throughput" or not 67 <= number <= 82:
            continue
        lengths = (case.prompt_tokens, case.answer_tokens)
        if case.gpu == "MI300X":
            size = "405B" if case.model == "custom" else "70B"
            assert case.requests == README_THROUGHPUT_REQUESTS[(size, *lengths)]
            assert not case.scored and "multi-step" in case.unscored_why
        else:
            assert case.requests == PERF_OVERVIEW_REQUESTS.get(lengths, 0) and case.scored
    assert README_THROUGHPUT_REQUESTS["70B", 128, 2048] == 3200
