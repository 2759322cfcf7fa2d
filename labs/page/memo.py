"""A session's memory of what core answered for the scenarios it showed last.

A student drags a slider back and forth, flips a button and back, reloads a preset: most
knob changes land on a scenario the session showed a moment ago. Core's answers depend on
the knobs alone, so a lab keeps them for its last few scenarios (per session, never across
sessions) and recomputes only what it has not seen. Measured with bench/change_cpu.py, the
pool lab's figures behind one change cost about 10 ms of server CPU; a repeat, nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

# Scenarios kept per lab and session: a drag's worth of slider steps, at a few kB each.
KEPT_SCENARIOS = 32


def scenario_key(scenario, *more: Hashable) -> tuple:
    """What core's answers for ``scenario`` (and a lab's own settings ``more``) depend on."""
    return (*scenario.knobs().values(), *more)


class Memo:
    """Named answers for the last ``size`` keys asked about, the oldest forgotten first."""

    def __init__(self, size: int = KEPT_SCENARIOS):
        self._size = size
        self._entries: OrderedDict[Hashable, dict] = OrderedDict()

    def _entry(self, key: Hashable) -> dict:
        entry = self._entries.get(key)
        if entry is None:
            entry = self._entries[key] = {}
            while len(self._entries) > self._size:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(key)
        return entry

    def kept(self, key: Hashable, name: str, compute: Callable[[], object]):
        """The answer ``name`` for ``key``: the kept one, else ``compute()`` (then kept)."""
        entry = self._entry(key)
        if name not in entry:
            entry[name] = compute()
        return entry[name]

    def has(self, key: Hashable, name: str) -> bool:
        """Whether the answer ``name`` for ``key`` is kept."""
        entry = self._entries.get(key)
        return entry is not None and name in entry

    def __len__(self) -> int:
        return len(self._entries)
