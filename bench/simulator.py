"""Time the step simulator: 10,000 requests per policy, layout and serving mode, UI-sized
runs, and the batching lab's worst knob change.

Prints figures; asserts nothing (speed is measured here, never in a timed test).
Target from the batching issue (and issue 14 for the serving modes): simulating 10,000 requests
takes under 1 s. Issue 28: no knob change of the batching lab holds its session more than 1 s.
Issue 24: a replay of the conversation trace's hour under 0.5 s, of 100,000 requests under 2 s
(``--replays`` times only these).
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would come first on sys.path and this module would
    # shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import Scenario
from core.simulator import draw_requests, simulate
from core.simulator.batching import CHANGE_WORK, work
from core.simulator.steps import step_costs


def timed(function, repeats: int) -> tuple[float, float, object]:
    """Median wall seconds and best CPU seconds over ``repeats`` calls, and the last result.

    CPU time is this process's alone, so it holds still when other work shares the cores.
    """
    samples, cpu, result = [], [], None
    for _ in range(repeats):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = function()
        samples.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
    return statistics.median(samples), min(cpu), result


def report(title: str, scenario: Scenario, repeats: int, batch: int, **stream) -> None:
    costs = step_costs(scenario)
    workload = draw_requests(**stream)
    print(title)
    for policy in ("static", "continuous"):
        for layout in ("reserved", "paged"):
            median, best, r = timed(
                lambda policy=policy, layout=layout: simulate(
                    scenario,
                    policy,
                    layout,
                    workload=workload,
                    costs=costs,
                    batch_size=batch,
                ),
                repeats,
            )
            print(
                f"  {policy:>10} + {layout:<8}  median {median * 1e3:7.1f} ms   best cpu "
                f"{best * 1e3:7.1f} ms   {r.output_tokens_per_s:8,.0f} tok/s   "
                f"{r.steps:9,} steps   {r.preemptions:5,} preemptions"
            )


def report_modes(title: str, scenario: Scenario, repeats: int, batch: int, **stream) -> None:
    """Time the three serving modes on the same stream and the same two nodes."""
    costs = step_costs(scenario)
    workload = draw_requests(**stream)
    print(title)
    modes = {
        "aggregated x2": {"mode": "aggregated", "replicas": 2},
        "chunked x2": {"mode": "chunked", "replicas": 2},
        "disaggregated 1:1": {"mode": "disaggregated"},
        "disagg. 1:1 over IB": {"mode": "disaggregated", "link": "infiniband"},
    }
    for name, knobs in modes.items():
        median, best, r = timed(
            lambda knobs=knobs: simulate(
                scenario,
                "continuous",
                "paged",
                workload=workload,
                costs=costs,
                batch_size=batch,
                **knobs,
            ),
            repeats,
        )
        print(
            f"  {name:>20}  median {median * 1e3:7.1f} ms   best cpu {best * 1e3:7.1f} ms   "
            f"TTFT p99 {r.ttft_p99_s * 1e3:6.0f} ms   ITL p50/p99 {r.itl_p50_s * 1e3:5.1f}/"
            f"{r.itl_p99_s * 1e3:5.1f} ms   {r.steps:9,} steps"
        )


def lab_change(start: dict, change: dict, repeats: int) -> tuple[float, float, int]:
    """Median wall and best CPU seconds of one batching-lab change from ``start``, and its work.

    Each repeat builds a fresh lab (untimed), so the change always misses the session's cache.
    """
    from labs.batching.lab import BatchingLab

    walls, cpus, done = [], [], 0
    for _ in range(repeats):
        lab = BatchingLab()
        lab.param.update(**start)
        start_wall, start_cpu = time.perf_counter(), time.process_time()
        lab.param.update(**change)
        walls.append(time.perf_counter() - start_wall)
        cpus.append(time.process_time() - start_cpu)
        sweep = [run for runs in lab.engine.sweep.values() for run in runs]
        done = work(lab.engine.runs.values()) + work(sweep)
    return statistics.median(walls), min(cpus), done


def report_lab_changes(repeats: int = 3) -> None:
    """The batching lab's heaviest knob changes, timed the way the server runs them."""
    busy = {"requests": 1000, "arrival_rate": 50.0, "batch_size": 256}
    longest = {**busy, "answer_mean": 2048, "answer_cap": 16384, "prompt_tokens": 8192}
    changes = {
        "1,000 requests at 50/s, B 256 -> 1": (busy, {"batch_size": 1}),
        "same, answers of 2,048 (cap 16,384), B 256 -> 1": (longest, {"batch_size": 1}),
        "worst change: at B = 1, the mean answer 2,048 -> 2,047": (
            {**longest, "batch_size": 1},
            {"answer_mean": 2047},
        ),
    }
    print(f"the batching lab's heaviest knob changes (work budget {CHANGE_WORK:,} per change)")
    for name, (start, change) in changes.items():
        median, best, done = lab_change(start, change, repeats)
        print(
            f"  {name:>55}  median {median * 1e3:7.1f} ms   best cpu {best * 1e3:7.1f} ms   "
            f"work {done:10,}"
        )


def report_replays(repeats: int = 3) -> None:
    """Issue 24's targets: the conversation trace on one 8B node, and 100,000 requests.

    ``replay`` is the path :func:`core.traffic.replay.replay` runs (each request's
    first and last token); ``simulate`` also builds every token's time, as the batching lab's
    runs do.
    """
    from core.catalog.traces import load_trace
    from core.simulator import Requests
    from core.traffic.replay import serve_hour

    trace = load_trace("azure-conversation")
    answers = trace.answer_tokens
    hour = Requests(trace.arrival_s, trace.prompt_tokens, answers, answers)
    costs = step_costs(Scenario())
    runs = {
        f"azure-conversation, {len(hour):,} requests, one node (target 0.5 s)": hour,
        "100,000 Poisson requests at 30/s, one node (target 2 s)": draw_requests(
            100_000, 0, rate_per_s=30.0, prompt_tokens=1024, answer_mean=128
        ),
    }
    paths = {
        "replay": lambda w: serve_hour(Scenario(), w, 1, "round-robin", 0.0),
        "simulate": lambda w: simulate(Scenario(), "continuous", "paged", workload=w, costs=costs),
    }
    print("replays through the step simulator, continuous + paged, 8B class on an H100, B = 16")
    for name, workload in runs.items():
        for path, function in paths.items():
            median, best, _ = timed(lambda w=workload, f=function: f(w), repeats)
            print(f"  {name:>66}  {path:>8}  median {median:6.2f} s   best cpu {best:6.2f} s")


def main() -> None:
    if "--replays" in sys.argv:
        report_replays()
        return
    simulate(Scenario(), requests=50)  # warm imports
    chat = {
        "count": 10_000,
        "seed": 0,
        "arrival": "poisson",
        "rate_per_s": 10.0,
        "prompt_tokens": 512,
        "answer_mean": 128,
    }
    report(
        "10,000 chat requests, 8B class on an H100, Poisson at 10/s, B = 32",
        Scenario(),
        5,
        batch=32,
        **chat,
    )
    report(
        "10,000 requests, same stream, B = 1 (one step per token: the longest run)",
        Scenario(),
        3,
        batch=1,
        **chat,
    )
    published = {
        "count": 10_000,
        "seed": 0,
        "arrival": "offline",
        "prompt_tokens": 512,
        "answer_mean": 128,
        "answer_cap": 1536,
    }
    report(
        "10,000 offline requests, Llama-2-13B on an L40S, B = 256 (the published setup)",
        Scenario(model="Llama-2-13B", gpu="L40S"),
        3,
        batch=256,
        **published,
    )
    mixed = {**chat, "rate_per_s": 6.0, "long_every": 50, "long_prompt_tokens": 16_384}
    report_modes(
        "10,000 mixed requests (one prompt in 50 of 16k tokens), 6/s, two H100s, B = 32",
        Scenario(),
        5,
        batch=32,
        **mixed,
    )
    ui = {**chat, "count": 200}
    report("the lab's timeline run: 200 requests, B = 32", Scenario(), 15, batch=32, **ui)
    report_lab_changes()
    report_replays()


if __name__ == "__main__":
    main()
