"""Azure's benchmarking-guide rows: typed by the rule their module states, figures as printed."""

from __future__ import annotations

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_azure import _LENGTHS, _TABLE, AZURE
from core.evidence.check_cases import CHECK


def test_azures_rows_close_the_second_set_in_key_order_all_scored():
    """D118-D153 are the second set's last cases: every cell of the six tables, all scored."""
    assert SECOND[-len(AZURE) :] == AZURE
    assert [case.key for case in AZURE] == [f"D{n}" for n in range(118, 154)]
    assert len(AZURE) == len(_TABLE.strip().splitlines()) * len(_LENGTHS)
    assert all(case.scored for case in AZURE)
    assert {case.publisher for case in AZURE} == {"Microsoft Azure AI benchmarking guide"}


def test_each_row_is_trtllm_bench_0_15_at_max_load_with_its_printed_figure():
    """TensorRT-LLM 0.15 (the 0.14 release line), FP8 weights and cache, TP, every request at
    once; the measured figure is the number the quoted table row prints."""
    for case in AZURE:
        assert case.engine_knob == "tensorrt-llm" and case.version_knob == "0.14"
        assert (case.dtype, case.cache_dtype, case.layout) == ("fp8", "fp8", "TP")
        assert case.load == "saturated" and case.metric == "throughput"
        assert case.cards == (1 if "(8B)" in case.quoted else 8)
        cells = [cell.strip() for cell in case.quoted.split("(")[-2].split("|")]
        assert (int(cells[2]), int(cells[3])) == (case.prompt_tokens, case.answer_tokens)
        assert float(cells[4]) == case.measured


def test_another_publishers_run_of_a_set_up_leaves_the_check_set_its_own_row():
    """NVIDIA's Llama-3-70B 128/128 row on eight H100 stays in the check set beside Azure's D124."""
    (azure,) = [case for case in AZURE if case.key == "D124"]
    same = [
        case for case in CHECK
        if (case.model, case.gpu, case.cards, case.prompt_tokens, case.answer_tokens)
        == (azure.model, azure.gpu, azure.cards, azure.prompt_tokens, azure.answer_tokens)
    ]  # fmt: skip
    assert len(same) == 1 and same[0].publisher != azure.publisher
