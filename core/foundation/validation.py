"""Knob validation with one message shape: the knob, the value, and what is allowed."""

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


def knob_error(knob: str, value, allowed: str) -> ValueError:
    """The ValueError every bad knob raises."""
    return ValueError(f"{knob}={value!r} is not allowed: {knob} must be {allowed}")


class _RangeMessage:
    """Mixin that rewrites param's one-sided bound message into knob, value and full range."""

    def _validate_bounds(self, val, bounds, inclusive_bounds):
        try:
            super()._validate_bounds(val, bounds, inclusive_bounds)
        except ValueError:
            raise knob_error(self.name, val, describe_range(bounds, inclusive_bounds)) from None

    def _validate_value(self, val, allow_None):
        try:
            super()._validate_value(val, allow_None)
        except ValueError:
            kind = "a whole number" if isinstance(self, param.Integer) else "a number"
            raise knob_error(
                self.name, val, f"{kind}, {describe_range(self.bounds, self.inclusive_bounds)}"
            ) from None


class Count(_RangeMessage, param.Integer):
    """An integer knob whose errors name the full allowed range."""


class Amount(_RangeMessage, param.Number):
    """A real-valued knob whose errors name the full allowed range."""


def check_array(knob: str, values, bounds, inclusive=(True, True), integer=False) -> np.ndarray:
    """Validate a scalar or array of knob values against ``bounds``; return it as an array.

    Raises
    ------
    ValueError
        Naming the knob, the first offending value and the allowed range.
    """
    try:
        array = np.asarray(values, dtype=float)
    except (TypeError, ValueError):
        raise knob_error(knob, values, f"a number, {describe_range(bounds, inclusive)}") from None
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
    """Validate a name or an array of names against the allowed ``choices``."""
    array = np.asarray(values)
    distinct = dict.fromkeys(array.flat) if array.dtype == object else np.unique(array)
    for value in distinct:
        value = value.item() if isinstance(value, np.generic) else value
        if value not in choices:
            raise knob_error(knob, value, f"one of {', '.join(map(str, choices))}")
    return array
