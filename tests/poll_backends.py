"""Both poll backends for tests: a SQLite file in a temporary folder, a redis-server of its own.

Each can be made to stop answering: :func:`paused` stops a redis-server (SIGSTOP: its port
still accepts, nothing answers, as in a network partition or a stalled save) and
:func:`locked` holds a SQLite file's write lock from another connection.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


class RedisURL(str):
    """A redis-server's URL that also knows the server's process id (to pause it)."""

    pid: int


@contextlib.contextmanager
def paused(url: RedisURL):
    """The redis-server behind ``url`` stopped (SIGSTOP) for the block, then continued."""
    os.kill(url.pid, signal.SIGSTOP)
    try:
        yield
    finally:
        os.kill(url.pid, signal.SIGCONT)


@contextlib.contextmanager
def locked(path: str):
    """The SQLite file at ``path`` held by another connection's ``BEGIN EXCLUSIVE`` for the block."""
    holder = sqlite3.connect(path, isolation_level=None)
    holder.execute("BEGIN EXCLUSIVE")
    try:
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


@contextlib.contextmanager
def redis_server(workdir: Path):
    """A redis-server on a free loopback port, writing only under ``workdir``; yields its URL.

    The URL is a :class:`RedisURL`: :func:`paused` stops the server behind it.
    """
    if not Path(REDIS_SERVER).exists():
        raise RuntimeError(f"redis-server not found at {REDIS_SERVER}; `make test` installs it")
    workdir.mkdir(parents=True, exist_ok=True)
    port = _free_port()
    process = subprocess.Popen(
        [REDIS_SERVER, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(workdir),
         "--save", "", "--appendonly", "no", "--protected-mode", "yes"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 10
        while True:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", port)) == 0:
                    break
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("redis-server did not start")
            time.sleep(0.05)
        url = RedisURL(f"redis://127.0.0.1:{port}/0")
        url.pid = process.pid
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
