"""Server-side change timing: one record per answered change, none carried across a stale one."""

from types import SimpleNamespace

from labs.server import change_timing


def test_a_change_is_timed_from_arrival_to_the_first_update(tmp_path, monkeypatch):
    """received then replied writes one time; a second reply without a change writes nothing."""
    monkeypatch.setenv(change_timing.ENV, str(tmp_path))
    socket = SimpleNamespace()
    change_timing.received(socket)
    change_timing.received(socket)  # a burst: the clock keeps its first start
    change_timing.replied(socket)
    change_timing.replied(socket)
    times = change_timing.read(tmp_path)
    assert len(times) == 1 and 0 <= times[0] < 1_000


def test_a_change_that_got_no_update_does_not_time_the_next(tmp_path, monkeypatch):
    """A clock older than STALE_S restarts at the next change instead of running on."""
    monkeypatch.setenv(change_timing.ENV, str(tmp_path))
    socket = SimpleNamespace()
    change_timing.received(socket)
    socket.lab_change_started -= change_timing.STALE_S + 1
    change_timing.received(socket)
    change_timing.replied(socket)
    assert change_timing.read(tmp_path)[0] < 1_000


def test_only_a_model_change_starts_the_clock():
    """A knob's ModelChanged patch is a change; the page's document-ready event and pulls are not."""
    from bench.protocol_client import DOCUMENT_READY

    def patch(*events):
        return SimpleNamespace(msgtype="PATCH-DOC", content={"events": list(events)})

    knob = {"kind": "ModelChanged", "model": {"id": "p1"}, "attr": "value", "new": 3}
    assert change_timing.is_change(patch(knob))
    assert change_timing.is_change(patch(DOCUMENT_READY, knob))
    assert not change_timing.is_change(patch(DOCUMENT_READY))
    assert not change_timing.is_change(SimpleNamespace(msgtype="PULL-DOC-REQ", content={}))
