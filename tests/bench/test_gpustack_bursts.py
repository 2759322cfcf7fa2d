"""Tests for bench/gpustack_bursts.py: GPUStack's bursts by page, and an A100 beside an H100."""

from __future__ import annotations

from dataclasses import replace

import pytest

from bench.gpustack_bursts import a100_over_h100, page_of, pages
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS


def test_every_page_holds_its_four_runs_in_order():
    """Eleven pages, four runs each, in the module's order, each with a finite positive ratio."""
    found = pages()
    assert len(found) == 11
    assert [case for rows in found.values() for case, _ in rows] == GPUSTACK_BURSTS
    assert all(0 < ratio < 10 for rows in found.values() for _, ratio in rows)
    assert page_of(GPUSTACK_BURSTS[0]) == "qwen3-14b/a100"


def test_the_a100_over_the_h100_is_the_inverse_of_their_throughputs():
    """A run twice as fast on the H100 reads 2 measured; priced, the ratios scale it likewise;
    only models run on one card of each are paired."""
    a100 = replace(GPUSTACK_BURSTS[0], measured=10.0)
    h100 = replace(GPUSTACK_BURSTS[4], measured=20.0)
    found = {"qwen3-14b/a100": [(a100, 1.0)], "qwen3-14b/h100": [(h100, 1.5)],
             "deepseek-r1/h200": [(GPUSTACK_BURSTS[-1], 1.0)]}  # fmt: skip
    pairs = a100_over_h100(found)
    assert list(pairs) == ["qwen3-14b"]
    ((measured, priced),) = pairs["qwen3-14b"]
    assert measured == pytest.approx(2.0)
    assert priced == pytest.approx(3.0)


def test_the_explored_marlin_rule_moves_only_vllms_mxfp4_experts_on_ampere_and_is_undone():
    """Inside the context vLLM's gpt-oss on an A100 is priced slower (Marlin multiplies at a
    smaller share than the borrowed W4A16 row), its H100 twin is not moved, and leaving the
    context restores the catalog."""
    from bench.gpustack_bursts import marlin_on_ampere
    from bench.triton_kernels import without_a100_rows
    from core.catalog.kernels import ENGINE_EXPERT_KERNELS
    from core.evidence.fidelity import predictions

    a100 = next(case for case in GPUSTACK_BURSTS if case.key == "D394")
    h100 = next(case for case in GPUSTACK_BURSTS if case.key == "D398")
    with without_a100_rows():  # the catalog as the forty-eighth round left it
        before = predictions([a100, h100])
        with marlin_on_ampere():
            during = predictions([a100, h100])
        assert during[0] < before[0] and during[1] == pytest.approx(before[1])
        assert ("ampere", "mxfp4", "vllm") not in ENGINE_EXPERT_KERNELS
        assert predictions([a100])[0] == pytest.approx(before[0])
