"""Tests for bench/aiter_attention_fit.py: AITER's prompt attention fitted to AMD's chart."""

from numpy.testing import assert_allclose

from bench.aiter_attention_fit import (
    CHART_TFLOPS,
    PROMPTS,
    chart_rows,
    fitted,
    without_aiter_prompt,
)
from core.catalog.attention_kernels import AITER_PREFILL_ATTENTION, release_prefill_attention


def test_each_bar_is_its_causal_flops_over_its_printed_rate():
    """A bar's latency times its printed rate gives back the causal pairs' FLOPs."""
    for card, rates in CHART_TFLOPS.items():
        pairs, _, latency = chart_rows(card)
        assert len(latency) == len(PROMPTS) == len(rates)
        assert_allclose(pairs / latency, [rate * 1e12 for rate in rates])


def test_the_catalog_keeps_the_fit():
    """The catalog's AITER rows are the chart's fit: share and extra keys, each card."""
    for card, family in (("MI300X", "cdna3"), ("MI355X", "cdna4")):
        _, share, keys, error = fitted(card)
        row = AITER_PREFILL_ATTENTION[(family, "bf16")]
        assert_allclose((row.rate_share, row.extra_keys), (share, keys))
        assert error < 0.05


def test_without_the_rule_an_aiter_release_borrows_its_engines_row():
    """Switched off, ATOM's vLLM on an MI355X prefills in the row vLLM borrows from Blackwell;
    switched back on, in AITER's."""
    with without_aiter_prompt():
        borrowed = release_prefill_attention("MI355X", "bf16", "vllm", "0.17-atom")
    assert borrowed is not AITER_PREFILL_ATTENTION[("cdna4", "bf16")]
    own = release_prefill_attention("MI355X", "bf16", "vllm", "0.17-atom")
    assert own is AITER_PREFILL_ATTENTION[("cdna4", "bf16")]
