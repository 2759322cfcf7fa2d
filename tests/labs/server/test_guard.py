"""The server's guards: one escaped, bounded line per log record; no import from a component URL."""

import logging
import sys

import pytest
from tornado.web import HTTPError

from labs.server.guard import (
    MAX_LOG_CHARS,
    ImportedComponentsOnly,
    OncePerMinute,
    one_line,
    safe_log_records,
)


def test_control_characters_are_escaped():
    """Newlines, carriage returns and NUL bytes come out as visible escapes on one line."""
    assert one_line("key\nFORGED\r\x00end") == "key\\x0aFORGED\\x0d\\x00end"


def test_long_messages_are_cut_and_say_how_long_they_were():
    """A 60,000-character message keeps its start and states its full length."""
    cut = one_line("[" + "a" * 59_999)
    assert cut.startswith("[aaa") and cut.endswith("[cut: 60,000 characters in all]")
    assert len(cut) < MAX_LOG_CHARS + 50


def test_every_log_record_is_made_safe(caplog):
    """Once installed, a warning whose argument holds a newline is logged as one line."""
    previous = logging.getLogRecordFactory()
    safe_log_records()
    try:
        with caplog.at_level(logging.WARNING):
            logging.getLogger("panel.util").warning("bad key %s", "x\n2026 ERROR: FORGED")
    finally:
        logging.setLogRecordFactory(previous)
    assert caplog.records[-1].getMessage() == "bad key x\\x0a2026 ERROR: FORGED"


@pytest.mark.parametrize("path", ["this/x/_css/y", "app/create_app/_css/y", "os/path/_css/y"])
def test_component_urls_import_nothing(path):
    """/components/<module>/... is refused before the module is imported (or touched)."""
    module = path.split("/")[0]
    was_loaded = module in sys.modules
    handler = ImportedComponentsOnly.__new__(ImportedComponentsOnly)
    with pytest.raises(HTTPError) as refused:
        handler.parse_url_path(path)
    assert refused.value.status_code == 404
    assert (module in sys.modules) == was_loaded


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_refusals_are_written_once_per_client_and_minute():
    """1,000 refused websockets from one client in 15 s write one line, another client its own;
    the first line after the minute says how many were held back."""
    clock = Clock()
    quiet = OncePerMinute(clock=clock)
    logger = logging.getLogger("labs.server.test-quiet")
    written = []

    def write(address: str) -> None:
        record = logger.makeRecord(
            logger.name, logging.WARNING, __file__, 1,
            "websocket refused for %s: session token not signed", (address,), None,
        )  # fmt: skip
        if quiet.filter(record):
            written.append(record.getMessage())

    for _ in range(1_000):
        write("198.51.100.7")
        clock.now += 0.015
    write("198.51.100.8")
    assert written == [
        "websocket refused for 198.51.100.7: session token not signed",
        "websocket refused for 198.51.100.8: session token not signed",
    ]
    clock.now += 60.0
    write("198.51.100.7")
    assert written[-1].endswith("(and 999 more like it since the last such line)")


def test_access_lines_differing_only_in_time_are_one_kind():
    """tornado's access warnings for one client and path count as one kind, whatever each took."""
    quiet = OncePerMinute(clock=Clock())
    logger = logging.getLogger("tornado.access")
    kept = [
        quiet.filter(logger.makeRecord(logger.name, logging.WARNING, __file__, 1, text, None, None))
        for text in (
            "403 GET /pool/autoload.js (10.0.0.1) 1.20ms",
            "403 GET /pool/autoload.js (10.0.0.1) 0.91ms",
        )
    ]
    assert kept == [True, False]
