"""How a new prompt joins the steps under way: what it holds the cards for, beside what, and
how many steps its first token waits through.

A release either mixes a prompt into the running decodes' step (vLLM V1's chunked prefill,
TensorRT-LLM's in-flight batching) or runs it in a prefill step of its own (SGLang's default,
vLLM V0). :func:`joining` prices each way for :mod:`core.engine_level.load`'s loops: a riding
prompt pays its arithmetic and what its step's size adds (a mixture's experts, the
collectives at the step's size: :func:`step_size_s`) and waits one step a pass; prompts that
arrive together share a dispatch (:func:`coalesced`).
"""

from __future__ import annotations

import math

import numpy as np

from core.foundation.vector import any_true, ndim


def joining(node, alone, riding, terms, miss=0.0, size_s=0.0):
    """(seconds a new prompt's prefill rides on the cards while others decode, the seconds its
    own prefill step adds beside, decode steps its first token waits through besides).

    Where the engine mixes prompts into the running step, the prefill rides in it (``riding``:
    the running decodes pay the weight read; ``size_s`` is what the step's size adds for the
    prompt's ``miss`` tokens beside the decodes, :func:`step_size_s`, which the loop prices
    beside the decodes it has) and the first token waits for the step under way and then one
    step for each pass the release chunks the prompt into
    (:meth:`~core.engine_level.node.Node.prompt_passes`, issue 37's fifty-third round): 1.5
    steps on average for a prompt of one pass. Where it runs prefills in a step of their own
    (``node.separate_prefill``: SGLang's default), that step also reads the weights and pays its
    fixed costs (``alone - riding``, every pass), shared by every prompt waiting when it starts,
    as the engine's dispatch is (:func:`coalesced`); the first token waits only for the step
    under way. An overlap scheduler (``node.schedules_ahead``) has queued the next step when the
    prompt arrives: a step more, with the server path.
    """
    separate = node.separate_prefill
    ahead = node.schedules_ahead if "server_overheads" in terms else False
    if ndim(separate) == 0 and ndim(ahead) == 0:  # one engine: no arrays on the hot path
        queued = 1.0 if ahead else 0.0
        if separate:
            return riding, alone - riding, 0.5 + queued
        return riding + size_s, 0.0, 0.5 + riding_passes(node, miss) + queued
    extra = np.where(separate, alone - riding, 0.0)
    added = riding + np.where(separate, 0.0, size_s)
    waited = np.where(separate, 0.5, 0.5 + riding_passes(node, miss))
    return added, extra, waited + np.where(ahead, 1.0, 0.0)


def polled_steps(interval, prefills_per_s, step_s):
    r"""The decode steps a new request waits for a scheduler that polls for requests only every
    ``interval`` decode steps and at once after a prefill (SGLang's ``--scheduler-recv-interval``,
    :data:`core.catalog.sglang_defaults.SGL_RECV`), prefills coming ``prefills_per_s`` a second
    between decode steps of ``step_s``, beyond the wait of one that polls every step (0 where
    ``interval`` is 1).

    Notes
    -----
    Polls come :math:`L = \min(k, X)` steps apart, :math:`X` exponential with mean
    :math:`m = 1 / (\lambda t_s)` (the steps between prefills), and a request arriving at random
    waits the residual :math:`E[L^2] / 2E[L]` until the next, with :math:`x = k / m`:

    .. math:: w(k) = k\,\frac{1 - e^{-x}(1 + x)}{x\,(1 - e^{-x})}

    (:math:`k / 2` as prefills grow rare); the request waits :math:`w(k) - w(1)` more than
    under a poll every step.
    """
    # a poll every step (every engine's but a command's SGLang): nothing to price, checked
    # before any arithmetic, since the fixed points ask at every pass
    if ndim(interval) == 0:
        if interval <= 1.0:
            return 0.0
        if ndim(prefills_per_s) == 0 and ndim(step_s) == 0:  # one scenario: plain floats
            per_step = float(prefills_per_s) * float(step_s)
            return _residual(float(interval), per_step) - _residual(1.0, per_step)
    elif not any_true(np.asarray(interval) > 1.0):
        return 0.0
    per_step = np.multiply(prefills_per_s, step_s)
    interval = np.maximum(interval, 1.0)
    return _residual_arrays(interval, per_step) - _residual_arrays(1.0, per_step)


def _residual(steps, per_step):
    """:func:`polled_steps`' w(k) in plain floats, prefills coming ``per_step`` a decode step
    (its series below x = 1e-3; math.exp may round apart from numpy's in the last bit, so a
    scenario with an interval matches a sweep's to 1e-12, not to the bit)."""
    x = steps * per_step
    if x < 1e-3:
        return steps * (0.5 - x / 12.0)
    if x > 700.0:  # a prefill every step: the poll follows it
        return steps / x
    decay = math.exp(-x)
    return steps * (1.0 - decay * (1.0 + x)) / (x * (1.0 - decay))


def _residual_arrays(steps, per_step):
    """:func:`_residual` over arrays."""
    x = np.minimum(np.multiply(steps, per_step), 700.0)
    small = x < 1e-3
    safe = np.where(small, 1.0, x)
    decay = np.exp(-safe)
    full = (1.0 - decay * (1.0 + safe)) / (safe * (1.0 - decay))
    return steps * np.where(small, 0.5 - x / 12.0, full)


def riding_passes(node, miss):
    """The steps a riding prompt of ``miss`` tokens takes: one a pass of the release's chunk."""
    return node.prompt_passes(miss)


def step_size_s(node, beside, miss, terms):
    """What ``miss`` prompt tokens beside ``beside`` decodes add as the step's size prices it."""
    experts = node.riding_stream_s(beside, miss, terms)
    return experts + node.riding_collectives_s(beside, miss, terms)


def riding_excess_s(node, beside, tokens, step_s, riding_s):
    r"""What a prompt of ``tokens`` tokens riding beside ``beside`` decoding requests adds to one
    part of their steps beyond its own share of it: the step's size prices that part
    (:meth:`~core.engine_level.expert_layers.ExpertLayers.riding_stream_s`,
    :meth:`~core.engine_level.collectives.Collectives.riding_collectives_s`).

    Notes
    -----
    Over the prompt's :math:`n` passes (:meth:`~core.engine_level.node.Node.prompt_passes`) of
    :math:`c = T / n` tokens, with :math:`P` (``step_s``) the part in a step of a given size and
    :math:`P_r` (``riding_s``) a riding chunk's own:

    .. math:: t = n \max\big(0,\ P(d + c) - P(d) - P_r(c)\big)
    """
    passes = node.prompt_passes(tokens)
    chunk = np.divide(tokens, passes)
    beyond = step_s(np.add(beside, chunk)) - step_s(beside) - riding_s(chunk)
    return passes * np.maximum(beyond, 0.0)


def coalesced(overhead, rate):
    r"""The share of one dispatch ``overhead`` a prompt pays when prompts come at ``rate`` a second.

    Notes
    -----
    Prompts that arrive while one is dispatched join the next dispatch: on average
    :math:`1 + \lambda t_o` prompts share each, so each holds the cards
    :math:`t_o / (1 + \lambda t_o)`.
    """
    return overhead / (1.0 + np.multiply(rate, overhead))
