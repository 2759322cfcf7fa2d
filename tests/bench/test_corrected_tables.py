"""bench/corrected_tables.py: the sixty-fifth round's switch."""

from __future__ import annotations

from bench.corrected_tables import EARLIER_BLACKWELL_ROWS, without_corrected_tables
from core import Scenario, evaluate
from core.catalog.dense_gemms import dense_gemm_cost

MI300X = dict(model="DeepSeek-R1", gpu="MI300X", cards=8, weight_dtype="fp8", engine="sglang",
              realism="engine", concurrency=1)  # fmt: skip


def test_the_switch_reads_the_earlier_blackwell_tables_and_tunes_every_shape():
    """Under the switch SGLang's block-fp8 GEMM on a B200 reads the earlier tables (0.5.9's for
    the 0.5 line, 0.5.14's for 0.5.14) and SGLang 0.5.10 on an MI300X decodes as the 0.5 line
    does; outside it, the corrected table and a slower 0.5.10."""
    with without_corrected_tables():
        assert (
            dense_gemm_cost("B200", "fp8_block", "sglang", "0.5")
            == EARLIER_BLACKWELL_ROWS[("blackwell", "fp8_block", "sglang", "0.5.9")]
        )
        assert (
            dense_gemm_cost("B200", "fp8_block", "sglang", "0.5.14")
            == EARLIER_BLACKWELL_ROWS[("blackwell", "fp8_block", "sglang", "0.5.14")]
        )
        tuned = float(evaluate(Scenario(**MI300X, engine_version="0.5.10")).itl_s)
        assert tuned == float(evaluate(Scenario(**MI300X, engine_version="0.5")).itl_s)
    assert dense_gemm_cost("B200", "fp8_block", "sglang", "0.5").floor_s < 6e-6
    assert float(evaluate(Scenario(**MI300X, engine_version="0.5.10")).itl_s) > tuned
