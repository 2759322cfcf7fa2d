"""The Sources page's rows of what each release does that the engine level prices for it."""

from __future__ import annotations

from core.evidence.release_sources import engine_fact_rows


def test_the_sources_name_each_release_whose_block_fp8_gemms_run_other_kernels_on_amd_cards():
    """SGLang 0.5.6 and 0.5.10 run AITER's Triton GEMM, each cited: 0.5.6 to the sglang PR that
    made it so (the default tile only), 0.5.10 to the AITER PR whose three tuned tiles it pins."""
    rows = [row for row in engine_fact_rows() if row.constant.startswith("block-fp8 GEMMs on AMD")]
    assert [(row.constant, row.value) for row in rows] == [
        ("block-fp8 GEMMs on AMD cards, sglang 0.5.6", "aiter-triton"),
        ("block-fp8 GEMMs on AMD cards, sglang 0.5.10", "aiter-triton"),
    ]
    assert "PR #13617" in rows[0].source and "default" in rows[0].source
    assert "PR #2024" in rows[1].source and "every other shape" in rows[1].source
