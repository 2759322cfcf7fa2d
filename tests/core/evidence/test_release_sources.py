"""The Sources page's rows of what each release does that the engine level prices for it."""

from __future__ import annotations

from core.evidence.release_sources import engine_fact_rows


def test_the_sources_name_each_release_whose_block_fp8_gemms_run_other_kernels_on_amd_cards():
    """SGLang 0.5.6 alone runs AITER's Triton GEMM on its default tile, cited to the sglang PR
    that made it so; 0.5.10, back on tuned tiles, names no other kernels."""
    rows = [row for row in engine_fact_rows() if row.constant.startswith("block-fp8 GEMMs on AMD")]
    assert [(row.constant, row.value) for row in rows] == [
        ("block-fp8 GEMMs on AMD cards, sglang 0.5.6", "aiter-triton")
    ]
    assert "PR #13617" in rows[0].source and "default" in rows[0].source
