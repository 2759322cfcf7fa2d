"""Run deploy/nginx.conf on loopback in front of local lab processes (tests and bench/)."""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.ui.conftest import ROOT, free_port, wait_for_port

__all__ = ["access_log", "free_port", "lab_processes", "nginx"]

CONF = ROOT / "deploy" / "nginx.conf"
NGINX = os.environ.get("LAB_NGINX", shutil.which("nginx") or "/usr/sbin/nginx")

# What the access log records per request: the sticky key, the lab process that answered.
LOG_FORMAT = "$lab_backend $upstream_addr $status $request_method $uri $args"  # "-" where empty


def site_config(listen: int, backends: list[int], cache: Path, page_rate: str | None = None) -> str:
    """deploy/nginx.conf with its marked lines set for loopback: ``listen`` port, ``backends``."""
    text = CONF.read_text()
    upstream = "".join(f"    server 127.0.0.1:{port};\n" for port in backends)
    text, found = re.subn(r"(?m)^    server \S+:\d+;\n(?:    server \S+:\d+;\n)*", upstream, text)
    assert found == 1, "deploy/nginx.conf: no upstream server lines found"
    replacements = {
        r"listen 80;": f"listen 127.0.0.1:{listen};",
        r"server_name \S+;": "server_name 127.0.0.1;",
        r"proxy_cache_path \S+": f"proxy_cache_path {cache}",
    }
    if page_rate is not None:
        # Pages and session-building requests alike (bench's class comes from one address);
        # the login zone keeps its own limit.
        for zone in ("lab_pages", "lab_sockets", "lab_embeds"):
            replacements[rf"zone={zone}:(\S+) rate=\S+;"] = f"zone={zone}:\\1 rate={page_rate};"
    for pattern, new in replacements.items():
        text, found = re.subn(pattern, new, text)
        assert found == 1, f"deploy/nginx.conf: expected one match of {pattern!r}"
    return text


def main_config(site: Path, workdir: Path) -> str:
    """A whole nginx.conf around ``site`` that writes only under ``workdir``."""
    user = "user root;\n" if os.geteuid() == 0 else ""  # workers may write in a private tmp dir
    temps = "".join(
        f"    {kind}_temp_path {workdir / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}daemon off;\nworker_processes 1;\npid {workdir / 'nginx.pid'};\n"
        f"error_log {workdir / 'error.log'} warn;\n"
        "events { worker_connections 4096; }\n"
        "http {\n"
        f"    log_format lab '{LOG_FORMAT}';\n"
        f"    access_log {workdir / 'access.log'} lab;\n"
        f"{temps}"
        f"    include {site};\n"
        "}\n"
    )


@contextlib.contextmanager
def nginx(backends: list[int], workdir: Path, port: int, page_rate: str | None = None):
    """Run nginx with deploy/nginx.conf on ``port``, in front of lab processes on ``backends``.

    Yields nginx's URL. The lab processes must allow websockets from 127.0.0.1:``port``.
    """
    if not Path(NGINX).exists():
        raise RuntimeError(f"nginx not found at {NGINX}; `make test` installs it")
    workdir.mkdir(parents=True, exist_ok=True)
    site = workdir / "site.conf"
    site.write_text(site_config(port, backends, workdir / "cache", page_rate))
    conf = workdir / "nginx.conf"
    conf.write_text(main_config(site, workdir))
    process = subprocess.Popen(
        [NGINX, "-c", str(conf), "-p", str(workdir), "-e", str(workdir / "error.log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for_port(port, process, timeout=20)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def access_log(workdir: Path) -> list[list[str]]:
    """The access log's lines, split into LOG_FORMAT's fields."""
    path = workdir / "access.log"
    return [line.split() for line in path.read_text().splitlines()] if path.exists() else []


@contextlib.contextmanager
def lab_processes(
    count: int, logdir: Path, *extra: str, workers: int = 1, env=None, module="labs.server.serve"
):
    """``count`` lab servers on free ports, each logging to ``logdir``/lab-<port>.log.

    ``module`` is what each runs with ``python -m`` (a bench's stand-in for the lab).

    Yields (ports, processes). A server with several workers is a process group: stopping
    its parent stops its workers (labs/server/workers.py).
    """
    logdir.mkdir(parents=True, exist_ok=True)
    ports = [free_port() for _ in range(count)]
    processes = []
    try:
        for port in ports:
            command = [sys.executable, "-m", module, "--port", str(port)]
            if module == "labs.server.serve":  # one address opens every page: the minute alone
                command += ["--session-build-share", "0"]
            command += ["--workers", str(workers), *extra]
            with (logdir / f"lab-{port}.log").open("w") as log:
                processes.append(
                    subprocess.Popen(
                        command,
                        cwd=ROOT,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        env={**os.environ, **(env or {})},
                    )
                )
        for port, process in zip(ports, processes, strict=True):
            wait_for_port(port, process)
        time.sleep(0.3)
        yield ports, processes
    finally:
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
