"""Several server processes on one port: what each worker reports, and how they all stop.

Panel's ``num_procs`` forks the server after it has bound its port: every worker inherits
what the parent set up before (the latency settings, the frozen imports and collector
thresholds), and the parent only waits for its workers. Two things are added here: each
worker says, once it runs, which settings it holds (a test reads this), and the parent, when
told to stop, stops its workers too instead of leaving them on the port.
"""

from __future__ import annotations

import contextlib
import gc
import os
import signal
import sys
import time
from pathlib import Path

from panel.reactive import Syncable

from labs.server import allocator, latency


def settings_line() -> str:
    """One line naming this process and the serving settings it runs with."""
    handler = "on" if latency.configured() else "off"
    return (
        f"worker {os.getpid()}: change debounce {Syncable._debounce} ms, TCP_NODELAY {handler}, "
        f"gc thresholds {gc.get_threshold()}, {gc.get_freeze_count():,} objects frozen, "
        f"allocator {allocator.chosen()}"
    )


def children(parent: int) -> list[int]:
    """Process ids whose parent is ``parent`` (Linux /proc; empty elsewhere)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == parent:
            found.append(int(entry.name))
    return found


def stop_workers_with_parent() -> None:
    """Make SIGTERM and SIGINT to the parent stop every worker, then the parent, quietly."""
    parent = os.getpid()

    def stop(signum, _frame) -> None:
        if os.getpid() != parent:  # a worker: Panel replaces this after the fork
            raise SystemExit(0)
        workers = children(parent)
        for pid in workers:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)
        deadline = time.monotonic() + 10
        while workers and time.monotonic() < deadline:
            workers = [pid for pid in workers if not _reaped(pid)]
            time.sleep(0.05)
        os._exit(0)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)


def worker_started() -> None:
    """In each worker: the default SIGTERM again, and a line saying what it runs with."""
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    print(settings_line(), file=sys.stderr, flush=True)


def _reaped(pid: int) -> bool:
    try:
        done, _status = os.waitpid(pid, os.WNOHANG)
    except ChildProcessError:
        return True
    return done == pid
