"""The bound on a replay's work: counted in runs, steps and scans, reckoned ahead and while it runs."""

from __future__ import annotations

import time

import numpy as np
import pytest

from core import Scenario, evaluate
from core.traffic import replay_budget
from core.traffic.replay import hour_requests, replay, serve_hour
from core.traffic.replay_budget import MAX_REPLAY_WORK, ReplayTooLong, WorkMeter, estimate
from tests.core.traffic.test_replay_pinned import HOURS

# One node whose memory seats ~144 of its 4,096 seats, under bursts of 2,000-token answers:
# the waiting line is scanned at every boundary (this hour took 11 s before the bound).
STORM = dict(answer_tokens=2000, seats=4096, replicas=1, arrivals_per_min=600.0,
             traffic="bursty", burstiness=10.0)  # fmt: skip


def _measured(knobs: dict, limit: float = float("inf")) -> tuple:
    """(the estimate, the work counted while serving) of ``knobs``'s hour."""
    scenario = Scenario(**knobs)
    sized = evaluate(scenario)
    workload = hour_requests(knobs | scenario.knobs(), sized.arrivals_per_min,
                             sized.seat_tokens - sized.answer_tokens, sized.answer_tokens)  # fmt: skip
    meter = WorkMeter(int(sized.seats_granted), limit)
    expected = []
    meter.expect = lambda *args, _expect=meter.expect: expected.append(_expect(*args)) or None
    serve_hour(scenario, workload, int(sized.nodes), scenario.router, sized.request_s, sized,
               meter)  # fmt: skip
    return expected[0], meter.work()


def test_a_slow_hour_is_refused_at_once_with_the_knobs_to_turn():
    """The preemption-storm hour comes back refused in well under a second, naming seats and traffic."""
    scenario = Scenario(**STORM)
    result = evaluate(scenario)
    started = time.perf_counter()
    hour = replay(scenario, result)
    assert time.perf_counter() - started < 1.0
    assert hour.refused.startswith("the hour is too much work to replay")
    assert "(seats)" in hour.refused and "arrivals_per_min" in hour.refused
    assert hour.requests == 0 and hour.first_failing_minute == -1


@pytest.mark.parametrize("name", sorted(HOURS))
def test_the_pinned_hours_are_within_the_bound_and_their_reckoning_covers_them(name):
    """Each pinned hour replays; its reckoned work is at least what serving it counted."""
    assert not replay(Scenario(**HOURS[name])).refused
    expected, counted = _measured(HOURS[name])
    assert expected.total <= MAX_REPLAY_WORK
    assert expected.runs >= counted.runs and expected.steps >= counted.steps
    assert expected.total >= counted.total


def test_the_meter_stops_a_run_past_its_bound_within_a_slice(monkeypatch):
    """Past its bound the meter raises mid-run, long before the hour's whole work is done."""
    monkeypatch.setattr(WorkMeter, "expect", lambda self, *args: None)  # the reckoning let it in
    _, whole = _measured({"traffic": "azure-conversation"})
    limit = whole.total / 4
    with pytest.raises(ReplayTooLong, match="stopped after") as refused:
        _measured({"traffic": "azure-conversation"}, limit)
    stopped = refused.value.work
    assert limit < stopped.total < whole.total / 2 and stopped.runs < whole.runs / 2


def test_the_bound_is_the_replays_refusal_not_an_exception(monkeypatch):
    """An hour the meter stops mid-run is a refused Replay whose reason names the knobs."""
    monkeypatch.setattr(replay_budget, "MAX_REPLAY_WORK", 1_000)
    monkeypatch.setattr(WorkMeter, "expect", lambda self, *args: None)
    monkeypatch.setattr(WorkMeter.__init__, "__defaults__", (1_000,))
    hour = replay(Scenario(traffic="azure-conversation", tpot_slo_s=0.2))
    assert hour.refused.startswith("the hour is too much work to replay (stopped after")
    assert "arrivals_per_min" in hour.refused or "answer_tokens" in hour.refused


def test_steps_are_reckoned_from_answers_until_the_hour_is_full_of_steps():
    """A node's steps grow with its answer tokens, up to the steps its span holds at the quickest step."""
    requests = np.array([100.0, 100.0])
    short, long_ = (estimate(requests * tokens, requests, 0.01, tokens, 16, 16, 1.0)
                    for tokens in (10.0, 1_000_000.0))  # fmt: skip
    assert short.steps == 2 * 100 * 10
    assert long_.steps < 2 * 100 * 1_000_000
    assert long_.steps == pytest.approx(2 * (3600 + 1_000_000 * 0.01) / 0.01)
    assert short.scans == long_.scans == 0  # the memory seats every seat: no line is scanned
