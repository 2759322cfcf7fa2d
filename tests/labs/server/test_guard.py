"""The server's guards: one escaped, bounded line per log record; no import from a component URL."""

import logging
import sys

import pytest
from tornado.web import HTTPError

from labs.server.guard import MAX_LOG_CHARS, ImportedComponentsOnly, one_line, safe_log_records


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
