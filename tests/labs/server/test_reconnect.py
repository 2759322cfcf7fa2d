"""One script says the connection was lost, for a refused websocket and a dropped one alike."""

from bokeh.document import Document
from bokeh.models import CustomJS

from labs.server import reconnect


def test_the_lost_connection_callback_runs_the_script_every_page_loads():
    """The document's connection_lost callback is assets/reconnect.js itself, then its banner."""
    doc = Document()
    reconnect.attach(doc)
    callbacks = [
        callback
        for callbacks in doc.callbacks._js_event_callbacks.values()
        for callback in callbacks
        if isinstance(callback, CustomJS)
    ]
    assert len(callbacks) == 1
    script = reconnect.SCRIPT.read_text(encoding="utf-8")
    assert callbacks[0].code.startswith(script)
    assert callbacks[0].code.endswith("window.labConnectionLost();\n")
    assert "/assets/" + reconnect.SCRIPT.name == reconnect.SCRIPT_URL


def test_the_banner_code_and_its_words_are_written_once():
    """The banner is built in the script alone, with the words of MESSAGE."""
    script = reconnect.SCRIPT.read_text(encoding="utf-8")
    assert reconnect.MESSAGE in script
    assert script.count('"lab-connection-lost"') == 1
    assert "lab-connection-lost" not in reconnect.RELOAD_JS.removeprefix(script)
