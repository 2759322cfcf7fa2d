"""A vLLM contributor's bf16 baselines (vLLM PR #21865): typed as the quoted rows print them."""

from __future__ import annotations

from core.evidence.cases_vllm_latency import BATCHES, VLLM_LATENCY
from tests.core.evidence.set_order import rows_after


def test_the_rows_follow_d479_and_close_the_second_set():
    """D480-D487 come right after the sixty-third round's rows, the last of the second set."""
    assert [case.key for case in VLLM_LATENCY] == [f"D{n}" for n in range(480, 488)]
    assert rows_after("D479", VLLM_LATENCY) == []


def test_each_row_is_a_batch_sent_at_once_typed_as_its_quoted_cell():
    """Each row is one table's baseline cell: its batch the users and the run's requests, the
    seconds quoted its figure, 256 tokens in and 32 out, bf16 on the H100 SXM under vLLM's 0.10
    line, one card for the 8B model and TP4 for the 70B."""
    tables = {"Llama-3-8B": (1, "TP"), "Llama-3-70B": (4, "TP4")}
    assert [case.load_value for case in VLLM_LATENCY] == [*BATCHES, *BATCHES]
    for case in VLLM_LATENCY:
        batch, seconds = case.quoted.split(" | ")[-2:]
        assert batch == f"batch {case.load_value:g}" and float(seconds) == case.measured
        assert (case.metric, case.load, case.requests) == ("request", "users", case.load_value)
        assert (case.prompt_tokens, case.answer_tokens, case.gpu) == (256, 32, "H100 SXM")
        assert (case.dtype, case.kv_dtype, case.engine_knob, case.version_knob) == (
            "bf16", "bf16", "vllm", "0.10",
        )  # fmt: skip
        assert (case.cards, case.layout) == tables[case.model]
        assert case.scored and case.publisher == "a vLLM contributor (vLLM PR #21865)"
