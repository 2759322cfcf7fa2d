"""The lab server runs on the C library's malloc, so a worker's memory comes back after a class.

Python's own allocator (pymalloc) serves small objects from 1 MiB arenas and gives an arena
back to the system only once every object in it is gone. A class's sessions fill a few hundred
arenas; the few objects a process makes during the class and keeps (a timer's next handle, a
client's build bucket, a cache entry, a log record in flight) land among them, so after the
class each of those arenas stays, nearly empty. Measured after 100 sessions over every route
(bench/memory_return.py, and a count of the worker's objects before and after): the same live
objects (380,654 and 380,572; 11 documents, 1,450 Parameterized objects and 10 Scenarios each
time, the kept first pages'), the same 93.3 MB in pymalloc's blocks, but 200 arenas held
against 120 warm, 107 MB of them empty pools: the worker's RSS stayed 74-78 MB over warm.

With ``PYTHONMALLOC=malloc`` every object comes from glibc's malloc, whose free pages
``malloc_trim`` hands back page by page wherever they are (the sweep's thaw calls it,
labs/server/collector.py): the same classes end 8 MB under warm. The price is glibc's slower
small allocations: about 0.7 ms more server CPU per knob change of /pool (bench/change_cpu.py:
9.9 against 9.1 ms at the median). ``PYTHONMALLOC`` is read only as Python starts, so the
server starts itself again with it set; an allocator chosen in the environment (for example
``PYTHONMALLOC=pymalloc``, for speed over memory) is kept, and without glibc's ``malloc_trim``
(macOS, musl) nothing changes.
"""

from __future__ import annotations

import os
import sys

from labs.server import collector

ALLOCATOR_ENV = "PYTHONMALLOC"
SYSTEM_MALLOC = "malloc"


def chosen() -> str:
    """The allocator this process runs on, as ``PYTHONMALLOC`` names it ('pymalloc' when unset)."""
    return os.environ.get(ALLOCATOR_ENV) or "pymalloc"


def relaunch_on_system_malloc() -> None:
    """Replace this process by the same command on the system's malloc, unless it is moot.

    Call it first thing from a server's ``__main__``: nothing of this process survives. It
    returns (and the server goes on as it is) when an allocator is chosen in the environment
    already, which is also how the started-again process knows not to start again, or when
    the C library cannot hand free pages back.
    """
    if os.environ.get(ALLOCATOR_ENV) or not collector.can_return_free_memory():
        return
    environment = {**os.environ, ALLOCATOR_ENV: SYSTEM_MALLOC}
    sys.stdout.flush()
    sys.stderr.flush()
    os.execve(sys.executable, [sys.executable, *sys.orig_argv[1:]], environment)
