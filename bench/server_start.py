"""How long a lab server takes to open its port: with nothing kept, and with the kept tables.

A server prices every published case for the Reality check lab before it listens and keeps the
tables in ``LAB_CACHE_DIR`` (``core/evidence/stored.py``). This starts ``python -m
labs.server.serve`` on a free port with an empty cache folder (a first start, which writes the
tables), then again with the same folder (a restart of the same code, which reads them), each
``--repeats`` times, and prints the seconds until the port accepts a connection (median and
best). Prints figures; asserts nothing.

Usage::

    python bench/server_start.py --repeats 3
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ui.conftest import free_port, serving  # noqa: E402


def seconds_to_open(cache_dir: Path) -> float:
    """Seconds from launching a lab server (its cache in ``cache_dir``) to its open port (polled
    every 0.2 s by the tests' own wait)."""
    port = free_port()
    started = time.perf_counter()
    process = subprocess.Popen(
        [sys.executable, "-m", "labs.server.serve", "--port", str(port), "--address", "127.0.0.1"],
        cwd=ROOT,
        env={**os.environ, "LAB_CACHE_DIR": str(cache_dir)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    with serving(process, port):
        return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args()
    first, again = [], []
    for _ in range(args.repeats):
        with tempfile.TemporaryDirectory() as folder:
            first.append(seconds_to_open(Path(folder)))
            again.append(seconds_to_open(Path(folder)))
    for label, times in (("nothing kept (first start)", first), ("tables kept (restart)", again)):
        print(
            f"server opens its port, {label}: median {statistics.median(times):5.1f} s, "
            f"best {min(times):5.1f} s ({len(times)} starts)"
        )


if __name__ == "__main__":
    main()
