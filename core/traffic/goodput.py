"""Goodput: the share of requests that meet both latency targets, whichever method counts them.

One predicate, :func:`meets_targets`: a request counts when its first token comes within the
TTFT target and its later tokens average at most the time-per-output-token target
(``tpot_slo_s``). Three methods apply it, and a page names the method beside the figure:

- **closed form** (:func:`closed_form_goodput`): the predicate's probability under the
  whiteboard's distributions (M/M/c's wait, one decode step per answer token);
- **replayed hour**, or any run of the step engine (:func:`measured_goodput`): each request
  judged on its measured TTFT and TPOT;
- **fluid queue** (:mod:`core.traffic.autoscale`): each second's arrivals judged on that
  second's wait plus their first-token work, and the node's decode step.
"""

from __future__ import annotations

import numpy as np

from core.catalog.workloads import TTFT_SLO_S
from core.foundation.vector import where
from core.traffic.arrivals import trace_lengths


def meets_targets(ttft_s, tpot_s, ttft_slo_s, tpot_slo_s):
    """Whether a request meets both latency targets: the one goodput predicate.

    Parameters
    ----------
    ttft_s, tpot_s : float or ndarray
        Each request's time to first token, and its time per output token after the first,
        in seconds.
    ttft_slo_s, tpot_slo_s : float or ndarray
        The two targets, in seconds. All four broadcast together.

    Returns
    -------
    bool or ndarray of bool
        True where both targets are met.

    Notes
    -----
    .. math:: \\text{met} = [\\text{TTFT} \\le T] \\wedge [\\text{TPOT} \\le \\tau]

    Goodput is the share of requests for which it holds.

    Examples
    --------
    >>> meets_targets(np.array([0.2, 0.2, 3.0]), np.array([0.02, 0.09, 0.02]), 2.0, 0.05)
    array([ True, False, False])
    """
    return np.logical_and(np.less_equal(ttft_s, ttft_slo_s), np.less_equal(tpot_s, tpot_slo_s))


def closed_form_goodput(pool, values, probability_wait, drain, factor, unbounded):
    """Goodput by the closed form: the probability that a request meets :func:`meets_targets`.

    Notes
    -----
    On the whiteboard a request's TTFT is its own first-token work :math:`t_f` plus its wait
    :math:`W` for a seat, and every answer token takes one decode step, so its TPOT is
    :math:`t_{step}` exactly. The wait is M/M/c's stretched by the queue factor :math:`k`:
    none with probability :math:`1 - C`, else exponential, :math:`P(W > w) = C e^{-r w / k}`.
    The predicate's probability is therefore

    .. math:: G = E\\left[m(t_f, t_{step})\\left(1 - C e^{-r (T - t_f) / k}\\right)\\right]

    with :math:`m` the predicate at no wait (the request's own work meets both targets, so
    its slack :math:`T - t_f` is not negative), and the expectation over the trace's prompt
    lengths (their quantiles), or the one prompt of other traffic. An unbounded queue meets
    nothing.
    """
    lengths = trace_lengths(pool.traffic)
    prompt_s = values["prefill_s"] + values["prefix_read_s"]
    step_s = values["decode_step_s"]
    if lengths is None:
        first = np.maximum(prompt_s, step_s)
        met = _met(first, step_s, pool.tpot_slo, probability_wait, drain, factor)
    else:
        grid = lengths[3] / lengths[0]  # each quantile's prompt over the mean prompt
        prompt, step, slo, wait, rate, stretch = (
            np.asarray(x)[..., None]
            for x in (prompt_s, step_s, pool.tpot_slo, probability_wait, drain, factor)
        )
        met = _met(np.maximum(prompt * grid, step), step, slo, wait, rate, stretch).mean(axis=-1)
    return where(unbounded, 0.0, met)


def _met(first_s, step_s, tpot_slo_s, probability_wait, drain, factor):
    """:math:`P(\\text{met})` of a request whose own first-token work is ``first_s``."""
    slack_s = np.maximum(TTFT_SLO_S - first_s, 0.0)
    within = np.clip(1.0 - probability_wait * np.exp(-drain * slack_s / factor), 0.0, 1.0)
    return where(meets_targets(first_s, step_s, TTFT_SLO_S, tpot_slo_s), within, 0.0)


def measured_tpot_s(run) -> np.ndarray:
    """Each request's time per output token after its first, measured on a step-engine run.

    Notes
    -----
    .. math:: \\text{TPOT} = \\frac{t_{last} - t_{first}}{A - 1}

    0 for a one-token answer, which streams no later token.
    """
    streamed = np.maximum(run.answer_tokens - 1, 1)
    return np.where(run.answer_tokens > 1, (run.finish_s - run.first_token_s) / streamed, 0.0)


def measured_meets_targets(run, tpot_slo_s) -> np.ndarray:
    """Which requests of a step-engine run meet both targets, on their measured TTFT and TPOT.

    ``run`` is the replayed hour's (:class:`core.traffic.replay.HourRun`) or any engine run
    with each request's ``ttft_s``, ``first_token_s``, ``finish_s`` and ``answer_tokens``.
    """
    return meets_targets(run.ttft_s, measured_tpot_s(run), TTFT_SLO_S, tpot_slo_s)


def measured_goodput(run, tpot_slo_s: float) -> float:
    """Share of a step-engine run's requests that meet both targets (0 for an empty run)."""
    met = measured_meets_targets(run, tpot_slo_s)
    return float(met.mean()) if met.size else 0.0
