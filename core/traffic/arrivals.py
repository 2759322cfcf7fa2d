"""The hour's arrivals: a steady Poisson stream, bursts, or a production trace.

The walkthrough's queue is M/M/c at the peak-minute rate (:mod:`core.traffic.queueing`).
Two other kinds of traffic change it:

- **bursty**: a renewal stream whose gaps have coefficient of variation :math:`c_a`
  (``burstiness``), at the same mean rate;
- **a trace** (``azure-conversation``, ``azure-code``): every request's prompt and answer
  length comes from the trace, so the closed form takes their mean for the sizes and their
  variance for the queue (M/G/c at the rate the pool is sized for). The step engine replays
  the trace's own arrivals (:mod:`core.traffic.replay`), which no closed form holds.

How much longer either makes the wait is :func:`core.traffic.queueing.queue_factor`.
"""

from __future__ import annotations

import functools

import numpy as np

from core.catalog.traces import TRACES, load_trace

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
