"""Knob validation with one message shape: the knob, the value, and what is allowed.

Values are checked as what they are: a number knob takes real numbers only (not ``True``,
which Python counts as 1, nor the text ``"16"``, nor a complex number); a choice takes the
exact text of one of its options (``"chat\x00"`` is not ``"chat"``). The value a message
shows is cut to a few dozen characters, so a 100,000-character value gives a short error.
"""

from __future__ import annotations

import numpy as np
import param


def describe_range(bounds, inclusive=(True, True)) -> str:
    """Human text for a numeric range, e.g. ``1 to 4,096`` or ``greater than 0 up to 1``."""
    low, high = bounds
    low_text = "" if low is None else f"{low:,}"
    high_text = "" if high is None else f"{high:,}"
    if low is not None and high is not None:
        if inclusive == (True, True):
            return f"{low_text} to {high_text}"
        return f"{'from' if inclusive[0] else 'above'} {low_text} {'up to' if inclusive[1] else 'below'} {high_text}"
    if low is not None:
        return f"{'at least' if inclusive[0] else 'above'} {low_text}"
    return f"{'at most' if inclusive[1] else 'below'} {high_text}"


SHOWN_CHARS = 40  # the longest value a message quotes in full


def shown(value) -> str:
    """``repr(value)``, cut to :data:`SHOWN_CHARS` characters (saying how long text was)."""
    text = repr(value)
    if len(text) <= SHOWN_CHARS:
        return text
    size = f" ({len(value):,} characters)" if isinstance(value, str) else ""
    return f"{text[: SHOWN_CHARS - 1]}\u2026{size}"


def knob_error(knob: str, value, allowed: str) -> ValueError:
    """The ValueError every bad knob raises."""
    return ValueError(f"{knob}={shown(value)} is not allowed: {knob} must be {allowed}")


def is_real(value) -> bool:
    """Whether ``value`` is one real number: an int or float (numpy's too), never a bool."""
    real = isinstance(value, int | float | np.integer | np.floating)
    return real and not isinstance(value, bool | np.bool_)


def real_array(values) -> np.ndarray | None:
    """``values`` (a number, or an array or list of numbers) as floats; None if anything is not one."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iuf":
        return values.astype(float, copy=False)
    if is_real(values):
        return np.asarray(values, dtype=float)
    if not isinstance(values, np.ndarray | list | tuple):
        return None
    try:
        objects = np.asarray(values, dtype=object)
    except ValueError:  # ragged nesting
        return None
    if all(is_real(value) for value in objects.flat):
        return objects.astype(float)
    return None


class _RangeMessage:
    """Mixin that rewrites param's one-sided bound message into knob, value and full range."""

    def _validate_bounds(self, val, bounds, inclusive_bounds):
        try:
            super()._validate_bounds(val, bounds, inclusive_bounds)
        except ValueError:
            raise knob_error(self.name, val, describe_range(bounds, inclusive_bounds)) from None

    def _validate_value(self, val, allow_None):
        kind = "a whole number" if isinstance(self, param.Integer) else "a number"
        allowed = f"{kind}, {describe_range(self.bounds, self.inclusive_bounds)}"
        if val is not None and not is_real(val):  # True is not 1; complex has no order
            raise knob_error(self.name, val, allowed)
        try:
            super()._validate_value(val, allow_None)
        except ValueError:
            raise knob_error(self.name, val, allowed) from None


class Count(_RangeMessage, param.Integer):
    """An integer knob whose errors name the full allowed range."""


class Amount(_RangeMessage, param.Number):
    """A real-valued knob whose errors name the full allowed range."""


class Choice(param.Selector):
    """A knob that is one of its options, exactly; its errors name the options, not a repr."""

    def _validate_value(self, value, allow_None=None):
        try:
            super()._validate_value(value, allow_None)
        except ValueError:
            options = ", ".join(str(option) for option in self.objects if option is not None)
            raise knob_error(self.name, value, f"one of {options}") from None


def check_array(knob: str, values, bounds, inclusive=(True, True), integer=False) -> np.ndarray:
    """Validate a scalar or array of knob values against ``bounds``; return it as an array.

    Raises
    ------
    ValueError
        Naming the knob, the first offending value and the allowed range.
    """
    array = real_array(values)
    if array is None:
        kind = "a whole number" if integer else "a number"
        raise knob_error(knob, values, f"{kind}, {describe_range(bounds, inclusive)}")
    low, high = bounds
    bad = ~np.isfinite(array)
    if integer:
        bad |= array != np.round(array)
    if low is not None:
        bad |= array < low if inclusive[0] else array <= low
    if high is not None:
        bad |= array > high if inclusive[1] else array >= high
    if bad.any():
        first = array[bad].flat[0] if array.ndim else array.item()
        first = int(first) if integer and float(first).is_integer() else float(first)
        kind = "a whole number, " if integer else ""
        raise knob_error(knob, first, kind + describe_range(bounds, inclusive))
    return array


def check_choice(knob: str, values, choices) -> np.ndarray:
    """Validate a name or an array of names against the allowed ``choices``.

    Each name must be text equal to a choice (or None where None is one): not a number, not
    bytes, not a name with a trailing NUL, which numpy would otherwise drop.
    """
    if isinstance(values, np.ndarray) and values.dtype.kind == "U":
        distinct = np.unique(values).tolist()
    else:
        objects = np.asarray(values, dtype=object)
        try:
            distinct = list(dict.fromkeys(objects.flat))
        except TypeError:  # an unhashable value (a dict, a list) is never a choice
            distinct = [next(v for v in objects.flat if not isinstance(v, str | None))]
    for value in distinct:
        text = isinstance(value, str) or (value is None and None in choices)
        if not text or value not in choices:
            shown_choices = ", ".join(str(choice) for choice in choices if choice is not None)
            raise knob_error(knob, value, f"one of {shown_choices}")
    return np.asarray(values)
