"""What core answered for the scenarios shown last, kept so that it is not computed again.

A student drags a slider back and forth, flips a button and back, reloads a preset: most
knob changes land on a scenario shown a moment ago. And a class starts from the same
defaults and moves the knobs the instructor names, so the scenarios one student reaches are
the ones the others reach a second later. Core's answers depend on the knobs alone (frozen
results, never edited by a lab), so a process keeps them for the scenarios its sessions
showed last, in one memo that every session it serves reads (``shared_memo``), and
recomputes only what none of them has seen. Sessions share answers, never objects: each
still owns its Scenario, widgets and document.

Measured with bench/change_cpu.py: the pool lab's figures behind a scenario nobody has
shown cost about 10 ms of server CPU; a kept one, nothing.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable

import panel as pn

# Scenarios kept per process, at about 14 kB each (the pool lab's answers): 14 MB at most.
KEPT_SCENARIOS = 1024
# Where the process keeps the shared memo: Panel's cache, the one store its sessions share.
_SHARED_KEY = "labs.page.memo:core answers"


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


def shared_memo() -> Memo:
    """The memo of core's answers that every session of this process reads and fills."""
    memo = pn.state.cache.get(_SHARED_KEY)
    if memo is None:
        memo = pn.state.cache[_SHARED_KEY] = Memo()
    return memo
