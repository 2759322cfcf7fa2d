"""The third check set: Argonne's MI300X table, taken whole by the reading its module states."""

from __future__ import annotations

from core.evidence.check_cases_argonne import _BATCHES, _TABLE, CHECK_ARGONNE
from core.evidence.fidelity import report


def test_every_row_is_taken_but_batches_of_one_that_outlasted_sixteen():
    """Each cell of the table is a case, less the batch-of-one rows slower than their batch of 16."""
    cells = dropped = 0
    for line in _TABLE.strip().splitlines():
        times = dict(zip(_BATCHES, line.split("|")[3].split(), strict=True))
        cells += sum(cell != "-" for cell in times.values())
        dropped += times[16] != "-" and float(times[1]) > float(times[16])
    assert len(CHECK_ARGONNE) == cells - dropped and 0 < dropped < cells / 20


def test_each_row_is_typed_with_its_engine_release_card_and_publisher():
    """vLLM 0.6 on MI300X in TP, bf16 for fp16; a batch of one a request's time, others output
    throughput of that many users at once, equal prompt and answer lengths."""
    for case in CHECK_ARGONNE:
        assert case.engine_knob == "vllm" and case.version_knob == "0.6"
        assert case.publisher == "Argonne LLM-Inference-Bench" and case.gpu == "MI300X"
        assert case.layout == "TP" and case.dtype == "bf16"
        assert case.prompt_tokens == case.answer_tokens and case.load == "users"
        assert case.metric == ("request" if case.load_value == 1 else "throughput")


def test_a_throughput_row_is_its_batchs_answers_over_the_batchs_time():
    """Llama-3-70B TP8 1024/1024, a batch of 64: 64 x 1024 answer tokens over its 67.42 s."""
    (case,) = [c for c in CHECK_ARGONNE if c.key == "Llama-3-70B MI300X TP8 1024/1024 x64"]
    assert abs(case.measured - 64 * 1024 / 67.42) < 1e-6 * case.measured


def test_the_report_scores_the_whole_third_check_set():
    """The Reality check's third check-set score counts every row, at both levels."""
    for level, found in report().check_argonne.items():
        assert found.cases == len(CHECK_ARGONNE), level
        assert 0 <= found.within_band <= found.cases


def test_the_same_release_on_the_same_card_in_the_development_sets_is_its_peer_set():
    """Argonne's peers are the scored vLLM 0.6 runs on MI300X (AMD's and Oracle's, and
    EmbeddedLLM's V0 runs of a later build, priced as the 0.6 line's V0 engine), no other."""
    found = report()
    peers = found.argonne_peers
    on_card = [
        case
        for i, case in enumerate(found.cases)
        if i in found.sets["both"] and case.gpu == "MI300X" and case.version_knob == "0.6"
        and case.engine_knob == "vllm"
    ]  # fmt: skip
    assert peers.cases == len(on_card) > 0
    assert {case.publisher for case in on_card} == {
        "AMD ROCm blogs",
        "Oracle Cloud Infrastructure blog",
        "EmbeddedLLM (vLLM PRs #17530, #17535)",
    }
