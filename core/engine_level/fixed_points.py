"""Where a loop's request time R meets its own image R = g(R): the engine level's fixed points.

A closed loop's and an open loop's figures (:mod:`core.engine_level.load`) hang on one request
time that their own equations give back, a disaggregated decode pool's on one step
(:mod:`core.engine_level.serving_modes`). Each hands the residual R - g(R) and a bracket
(negative at its low end, not at its high one) to :func:`false_position`, which takes at most a
fixed number of steps and leaves each scenario's bracket alone once it has closed, so a sweep of
scenarios and one scenario take the same operations on each, and has a twin on plain floats for
one scenario (the same bits at a fraction of the cost); :func:`own_image` picks between them.

Until issue 37's thirtieth round both loops took 30 damped iterations, R <- (R + g(R)) / 2,
which contract the error by (1 + g') / 2 a step. Near saturation the closed loop's g falls with
a slope in the hundreds and the iterations stopped wherever they were (a higher hit rate could
raise the first token); where the open loop's g rises with a slope near 1 each step contracted
the error by little, and 2.7 % of 1,500 random scenarios (tests/strategies.py) ended more than
10 % from the fixed point, some with a finite first token where every seat fills and the queue
never drains. The decode pool's 20 undamped iterations stopped short the same way (11 of 1,000
random disaggregated scenarios more than 10 % off).
"""

from __future__ import annotations

import numpy as np

from core.foundation.vector import any_true

# False-position steps (its Illinois variant): 24 reach each loop's fixed point to a part in
# 10^6 in every one of 1,500 random scenarios (tests/strategies.py; a closed loop's figures agree
# with 64 halvings of its bracket to 2 parts in 10^14), in fewer step prices than the damped
# iterations took.
FALSE_POSITION_STEPS = 24
# A bracket whose ends lie within this share of its high end has closed (a few units in the last
# place of a double): the steps after it only trade one end for its neighbour. A scenario's loop
# closes in 5 to 10 steps (bench/core.py's three), so stopping there saves most step prices.
CLOSED_SHARE = 2.0**-50
# The low end of every bracket: a request time shorter than any the engine level prices.
SHORTEST_REQUEST_S = 1e-12


def false_position(residual, low, high, steps=FALSE_POSITION_STEPS):
    """Where ``residual`` (negative at ``low``, not at ``high``) crosses zero, elementwise.

    Notes
    -----
    Each step tries the secant's zero :math:`c = (a f_b - b f_a) / (f_b - f_a)` inside the
    bracket and keeps the side that still brackets the crossing; where one end moves twice
    running, the other end's residual is halved (the Illinois variant), so both ends close in
    rather than one staying put. An element whose bracket has closed (:data:`CLOSED_SHARE`), or
    whose high end is an exact root (every later guess lands on it), keeps its ends; the steps
    stop once every element does. Returns whichever end's residual is the smaller.
    """
    low, high = np.broadcast_arrays(np.asarray(low, dtype=float), np.asarray(high, dtype=float))
    at_low, at_high = residual(low), residual(high)
    side = np.zeros(np.shape(low))
    for _ in range(steps):
        moving = (high - low > CLOSED_SHARE * high) & (at_high != 0.0)
        if not any_true(moving):
            break
        gap = at_high - at_low
        secant = (low * at_high - high * at_low) / np.where(gap > 0.0, gap, 1.0)
        guess = np.where(gap > 0.0, secant, 0.5 * (low + high))
        guess = np.clip(guess, np.minimum(low, high), np.maximum(low, high))
        at_guess = residual(guess)
        upper = moving & (at_guess >= 0.0)  # the crossing lies between low and the guess
        lower = moving & ~(at_guess >= 0.0)
        at_low = np.where(upper & (side > 0), 0.5 * at_low, at_low)
        at_high = np.where(lower & (side < 0), 0.5 * at_high, at_high)
        high, at_high = np.where(upper, guess, high), np.where(upper, at_guess, at_high)
        low, at_low = np.where(lower, guess, low), np.where(lower, at_guess, at_low)
        side = np.where(upper, 1.0, np.where(lower, -1.0, side))
    return np.where(np.abs(at_low) < np.abs(at_high), low, high)


def false_position_scalar(residual, low, high, steps=FALSE_POSITION_STEPS):
    """:func:`false_position` for one scenario, on plain floats."""
    low, high = float(low), float(high)
    at_low, at_high = float(residual(low)), float(residual(high))
    side = 0.0
    for _ in range(steps):
        if not (high - low > CLOSED_SHARE * high and at_high != 0.0):
            break
        gap = at_high - at_low
        guess = (low * at_high - high * at_low) / gap if gap > 0.0 else 0.5 * (low + high)
        guess = min(max(guess, min(low, high)), max(low, high))
        at_guess = float(residual(guess))
        if at_guess >= 0.0:  # the crossing lies between low and the guess
            at_low = 0.5 * at_low if side > 0 else at_low
            high, at_high, side = guess, at_guess, 1.0
        else:
            at_high = 0.5 * at_high if side < 0 else at_high
            low, at_low, side = guess, at_guess, -1.0
    return low if abs(at_low) < abs(at_high) else high


def own_image(residual, high, *inputs):
    """Where ``residual`` crosses zero between :data:`SHORTEST_REQUEST_S` and ``high``: on plain
    floats where ``high`` and every one of the ``inputs`` the residual reads are one scenario's,
    else elementwise over their broadcast shape."""
    shape = np.broadcast(high, *inputs).shape
    if shape == ():
        return false_position_scalar(residual, SHORTEST_REQUEST_S, high)
    return false_position(residual, SHORTEST_REQUEST_S, np.broadcast_to(high, shape))
