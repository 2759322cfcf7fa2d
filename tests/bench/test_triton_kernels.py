"""Tests for bench/triton_kernels.py: the forty-ninth round's rules, switched off and on."""

from __future__ import annotations

import pytest

from bench.aiter_attention_fit import without_aiter_prompt
from bench.fused_quant import moved
from bench.rounds import before_riding_prompts
from bench.triton_kernels import all_layout_fits, figures, without_sink_triton
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS
from core.evidence.fidelity import PUBLISHED, both_set_cases, predictions, score


def test_switching_the_rule_off_moves_only_gpt_oss_under_vllm_on_an_a100_and_is_undone():
    """Inside the context gpt-oss's 32,000-token burst on an A100 is priced faster (its prompt
    attention back at FlashAttention 2's share), its H100 twin does not move, and leaving the
    context restores the rule."""
    a100 = next(case for case in GPUSTACK_BURSTS if case.key == "D393")
    h100 = next(case for case in GPUSTACK_BURSTS if case.key == "D397")
    after = predictions([a100, h100])
    with without_sink_triton():
        before = predictions([a100, h100])
    assert before[0] > after[0] and before[1] == pytest.approx(after[1])
    assert predictions([a100])[0] == pytest.approx(after[0])


def _ratios_under(context) -> dict[str, float]:
    """Each development case's ratio by key, priced inside ``context`` on the engine level as
    the forty-ninth round left it (no later round's rule, as :func:`figures` prices it)."""
    cases = both_set_cases()
    with before_riding_prompts(), without_aiter_prompt(), context():
        found = score(cases)
    return {case.key: float(ratio) for case, ratio in zip(cases, found.ratios, strict=True)}


def test_the_rows_the_sinks_rule_moves_are_gpt_oss_on_ampere_under_vllm():
    """Every case whose ratio the sinks rule moves runs gpt-oss under vLLM on an A100; its runs
    of 2,000 prompt tokens or more run slower (their throughput falls), where the Triton
    kernel's share costs more than its fewer keys spare."""
    after = figures()
    before = {"ratios": _ratios_under(without_sink_triton)}
    keys = moved(before, after)
    by_key = {case.key: case for case in PUBLISHED}
    assert keys
    for key in keys:
        case = by_key[key]
        assert case.model.startswith("gpt-oss") and case.gpu.startswith("A100"), key
        assert case.engine == "vLLM"
        if case.metric == "throughput" and case.prompt_tokens >= 2000:
            assert after["ratios"][key] < before["ratios"][key], key


def test_before_the_round_undoes_the_rules_and_keeps_the_cases():
    """Switched off together, the round's rules leave both sets their 371 cases; every case they
    move runs vLLM or SGLang (TensorRT-LLM's kernels and defaults are not touched), and beside the
    sinks rule's rows the chunk rule and the A100's Triton experts move only vLLM's runs on an
    A100."""
    before, after = figures(rule=False), figures()
    assert before["both"][2] == after["both"][2] == 371
    by_key = {case.key: case for case in PUBLISHED}
    assert all(by_key[key].engine in ("vLLM", "SGLang") for key in moved(before, after))
    sinks_only = {"ratios": _ratios_under(without_sink_triton)}
    with all_layout_fits():
        refit_only = {"ratios": _ratios_under(without_sink_triton)}
    for key in moved(refit_only, sinks_only):
        case = by_key[key]
        assert case.engine in ("vLLM", "SGLang") and not case.gpu.startswith("A100"), key


def test_without_the_a100_triton_row_an_a100_borrows_hoppers_and_the_row_comes_back():
    """Inside the context vLLM's bf16 experts on an A100 take Hopper's neutral row; leaving it
    restores the A100's own."""
    from bench.triton_kernels import without_a100_rows
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS, EXPERT_KERNELS, expert_kernel

    own = ENGINE_EXPERT_KERNELS[("ampere", "bf16", "vllm")]
    with without_a100_rows():
        assert (
            expert_kernel("A100 80GB SXM", "bf16", "vllm")[0] is EXPERT_KERNELS[("hopper", "bf16")]
        )
    assert expert_kernel("A100 80GB SXM", "bf16", "vllm")[0] is own
