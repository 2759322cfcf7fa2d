"""Waiting for a seat: the M/M/c (Erlang C) queue over every granted seat of every node.

Why Erlang C
------------
Each granted seat is a server that holds one request for its whole duration (prefill plus
every decode step), and the pool is sized for the peak-minute arrival rate, over which
arrivals from many independent users are well described as Poisson. That is the M/G/c
queue. Its exact waiting time has no closed form; the Erlang C (M/M/c) formula is the
standard engineering answer and is conservative here: answer lengths vary less than an
exponential service time would, and for M/G/c the mean wait scales with
``(1 + cv^2) / 2`` (the Allen-Cunneen approximation), so assuming ``cv = 1`` over-states the
wait rather than hiding it. The wait tail of M/M/c is exactly exponential, which gives a
closed form for any percentile. Bursts and a trace's spread of lengths stretch that wait by
:func:`queue_factor`.
"""

from __future__ import annotations

import math

import numpy as np

from core.foundation.vector import any_true, as_number, ndim, where
from core.traffic.arrivals import trace_lengths

# A queue that cannot drain has no finite percentile; its TTFT is reported as this many
# seconds (longer than any peak lasts) and flagged with ``queue_unbounded``.
UNBOUNDED_WAIT_S = 3600.0

# Width, in standard deviations of the offered load, of the window in which the Erlang B
# recursion is run; outside it the answer is fixed to better than 1e-12.
_WINDOW_SIGMAS = 8.0


# Above this offered load (Erlangs) the recursion's O(sqrt(a)) steps would hold the server
# for seconds, so Erlang B is computed from its integral form instead: bounded work, same value.
LARGE_LOAD = 1e4
_QUADRATURE_POINTS = 401  # Simpson's rule over the integrand's +-12 standard deviations
_QUADRATURE_ROWS = 256  # rows integrated at once, so a long sweep never builds a huge grid


def erlang_b(servers, offered_load):
    """Blocking probability of ``servers`` busy servers under ``offered_load`` Erlangs.

    Total: NaN where a load or a server count is not a finite non-negative number (the
    caller reports such a queue as unbounded), never an exception.

    Notes
    -----
    The recursion :math:`B_k = a B_{k-1} / (k + a B_{k-1})`, :math:`B_0 = 1`, is exact.
    Below :math:`k \\approx \\min(a, c) - 8\\sqrt{a}` it is contractive with ratio
    :math:`k/a` around the fluid value :math:`1 - k/a`, so it starts there; above
    :math:`a + 8\\sqrt{a} + 10` blocking is below 1e-12 and is returned as 0. The loop
    therefore runs :math:`O(\\sqrt{a})` vectorised steps whatever the number of servers.
    Above :data:`LARGE_LOAD` Erlangs :func:`_erlang_b_integral` gives it in bounded work.
    """
    if ndim(servers) == 0 and ndim(offered_load) == 0:  # one queue (not a list either)
        return _erlang_b_one(float(servers), float(offered_load))
    servers, load = as_number(servers), as_number(offered_load)
    valid = np.isfinite(servers) & np.isfinite(load) & (servers >= 0) & (load >= 0)
    large = valid & (load > LARGE_LOAD)
    # Rows the recursion does not run take a harmless stand-in: one server, no load.
    small = valid & ~large
    servers_run, load_run = where(small, servers, 0.0), where(small, load, 0.0)
    spread = _WINDOW_SIGMAS * np.sqrt(load_run)
    start = np.maximum(0.0, np.floor(np.minimum(load_run, servers_run) - spread))
    stop = np.minimum(servers_run, np.ceil(load_run + spread + 10.0))
    blocking = where(start > 0, 1.0 - start / where(load_run > 0, load_run, 1.0), 1.0)
    blocking = _recur_sorted(start, stop, load_run, blocking)  # one queue took _erlang_b_one
    blocking = where(servers_run > stop, 0.0, blocking)
    if any_true(large):
        blocking = where(large, _erlang_b_integral(servers, load, large), blocking)
    return where(valid, blocking, np.nan)


def _erlang_b_one(servers: float, load: float) -> float:
    """:func:`erlang_b` for one queue on plain floats: the same steps, each correctly rounded,
    so the same bits as the queue gets inside an array, at a fraction of the cost."""
    if not (math.isfinite(servers) and math.isfinite(load) and servers >= 0 and load >= 0):
        return math.nan
    if load > LARGE_LOAD:
        return float(_erlang_b_integral(servers, load, True))
    spread = _WINDOW_SIGMAS * math.sqrt(load)
    start = max(0.0, float(math.floor(min(load, servers) - spread)))
    stop = min(servers, float(math.ceil(load + spread + 10.0)))
    blocking = 1.0 - start / (load if load > 0 else 1.0) if start > 0 else 1.0
    first = start + 1.0
    for step in range(max(math.ceil(stop - start), 0)):  # np.arange's k = start + 1 + step
        blocking = load * blocking / ((first + step) + load * blocking)
    return 0.0 if servers > stop else blocking


def _erlang_b_integral(servers, load, rows):
    """Erlang B where ``rows`` is true, from its integral; the other entries are 0.

    Notes
    -----
    .. math:: \\frac{1}{B(c, a)} = a \\int_0^\\infty e^{-a t} (1 + t)^c \\, dt

    The integrand :math:`e^{g(t)}`, :math:`g = -a t + c \\ln(1 + t)`, peaks at
    :math:`t^* = \\max(0, c/a - 1)` and falls by :math:`e^{-70}` within
    :math:`12\\sqrt{c}/a` of it (or :math:`60 / (a - c)` when :math:`c < a`), so Simpson's
    rule on a fixed grid there is accurate to about 1e-5, whatever the load.
    """
    servers, load, rows = np.broadcast_arrays(servers, load, rows)
    c, a = servers[rows].astype(float), load[rows].astype(float)
    peak = np.maximum(0.0, c / a - 1.0)
    reach = 12.0 * np.sqrt(np.maximum(c, 1.0)) / a
    reach = np.where(c < a, np.minimum(reach, 60.0 / np.maximum(a - c, 1e-300)), reach)
    end = peak + reach
    u = np.linspace(0.0, 1.0, _QUADRATURE_POINTS)
    weights = np.ones(_QUADRATURE_POINTS)
    weights[1:-1:2], weights[2:-1:2] = 4.0, 2.0
    values = np.empty(c.shape)
    for first in range(0, c.size, _QUADRATURE_ROWS):
        part = slice(first, first + _QUADRATURE_ROWS)
        t = end[part, None] * u
        g = -a[part, None] * t + c[part, None] * np.log1p(t)
        top = g.max(axis=1)
        # A row-wise sum, not a matrix product: BLAS may order a row's sum by how many rows
        # it is given, and one scenario must get the same figure alone as in a sweep.
        summed = (np.exp(g - top[:, None]) * weights).sum(axis=1)
        integral = summed * end[part] / (3 * (_QUADRATURE_POINTS - 1))
        values[part] = np.exp(-top) / (a[part] * integral)
    result = np.zeros(servers.shape)
    result[rows] = values
    return result if result.ndim else result.item()


def _recur_sorted(start, stop, load, blocking):
    """The recursion over arrays, each row for its own number of steps.

    Rows are ordered by the steps they need, longest first, so the rows still running at
    any step are a prefix of the order and each step works on a slice, not a mask.
    """
    start, stop, load, blocking = np.broadcast_arrays(start, stop, load, blocking)
    steps = (stop - start).ravel()
    order = np.argsort(-steps, kind="stable")
    sorted_steps = steps[order]
    first, sorted_load = start.ravel()[order], load.ravel()[order]
    result = blocking.ravel()[order].astype(float)
    total = int(sorted_steps[0]) if sorted_steps.size else 0
    # running[s] = number of rows that still need step s + 1
    running = np.searchsorted(-sorted_steps, -np.arange(1, total + 1), side="right")
    for step in range(1, total + 1):
        rows = running[step - 1]
        b, a = result[:rows], sorted_load[:rows]
        result[:rows] = a * b / (first[:rows] + step + a * b)
    unsorted = np.empty_like(result)
    unsorted[order] = result
    return unsorted.reshape(stop.shape)


def erlang_c(servers, offered_load):
    """Probability that an arrival finds every one of ``servers`` busy and has to wait.

    Notes
    -----
    .. math:: C = \\frac{B}{1 - \\rho (1 - B)} = \\frac{c B}{(c - a) + a B}, \\quad \\rho = a / c

    The second form is the one computed: near saturation :math:`1 - \\rho (1 - B)` subtracts
    two numbers close to 1, and the last bit of :math:`1 - B` would become a thousand times
    larger in :math:`C`. Returns 1 for an unstable queue (:math:`a \\ge c`).
    """
    servers, load = as_number(servers), as_number(offered_load)
    stable = load < servers
    blocking = erlang_b(servers, load)
    headroom = where(stable, servers - load, 1.0)
    return where(stable, servers * blocking / (headroom + load * blocking), 1.0)


def wait_tail(servers, arrivals_per_s, service_s):
    """The M/M/c wait's tail: the chance an arrival waits, the rate the tail falls, boundedness.

    Notes
    -----
    :math:`P(W > t) = C e^{-r t}` with :math:`C` Erlang C and :math:`r = c\\mu - \\lambda`,
    :math:`\\mu = 1 / S`.

    Returns
    -------
    probability_wait, drain, unbounded
        :math:`C` (1 where unbounded), :math:`r` in 1/s (1 where unbounded), and True where the
        queue is unstable (offered load at or over the servers, or no servers).
    """
    servers, arrivals, service = as_number(servers), as_number(arrivals_per_s), as_number(service_s)
    load = arrivals * service
    # A load or server count that is not a finite number is a queue that cannot be sized.
    unbounded = (servers < 1) | ~(load < servers) | ~np.isfinite(servers)
    probability_wait = erlang_c(servers, load)
    drain = where(unbounded, 1.0, servers / where(service > 0, service, 1.0) - arrivals)
    probability_wait = where(unbounded, 1.0, probability_wait)
    return probability_wait, drain, unbounded


def wait_quantile(servers, arrivals_per_s, service_s, quantile):
    """The ``quantile`` of the time an arrival waits for a free server, and whether it is bounded.

    Notes
    -----
    In M/M/c, :math:`P(W > t) = C e^{-(c\\mu - \\lambda) t}` with :math:`\\mu = 1 / S`,
    so the q-quantile is :math:`\\max(0, \\ln(C / (1 - q)) / (c\\mu - \\lambda))`.

    Returns
    -------
    wait_s : float or ndarray
        Seconds; zero where fewer than ``1 - q`` of arrivals wait at all.
    unbounded : bool or ndarray of bool
        True where the queue is unstable (offered load at or over the servers, or no
        servers); ``wait_s`` is then 0 and the caller must report the queue as unbounded.
    """
    return tail_quantile(wait_tail(servers, arrivals_per_s, service_s), quantile)


def tail_quantile(queue_tail, quantile):
    """:func:`wait_quantile` read off a queue's :func:`wait_tail`, so one queue's percentiles
    share one Erlang C (a page asks for its p50 and its p95)."""
    probability_wait, drain, unbounded = queue_tail
    tail = np.log(np.maximum(probability_wait, 1e-300) / (1.0 - quantile))
    wait = where(unbounded, 0.0, np.maximum(0.0, tail) / drain)
    return wait, unbounded


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
        np.square(alpha) * moments["prompt_var"]
        + np.square(beta) * moments["answer_var"]
        + 2.0 * alpha * beta * moments["covariance"]
    )
    service_cv2 = np.maximum(variance, 0.0) / np.square(values["request_s"])
    return (1.0 + service_cv2) / 2.0
