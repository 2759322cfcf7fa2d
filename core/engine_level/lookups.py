"""Per-name lookups over factorized catalog keys, shared by the engine level's field builders."""

from __future__ import annotations

import numpy as np

from core.catalog.engine_versions import engine_version


def names(key) -> np.ndarray:
    """A key of :func:`lookup` as an array: a factorized (unique, index) pair of names expanded;
    a name, or values (a card's memory, a flag; a number or an array), as they are."""
    if isinstance(key, tuple):
        return np.asarray(key[0], dtype=object)[key[1]]
    return np.asarray(key, dtype=object)


def lookup(function, *keys):
    """``function`` of the names in ``keys``, each a name, a factorized (unique, index) pair or
    values (:func:`names`), evaluated once for each distinct combination."""
    for key in keys:  # a loop, not all(): one scenario asks this forty times an evaluation
        if not isinstance(key, str):
            break
    else:
        return np.float64(function(*keys))
    columns = np.broadcast_arrays(*(names(key) for key in keys))
    found: dict = {}
    rows = list(zip(*(column.ravel() for column in columns), strict=True))
    for row in rows:
        if row not in found:
            found[row] = function(*row)
    return np.asarray([found[row] for row in rows], dtype=float).reshape(columns[0].shape)


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
