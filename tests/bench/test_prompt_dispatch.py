"""Tests for bench/prompt_dispatch.py: two readings of vLLM's prompt dispatch, explored."""

import pytest

from bench.prompt_dispatch import figures, moved, prompt_peak_shares
from bench.rounds import before_riding_prompts
from core.evidence.fidelity import scored_afresh


@pytest.fixture(scope="module")
def found():
    """The figures as the engine level is and under each reading, priced once."""
    return figures()


def test_the_readings_leave_the_engine_level_as_it_was(found):
    """After both readings, the cases are priced as before them (no later round's rule)."""
    with before_riding_prompts():
        cases, both, _ = scored_afresh()
    after = {case.key: float(r) for case, r in zip(cases, both.ratios, strict=True)}
    assert after == found["as it is"]["ratios"]


def test_a_dispatch_shared_per_step_speeds_a_burst_of_short_prompts(found):
    """A burst of 128-token prompts on an A100 (D396) shares each dispatch among more prompts,
    so it reads faster; a lone request at a time (D298) has no one to share with."""
    now, per_step = found["as it is"]["ratios"], found["per step"]["ratios"]
    assert per_step["D396"] > 1.2 * now["D396"]
    assert per_step["D298"] == pytest.approx(now["D298"], rel=1e-9)


def test_the_per_step_reading_apart_moves_only_engines_that_prefill_in_steps_of_their_own(found):
    """Read only where prompts prefill in a step of their own, vLLM V0's run of 256 prompts
    (D35) shares its dispatches more, while V1's burst (D396), which mixes prompts into its
    decode steps, is priced as before."""
    now, apart = found["as it is"]["ratios"], found["per step, prefill steps apart"]["ratios"]
    assert apart["D35"] > 1.1 * now["D35"]
    assert apart["D396"] == pytest.approx(now["D396"], rel=1e-9)


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


def test_the_bursts_peak_shares_are_shares_of_the_cards_peak():
    """Each one-card 128-token burst's prompt arithmetic is a share of its card's bf16 peak,
    between nothing and the whole; one per card and model."""
    shares = prompt_peak_shares()
    assert len(shares) == 8
    assert all(0.0 < share < 1.0 for _, share in shares.values())
    assert {gpu for gpu, _ in shares.values()} == {"A100 80GB SXM", "H100 SXM"}
