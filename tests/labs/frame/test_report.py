"""My report: the session's predictions, practice, pins and measurements in one offline HTML file."""

import re

from core import Scenario, evaluate
from core.foundation.units import express
from core.practice.calibration import reveal
from labs.frame.report import FILENAME, pin_link, report_html
from labs.frame.shell import LabShell
from labs.page import format as fmt
from labs.widgets.measurements import session_measurements
from tests.paths import FIXTURES_DIR


def test_a_fresh_session_reports_each_part_as_empty():
    """Before any work the report names each part and says it is empty."""
    html = report_html(LabShell(scenario=Scenario()))
    for part in ("predictions", "practice", "pins", "measurements"):
        assert f'data-report="{part}"' in html
    assert "No guesses this session" in html and "No pins this session" in html


def test_the_report_holds_each_part_of_the_sessions_work():
    """Two guesses, a practice answer, a pin and a file: each in the file with core's figures."""
    shell = LabShell(scenario=Scenario())
    scenario = shell.scenario
    for field, text in (("seats_granted", "16"), ("monthly_usd", "$9,000")):
        shell.calibration.record(reveal(scenario, field, text))
    practice = shell.view("practice")
    practice.check("12345")
    scenario.param.update(tier="large", kv_dtype="fp8")
    shell.pin_board.pin(scenario)
    name = "vllm_llama31_8b_c16_detailed.json"
    session_measurements(scenario).add({name: (FIXTURES_DIR / "benchmarks" / name).read_bytes()})
    html = report_html(shell, "http://lab.example/")
    result = evaluate(Scenario(tier="large", kv_dtype="fp8"))
    assert fmt.dollars(result.monthly_usd) in html and fmt.count(result.seats_granted) in html
    assert "of 2 guesses within 25" in html and "12345" in html
    assert practice.problem.title in html and name in html
    assert 'href="http://lab.example/?tier=large&amp;kv_dtype=fp8"' in html
    assert pin_link("", {}) == "" and FILENAME.endswith(".html")
    exact = express(practice.problem.answer, practice.problem.shown, practice.problem.kind, 4)
    assert exact not in html  # a wrong answer's report does not hand over the right one


def test_the_file_fetches_nothing():
    """No script, and no address the browser would load: the file opens offline."""
    html = report_html(LabShell(scenario=Scenario()))
    assert "<script" not in html and not re.search(r"""(src|@import|url\()""", html)
