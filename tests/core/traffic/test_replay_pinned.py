"""Replays and engine runs pinned to the figures they gave before the engine was made faster.

The fixture ``tests/fixtures/replay/pinned.json`` holds what :func:`pinned_figures` returned
on the engine before issue 24's speed work; speeding the engine up must leave every one of
them where it was. Regenerate it (only for a deliberate change of the model) with
``python -m tests.core.traffic.test_replay_pinned``.
"""

from __future__ import annotations

import dataclasses
import json
import sys

import numpy as np
import pytest

from core import Scenario
from core.catalog.traces import load_trace
from core.simulator import Requests, simulate
from core.simulator.steps import step_costs
from core.traffic.goodput import measured_goodput
from core.traffic.replay import replay
from tests.paths import FIXTURES_DIR

FIXTURE = FIXTURES_DIR / "replay" / "pinned.json"

# Hours replayed whole: the code hour sized for its mean, routed on two replicas, and the
# conversation hour at its own rate.
HOURS = {
    "code at its mean": {"traffic": "azure-code", "arrivals_per_min": 154.0},
    "code, prefix-affinity x2": {
        "traffic": "azure-code",
        "replicas": 2,
        "router": "prefix-affinity",
    },
    "code, least-outstanding x3": {
        "traffic": "azure-code",
        "replicas": 3,
        "router": "least-outstanding",
    },
    "conversation": {"traffic": "azure-conversation"},
}
HOUR_FIELDS = ("per_minute", "minute_ttft_p95_s", "minute_fails", "first_failing_minute",
               "peak_minute_index", "ttft_p95_s", "goodput", "nodes", "requests")  # fmt: skip

# Engine runs on the conversation hour's first requests, on a node whose KV room is cut to
# 12,000 tokens so that paged memory runs out and preempts.
SLICE = 500
ROOM_TOKENS = 12_000
RUNS = {
    "continuous paged": {"policy": "continuous", "kv_layout": "paged"},
    "continuous reserved": {"policy": "continuous", "kv_layout": "reserved"},
    "static reserved": {"policy": "static", "kv_layout": "reserved"},
    "chunked paged": {"policy": "continuous", "kv_layout": "paged", "mode": "chunked"},
    "aggregated paged x2": {"policy": "continuous", "kv_layout": "paged", "replicas": 2},
}
RUN_ARRAYS = ("ttft_s", "finish_s")
RUN_FIGURES = ("steps", "output_tokens_per_s", "makespan_s", "ttft_p50_s", "ttft_p95_s",
               "ttft_p99_s", "itl_p50_s", "itl_p95_s", "itl_p99_s", "kv_used_bytes",
               "kv_allocated_bytes", "kv_waste", "peak_seats", "mean_seats", "preemptions",
               "waves", "idle_seat_s", "memory_stalls")  # fmt: skip


def _slice() -> Requests:
    trace = load_trace("azure-conversation")
    answers = trace.answer_tokens[:SLICE]
    return Requests(trace.arrival_s[:SLICE], trace.prompt_tokens[:SLICE], answers, answers)


def _plain(value):
    if isinstance(value, np.ndarray):
        return value.tolist()
    return value.item() if isinstance(value, np.generic) else value


def pinned_figures() -> dict:
    """Every pinned figure: each hour's replay fields, each run's arrays and aggregates."""
    hours = {
        name: {field: _plain(getattr(replay(Scenario(**knobs)), field)) for field in HOUR_FIELDS}
        for name, knobs in HOURS.items()
    }
    costs = step_costs(Scenario())
    tight = dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * ROOM_TOKENS)
    workload = _slice()
    runs = {}
    for name, knobs in RUNS.items():
        run = simulate(Scenario(), workload=workload, costs=tight, batch_size=16, **knobs)
        figures = {key: _plain(getattr(run, key)) for key in RUN_ARRAYS + RUN_FIGURES}
        figures["goodput"] = measured_goodput(run, 0.05)
        figures["token_s_sum"] = float(run.token_s.sum())
        figures["admit_s_sum"] = float(run.admit_s.sum())
        figures["queue_length_sum"] = int(run.queue_length.sum())
        figures["segments_end_s_sum"] = float(run.segments["end_s"].sum())
        runs[name] = figures
    return {"hours": hours, "runs": runs}


@pytest.fixture(scope="module")
def figures():
    return pinned_figures()


@pytest.fixture(scope="module")
def pinned():
    return json.loads(FIXTURE.read_text())


def _same(actual, expected, where: str) -> None:
    floats = isinstance(expected, list) and expected and isinstance(expected[0], float)
    if isinstance(expected, float) or floats:
        np.testing.assert_allclose(actual, expected, rtol=1e-12, atol=0, err_msg=where)
    else:
        assert actual == expected, where


@pytest.mark.parametrize("name", list(HOURS))
def test_a_replayed_hour_keeps_its_pinned_figures(figures, pinned, name):
    """Each replayed hour's per-minute tails, failing minutes, p95 and goodput are as pinned."""
    for field in HOUR_FIELDS:
        _same(figures["hours"][name][field], pinned["hours"][name][field], f"{name}: {field}")


@pytest.mark.parametrize("name", list(RUNS))
def test_an_engine_run_keeps_its_pinned_figures(figures, pinned, name):
    """Each engine run's per-request times and every aggregate it reports are as pinned."""
    assert pinned["runs"][name]["preemptions"] > 0 or "reserved" in name
    for field, expected in pinned["runs"][name].items():
        _same(figures["runs"][name][field], expected, f"{name}: {field}")


if __name__ == "__main__":
    FIXTURE.parent.mkdir(parents=True, exist_ok=True)
    FIXTURE.write_text(json.dumps(pinned_figures()))
    sys.stdout.write(f"wrote {FIXTURE}\n")
