"""The lab server's garbage-collector settings."""

import gc
import weakref

from labs.server import collector


def test_configure_freezes_imports_and_makes_full_collections_rarer():
    """After configure, imported objects are frozen and full collections need 100 young ones."""
    before = gc.get_threshold()
    try:
        collector.configure()
        assert gc.get_threshold() == collector.THRESHOLDS
        assert collector.THRESHOLDS[2] > before[2]
        assert gc.get_freeze_count() > 10_000
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)


class _Session:
    """Stands for a session's objects: a reference cycle, which reference counting never frees."""

    def __init__(self):
        self.me = self


def test_open_sessions_stay_out_of_collections_and_closed_ones_go_once_as_many_closed_as_open():
    """A built session is frozen (a collection keeps it); once closed sessions match open ones, all go."""
    freezer = collector.SessionFreezer()
    held, gone = [], []
    try:
        for _ in range(3):
            session = _Session()
            held.append(session)
            gone.append(weakref.ref(session))
            del session
            freezer.built()
        assert freezer.open == 3
        held.clear()  # every session's page closed: only their cycles hold them now
        freezer.closed()
        gc.collect()
        assert all(ref() is not None for ref in gone)  # frozen: a full collection skips them
        freezer.closed()  # two closed, one open: thawed and collected
        assert all(ref() is None for ref in gone)
        assert freezer.closed_since_thaw == 0 and freezer.open == 1
    finally:
        gc.unfreeze()


def test_closed_sessions_left_frozen_go_once_nobody_comes_or_leaves():
    """With kept pages counted as open, the last closed sessions are freed once the server is idle."""
    import asyncio

    async def scenario() -> list:
        freezer = collector.SessionFreezer(idle_thaw_s=0.05)
        for _ in range(3):  # the server's kept first pages: built, never closed
            freezer.built()
        session = _Session()
        ref = weakref.ref(session)
        freezer.built()
        del session
        freezer.closed()  # one closed, three open: no thaw by the ratio
        gc.collect()
        alive_before = ref() is not None
        await asyncio.sleep(0.2)
        return [alive_before, ref() is None, freezer.closed_since_thaw]

    try:
        assert asyncio.run(scenario()) == [True, True, 0]
    finally:
        gc.unfreeze()


def test_a_thaw_returns_free_memory_to_the_system_where_glibc_can():
    """The thaw asks glibc to hand free pages back (True on this Linux), and never raises."""
    assert collector.return_free_memory() in (True, False)
