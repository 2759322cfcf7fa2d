"""The second check set: the rest of TensorRT-LLM 1.x's throughput table, typed as D01-D07."""

from __future__ import annotations

from core.evidence.cases_2026 import SECOND
from core.evidence.check_cases_2026 import _TABLE, CHECK_TRT_1X, _cells
from core.evidence.fidelity import report


def test_every_cell_on_a_catalog_card_is_taken_but_the_development_rows():
    """The table's cells on catalog cards, less the seven the development set holds (D01-D07)."""
    page = "NVIDIA/TensorRT-LLM docs/source/developer-guide/perf-overview.md"
    development = [case for case in SECOND if case.source.startswith(page)]
    in_table = [case for case in development if case.model in _TABLE]
    assert len(in_table) == 7
    assert len(CHECK_TRT_1X) == len(_cells()) - len(in_table)
    keys = {(c.model, c.gpu, c.cards, c.prompt_tokens, c.answer_tokens) for c in CHECK_TRT_1X}
    for case in in_table:
        assert (
            case.model,
            case.gpu,
            case.cards,
            case.prompt_tokens,
            case.answer_tokens,
        ) not in keys


def test_each_cell_is_typed_with_its_engine_release_layout_and_publisher():
    """Each cell ran TensorRT-LLM 1.x's PyTorch backend, in its column's layout, at max load."""
    for case in CHECK_TRT_1X:
        assert case.engine_knob == "tensorrt-llm" and case.version_knob == "1.0"
        assert case.publisher == "NVIDIA TensorRT-LLM docs"
        assert case.load == "saturated" and case.metric == "throughput"
        assert case.layout == "TP" or case.layout == f"DEP{case.cards}"


def test_the_report_scores_the_whole_second_check_set():
    """The Reality check's second check-set score counts every cell, at both levels."""
    for level, found in report().check_second.items():
        assert found.cases == len(CHECK_TRT_1X), level
        assert 0 <= found.within_band <= found.cases
