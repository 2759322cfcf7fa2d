"""The replayed hour's path hands its result down: it evaluates its scenario at most twice (the
hour and the peak sizing) and parses a pasted config.json once."""

from __future__ import annotations

import importlib
import json

import numpy as np

import core.catalog.custom as custom
import core.traffic.rent_or_autoscale as rent_or_autoscale
import core.traffic.replay as replay_module
from core import Scenario, evaluate
from core.foundation.caching import Unkeyed
from core.traffic.rent_or_autoscale import compare_policies
from core.traffic.replay import replay
from labs.pool.hour import HourView
from tests.paths import FIXTURES_DIR

CONFIGS = FIXTURES_DIR / "configs"
# The hour's path: the result on screen, and the rent-or-autoscale table's peak sizing.
MOST_EVALUATIONS = 2


def _counted(monkeypatch, module: str, name: str) -> list:
    """Every call of ``module.name`` from now on (each still runs)."""
    target = importlib.import_module(module)
    calls, real = [], getattr(target, name)
    monkeypatch.setattr(target, name, lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_the_hours_path_evaluates_its_scenario_at_most_twice(monkeypatch):
    """Result, replay, its step costs and the policies' table: at most two evaluations in all."""
    evaluations = _counted(monkeypatch, "core.evaluate", "_evaluate")
    # A rate no other test replays, so neither per-process cache already holds the answer.
    scenario = Scenario(traffic="azure-code", arrivals_per_min=153.25)
    result = evaluate(scenario)
    view = HourView()
    view.update(scenario, result)  # no browser session: the hour is replayed at once
    assert view.hour is not None and not view.hour.refused and view.hour.requests > 0
    assert 0 < len(evaluations) <= MOST_EVALUATIONS


def test_the_rule_counts_what_an_unhanded_path_evaluates(monkeypatch):
    """Without the result handed down, the replay and the table evaluate again (the test can fail)."""
    evaluations = _counted(monkeypatch, "core.evaluate", "_evaluate")
    scenario = Scenario(traffic="azure-code", arrivals_per_min=153.75)
    evaluate(scenario)
    replay(scenario)
    compare_policies(scenario)
    assert len(evaluations) > MOST_EVALUATIONS


def test_a_handed_result_gives_the_same_hour_and_table():
    """Handing the result down changes no figure of the replay or of the policies' table."""
    scenario = Scenario(traffic="bursty", burstiness=2.5, arrivals_per_min=97.0)
    result = evaluate(scenario)
    hour, policies = replay(scenario, result), compare_policies(scenario, result)
    # The same knobs evaluated inside, past the per-process caches.
    items, unhanded = tuple(sorted(scenario.knobs().items())), Unkeyed()
    again = replay_module._replay.__wrapped__(items, unhanded)
    assert (again.ttft_p95_s, again.goodput) == (hour.ttft_p95_s, hour.goodput)
    assert np.array_equal(again.minute_ttft_p95_s, hour.minute_ttft_p95_s)
    table = rent_or_autoscale._compare.__wrapped__(items, unhanded)
    assert [(p.goodput, p.usd, p.wait_p95_s) for p in table] == [
        (p.goodput, p.usd, p.wait_p95_s) for p in policies
    ]


def test_a_pasted_config_is_parsed_once_along_the_hours_path(monkeypatch):
    """Scenario, evaluation, replay, step costs and the table read one parse of the pasted text."""
    parses = _counted(monkeypatch, "core.catalog.custom", "parse_config")
    config = json.loads((CONFIGS / "llama-3.1-8b.json").read_text())
    config["_name_or_path"] = "only-this-test/llama-3.1-8b"  # a text no other test has parsed
    text = json.dumps(config)
    scenario = Scenario(model="custom", model_config=text, traffic="azure-conversation")
    result = evaluate(scenario)
    HourView().update(scenario, result)
    assert len(parses) == 1
    assert custom.parsed_config(text) is custom.parsed_config(text)
