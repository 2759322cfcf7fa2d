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
