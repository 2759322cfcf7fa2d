"""The prefix hit rate, derived one way for every caller.

A hit rate is a share of prompt tokens: the reusable prefixes that were found cached over every
token the prompts sent,

.. math:: h = \\frac{\\sum_i [\\text{found}_i]\\, p_i}{\\sum_i C_i}

(:func:`hit_rate`). The session table (:func:`core.cache.session_table.session_cache`) sums it
over one session's turns, the fleet (:func:`derived_hit_rate`) over the hour's requests; which
prefixes are found is always :func:`core.cache.lru.survives`.
"""

from __future__ import annotations

import numpy as np

from core.cache.fleet import fleet_for


def hit_rate(found, reused_tokens, sent_tokens) -> float:
    """Share of the sent tokens that were found cached: :math:`\\sum [f_i] p_i / \\sum_i C_i`.

    Parameters
    ----------
    found : array of bool
        Whether each reuse found its prefix.
    reused_tokens : float or array
        Each reuse's prefix, :math:`p_i` (broadcast against ``found``).
    sent_tokens : float or array
        Every prompt's tokens, :math:`C_i` (summed whole: first turns reuse nothing).

    Examples
    --------
    Turns of 1,000, 1,500 and 2,000 tokens; the second finds its 1,000, the third misses:

    >>> hit_rate([True, False], [1000.0, 1500.0], [1000.0, 1500.0, 2000.0])
    0.2222222222222222
    """
    found_tokens = np.sum(np.where(found, reused_tokens, 0.0))
    sent = float(np.sum(sent_tokens))
    return float(found_tokens) / sent if sent > 0 else 0.0


def derived_hit_rate(pool, values, knobs: dict):
    """The hit rate the fleet's replicas find for the hour's sessions (``prefix_source="derived"``).

    Parameters
    ----------
    pool : PoolKnobs
        The resolved knobs (the router, the traffic, the prompt, the knob's hit rate).
    values : dict
        The pool's figures: its KV room, the cache in use, the request time, the nodes.
    knobs : dict
        The checked knobs; the session knobs and ``kv_offload`` are read.

    Notes
    -----
    How the fleet and the sessions compose: the fleet's replicas hold the student's sessions.
    With the session knobs off, the knob's :math:`h` is the reusable share of each prompt and
    every session (:data:`core.cache.sessions.DEFAULT_TURNS` turns) leaves one such prefix,

    .. math:: h_{derived} = h \\cdot \\frac{1}{n} \\sum_i [s_i \\text{ cached on its replica}].

    With them on, the sessions' own turns decide and the knob is not read: turn :math:`k`
    reuses :math:`C_{k-1}` of its :math:`C_k = P + (k-1) g` tokens, on a replica that keeps
    HBM's spare room and the offload tiers',

    .. math:: h_{derived} = \\frac{\\sum_i [s_i \\text{ cached}]\\, C_{k_i - 1}}{\\sum_i C_{k_i}},

    the session table's :math:`h` for the fleet's routing and the hour's traffic. The table
    takes every gap between turns as its mean :math:`\\Delta`; the replay draws them, so near
    the eviction threshold it still finds the prefixes of the shorter gaps. Where a found
    prefix sits (HBM or a tier) stays the closed form's (:func:`core.cache.tiers.offloaded_hits`).
    """
    runs, shape = fleet_for(pool, values, pool.router, knobs)
    shares = np.array([hit_rate(run.cached, run.reused, run.sent) for run in runs])
    share = shares.reshape(shape) if shape else shares[0]
    return share if knobs["session_turns"] is not None else pool.hit_rate * share
