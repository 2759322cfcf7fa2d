"""Small helpers that keep scalar evaluation fast while the same code handles arrays."""

from __future__ import annotations

import numpy as np


def where(condition, if_true, if_false):
    """``np.where`` that returns a plain scalar for scalar inputs.

    Arithmetic on numpy's 0-d arrays costs about ten times that on scalars, and a single
    evaluation runs a hundred such operations, so scalars stay scalars.
    """
    if is_array(condition) or is_array(if_true) or is_array(if_false):
        return np.where(condition, if_true, if_false)
    return if_true if condition else if_false


def is_array(value) -> bool:
    """True for a numpy array of one or more dimensions (cheaper than ``np.ndim``)."""
    return isinstance(value, np.ndarray) and value.ndim > 0


def ndim(value) -> int:
    """``np.ndim``, answered without numpy's dispatch for plain numbers and arrays (a step's
    hot path asks it of every argument, and ``np.ndim`` costs a microsecond a call)."""
    if isinstance(value, (float, int)):  # a tuple: faster than a union here
        return 0
    if isinstance(value, np.ndarray):
        return value.ndim
    return np.ndim(value)


def plain(*values) -> bool:
    """Whether every one of ``values`` is a plain number (a Python int or float, or a numpy
    float): one scenario's figure, which a function may then compute without numpy's dispatch
    (anything else, a numpy int among them, takes the function's numpy path)."""
    for value in values:  # noqa: SIM110 (a loop, not all() and its generator: hot paths)
        if not isinstance(value, (float, int)):
            return False
    return True


def any_true(value) -> bool:
    """``bool(np.any(value))``, without numpy's dispatch for a plain number or a bool."""
    if isinstance(value, (float, int, np.bool_)):
        return bool(value)
    if isinstance(value, np.ndarray):
        return bool(value.any())
    return bool(np.any(value))


def as_number(value):
    """A float array for array-likes, a numpy float for scalars."""
    array = np.asarray(value, dtype=float)
    return array if array.ndim else np.float64(array)
