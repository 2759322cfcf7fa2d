"""A settling Later runs once, after the requests have stopped for its delay, as before."""

import time

import labs.page.updates as updates
from labs.page.updates import Later


class FakeDoc:
    """The session document's timeout callbacks, fired by the test."""

    def __init__(self):
        self.timeouts = []

    def add_timeout_callback(self, callback, delay_ms):
        self.timeouts.append((callback, delay_ms))
        return len(self.timeouts)

    def fire(self):
        callback, _delay = self.timeouts.pop(0)
        callback()


def test_requests_during_the_wait_push_the_call_back_and_it_runs_once(monkeypatch):
    """Three quick requests schedule one wait; fired early it waits again, then runs once."""
    doc = FakeDoc()
    monkeypatch.setattr(updates, "session_doc", lambda: doc)
    calls = []
    later = Later(lambda: calls.append(1), delay_ms=40, settle=True)
    for _ in range(3):
        later.request()
    assert len(doc.timeouts) == 1 and doc.timeouts[0][1] == 40
    doc.fire()  # at once: the last request was under 40 ms ago
    assert calls == [] and len(doc.timeouts) == 1 and 1 <= doc.timeouts[0][1] <= 40
    time.sleep(0.05)
    doc.fire()
    assert calls == [1] and doc.timeouts == []
    later.request()  # a new burst gets a new wait
    assert len(doc.timeouts) == 1


def test_an_unsettled_later_runs_once_after_the_first_request_of_a_burst(monkeypatch):
    """Without settle, requests during the wait add nothing; the call comes when it ends."""
    doc = FakeDoc()
    monkeypatch.setattr(updates, "session_doc", lambda: doc)
    calls = []
    later = Later(lambda: calls.append(1), delay_ms=15)
    later.request()
    later.request()
    assert len(doc.timeouts) == 1
    doc.fire()
    assert calls == [1]
