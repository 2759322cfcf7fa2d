"""The kernels measured on the lent H200: figures kept as fitted, the card's rate as measured."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from bench.measured_here import RESULTS, RUNS, fits, fitted, full_card_stream
from core.catalog import GPUS
from core.catalog.measured_here import MEASURED_HERE
from core.evidence.engine_sources import measured_here_rows


def test_each_kept_figure_is_what_the_fit_of_the_results_gives():
    """The figures and errors kept in core are bench/measured_here.py's fit of the run's files."""
    kept = fits(fitted(RESULTS))
    assert set(kept) == set(MEASURED_HERE)
    for name, kernel in MEASURED_HERE.items():
        figures, error = kept[name]
        # kept to the precision the sources table shows (a tenth of a microsecond, a percent)
        assert_allclose(figures, kernel.figures, rtol=0.02, atol=1e-9, err_msg=name)
        assert abs(error - kernel.error) < 0.005, name


def test_the_h200_streams_at_the_rate_its_full_card_attention_was_measured_at():
    """The H200's measured bandwidth is the median stream of decode attention over 2 GB caches."""
    assert_allclose(GPUS["H200"].achieved_hbm_bytes_per_s, full_card_stream(), rtol=0.005)


def test_the_measured_matmul_rates_agree_with_the_catalogs_within_twelve_percent():
    """The 8192-cube products of both runs agree with the H200's catalog rates (MAMF's) within
    the spread between the runs (702 and 802 TFLOP/s in bf16)."""
    card = GPUS["H200"]
    for run in RUNS:
        rows = {
            line.split(",")[0]: float(line.split(",")[1])
            for line in (run / "ceilings.csv").read_text().splitlines()[1:]
        }
        assert_allclose(rows["bf16 matmul"] * 1e12, card.achieved_bf16_flops, rtol=0.12)
        assert_allclose(rows["fp8 matmul"] * 1e12, card.achieved_fp8_flops, rtol=0.12)


def test_every_kernel_measured_here_is_a_source_row_marked_unpriced():
    """The sources table shows each measured kernel, said to be a check and not priced."""
    rows = measured_here_rows()
    assert len(rows) == len(MEASURED_HERE)
    for row, name in zip(rows, MEASURED_HERE, strict=True):
        assert name in row.constant and "not priced" in row.constant
        assert "bench/gpu_kernels.py" in row.source
        assert np.isfinite(float(row.value.split()[0]))
