"""Traffic that is not one steady Poisson stream: bursts, production traces, and goodput.

The walkthrough's queue is M/M/c at the peak-minute rate (:mod:`core.whiteboard.queueing`).
Two other kinds of traffic change it here:

- **bursty**: a renewal stream whose gaps have coefficient of variation :math:`c_a`
  (``burstiness``), at the same mean rate;
- **a trace** (``azure-conversation``, ``azure-code``): every request's prompt and answer
  length comes from the trace, so the closed form takes their mean for the sizes and their
  variance for the queue (M/G/c at the rate the pool is sized for). The step engine replays
  the trace's own arrivals (:mod:`core.simulator.replay`), which no closed form holds.

Goodput is the share of requests that meet both the first-token target and the
time-per-output-token target (``tpot_slo_s``).
"""

from __future__ import annotations

import functools

import numpy as np

from core.catalog.traces import TRACES, load_trace
from core.catalog.workloads import TTFT_SLO_S
from core.foundation.vector import where

HOUR_S = 3600.0


@functools.lru_cache(maxsize=32)
def hour_arrivals(traffic: str, rate_per_min: float, burstiness: float) -> np.ndarray:
    """The hour's arrival times in seconds (read-only): a trace's own, or a seeded stream.

    Notes
    -----
    Poisson gaps are exponential; bursty gaps are gamma of shape :math:`1 / c_a^2` and mean
    :math:`60 / \\lambda`, so their coefficient of variation is :math:`c_a` (``burstiness``).
    A trace keeps its own clock, whatever the rate.
    """
    if traffic in TRACES:
        return load_trace(traffic).arrival_s
    cv = burstiness if traffic == "bursty" else 1.0
    mean_gap = 60.0 / rate_per_min
    expected = HOUR_S / mean_gap
    count = int(expected * 1.2 + 6 * np.sqrt(expected) * cv + 20)
    gaps = np.random.default_rng(0).gamma(1.0 / cv**2, mean_gap * cv**2, count)
    arrival = np.cumsum(gaps)
    arrival = arrival[arrival < HOUR_S]
    arrival.setflags(write=False)
    return arrival


def trace_lengths(traffic: str):
    """``(prompt mean, answer mean, moments, prompt grid)`` of a trace, or None for other traffic."""
    if traffic not in TRACES:
        return None
    trace = load_trace(traffic)
    moments = trace.moments
    return moments["prompt_mean"], moments["answer_mean"], moments, trace.prompt_grid


def queue_factor(pool, values):
    """How much longer than M/M/c's the wait is: :math:`(c_a^2 + c_s^2) / 2` (Allen-Cunneen).

    Notes
    -----
    Poisson traffic keeps the walkthrough's M/M/c exactly (factor 1). Bursty traffic has
    :math:`c_a` = ``burstiness`` and keeps M/M/c's exponential service (:math:`c_s = 1`), so
    a burstiness of 1 is Poisson. A trace arrives as Poisson at the sized rate (:math:`c_a = 1`)
    and its service :math:`D = \\alpha P + \\beta A` (prefill and prefix read per prompt token,
    one decode step per answer token) has

    .. math:: c_s^2 = \\frac{\\alpha^2 \\sigma_P^2 + \\beta^2 \\sigma_A^2
              + 2 \\alpha \\beta \\sigma_{PA}}{E[D]^2}
    """
    if pool.traffic == "bursty":
        return (np.square(pool.burstiness) + 1.0) / 2.0
    lengths = trace_lengths(pool.traffic)
    if lengths is None:
        return 1.0
    prompt_mean, _, moments, _ = lengths
    alpha = (values["prefill_s"] + values["prefix_read_s"]) / prompt_mean
    beta = values["decode_step_s"]
    variance = (
        alpha**2 * moments["prompt_var"]
        + beta**2 * moments["answer_var"]
        + 2.0 * alpha * beta * moments["covariance"]
    )
    service_cv2 = np.maximum(variance, 0.0) / np.square(values["request_s"])
    return (1.0 + service_cv2) / 2.0


def closed_form_goodput(pool, values, probability_wait, drain, factor, unbounded):
    """Share of requests whose first token meets the TTFT target and whose tokens meet the TPOT one.

    Notes
    -----
    A request whose own first-token work is :math:`t_f` meets the target when it waits at
    most :math:`T - t_f`; the wait's tail is M/M/c's stretched by the queue factor
    :math:`k`, :math:`P(W > t) = C e^{-r t / k}`, so

    .. math:: G = [t_{step} \\le \\tau] \\cdot E\\left[\\left(1 - C e^{-r (T - t_f) / k}
              \\right)^+\\right]

    with the expectation over the trace's prompt lengths (their quantiles), or the one prompt
    of other traffic. Every answer token of the whiteboard takes one step, :math:`t_{step}`.
    """
    lengths = trace_lengths(pool.traffic)
    prompt_s = values["prefill_s"] + values["prefix_read_s"]
    step_s = values["decode_step_s"]
    if lengths is None:
        first = np.maximum(prompt_s, step_s)
        met = _met(TTFT_SLO_S - first, probability_wait, drain, factor)
    else:
        grid = lengths[3] / lengths[0]  # each quantile's prompt over the mean prompt
        expand = [np.asarray(x)[..., None] for x in (prompt_s, step_s, probability_wait, drain)]
        first = np.maximum(expand[0] * grid, expand[1])
        factor_grid = np.asarray(factor)[..., None]
        met = _met(TTFT_SLO_S - first, expand[2], expand[3], factor_grid).mean(axis=-1)
    share = where(unbounded, 0.0, met)
    return where(step_s <= pool.tpot_slo, share, 0.0)


def _met(slack_s, probability_wait, drain, factor):
    """:math:`P(W \\le t)` for slack ``t`` (0 where the slack is negative)."""
    tail = probability_wait * np.exp(-drain * np.maximum(slack_s, 0.0) / factor)
    return where(slack_s > 0, np.clip(1.0 - tail, 0.0, 1.0), 0.0)
