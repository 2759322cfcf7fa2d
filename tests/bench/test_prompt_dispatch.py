"""Tests for bench/prompt_dispatch.py: two readings of vLLM's prompt dispatch, explored."""

import pytest

from bench.prompt_dispatch import figures, moved
from core.evidence.fidelity import scored_afresh


@pytest.fixture(scope="module")
def found():
    """The figures as the engine level is and under each reading, priced once."""
    return figures()


def test_the_readings_leave_the_engine_level_as_it_was(found):
    """After both readings, the cases are priced as before them."""
    cases, both, _ = scored_afresh()
    after = {case.key: float(r) for case, r in zip(cases, both.ratios, strict=True)}
    assert after == found["as it is"]["ratios"]


def test_a_dispatch_shared_per_step_speeds_a_burst_of_short_prompts(found):
    """A burst of 128-token prompts on an A100 (D396) shares each dispatch among more prompts,
    so it reads faster; a lone request at a time (D298) has no one to share with."""
    now, per_step = found["as it is"]["ratios"], found["per step"]["ratios"]
    assert per_step["D396"] > 1.2 * now["D396"]
    assert per_step["D298"] == pytest.approx(now["D298"], rel=1e-9)


def test_a_step_inside_a_captured_graph_pays_no_dispatch_under_v1_only(found):
    """vLLM 0.11's time between tokens at 8 users of 233-token prompts (D102) sheds the others'
    dispatches; vLLM 0.6, V0, runs a prompt's step eagerly and keeps them (D298)."""
    now, graphed = found["as it is"]["ratios"], found["outside graphs"]["ratios"]
    assert graphed["D102"] < 0.95 * now["D102"]
    assert graphed["D298"] == pytest.approx(now["D298"], rel=1e-9)


def test_moved_lists_the_largest_moves_first():
    """Only moves past the threshold are listed, the largest in the logarithm first."""
    before = {"a": 1.0, "b": 1.0, "c": 1.0}
    after = {"a": 1.5, "b": 1.001, "c": 0.5}
    assert moved(before, after) == [("c", 1.0, 0.5), ("a", 1.0, 1.5)]
