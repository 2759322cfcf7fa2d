"""GPUStack's rows: each figure and its lengths read back from the run they quote."""

from __future__ import annotations

import re

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_gpustack import GPUSTACK


def test_gpustacks_rows_close_the_second_set_in_key_order():
    """D99-D108 follow the ROCm blog's rows, all scored, all from GPUStack."""
    start = [case.key for case in SECOND].index("D99")
    assert SECOND[start : start + len(GPUSTACK)] == GPUSTACK
    assert [case.key for case in GPUSTACK] == [f"D{n}" for n in range(99, 109)]
    assert all(case.scored for case in GPUSTACK)
    assert {case.publisher for case in GPUSTACK} == {"GPUStack performance lab"}


@pytest.mark.parametrize("case", GPUSTACK, ids=lambda case: case.key)
def test_a_gpustack_row_is_the_mean_tpot_it_quotes_at_a_few_users(case):
    """The case is the quoted mean TPOT, in seconds, at the one to eight users the run held."""
    quoted_ms = float(re.search(r"Mean TPOT \(ms\): ([\d.]+)", case.quoted)[1])
    assert case.measured == pytest.approx(quoted_ms / 1000)
    assert case.metric == "itl" and case.load == "users" and 1 <= case.load_value <= 8


def test_a_qwen_fp8_checkpoint_is_typed_block_scaled_with_the_catalogs_shape():
    """Qwen's FP8 checkpoints read as block-scaled fp8, each the same model as its bf16 file."""
    from core.catalog import MODELS
    from core.catalog.config_json import parse_config
    from core.evidence.configs import QWEN3_8B, QWEN3_8B_FP8, QWEN3_235B_A22B_FP8

    fp8, bf16 = parse_config(QWEN3_8B_FP8).shape, parse_config(QWEN3_8B).shape
    assert fp8.checkpoint_dtype == "fp8" and bf16.checkpoint_dtype == "bf16"
    assert fp8.params == bf16.params
    pasted, catalog = parse_config(QWEN3_235B_A22B_FP8).shape, MODELS["Qwen3-235B-A22B"]
    assert pasted.checkpoint_dtype == "fp8"
    assert pasted.params == pytest.approx(catalog.params, rel=0.01)
    assert pasted.active_params == pytest.approx(catalog.active_params, rel=0.03)
    assert (pasted.layers, pasted.experts, pasted.intermediate) == (
        catalog.layers, catalog.experts, catalog.intermediate,
    )  # fmt: skip
