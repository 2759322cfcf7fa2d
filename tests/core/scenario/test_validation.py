"""Bad input raises ValueError naming the knob, the value and the allowed range."""

import numpy as np
import pytest

from core import Scenario, evaluate


@pytest.mark.parametrize(
    ("knobs", "words"),
    [
        ({"prompt_tokens": -5}, ["prompt_tokens", "-5", "1 to 4,000,000"]),
        ({"answer_tokens": -1}, ["answer_tokens", "-1", "0 to 1,000,000"]),
        ({"prefix_hit_rate": 1.5}, ["prefix_hit_rate", "1.5", "0.0 to 1.0"]),
        ({"seats": 0}, ["seats", "0", "1 to 4,096"]),
        ({"seats": 2.5}, ["seats", "2.5", "whole number"]),
        ({"arrivals_per_min": 0}, ["arrivals_per_min", "0", "0.01 to 1,000,000"]),
        ({"tier": "huge"}, ["tier", "huge", "small", "large"]),
        ({"model": "GPT-9"}, ["model", "GPT-9", "Llama-3-8B"]),
        ({"gpu": "TPU"}, ["gpu", "TPU", "H100 SXM"]),
        ({"kv_dtype": "int4"}, ["kv_dtype", "int4", "fp8"]),
    ],
)
def test_scenario_rejects_bad_knob(knobs, words):
    """A Scenario refuses a bad knob with its name, its value and what is allowed."""
    with pytest.raises(ValueError) as error:
        Scenario(**knobs)
    for word in words:
        assert word in str(error.value)


@pytest.mark.parametrize(
    ("knobs", "words"),
    [
        ({"seats": np.array([16, 0])}, ["seats", "0", "1 to 4,096"]),
        ({"prefix_hit_rate": [0.2, 1.5]}, ["prefix_hit_rate", "1.5"]),
        ({"prompt_tokens": [100, np.nan]}, ["prompt_tokens", "nan"]),
        ({"tier": ["small", "huge"]}, ["tier", "huge", "small, large"]),
        ({"warp_factor": 9}, ["warp_factor", "a knob of Scenario"]),
        ({"prompt_tokens": "abc"}, ["prompt_tokens", "abc"]),
    ],
)
def test_evaluate_rejects_bad_override(knobs, words):
    """Array overrides are checked element by element with the same message."""
    with pytest.raises(ValueError) as error:
        evaluate(Scenario(), **knobs)
    for word in words:
        assert word in str(error.value)


def test_setting_a_bad_value_later_keeps_the_old_one():
    """A rejected assignment leaves the scenario as it was."""
    scenario = Scenario()
    with pytest.raises(ValueError):
        scenario.seats = -3
    assert scenario.seats == 16
    assert evaluate(scenario).seats_requested == 16


def test_a_scenario_says_whether_it_runs_a_benchmark_and_whether_the_run_ends():
    """Closed-loop users at the engine level run a benchmark; a run length ends it; the
    whiteboard, or open-loop arrivals, never do."""
    assert not Scenario().runs_a_benchmark()
    assert not Scenario(concurrency=64).runs_a_benchmark()  # whiteboard
    bench = Scenario(realism="engine", concurrency=64)
    assert bench.runs_a_benchmark() and not bench.ends_a_run()
    assert Scenario(realism="engine", concurrency=64, run_requests=1000).ends_a_run()
    assert not Scenario(realism="engine", run_requests=1000).ends_a_run()
