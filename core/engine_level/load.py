"""A node under load, solved in closed form inside a short fixed-point loop.

:func:`closed_loop` and :func:`open_loop` turn a :class:`core.engine_level.node.Node`'s step and
prefill prices and a load into throughput, time between tokens, time to first token and
request time. The load is one of two shapes:

- **closed loop** (``users``): N users each send their next request when the last answer
  ends, as NIM's, vLLM's and TensorRT-LLM's benchmarks drive an engine. N at or above the
  granted seats saturates the node; the rest wait for a seat.
- **open loop** (``arrivals_per_s``): requests arrive as a Poisson stream.

A closed loop's run may end after a set number of requests (:func:`finite_run`): equal
requests then finish in waves, and the last, partial one runs alone. Its first prompts all
arrive at once, and the run's mean first token averages their burst in (:func:`opening_burst`).
Everything broadcasts over numpy arrays.
"""

from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from core.engine_level.fixed_points import (
    SHORTEST_REQUEST_S,
    false_position,
    false_position_scalar,
    own_image,
)
from core.engine_level.joining import coalesced, joining, polled_steps, step_size_s
from core.foundation.vector import any_true, ndim, plain

# A queue whose utilisation reaches this is treated as unable to drain.
SATURATED = 0.999


def decode_context(prompt, answer, terms):
    """Tokens of cache a running request holds on average while it decodes."""
    return prompt + (answer / 2.0 if "live_context" in terms else answer)


class ClosedLoop(NamedTuple):
    """What :func:`closed_loop` finds: the benchmark's figures and the prefill queue behind them."""

    throughput: object
    itl: object
    ttft: object  # typical: the mean prefill wait, plus the wait for a seat
    request: object
    running: object
    step: object  # one decode step of the running batch, without prefill
    busy: object  # the prefill queue's load that the TTFT's mean wait is priced at
    company: object  # 1 where a new prompt joins running decodes, 0 where it runs alone
    seat_wait: object  # users beyond the seats wait this long for one (inside ttft and request)
    alone: object  # a prompt's first token on an idle node: its prefill alone and the overhead


def closed_loop(node, users, granted, prompt, answer, hit_tokens, terms) -> ClosedLoop:
    """Throughput, ITL, TTFT and request time when ``users`` users keep one request each in flight.

    Notes
    -----
    :math:`n = \\min(N, s)` requests run. Each decode step takes :math:`t_s(n)`; the other
    :math:`n - 1` requests each prefill once per request time :math:`R`, so prefill holds the
    cards a share :math:`\\rho = (n-1) t_p / R` of the time, stretching every stream:
    :math:`ITL = t_s / (1 - \\rho)`. A new prompt waits for the prompts ahead of it (the mean
    M/M/1 wait :math:`\\rho t_p / (1 - \\rho)`, the same queue the whiteboard's Erlang C
    assumes, but never more than the :math:`n - 1` prompts the other users hold: a closed
    loop's population bounds its queue) and for the step it joins. Then
    :math:`R = TTFT + (A - 1) ITL`: at a given :math:`R` a quadratic gives back
    :math:`g(R)`, and the fixed point :math:`R = g(R)` is found by false position.
    Where the engine runs prefills in steps of their own (:func:`joining`), that step's weight
    read and fixed costs add to the prefill, shared by the prompts waiting together, and the
    first token waits half a step instead of 1.5 (a step more each where the scheduler queues
    a step ahead). A scheduler that polls for requests only every few decode steps
    (``node.poll_interval``) adds the wait for its next poll (:func:`polled_steps`), the others'
    prefills coming :math:`(n - 1) / R` a second.
    Users beyond the seats wait :math:`(N - n) R / n` for one.
    """
    running = np.minimum(users, granted)
    others = np.maximum(running - 1.0, 0.0)
    miss = prompt - hit_tokens
    alone = node.prefill_s(miss, hit_tokens, terms, alone=True)
    riding = node.prefill_s(miss, hit_tokens, terms, alone=False)
    added, extra, waited = joining(
        node, alone, riding, terms, miss, step_size_s(node, others, miss, terms)
    )
    step = node.step_s(np.maximum(running, 1.0), decode_context(prompt, answer, terms), terms)
    later = np.maximum(answer - 1.0, 1.0)
    overhead = node.request_overhead(terms)
    latency = node.server_path(terms)  # a first token's wait beside the cards
    alone = alone + overhead + latency
    if "prefill_time" not in terms:
        # Prefill is free: the cards only ever decode, as on the whiteboard.
        request = alone + later * step
        ttft, itl = alone, step
        busy_time = np.maximum(answer, 1.0) * step
        busy, company = 0.0, 0.0
    else:
        parts = (others, added, extra, overhead, latency, waited, step, later, alone,
                 node.poll_interval)  # fmt: skip
        if all(ndim(part) == 0 for part in parts):  # one scenario: plain floats, same bits
            cycle, share, ttft, request = _solved_scalar(*(float(part) for part in parts))
        else:
            cycle, share, ttft, request = _solved_arrays(*parts)
        busy, company = share, np.where(others > 0, 1.0, 0.0)
        share = np.minimum(cycle / request, SATURATED)
        itl = step / (1.0 - share)
        request = ttft + later * itl
        busy_time = request
    seat_wait = np.maximum(users - running, 0.0) * request / np.maximum(running, 1.0)
    throughput = np.where(running >= 1, running * answer / busy_time, 0.0)
    return ClosedLoop(
        throughput, itl, ttft + seat_wait, request + seat_wait, running, step, busy, company,
        seat_wait, alone,
    )  # fmt: skip


def _loop_arrays(
    request, others, added, extra, overhead, latency, waited, step, later, alone, interval=1.0
):
    """One pass of :func:`closed_loop`'s fixed point at the request time ``request``: (the
    others' prefill a cycle, the prefill queue's load, the first token, the request time the
    quadratic gives back)."""
    # Prompts that arrive while one dispatches share the next dispatch, which holds the cards
    # whole (aiconfigurator's 0.8 ms a layer, added to the prefill's). Explored and reverted in
    # issue 37: hidden under the step's GPU work (11th round), in the first token only (33rd),
    # shared by every prompt of a whole step (50th, bench/prompt_dispatch.py).
    cycle = others * (added + coalesced(overhead + extra, others / request))
    share = np.minimum(cycle / request, SATURATED)
    ahead = np.minimum(share / (1.0 - share), others)  # a closed loop's n - 1 at most
    polled = polled_steps(interval, others / request, step)
    first = added * (1.0 + ahead) + extra + overhead + latency + (waited + polled) * step
    ttft = np.where(others > 0, first, alone)
    return cycle, share, ttft, _request(cycle, ttft, later * step)


def _request(cycle, ttft, decode):
    """The request time R with a first token ``ttft`` and ``decode`` seconds of steps stretched
    by the others' ``cycle`` of prefill, R = ttft + decode R / (R - cycle): the quadratic's
    larger root."""
    total = cycle + ttft + decode
    # np.square, not ** 2: a numpy scalar's power rounds apart from an array's square in the
    # last bit, and near saturation this root grows that bit a millionfold
    return 0.5 * (total + np.sqrt(np.maximum(np.square(total) - 4.0 * ttft * cycle, 0.0)))


def _request_scalar(cycle, ttft, decode):
    """:func:`_request` in plain floats."""
    total = cycle + ttft + decode
    return 0.5 * (total + math.sqrt(max(total * total - 4.0 * ttft * cycle, 0.0)))


def _solved_arrays(*parts):
    """:func:`closed_loop`'s fixed point R = g(R) for arrays (``parts``: :func:`_loop_arrays`'
    after the request time), by false position in the bracket :func:`_bracket` closes.

    Returns (cycle, share, ttft, request) at the request time found."""
    high = _bracket(*parts)
    request = false_position(lambda r: r - _loop_arrays(r, *parts)[3], SHORTEST_REQUEST_S, high)
    return (*_loop_arrays(request, *parts)[:3], request)


def _bracket(others, added, extra, overhead, latency, waited, step, later, alone, interval=1.0):
    """A request time above the fixed point (the bracket's low end is SHORTEST_REQUEST_S): the
    quadratic's root at the most prefill a cycle can hold and the longest wait a first token can
    have (the root grows with both, so g(R) never exceeds it; a poll's wait is below half its
    interval)."""
    fixed = overhead + extra
    ahead = np.minimum(SATURATED / (1.0 - SATURATED), others)
    waits = waited + 0.5 * (np.maximum(interval, 1.0) - 1.0)
    ttft = np.where(others > 0, added * (1.0 + ahead) + fixed + latency + waits * step, alone)
    high = _request(others * (added + fixed), ttft, later * step)
    return np.maximum(high, 2.0 * SHORTEST_REQUEST_S)


def _solved_scalar(
    others, added, extra, overhead, latency, waited, step, later, alone, interval=1.0
):
    """:func:`_solved_arrays` for one scenario in plain floats: the arrays' own operations in
    the same order, each correctly rounded, so the same bits at a fraction of the cost.
    Returns (cycle, share, ttft, request)."""
    fixed = overhead + extra

    def one_pass(request):
        cycle = others * (added + fixed / (1.0 + (others / request) * fixed))
        share = min(cycle / request, SATURATED)
        if others > 0:
            ahead = min(share / (1.0 - share), others)  # a closed loop's n - 1 at most
            polled = polled_steps(interval, others / request, step)
            ttft = added * (1.0 + ahead) + extra + overhead + latency + (waited + polled) * step
        else:
            ttft = alone
        return cycle, share, ttft, _request_scalar(cycle, ttft, later * step)

    waits = waited + 0.5 * (max(interval, 1.0) - 1.0)  # a poll's wait: below half its interval
    high = _bracket_scalar(others, added, fixed, latency, waits, step, later, alone)
    request = false_position_scalar(lambda r: r - one_pass(r)[3], SHORTEST_REQUEST_S, high)
    return (*one_pass(request)[:3], request)


def _bracket_scalar(others, added, fixed, latency, waited, step, later, alone):
    """:func:`_bracket` in plain floats."""
    ahead = min(SATURATED / (1.0 - SATURATED), others)
    ttft = added * (1.0 + ahead) + fixed + latency + waited * step if others > 0 else alone
    high = _request_scalar(others * (added + fixed), ttft, later * step)
    return max(high, 2.0 * SHORTEST_REQUEST_S)


def finite_run(loop, requests, granted, node, prompt, answer, hit_tokens, terms):
    r"""Output throughput over a closed loop's run of ``requests`` requests of fixed lengths.

    ``loop`` is the run's steady state (:func:`closed_loop`); where ``requests`` is inf the
    run never ends and its throughput is the steady state's.

    Notes
    -----
    Requests of equal lengths that start together end together, so :math:`n` running finish
    in waves: :math:`q = \lfloor N / n \rfloor` full waves each take :math:`n A / X(n)`, and
    the last :math:`r = N - q n` requests run alone as a smaller batch, :math:`r A / X(r)`:

    .. math:: X_{run} = \frac{N}{q\,n / X(n) + r / X(r)}

    (trtllm-bench and vLLM's benchmarks report a run's output tokens over its whole time).
    """
    # Each wave is priced at the steady state's X(n). Explored in issue 37's thirty-third round,
    # not landed: the opening wave in lockstep (every prefill, then A - 1 steps at n) reads
    # Oracle's benchmark_latency batches of 1-256 at x1.07-1.12 (the steady state drifts from
    # x1.08 to x0.56), but both sets went 18.9 % -> 19.6 % (173 -> 170 within: vLLM 0.9.1's
    # MI300X runs x0.89-1.37 -> x1.20-1.46, EmbeddedLLM's V0 rows x1.01-2.01 ->
    # x1.11-2.29) and the SC '25 check set 55.6 % -> 58.4 %; every wave in lockstep, 75.7 %.
    running = np.maximum(loop.running, 1.0)
    finite = np.isfinite(requests)
    sent = np.where(finite, requests, running)
    waves, rest = run_waves(sent, running)
    tail = closed_loop(node, np.maximum(rest, 1.0), granted, prompt, answer, hit_tokens, terms)
    full_time = waves * running / np.maximum(loop.throughput, 1e-300)
    tail_time = np.where(rest > 0, rest / np.maximum(tail.throughput, 1e-300), 0.0)
    run = sent / np.maximum(full_time + tail_time, 1e-300)
    return np.where(finite & (loop.throughput > 0), run, loop.throughput)


def opening_burst(loop, requests, added, ttft_p95):
    r"""The first token's mean and 95th percentile over a closed loop's run of ``requests``.

    ``loop`` is the run's steady state (:func:`closed_loop`), ``added`` a prompt's prefill
    riding with others and ``ttft_p95`` the steady state's 95th percentile. Where ``requests``
    is inf the run never ends and both are the steady state's.

    Notes
    -----
    A benchmark client at an unlimited request rate sends every user's first prompt at once,
    so the run opens with :math:`n` prompts (the requests running) on an idle node: the
    :math:`k`-th first token comes after the prefills ahead of it,
    :math:`t_1 + (k - 1)\,t_a` (:math:`t_1`: one prompt alone, with the overhead;
    :math:`t_a`: each added prompt), :math:`\bar t_{open} = t_1 + \tfrac{n-1}{2} t_a` on
    average. The other :math:`N - n` of the run's :math:`N` requests see the steady state's
    :math:`\bar t`, so the run's mean is

    .. math:: \bar t_{run} = \frac{n\,\bar t_{open} + (N - n)\,\bar t}{N}

    and its 95th percentile, where the opening burst holds a share :math:`f = n / N` of at
    least 5 %, is the burst's own :math:`1 - 0.05 / f` quantile where that is the later (and
    never below the mean, which the first token's typical figure carries).
    """
    running = np.maximum(loop.running, 1.0)
    finite = np.isfinite(requests)
    sent = np.where(finite, np.maximum(requests, running), running)
    spread = (running - 1.0) * added  # the last opening prompt waits for every other's prefill
    opening = loop.alone + 0.5 * spread
    mean = np.where(finite, (running * opening + (sent - running) * loop.ttft) / sent, loop.ttft)
    share = running / sent
    rank = np.clip(1.0 - 0.05 / share, 0.0, 1.0)
    tail = np.where(finite & (share >= 0.05), loop.alone + rank * spread, 0.0)
    # a rare burst can drag the mean (which the p50 field carries) past the steady tail
    return mean, np.maximum(np.maximum(ttft_p95, tail), mean)


def run_waves(requests, running):
    """The full waves a run of ``requests`` equal requests makes ``running`` at a time, and the
    requests its last, partial wave runs alone (0 where the waves come out whole)."""
    running = np.maximum(running, 1.0)
    waves = np.floor(requests / running)
    return waves, requests - waves * running


def open_loop(node, arrivals_per_s, granted, prompt, answer, hit_tokens, terms):
    """Running batch, ITL, typical TTFT, request time, prefill utilisation and company at arrivals,
    and what a prompt's prefill holds the cards for while others decode (:func:`joining`).

    ``company`` is the chance a new prompt finds other requests running.

    Notes
    -----
    The running batch is :math:`n = \\lambda R` (Little's law), capped at the seats. Prefill
    holds the cards :math:`\\rho = \\lambda t_p` of the time, so :math:`ITL = t_s(n)/(1-\\rho)`;
    a prompt that finds others running waits for the step it joins and the M/M/1 prefill
    queue; one that finds the node empty (probability :math:`e^{-\\lambda R}`) prefills alone.
    :math:`R = TTFT + (A - 1) ITL` is then its own image, found by false position
    (:mod:`core.engine_level.fixed_points`); solved again where a prompt riding beside the
    :math:`n` requests found running pays more at their step's size (:func:`joining`).
    """
    miss = prompt - hit_tokens
    alone = node.prefill_s(miss, hit_tokens, terms, alone=True)
    riding = node.prefill_s(miss, hit_tokens, terms, alone=False)
    parts = (node, arrivals_per_s, granted, prompt, answer, terms, alone)
    solved = _open_solved(*parts, joining(node, alone, riding, terms, miss))
    size = step_size_s(node, solved[0], miss, terms)
    if any_true(np.asarray(size) > 0.0):
        solved = _open_solved(*parts, joining(node, alone, riding, terms, miss, size))
    return solved


def _open_solved(node, arrivals_per_s, granted, prompt, answer, terms, alone, joined_parts):
    """:func:`open_loop` solved for a prompt's ``joined_parts`` (:func:`joining`'s three)."""
    added, extra, waited = joined_parts
    context = decode_context(prompt, answer, terms)
    later = np.maximum(answer - 1.0, 1.0)
    counts = "prefill_time" in terms
    overhead = node.request_overhead(terms)
    latency = node.server_path(terms)  # a first token's wait beside the cards
    alone = alone + overhead + latency
    blocked = added + coalesced(overhead + extra, arrivals_per_s)
    busy_prefill = np.minimum(arrivals_per_s * blocked, SATURATED) if counts else 0.0
    wait = added * busy_prefill / (1.0 - busy_prefill)

    most = np.maximum(granted, 1.0)
    # min and max are np.clip's bits for plain floats, a NaN bound aside (np.clip gives NaN)
    one_node = ndim(arrivals_per_s) == 0 and ndim(most) == 0 and most == most

    def state(request):
        """(g(R), running, step, first token, company) at the request time ``request``."""
        if one_node and ndim(request) == 0:  # asked at every step of the loop
            running = min(max(arrivals_per_s * request, 1.0), most)
        else:
            running = np.clip(arrivals_per_s * request, 1.0, most)
        step = node.step_s(running, context, terms)
        company = 1.0 - np.exp(-arrivals_per_s * request) if counts else 0.0
        # the scheduler's next poll for requests, prefills coming as the arrivals do
        polled = polled_steps(node.poll_interval, arrivals_per_s, step)
        joined = added + extra + overhead + latency + (waited + polled) * step + wait
        ttft = company * joined + (1.0 - company) * alone if counts else alone
        return ttft + later * step / (1.0 - busy_prefill), running, step, ttft, company

    # g(R) never exceeds its value with every seat running and the slower way in
    full = node.step_s(np.maximum(granted, 1.0), context, terms)
    waits = waited + 0.5 * (np.maximum(node.poll_interval, 1.0) - 1.0)  # a poll's, at most
    slowest = (
        np.maximum(alone, added + extra + overhead + latency + waits * full + wait)
        if counts
        else alone
    )
    ceiling = 2.0 * (slowest + later * full / (1.0 - busy_prefill))
    request = own_image(lambda r: r - state(r)[0], ceiling, arrivals_per_s, granted)
    _, running, step, ttft, company = state(request)
    itl = step / (1.0 - busy_prefill)
    request = ttft + later * itl
    holding = added + coalesced(extra, arrivals_per_s)
    return running, itl, ttft, request, busy_prefill, company if counts else 0.0, holding


def prefill_wait_quantile(added_s, busy, quantile):
    """The ``quantile`` of the wait for the prefill stage (M/M/1: P(W > t) = rho e^(-(mu-lambda) t))."""
    # one scenario: numpy's log (its bits), the rest in plain floats
    if plain(added_s, busy, quantile) and busy < 1.0:
        drain = (1.0 - busy) / max(added_s, 1e-12)
        tail = np.log(max(busy, 1e-300) / (1.0 - quantile))
        return max(tail, 0.0) / drain if busy > 1.0 - quantile else 0.0
    drain = (1.0 - busy) / np.maximum(added_s, 1e-12)
    tail = np.log(np.maximum(busy, 1e-300) / (1.0 - quantile))
    return np.where(busy > 1.0 - quantile, np.maximum(tail, 0.0) / drain, 0.0)
