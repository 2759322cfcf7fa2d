"""In the browser: a link with a hostile config.json opens the lab with a notice, and an error
nobody expected shows a short apology while its traceback goes to the server's log only."""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlencode

import pytest
from playwright.sync_api import expect

from tests.ui.conftest import ROOT, free_port, serving

FIXTURES = ROOT / "tests" / "fixtures" / "configs"
# The server as `make serve` runs it, with faults planted: the pool lab fails whenever its
# batch size becomes 13 (set by a link while the page builds) or 256 (the slider's end), and
# its deferred details fail at a batch size of 1 (the slider's start).
FAULTY_SERVER = """
import sys
from labs.pool.lab import PoolLab

refresh, details = PoolLab._refresh, PoolLab._refresh_details

def failing(self, *events):
    if self.scenario.seats in (13, 256):
        raise RuntimeError("planted failure for the apology test")
    return refresh(self, *events)

def failing_details(self):
    if self.scenario.seats == 1:
        raise RuntimeError("planted failure for the apology test")
    return details(self)

PoolLab._refresh, PoolLab._refresh_details = failing, failing_details
from labs.server.serve import main
main(sys.argv[1:])
"""
TRACEBACK_WORDS = ("Traceback", "RuntimeError", 'File "', ".py", "planted failure")


@pytest.fixture(scope="module")
def faulty(tmp_path_factory):
    """(base URL, log path) of a lab server with the planted fault, its output kept in a log."""
    log_path = Path(tmp_path_factory.mktemp("hostile")) / "lab.log"
    port = free_port()
    with log_path.open("w") as log:
        process = subprocess.Popen(
            # the tests open and leave pages at machine speed, as a loop would: the minute's
            # budget alone, as the other test servers have (tests/ui/conftest.py)
            [
                sys.executable,
                "-c",
                FAULTY_SERVER,
                "--port",
                str(port),
                "--session-build-share",
                "0",
            ],
            cwd=ROOT,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
    with serving(process, port, stop_within=15) as url:
        yield url, log_path


def config_link(base: str, route: str, **changes) -> str:
    """A link that pastes Llama 3.1 8B's config.json with ``changes`` into ``route``."""
    config = {**json.loads((FIXTURES / "llama-3.1-8b.json").read_text()), **changes}
    text = json.dumps(config, separators=(",", ":"))
    return f"{base}{route}?" + urlencode({"model_config": text, "model": "custom"})


def assert_no_traceback(page) -> None:
    text = page.locator("body").inner_text()
    for word in TRACEBACK_WORDS:
        assert word not in text, f"{word!r} reached the page"


@pytest.mark.parametrize(
    ("route", "changes", "field"),
    [
        ("/pool", {"num_local_experts": 8, "num_experts_per_tok": 8}, "'num_experts_per_tok' is 8"),
        ("/kv", {"num_attention_heads": 8192, "num_key_value_heads": 8192},
         "'num_attention_heads' is 8,192"),
        ("/pool", {"num_hidden_layers": 100_000_000}, "'num_hidden_layers' is 100,000,000"),
    ],
)  # fmt: skip
def test_a_hostile_config_in_a_link_opens_the_lab_with_a_notice(
    page, faulty, route, changes, field
):
    """The two configs that crashed /pool and /kv, and 100,000,000 layers: the lab and a notice."""
    base, _log = faulty
    start = time.monotonic()
    page.goto(config_link(base, route, **changes))
    notice = page.locator("[data-url-notice]")
    expect(notice).to_contain_text(field, timeout=30_000)
    assert time.monotonic() - start < 30
    expect(page.locator("div.cards").first).to_be_visible()
    assert_no_traceback(page)
    assert page.console_log.errors == []


def test_a_page_that_fails_to_build_shows_an_apology_and_logs_the_traceback(page, faulty):
    """A build that raises shows a short apology and a way back; the traceback is in the log only."""
    base, log_path = faulty
    page.goto(f"{base}/pool?seats=13")
    apology = page.locator("[data-apology]")
    expect(apology).to_contain_text("Sorry", timeout=30_000)
    expect(page.get_by_role("link", name="Open this lab with its default settings")).to_be_visible()
    assert_no_traceback(page)
    log = log_path.read_text()
    assert "Traceback" in log and "planted failure for the apology test" in log


@pytest.mark.parametrize("key", ["End", "Home"])
def test_a_knob_change_that_fails_shows_an_apology_and_logs_the_traceback(page, faulty, key):
    """A callback (End: at once; Home: the deferred details) that raises shows the apology, logged."""
    base, log_path = faulty
    before = log_path.read_text().count("planted failure")
    page.goto(base + "/")
    expect(page.locator("div.cards").first).to_contain_text("1,698", timeout=30_000)
    handle = page.locator(".noUi-handle").first
    handle.focus()
    handle.press(key)
    expect(page.locator("[data-apology]")).to_contain_text("Sorry", timeout=20_000)
    assert_no_traceback(page)
    deadline = time.monotonic() + 10
    while log_path.read_text().count("planted failure") == before and time.monotonic() < deadline:
        time.sleep(0.2)
    assert log_path.read_text().count("planted failure") > before
