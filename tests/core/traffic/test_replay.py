"""The hour replayed through the step engine: per-minute tails, the first failing minute, goodput."""

from __future__ import annotations

from core import Scenario, evaluate
from core.catalog.traces import load_trace
from core.traffic.replay import replay


def test_the_code_hour_replays_its_own_requests_and_fails_where_the_closed_form_passes():
    """azure-code sized for the mean passes the closed form, and its replay fails minutes, from cache."""
    scenario = Scenario(traffic="azure-code", arrivals_per_min=154.0)
    trace = load_trace("azure-code")
    assert evaluate(scenario).latency_ok
    hour = replay(scenario)
    assert hour.requests == trace.requests
    assert hour.per_minute.sum() == trace.requests
    assert hour.peak_minute_index == trace.peak_minute_index
    assert hour.per_minute[hour.peak_minute_index] == trace.peak_minute
    assert 0 <= hour.first_failing_minute <= hour.peak_minute_index + 1
    assert hour.ttft_p95_s > 1.2 and 0.0 < hour.goodput < 1.0
    assert replay(Scenario(traffic="azure-code", arrivals_per_min=154.0)) is hour


def test_an_hour_too_big_to_replay_is_refused_with_its_reason():
    """A rate whose hour holds more requests than a replay serves comes back refused, never raised."""
    hour = replay(Scenario(arrivals_per_min=50_000.0, tier="small"))
    assert hour.refused and hour.requests == 0 and hour.first_failing_minute == -1


def test_the_replay_sends_each_request_where_the_router_does():
    """On two replicas the routers replay the same hour to different first-token tails."""
    hours = {
        router: replay(Scenario(traffic="azure-code", replicas=2, router=router))
        for router in ("round-robin", "prefix-affinity")
    }
    assert all(hour.requests == 8_819 and hour.nodes == 2 for hour in hours.values())
    assert hours["round-robin"].ttft_p95_s != hours["prefix-affinity"].ttft_p95_s


def test_an_engine_runs_goodput_falls_as_the_time_per_token_target_tightens():
    """Goodput of a simulated run lies in [0, 1] and never rises when the TPOT target tightens."""
    from core.simulator import simulate
    from core.traffic.goodput import measured_goodput

    run = simulate(Scenario(), "continuous", "paged", requests=200)
    loose, tight = measured_goodput(run, 1.0), measured_goodput(run, run.itl_p50_s / 2)
    assert 0.0 <= tight <= loose <= 1.0
    assert tight < loose


def test_the_latency_check_judges_the_replayed_hour_when_there_is_one():
    """The code hour sized for its mean: the closed form passes, the check on its replay fails."""
    from core.traffic.replay import latency_check

    scenario = Scenario(traffic="azure-code", arrivals_per_min=154.0)
    result, hour = evaluate(scenario), replay(scenario)
    closed, replayed = latency_check(result), latency_check(result, hour)
    assert (closed.ok, closed.judged, closed.ttft_p95_s) == (True, "closed form", result.ttft_p95_s)
    assert (replayed.ok, replayed.judged) == (False, "replayed hour")
    assert replayed.ttft_p95_s == hour.ttft_p95_s
    refused = replay(Scenario(arrivals_per_min=50_000.0, tier="small"))
    assert latency_check(result, refused) == closed
