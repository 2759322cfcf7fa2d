"""The server's CPU per knob change, one session at a time, measured inside the server process.

On a shared machine a class bench loads every core; this one serves the lab in this process
(``labs.server.serve``, with every server setting a class gets) and drives one student over
Bokeh's websocket protocol from a process of its own (bench/protocol_client.py). The server's
thread is timed with ``time.thread_time``, so the client's work is not counted: the figure is
the whole change path of one session (message in, Panel's processing, the lab's recomputation,
both update stages, the patches serialised and written), plus the event loop's idle turns.

Usage: ``python bench/change_cpu.py [--path /pool] [--changes 100] [--runs 5] [--sweep]
[--pause 120] [--idle-sessions 0] [--profile [--profile-cpu] [--top 20] [--save-profile F]]``

Each run moves the probed slider ``--changes`` times, ``--pause`` ms apart (long enough for
the second stage, ``labs/page/updates.py``, to finish), up ten steps then down ten, as
bench/classroom.py's students do; ``--sweep`` moves it up one step every change instead, so
that no scenario comes back. The best run is the figure (the machine is shared). ``--profile``
prints a cProfile top 20 of the server thread over one more run, by wall time (the student
runs elsewhere, so waits are the loop's own) or with ``--profile-cpu`` by CPU time (slower).
``--idle-sessions`` opens that many other sessions first: a bigger heap makes each change's
garbage collections dearer. ``--minimal`` serves, at the same route and with the same server
settings, an app of one slider and one HTML pane instead of the lab: the floor of this stack.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import cProfile
import io
import pstats
import socket
import statistics
import subprocess
import sys
import threading
import time
from concurrent.futures import Future
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.browser import PROBED_SLIDER, free_port
from bench.protocol_client import Student


class CountingStudent(Student):
    """A protocol student that also counts the bytes of the updates it receives."""

    received_bytes = 0

    async def _read(self) -> None:
        read = self.socket.read_message

        async def counted():
            frame = await read()
            if frame is not None:
                self.received_bytes += len(frame)
            return frame

        self.socket.read_message = counted
        await super()._read()


def wait_for_port(port: int, timeout_s: float = 120) -> None:
    """Return once something listens on ``port`` (the server has started)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.2)
    raise RuntimeError(f"the lab server did not open port {port}")


class ServerThread:
    """Runs callables on the server's event loop (the main thread) and waits for their results."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self.loop = loop

    def call(self, function):
        done: Future = Future()

        def run() -> None:
            try:
                done.set_result(function())
            except BaseException as error:  # handed to the caller's thread
                done.set_exception(error)

        self.loop.call_soon_threadsafe(run)
        return done.result(timeout=60)


class Meter:
    """The server thread's CPU clock and profiler, read and switched from the control thread."""

    def __init__(self, server: ServerThread, cpu_clock: bool = False):
        self.server = server
        self.cpu_clock = cpu_clock  # profile by CPU time (slower, but no waits counted)
        self.profile: cProfile.Profile | None = None
        self.started = 0.0

    def start(self, profile: bool) -> str:
        clock = time.thread_time if self.cpu_clock else time.perf_counter
        self.profile = cProfile.Profile(clock) if profile else None
        if self.profile is not None:
            self.server.call(self.profile.enable)
        self.started = self.server.call(time.thread_time)
        return "started"

    def stop(self) -> str:
        cpu = self.server.call(time.thread_time) - self.started
        if self.profile is not None:
            self.server.call(self.profile.disable)
        return f"{cpu:.6f}"


def control(args, base: str, meter: Meter) -> None:
    """Run the student in a process of its own and answer its requests for the server's clock.

    In a thread of this process the student would compete for the interpreter's lock, and a
    profile of the server (timed by the wall clock) would count its waits.
    """
    command = [sys.executable, __file__, "--student", base, *sys.argv[1:]]
    student = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    for line in student.stdout:
        request = line.strip()
        if request in ("start", "profile"):
            answer = meter.start(request == "profile")
        elif request == "stop":
            answer = meter.stop()
        else:
            print(line, end="", file=sys.__stdout__, flush=True)
            continue
        student.stdin.write(answer + "\n")
        student.stdin.flush()
    student.wait()
    if meter.profile is not None and args.save_profile:
        meter.profile.dump_stats(args.save_profile)
    if meter.profile is not None:
        for order in ("tottime", "cumulative"):
            out = io.StringIO()
            pstats.Stats(meter.profile, stream=out).sort_stats(order).print_stats(args.top)
            print(
                f"--- server thread, top {args.top} by {order} over {args.changes} changes",
                out.getvalue().split("\n\n", 1)[-1].strip(),
                sep="\n",
                file=sys.__stdout__,
            )


def ask(request: str) -> str:
    """Ask the server process's control thread (our stdin and stdout are its pipes)."""
    print(request, flush=True)
    return sys.stdin.readline().strip()


async def drive(args, base: str) -> None:
    """The student's side: open the lab, warm up, then time runs of changes on the server's clock."""
    title, step = PROBED_SLIDER[args.path]
    path = args.path
    for index in range(args.idle_sessions):
        idle = Student(base, path, cookie=f"lab_backend=idle{index}")
        await idle.open(title)
    student = CountingStudent(base, path, cookie="lab_backend=bench")
    await student.open(title)
    await student.run((title, step), 20, args.pause, 5000)  # warm-up

    async def one_run(request: str = "start") -> tuple[float, float, int, int]:
        student.patches, student.received_bytes = 0, 0
        ask(request)
        start = time.perf_counter()
        if args.sweep:  # every change a scenario the session has not shown
            samples = []
            for _ in range(args.changes):
                samples.append(await student.change(step, 5.0))
                await asyncio.sleep(args.pause / 1000)
        else:
            samples = await student.run((title, step), args.changes, args.pause, 5000)
        await asyncio.sleep(0.3)  # the last change's second stage
        cpu, wall = float(ask("stop")), time.perf_counter() - start
        lost = sum(sample is None for sample in samples)
        return cpu, wall, lost, student.patches

    # The idle loop's own cost (keep-alive pings, session sweeps), over a run's length.
    ask("start")
    await asyncio.sleep(args.changes * args.pause / 1000)
    idle_ms = float(ask("stop")) * 1000 / args.changes
    per_change = []
    for run in range(args.runs):
        cpu, wall, lost, patches = await one_run()
        bytes_per = student.received_bytes / args.changes
        per_change.append(cpu * 1000 / args.changes)
        print(
            f"run {run + 1}: {per_change[-1]:.2f} ms server CPU per change "
            f"({patches / args.changes:.1f} messages, {bytes_per / 1000:.1f} kB each change; "
            f"{lost} lost; {wall:.1f} s)",
            flush=True,
        )
    print(
        f"{path}: best {min(per_change):.2f} ms, median {statistics.median(per_change):.2f} ms "
        f"server CPU per change over {args.runs} runs of {args.changes} "
        f"(the idle loop's share, included: {idle_ms:.2f} ms)",
        flush=True,
    )
    if args.profile:
        await one_run("profile")
    student.close()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", default="/pool", choices=sorted(PROBED_SLIDER))
    parser.add_argument("--changes", type=int, default=100)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--pause", type=int, default=120, help="ms between changes")
    parser.add_argument("--idle-sessions", type=int, default=0)
    parser.add_argument(
        "--sweep", action="store_true", help="move one way only: no scenario seen twice"
    )
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--top", type=int, default=20)
    parser.add_argument("--profile-cpu", action="store_true", help="profile by CPU time, not wall")
    parser.add_argument("--save-profile", help="also write the profile here (for pstats)")
    parser.add_argument("--minimal", action="store_true", help="a one-slider app, not the lab")
    parser.add_argument("--student", help=argparse.SUPPRESS)  # the student process: its server
    args = parser.parse_args()
    seats = PROBED_SLIDER[args.path][0] == PROBED_SLIDER["/pool"][0]
    if args.sweep and seats and (args.runs + bool(args.profile)) * args.changes > 220:
        parser.error("--sweep moves the seats slider up from 27 to at most 256: fewer changes")
    if args.student:
        asyncio.run(drive(args, args.student))
        return

    from labs.server import allocator, serve

    allocator.relaunch_on_system_malloc()  # the allocator a served class gets (PYTHONMALLOC)
    if args.minimal:
        from bench.minimal_server import serve_minimal_pages

        serve_minimal_pages()
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)  # the server's IOLoop runs on this loop, in this thread
    port = free_port()
    failure: list[BaseException] = []

    def controller() -> None:
        try:
            wait_for_port(port)
            control(args, f"http://127.0.0.1:{port}", Meter(ServerThread(loop), args.profile_cpu))
        except BaseException as error:
            failure.append(error)
        finally:
            loop.call_soon_threadsafe(loop.stop)

    threading.Thread(target=controller, daemon=True).start()
    with contextlib.redirect_stdout(io.StringIO()):  # the server's banner (we print to __stdout__)
        serve.main(["--port", str(port), "--session-builds-per-client", "1000",
                    "--session-build-share", "0"])  # fmt: skip
    if failure:
        raise failure[0]


if __name__ == "__main__":
    main()
