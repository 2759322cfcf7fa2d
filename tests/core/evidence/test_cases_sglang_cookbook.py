"""SGLang's cookbook, DeepSeek-R1 on eight B200 and Llama 3.1 70B on eight A100: typed as printed."""

from __future__ import annotations

import re

import pytest

from core.evidence import cases_2026
from core.evidence.cases_2026 import SCORED_SECOND, SECOND
from core.evidence.cases_sglang_cookbook import (
    DEEPSEEK_RUNS,
    LLAMA_RUNS,
    SGLANG_COOKBOOK,
    taken,
)
from core.evidence.cases_sglang_cookbook_mi300x import SGLANG_COOKBOOK_MI300X
from tests.core.evidence.set_order import rows_after

SCORED = [case for case in SGLANG_COOKBOOK if case.scored]
SHOWN = [case for case in SGLANG_COOKBOOK if not case.scored]


def test_the_keys_run_from_d453_to_d469_in_order():
    """Seventeen rows, D453-D469, the DeepSeek-R1 page's first."""
    assert [case.key for case in SGLANG_COOKBOOK] == [f"D{n}" for n in range(453, 470)]
    assert {case.model for case in SGLANG_COOKBOOK[:9]} == {"DeepSeek-R1"}
    assert {case.model for case in SGLANG_COOKBOOK[9:]} == {"Llama-3-70B"}


def test_a_page_of_nine_runs_gives_each_lengths_lightest_and_heaviest():
    """The DeepSeek-R1 page's nine runs give six (1 user, and 100 or 64, for each length); the
    Llama page's six runs give every run."""
    assert [(run[0], run[1]) for run in taken(DEEPSEEK_RUNS)] == [
        ("1k/1k", 1),
        ("1k/1k", 100),
        ("1k/8k", 1),
        ("1k/8k", 64),
        ("8k/1k", 1),
        ("8k/1k", 64),
    ]
    assert taken(LLAMA_RUNS) == LLAMA_RUNS


def test_few_users_score_the_time_between_tokens_and_many_the_throughput():
    """1 and 16 users are scored by mean TPOT, 64 and 100 by output throughput; twelve in all."""
    assert len(SCORED) == 12
    for case in SCORED:
        assert case.metric == ("itl" if case.load_value <= 16 else "throughput")


def test_every_one_user_run_shows_its_first_token_with_a_reason():
    """Five first tokens (three runs of one page, two of the other), shown and not scored."""
    assert [case.metric for case in SHOWN] == ["ttft"] * 5
    assert all(case.load_value == 1 and case.unscored_why for case in SHOWN)


@pytest.mark.parametrize(
    "case", [*SGLANG_COOKBOOK, *SGLANG_COOKBOOK_MI300X], ids=lambda case: case.key
)
def test_a_case_is_its_runs_printed_figure_and_mean_lengths(case):
    """The figure is the quoted line's (TPOT and TTFT in seconds), the lengths the run's totals
    over its requests, the load its concurrency: for every page the cookbook reading types
    (this round's and the MI300X pages of :mod:`core.evidence.cases_sglang_cookbook_mi300x`)."""
    printed = dict(re.findall(r"([A-Z][^|:]*?): ([\d.]+)", case.quoted))
    figure = {"itl": "Mean TPOT (ms)", "ttft": "Mean TTFT (ms)"}.get(case.metric)
    expected = float(printed[figure]) / 1000 if figure else float(printed[
        "Output token throughput (tok/s)"])  # fmt: skip
    assert case.measured == pytest.approx(expected)
    requests = int(printed["Successful requests"])
    assert case.requests == requests
    assert case.load_value == int(printed["Max request concurrency"])
    assert case.prompt_tokens == round(int(printed["Total input tokens"]) / requests)
    assert case.answer_tokens == round(int(printed["Total generated tokens"]) / requests)


def test_the_set_up_is_each_pages_command():
    """Eight cards at TP8 under SGLang's 0.5 line (release 0.5.6) with a bf16 cache; DeepSeek's fp8 checkpoint
    on B200, Llama in bf16 on the catalog's A100, each assumption stated."""
    for case in SGLANG_COOKBOOK:
        assert (case.cards, case.layout, case.kv_dtype, case.engine_knob, case.version_knob) == (
            8,
            "TP8",
            "bf16",
            "sglang",
            "0.5.6",  # 0.5.6 and 0.5.6.post1: the 0.5 line's patch release 0.5.6
        )
        assert "KV bf16" in case.assumed
    deepseek, llama = SGLANG_COOKBOOK[:9], SGLANG_COOKBOOK[9:]
    assert {(case.gpu, case.dtype, case.engine_version) for case in deepseek} == {
        ("B200", "fp8", "0.5.6.post1")
    }
    assert all("128 x 128" in case.weight_formats for case in deepseek)
    assert {(case.gpu, case.dtype, case.engine_version) for case in llama} == {
        ("A100 80GB SXM", "bf16", "0.5.6")
    }
    assert all("80GB" in case.assumed for case in llama)


def test_both_pages_are_one_publisher_with_the_cookbooks_other_rows():
    """The cookbook is the SGLang project's, as D23-D28 and D246-D248 are."""
    assert {case.publisher for case in SGLANG_COOKBOOK} == {"SGLang project (sgl-project, LMSYS)"}


def test_the_rows_follow_d452():
    """D453-D469 come right after InferenceX's B200 rows (the sixty-third round's follow them)."""
    assert rows_after("D452", SGLANG_COOKBOOK)[0] == "D470"


def test_the_second_sets_docstring_counts_its_rows_and_scored_cases():
    """The set's docstring names how many rows it holds and how many it is scored on."""
    doc = " ".join(cases_2026.__doc__.split())
    assert f"{len(SECOND)} published rows" in doc
    assert f"leaves {len(SCORED_SECOND)} scored cases" in doc
