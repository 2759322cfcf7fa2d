"""Speculative decoding: a cheap draft guesses ahead, the target checks every guess in one pass.

A draft model proposes ``k`` tokens; the target model runs one verification pass over all
``k + 1`` positions of every seat and keeps the longest prefix it agrees with, plus one token
of its own. With a per-token acceptance rate ``alpha`` (Leviathan et al. 2023, "Fast Inference
from Transformers via Speculative Decoding") a pass yields on average
:func:`expected_tokens_per_pass` tokens.

The pass is priced with the same step model as the simulator (:class:`core.simulator.steps.StepCosts`):
the verification pass reads the weights and every seat's cache once, like a decode step, but
does the arithmetic of ``k + 1`` tokens per seat. While the batch is small the read dominates
and verifying ``k + 1`` tokens costs about one step, so a lone request streams 2 to 3 times
faster; once ``batch x (k + 1)`` tokens of arithmetic outweigh the read, verification costs
``k + 1`` steps of arithmetic and the trick stops paying (and, with a draft to run as well,
costs a little). A long cache keeps the pass read-bound longer, so the fade comes later.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.foundation.validation import check_array
from core.foundation.vector import ndim
from core.simulator.steps import StepCosts

MAX_DRAFT_TOKENS = 16


def expected_tokens_per_pass(draft_tokens, acceptance):
    """Tokens one verification pass yields on average.

    Parameters
    ----------
    draft_tokens : int or array
        ``k``, the tokens the draft proposes per pass, 1 to 16.
    acceptance : float or array
        ``alpha``, the chance the target accepts each drafted token, 0 to 1.

    Notes
    -----
    Each drafted token survives with probability :math:`\\alpha` given the ones before it,
    and the target always adds one token of its own (a correction or a bonus), so

    .. math:: E[n] = \\sum_{i=0}^{k} \\alpha^i = \\frac{1 - \\alpha^{k+1}}{1 - \\alpha}

    which is :math:`k + 1` at :math:`\\alpha = 1` and 1 at :math:`\\alpha = 0`.
    """
    k = check_array("draft_tokens", draft_tokens, (1, MAX_DRAFT_TOKENS), integer=True)
    alpha = check_array("acceptance", acceptance, (0.0, 1.0))
    powers = np.arange(MAX_DRAFT_TOKENS + 1)
    terms = np.where(
        powers <= np.expand_dims(k, -1), np.expand_dims(alpha, -1) ** powers, 0.0
    )  # summing the series avoids 0/0 at alpha = 1
    total = terms.sum(axis=-1)
    return float(total) if total.ndim == 0 else total


def plain_step_seconds(costs: StepCosts, batch, context_tokens):
    """One ordinary decode step of ``batch`` seats each holding ``context_tokens`` tokens."""
    batch = np.asarray(batch, dtype=float)
    return costs.decode_s(batch, batch * context_tokens)


def pass_seconds(costs: StepCosts, batch, draft_tokens, draft_cost, context_tokens):
    """Seconds of one speculative pass: ``k`` draft steps and one verification pass.

    Notes
    -----
    With :math:`t(s)` the plain decode step of :math:`s` seats,

    .. math:: t_{pass} = k\\,c_d\\,t(s) + \\max\\left(\\frac{W + s\\,T\\,b_{kv}}{c B \\eta_B},\\
              \\frac{2 P s (k + 1)}{c F \\eta_F}\\right)

    where :math:`c_d` is the draft's step as a share of the target's at the same batch.
    """
    batch = np.asarray(batch, dtype=float)
    draft = draft_tokens * draft_cost * plain_step_seconds(costs, batch, context_tokens)
    read = costs.read_s(batch * context_tokens)
    arithmetic = costs.compute_s(batch * (draft_tokens + 1))
    return draft + np.maximum(read, arithmetic)


def speedup(costs: StepCosts, batch, draft_tokens, acceptance, draft_cost, context_tokens=0):
    """How many times faster each stream writes tokens with speculation than without.

    Parameters
    ----------
    costs : StepCosts
        The target model's node.
    batch : int or array
        Seats decoding together, at least 1 (vectorised: pass an array for a curve).
    draft_tokens, acceptance : int, float
        ``k`` and ``alpha`` (see :func:`expected_tokens_per_pass`).
    draft_cost : float
        One draft step as a share of one target step at the same batch, 0 to 1.
    context_tokens : float
        Tokens each seat's cache holds (0: weights only, the textbook case).

    Notes
    -----
    .. math:: S = \\frac{E[n]\\; t(s)}{t_{pass}}

    At batch 1 the verification pass is read-bound and costs about one step, so
    :math:`S \\approx E[n] / (1 + k c_d)`; at a batch whose arithmetic dominates both,
    :math:`S \\to E[n] / (k c_d + k + 1) < 1`.
    """
    check_array("batch", batch, (1, None))
    check_array("draft_cost", draft_cost, (0.0, 1.0))
    check_array("context_tokens", context_tokens, (0, None))
    tokens = expected_tokens_per_pass(draft_tokens, acceptance)
    plain = plain_step_seconds(costs, batch, context_tokens)
    result = tokens * plain / pass_seconds(costs, batch, draft_tokens, draft_cost, context_tokens)
    return float(result) if ndim(result) == 0 else result


@dataclass(frozen=True)
class PassTerms:
    """One speculative pass at one batch, term by term, as a derivation shows it.

    ``tokens`` a pass yields on average, the ``plain`` decode step, the whole ``pass_s``, its
    ``draft_s`` and ``verify_s`` parts, the verify pass's ``read_s`` and ``arithmetic_s`` (the
    larger one sets it: ``read_bound``), and the resulting ``speedup``.
    """

    tokens: float
    plain_s: float
    pass_s: float
    draft_s: float
    verify_s: float
    read_s: float
    arithmetic_s: float
    read_bound: bool
    speedup: float


def pass_terms(costs: StepCosts, batch, draft_tokens, acceptance, draft_cost, context_tokens):
    """The terms of :func:`speedup` at one batch size (see :func:`pass_seconds` for the pass).

    Notes
    -----
    :math:`t_{draft} = k\\,c_d\\,t(s)`, :math:`t_{verify} = t_{pass} - t_{draft}`,
    read :math:`= (W + s\\,T\\,b_{kv}) / (c B \\eta_B)`, arithmetic
    :math:`= 2 P s (k + 1) / (c F \\eta_F)`.
    """
    tokens = expected_tokens_per_pass(draft_tokens, acceptance)
    plain = float(plain_step_seconds(costs, batch, context_tokens))
    whole = float(pass_seconds(costs, batch, draft_tokens, draft_cost, context_tokens))
    draft = draft_tokens * draft_cost * plain
    read = float(costs.read_s(batch * context_tokens))
    arithmetic = float(costs.compute_s(batch * (draft_tokens + 1)))
    return PassTerms(
        tokens=tokens,
        plain_s=plain,
        pass_s=whole,
        draft_s=draft,
        verify_s=whole - draft,
        read_s=read,
        arithmetic_s=arithmetic,
        read_bound=read >= arithmetic,
        speedup=speedup(costs, batch, draft_tokens, acceptance, draft_cost, context_tokens),
    )
