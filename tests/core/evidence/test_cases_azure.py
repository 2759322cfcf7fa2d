"""Azure's benchmarking-guide rows: typed by the rule their module states, figures as printed."""

from __future__ import annotations

from dataclasses import replace

from core.evaluate import engine_node
from core.evidence.cases_2026 import SECOND
from core.evidence.cases_azure import _LENGTHS, _TABLE, AZURE
from core.evidence.check_cases import CHECK
from core.evidence.fidelity import predict


def test_azures_rows_follow_inferencexs_in_key_order_all_scored():
    """D118-D153 follow InferenceX's rows in the second set: every cell of the six tables, all
    scored."""
    start = [case.key for case in SECOND].index("D118")
    assert SECOND[start : start + len(AZURE)] == AZURE
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


def test_every_row_runs_on_the_engine_built_for_2048_2048_with_1000_requests():
    """One engine per model, built for its longest pair, runs all six; each run sends 1,000."""
    for case in AZURE:
        longest = max(_LENGTHS, key=sum)
        assert case.built_for == longest == (2048, 2048) and case.requests == 1000
        assert case.load_text == "1,000 requests at once"


def test_a_run_keeps_at_most_its_requests_and_its_built_engines_batch_in_flight():
    """The users a row is typed with: the fewer of its 1,000 requests and the batch limit
    trtllm-bench sizes the engine to at 2048/2048, which its own lengths' limit never undercuts."""
    for case in AZURE:
        built = replace(case, prompt_tokens=2048, answer_tokens=2048, requests=0, built_for=())
        limit = engine_node(built.scenario()).bench_batch
        own = engine_node(replace(case, requests=0, built_for=()).scenario()).bench_batch
        assert case.saturated_users == min(1000, limit) == case.scenario().concurrency
        assert own >= limit


def test_a_short_pair_on_the_long_pairs_engine_reads_lower_than_on_its_own():
    """128/128 on an 8B engine built for 2048/2048 runs a smaller batch, so less output a second."""
    (short,) = [case for case in AZURE if case.key == "D118"]
    own = replace(short, requests=0, built_for=())
    assert predict(short) < predict(own)
    assert own.saturated_users > short.saturated_users
