"""Handing a value through :func:`functools.lru_cache` without making it part of the key."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, eq=False)
class Unkeyed:
    """A value a cached function reads on a miss but is not keyed by: any two are equal.

    A study cached by a scenario's knobs can then take the scenario's evaluated result, which
    the caller already holds, instead of evaluating it again; the key stays the knobs alone
    (the result follows from them). The cache keeps the first call's value with its entry.

    Examples
    --------
    >>> Unkeyed(1) == Unkeyed(2) and hash(Unkeyed(1)) == hash(Unkeyed(None))
    True
    """

    value: object = None

    def __eq__(self, other) -> bool:
        return isinstance(other, Unkeyed)

    def __hash__(self) -> int:
        return 0
