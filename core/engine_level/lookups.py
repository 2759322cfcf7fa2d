"""Per-name lookups over factorized catalog keys, shared by the engine level's field builders."""

from __future__ import annotations

import numpy as np

from core.catalog.engine_versions import engine_version


def lookup(function, *keys):
    """``function`` of the names in ``keys``, each a name or a factorized (unique, index) pair."""
    for key in keys:  # a loop, not all(): one scenario asks this forty times an evaluation
        if not isinstance(key, str):
            break
    else:
        return np.float64(function(*keys))
    columns = [np.asarray(key, dtype=object) if isinstance(key, str) else
               np.asarray(key[0], dtype=object)[key[1]] for key in keys]  # fmt: skip
    columns = np.broadcast_arrays(*columns)
    cache: dict = {}
    flat = [
        cache.setdefault(names, function(*names))
        for names in zip(*(c.ravel() for c in columns), strict=True)
    ]
    return np.asarray(flat, dtype=float).reshape(columns[0].shape)


def release_field(attribute):
    """A figure of an engine's release, for :func:`lookup`."""
    return lambda name, version: getattr(engine_version(name, version), attribute)
