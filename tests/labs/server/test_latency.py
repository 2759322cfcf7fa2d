"""The lab's websocket handler: a reply's frames leave together and never hold the socket."""

import asyncio

from bokeh.protocol import Protocol
from tornado.concurrent import Future
from tornado.locks import Lock
from tornado.websocket import WebSocketHandler

from labs.server.latency import NoDelayWSHandler


class FakeSocket:
    """Just what ``send_message`` touches: the write lock Bokeh and Panel share."""

    def __init__(self):
        self.write_lock = Lock()


def test_reply_frames_are_queued_in_order_and_the_lock_is_free_at_once(monkeypatch):
    """All frames are written before any is awaited, so Panel never finds the lock taken."""
    written, pending = [], []

    def write_message(socket, data, binary=False):
        written.append(data)
        future = Future()
        pending.append(future)
        return future

    monkeypatch.setattr(WebSocketHandler, "write_message", write_message)
    message = Protocol().create("OK", "request-1")
    socket = FakeSocket()

    async def scenario():
        task = asyncio.ensure_future(NoDelayWSHandler.send_message(socket, message))
        await asyncio.sleep(0)
        assert written == [message.header_json, message.metadata_json, message.content_json]
        assert socket.write_lock._block._value == 1  # free while the frames are in flight
        assert not task.done()
        for future in pending:
            future.set_result(None)
        await task

    asyncio.run(scenario())


def restore_panel_overhead(monkeypatch) -> None:
    """Undo, after the test, what ``panel_overhead.configure()`` changes in Panel."""
    import logging
    import sys

    from panel.reactive import Reactive
    from panel.util import parameters

    monkeypatch.setattr(Reactive, "_update_properties", Reactive._update_properties)
    panel_log = logging.getLogger("panel")
    monkeypatch.setattr(panel_log, "level", panel_log.level)
    for name, module in list(sys.modules.items()):
        if name.startswith("panel") and hasattr(module, "edit_readonly"):
            monkeypatch.setattr(module, "edit_readonly", parameters.edit_readonly)


def test_widget_events_skip_the_busy_counter_once_configured(monkeypatch):
    """After configure(), a knob's event leaves pn.state's busy counter alone (no spinner uses it)."""
    import panel as pn
    from panel.io import document
    from panel.reactive import Syncable

    from labs.server import latency

    # Panel's defaults for the test, and everything configure() changes restored after it.
    monkeypatch.setattr(Syncable, "_debounce", Syncable._debounce)
    monkeypatch.setattr(Syncable, "_busy__ignore", [])
    monkeypatch.setattr(document, "dispatch_tornado", document.dispatch_tornado)
    monkeypatch.setattr(latency.urls, "per_app_patterns", list(latency.urls.per_app_patterns))
    restore_panel_overhead(monkeypatch)
    added = []
    monkeypatch.setattr(pn.state, "_add_busy_event", added.append)
    slider = pn.widgets.IntSlider(start=0, end=10, value=1)
    slider._process_events({"value": 2})
    assert len(added) == 1 and slider.value == 2  # Panel's default counts it
    latency.configure()
    slider._process_events({"value": 3})
    assert len(added) == 1 and slider.value == 3
