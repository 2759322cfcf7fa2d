"""The one survival rule of a least-recently-used cache, stated once.

An LRU cache evicts the entry used longest ago first, so an entry is still there when it is
next asked for exactly when everything used since its last use, plus the entry itself, fits:

.. math:: B_{since} + B \\le M

with :math:`B_{since}` the bytes of the distinct other entries used since, :math:`B` its own
and :math:`M` the cache's capacity. Every cache figure of the lab follows from it: the fleet's
replay applies it access by access (:func:`lru_hits`), the session table applies it to the
bytes a node writes between two turns (:func:`first_tier`), and the offloaded share solves it
for the session's prefixes in closed form (:func:`growing_entries_held`). Tiers that cascade
(HBM evicts into host memory, host memory into NVMe) act as one LRU of their cumulative
capacity, so an entry is found in the first tier whose cumulative capacity satisfies the rule.
"""

from __future__ import annotations

from collections import OrderedDict

import numpy as np


def survives(bytes_since, own_bytes, capacity_bytes):
    """Whether an LRU cache still holds an entry when it is next asked for.

    Parameters
    ----------
    bytes_since : float or array
        Bytes of the distinct other entries used since the entry's last use.
    own_bytes : float or array
        The entry's own bytes.
    capacity_bytes : float or array
        The cache's capacity (cumulative, for cascading tiers).

    Notes
    -----
    .. math:: B_{since} + B \\le M

    Examples
    --------
    >>> bool(survives(3.0, 1.0, 4.0)), bool(survives(3.5, 1.0, 4.0))
    (True, False)
    >>> survives([0, 2, 4], 1, 3).tolist()
    [True, True, False]
    """
    return np.asarray(bytes_since, dtype=float) + own_bytes <= capacity_bytes


def first_tier(bytes_since, own_bytes, cumulative_capacities) -> np.ndarray:
    """Index of the first tier that still holds an entry; ``len(cumulative_capacities)`` if none.

    Notes
    -----
    The smallest :math:`t` with :func:`survives` at :math:`M_t`, the capacities cumulative
    (HBM, then HBM and host memory, ...), so the first that holds it is where it is found.

    Examples
    --------
    >>> first_tier([1.0, 5.0, 50.0], 1.0, [4.0, 10.0]).tolist()
    [0, 1, 2]
    >>> first_tier(3.0, [1.0, 2.0], [4.0, 10.0]).tolist()
    [0, 1]
    """
    rooms = np.asarray(cumulative_capacities, dtype=float)
    since, own = np.broadcast_arrays(np.asarray(bytes_since, dtype=float), own_bytes)
    kept = survives(since[..., None], own[..., None], rooms)
    return np.where(kept.any(axis=-1), np.argmax(kept, axis=-1), len(rooms))


def lru_hits(keys, sizes, capacity, caches=None) -> np.ndarray:
    """Replay accesses through LRU caches of ``capacity`` bytes: whether each found its key.

    Parameters
    ----------
    keys : array of int
        The entry each access asks for.
    sizes : float or array
        Bytes the entry holds after the access (a session's prefix grows turn by turn).
    capacity : float
        Each cache's capacity, in the units of ``sizes``.
    caches : array of int, optional
        Which cache each access goes to (a replica); one cache when omitted.

    Notes
    -----
    Access by access, this is :func:`survives`: an entry is evicted (least recently used
    first) only while the bytes held exceed :math:`M`, so it is found again exactly when
    :math:`B_{since} + B \\le M` held at every eviction since its last use.

    Examples
    --------
    With room for two entries of one byte, alternating between two keys hits after the first
    use of each; with room for one, never:

    >>> lru_hits([0, 1, 0, 1], 1.0, 2.0).tolist()
    [False, False, True, True]
    >>> lru_hits([0, 1, 0, 1], 1.0, 1.0).tolist()
    [False, False, False, False]
    """
    keys = np.asarray(keys)
    size_of = np.broadcast_to(np.asarray(sizes, dtype=float), keys.shape).tolist()
    where = np.zeros(keys.shape, dtype=np.int64) if caches is None else np.asarray(caches)
    nodes = int(where.max()) + 1 if where.size else 0
    held = [OrderedDict() for _ in range(nodes)]
    used = [0.0] * nodes
    found = [False] * keys.size
    for i, (node, key, size) in enumerate(zip(where.tolist(), keys.tolist(), size_of, strict=True)):
        cache = held[node]
        total = used[node] + size
        if key in cache:
            found[i] = True
            total -= cache[key]
            cache.move_to_end(key)
        cache[key] = size
        while total > capacity and cache:
            total -= cache.popitem(last=False)[1]
        used[node] = total
    return np.array(found, dtype=bool)


def growing_entries_held(room, bytes_since, first_tokens, growth, per_token, count):
    """How many of a session's prefixes, shortest first, a cumulative room keeps.

    Parameters
    ----------
    room : float or array
        Cumulative capacity :math:`M` in bytes.
    bytes_since : float or array
        Bytes written between two turns, :math:`r\\Delta`.
    first_tokens, growth : float or array
        Prefix :math:`j` is :math:`p_j = P + j g` tokens.
    per_token : float or array
        Bytes a token's cache takes, :math:`b`.
    count : float or array
        Prefixes a session reuses (its turns less one).

    Notes
    -----
    :func:`survives` solved for :math:`j`: :math:`r\\Delta + (P + j g) b \\le M`. The prefixes
    grow with :math:`j`, so the ones kept are the first :math:`J` (all or none when
    :math:`g = 0`).

    Examples
    --------
    Room for a churn of 100 bytes and prefixes of 10, 15, 20 and 25 one-byte tokens:

    >>> float(growing_entries_held(120.0, 100.0, 10.0, 5.0, 1.0, 4.0))
    3.0
    """
    spare_tokens = (room - bytes_since) / np.maximum(per_token, 1e-300) - first_tokens
    with np.errstate(divide="ignore", invalid="ignore"):
        counted = np.floor(spare_tokens / np.where(growth > 0, growth, 1.0) + 1e-9) + 1.0
    counted = np.where(growth > 0, counted, np.where(spare_tokens >= 0, count, 0.0))
    return np.clip(np.nan_to_num(counted, nan=0.0, posinf=0.0, neginf=0.0), 0.0, count)
