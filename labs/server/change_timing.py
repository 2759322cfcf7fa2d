"""The server's own time per knob change, recorded for bench/classroom.py when asked for.

On a machine where the simulated browsers compete with the server for the same cores, a
latency measured in the browser mixes the two. This records, inside each server process,
the interval from a browser's change message arriving on a websocket to the first update of
that tab's document handed back to the socket: the server's work plus any wait behind other
sessions on its event loop. Off unless ``LAB_CHANGE_TIMES`` names a directory; each worker
process then appends one line per change, in milliseconds, to ``<directory>/<pid>.txt``.
``labs/server/latency.py`` calls ``received`` and ``replied`` where messages come in and go out.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

ENV = "LAB_CHANGE_TIMES"

_STARTED = "lab_change_started"

# A change that changed nothing on screen gets no update; its clock must not run on into the
# next change's. bench/classroom.py gives up on a change after 5 s as well.
STALE_S = 5.0


def enabled() -> bool:
    """Whether this process records change times."""
    return bool(os.environ.get(ENV))


def is_change(message) -> bool:
    """Whether Bokeh ``message`` from a tab changes a model (a knob), not just an event.

    A page's "document ready" event comes as a patch too, but nothing answers it: its clock
    would run on into the first knob change's.
    """
    if message.msgtype != "PATCH-DOC":
        return False
    events = message.content.get("events", []) if isinstance(message.content, dict) else []
    return any(event.get("kind") == "ModelChanged" for event in events)


def received(socket) -> None:
    """A change message arrived on ``socket``; its clock starts unless one is running."""
    now = time.perf_counter()
    started = getattr(socket, _STARTED, None)
    if started is None or now - started > STALE_S:
        setattr(socket, _STARTED, now)


def replied(socket) -> None:
    """An update is being handed to ``socket``: record the running change's time, if any."""
    started = getattr(socket, _STARTED, None)
    if started is None:
        return
    setattr(socket, _STARTED, None)
    path = Path(os.environ[ENV]) / f"{os.getpid()}.txt"
    with path.open("a", encoding="utf-8") as out:
        out.write(f"{(time.perf_counter() - started) * 1000:.2f}\n")


def read(directory: str | Path) -> list[float]:
    """Every change time recorded under ``directory`` by any worker, in ms."""
    times = []
    for path in sorted(Path(directory).glob("*.txt")):
        times += [float(line) for line in path.read_text().split()]
    return times
