"""The one precedence every kernel table follows (core.catalog.kernels.priced_row)."""

from __future__ import annotations

from core.catalog.kernels import priced_row

NEUTRAL = {("hopper", "fp8"): "hopper neutral", ("blackwell", "fp8"): "blackwell neutral"}
ENGINES = {
    ("hopper", "fp8", "vllm"): "hopper vllm",
    ("cdna3", "fp8", "aiter"): "cdna3 aiter",
}


def test_the_releases_kernels_measured_on_the_cards_own_family_come_first():
    """SGLang on an MI325X takes AITER's row measured on CDNA 3 cards, named by that family;
    SGLang 0.3, before AITER, the lender's neutral row."""
    assert priced_row(ENGINES, NEUTRAL, "MI325X", "fp8", "sglang") == ("cdna3 aiter", "cdna3")
    old = priced_row(ENGINES, NEUTRAL, "MI325X", "fp8", "sglang", "0.3")
    assert old == ("hopper neutral", "hopper")


def test_a_measured_family_gives_the_engines_own_row_then_the_neutral_one():
    """On an H100 vLLM takes its own row; TensorRT-LLM, without one, the neutral row."""
    assert priced_row(ENGINES, NEUTRAL, "H100 SXM", "fp8", "vllm") == ("hopper vllm", "hopper")
    assert priced_row(ENGINES, NEUTRAL, "H100 SXM", "fp8", "") == ("hopper neutral", "hopper")


def test_a_borrowing_family_takes_the_lenders_neutral_row_not_its_engine_rows():
    """vLLM on an MI300X borrows Hopper's neutral row, not vLLM's Hopper (CUDA) kernel."""
    assert priced_row(ENGINES, NEUTRAL, "MI300X", "fp8", "vllm") == ("hopper neutral", "hopper")


def test_no_row_anywhere_is_none():
    """A format no table holds gives None, for the caller's own fallback."""
    assert priced_row(ENGINES, NEUTRAL, "H100 SXM", "int4", "vllm") == (None, "hopper")
