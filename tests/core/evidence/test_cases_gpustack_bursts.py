"""GPUStack's random bursts: each row read back from the run it quotes, typed by the written rule."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS


def test_the_bursts_follow_d368_in_key_order_all_scored():
    """D369-D412 follow D368, all scored (the ATOM dashboard's first tokens, shown only, come
    next), all GPUStack's, four runs to each of 11 pages."""
    keys = [case.key for case in SECOND]
    start = keys.index("D369")
    assert start == keys.index("D368") + 1
    assert SECOND[start : start + len(GPUSTACK_BURSTS)] == GPUSTACK_BURSTS
    assert not SECOND[start + len(GPUSTACK_BURSTS)].scored
    assert [case.key for case in GPUSTACK_BURSTS] == [f"D{n}" for n in range(369, 413)]
    assert all(case.scored for case in GPUSTACK_BURSTS)
    assert {case.publisher for case in GPUSTACK_BURSTS} == {"GPUStack performance lab"}
    pages = [re.search(r"performance-lab/(\S+)\.md", case.source)[1] for case in GPUSTACK_BURSTS]
    assert len(set(pages)) == 11
    assert all(pages.count(page) == 4 for page in pages)


@pytest.mark.parametrize("case", GPUSTACK_BURSTS, ids=lambda case: case.key)
def test_a_burst_is_its_quoted_throughput_over_its_requests_at_their_mean_lengths(case):
    """The figure is the quoted output throughput; the load one burst of the quoted requests at
    the run's mean prompt and answer (its totals over its requests), under vLLM's defaults."""
    counts = re.search(
        r"Successful requests: (\d+) \| Total input tokens: (\d+) \| Total generated tokens: "
        r"(\d+) \| Output token throughput \(tok/s\): ([\d.]+)",
        case.quoted,
    )
    requests, inputs, generated = (int(counts[n]) for n in (1, 2, 3))
    assert case.measured == pytest.approx(float(counts[4]))
    assert case.metric == "throughput" and case.load == "saturated"
    assert case.requests == requests
    assert case.prompt_tokens == round(inputs / requests)
    assert case.answer_tokens == round(generated / requests)
    assert case.engine == "vLLM" and case.kv_dtype == "bf16" and case.max_seqs == 0
    assert case.layout == ("TP8" if "-tp 8" in case.source else "TP")


def test_the_random_runs_are_the_four_lengths_each_page_states():
    """Each page's four runs sit at its stated 32,000 / 4,000 / 2,000 / 128 prompt tokens, within
    the 0.2 % the re-tokenised random prompts drift."""
    nominal = (32000, 4000, 2000, 128)
    for start in range(0, len(GPUSTACK_BURSTS), 4):
        prompts = [case.prompt_tokens for case in GPUSTACK_BURSTS[start : start + 4]]
        assert prompts == pytest.approx(nominal, rel=0.01)
