"""The traffic knob: Poisson unchanged, bursts stretch the queue, traces bring their lengths, goodput."""

from __future__ import annotations

import numpy as np
import pytest

from core import Scenario, evaluate
from core.catalog.traces import load_trace


def test_poisson_traffic_is_the_walkthrough_unchanged():
    """Poisson traffic has queue factor 1 and the default's TTFT, whatever the burstiness knob."""
    base = evaluate()
    assert base.queue_factor == 1.0
    assert evaluate(burstiness=4.0).ttft_p95_s == base.ttft_p95_s


def test_bursty_traffic_at_cv_one_is_poisson_and_grows_with_the_cv():
    """Burstiness 1 gives Poisson's figures; larger gap CVs wait longer and lose goodput."""
    busy = {"arrivals_per_min": 900.0, "seats": 16}
    poisson = evaluate(**busy)
    assert evaluate(traffic="bursty", burstiness=1.0, **busy).ttft_p95_s == poisson.ttft_p95_s
    cvs = np.array([1.0, 2.0, 4.0])
    bursty = [evaluate(traffic="bursty", burstiness=cv, **busy) for cv in cvs]
    assert np.all(np.diff([r.queue_wait_p95_s for r in bursty]) > 0)
    assert np.all(np.diff([r.goodput for r in bursty]) < 0)


@pytest.mark.parametrize("name", ["azure-conversation", "azure-code"])
def test_a_trace_brings_its_lengths_and_its_peak_minute(name):
    """With a trace the mean lengths replace the knobs and the rate is the trace's peak minute."""
    trace = load_trace(name)
    result = evaluate(traffic=name, prompt_tokens=9000, answer_tokens=3)
    assert result.answer_tokens == round(trace.moments["answer_mean"])
    assert result.seat_tokens == round(trace.moments["prompt_mean"] + trace.moments["answer_mean"])
    assert result.arrivals_per_min == trace.peak_minute
    assert evaluate(traffic=name, arrivals_per_min=100.0).arrivals_per_min == 100.0


def test_goodput_is_a_share_that_the_tpot_target_can_zero():
    """Goodput lies in [0, 1], is 0 when a step is slower than the TPOT target, and 0 when unbounded."""
    result = evaluate()
    assert 0.99 < result.goodput <= 1.0
    assert evaluate(tpot_slo_s=result.decode_step_s / 2).goodput == 0.0
    assert evaluate(arrivals_per_min=1e6, seats=1, cards=1).goodput <= 1.0
    sweep = evaluate(seats=np.arange(1, 65), traffic="azure-code")
    assert np.all((sweep.goodput >= 0) & (sweep.goodput <= 1))


def test_the_traffic_knob_refuses_a_sweep_and_an_unknown_name():
    """traffic is one value per evaluation, and a name that is not a traffic raises naming the knob."""
    with pytest.raises(ValueError, match="traffic"):
        evaluate(traffic=np.array(["poisson", "bursty"]))
    with pytest.raises(ValueError, match="traffic"):
        Scenario(traffic="azure-chat")
