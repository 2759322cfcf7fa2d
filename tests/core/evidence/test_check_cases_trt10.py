"""The fourth check set: TensorRT-LLM 1.0's own throughput table, read whole."""

from __future__ import annotations

from core.evidence.cases_2026 import SECOND
from core.evidence.check_cases_trt10 import _LENGTHS, _TABLE, CHECK_TRT_10, TRT_10_REQUESTS
from core.evidence.fidelity import report


def test_every_printed_cell_on_a_catalog_card_is_taken():
    """Each model's columns times its ten lengths, less the cells the page leaves empty."""
    printed = sum(
        cell != "-"
        for _, rows in _TABLE.values()
        for row in rows.split(";")
        for cell in row.split()
    )
    assert len(CHECK_TRT_10) == printed
    assert {c.gpu for c in CHECK_TRT_10} == {"B200", "H200", "H100 SXM"}
    assert {f"{c.prompt_tokens}/{c.answer_tokens}" for c in CHECK_TRT_10} == set(_LENGTHS)


def test_no_cell_is_a_development_row():
    """The development set holds none of the page's cells: its TensorRT-LLM rows come from other
    pages (v0.17, v0.20, v0.14 and the newer per-GPU table)."""
    sources = {case.source for case in SECOND}
    assert not any(case.source in sources for case in CHECK_TRT_10)


def test_each_cell_is_typed_as_the_rule_says():
    """TensorRT-LLM 1.0's PyTorch backend, TP as the headings print (DEP for a mixture of
    experts on several cards, as the page's MoE options run it), KV fp8, the page's request
    count for its lengths, at max load."""
    from core.evidence.families import is_mixture

    for case in CHECK_TRT_10:
        assert case.engine_knob == "tensorrt-llm" and case.version_knob == "1.0"
        assert case.publisher == "NVIDIA TensorRT-LLM docs"
        spread = f"DEP{case.cards}" if is_mixture(case) and case.cards > 1 else "TP"
        assert case.layout == spread and case.kv_dtype == "fp8"
        assert case.requests == TRT_10_REQUESTS[(case.prompt_tokens, case.answer_tokens)]
        assert case.load == "saturated" and case.metric == "throughput"
        assert case.dtype == ("nvfp4" if case.gpu == "B200" else "fp8")


def test_the_report_scores_the_whole_fourth_check_set():
    """The report's fourth check-set score counts every cell, at both levels."""
    for level, found in report().check_trt10.items():
        assert found.cases == len(CHECK_TRT_10), level
        assert 0 <= found.within_band <= found.cases
