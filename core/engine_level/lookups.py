"""Per-name lookups over factorized catalog keys, shared by the engine level's field builders."""

from __future__ import annotations

import numpy as np

from core.catalog.engine_versions import engine_version


def names(key) -> np.ndarray:
    """A factorized key (a name, or a (unique, index) pair) as an array of names."""
    if isinstance(key, str):
        return np.asarray(key, dtype=object)
    return np.asarray(key[0], dtype=object)[key[1]]


def lookup(function, *keys):
    """``function`` of the names in ``keys``, each a name or a factorized (unique, index) pair."""
    for key in keys:  # a loop, not all(): one scenario asks this forty times an evaluation
        if not isinstance(key, str):
            break
    else:
        return np.float64(function(*keys))
    columns = np.broadcast_arrays(*(names(key) for key in keys))
    cache: dict = {}
    flat = [
        cache.setdefault(names, function(*names))
        for names in zip(*(c.ravel() for c in columns), strict=True)
    ]
    return np.asarray(flat, dtype=float).reshape(columns[0].shape)


def lookup_rows(row_of, *keys):
    """:func:`lookup` of a catalog row with several figures: ``row_of`` of the names in ``keys``,
    looked up once each; gives a function of an attribute's name (and ``code``, turning its
    value into a number) that returns that figure of each key's row."""
    rows: list = []

    def row_index(*names):
        rows.append(row_of(*names))
        return len(rows) - 1

    which = lookup(row_index, *keys).astype(int)

    def field(attribute, code=float):
        return np.asarray([code(getattr(row, attribute)) for row in rows])[which]

    return field


def release_field(attribute):
    """A figure of an engine's release, for :func:`lookup`."""
    return lambda name, version: getattr(engine_version(name, version), attribute)
