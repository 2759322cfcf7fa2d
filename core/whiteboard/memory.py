"""Card memory: weights first, then the KV cache that decides how many seats run at once.

Every function takes scalars or numpy arrays and broadcasts, so one call evaluates a sweep.
"""

from __future__ import annotations

import numpy as np

from core.catalog import MEMORY_MARGIN


def kv_bytes_per_token(layers, kv_heads, head_dim, bytes_per_number):
    """Bytes of KV cache one token of one running sequence occupies.

    Notes
    -----
    Each layer stores a key and a value vector per KV head:

    .. math:: b_{kv} = 2 \\cdot b_{num} \\cdot L \\cdot H_{kv} \\cdot d_{head}

    An 8B-class model (32 layers, 8 KV heads, head dim 128) in bf16 stores 131,072 bytes.
    """
    return 2.0 * bytes_per_number * layers * kv_heads * head_dim


def weight_bytes(params, bytes_per_weight):
    """Bytes the model's weights occupy across all of its cards: parameters x bytes each."""
    return params * bytes_per_weight


def kv_budget_bytes(cards, card_memory_bytes, weights_bytes, margin=MEMORY_MARGIN):
    """Memory left for the KV cache once the weights are loaded, less a safety margin.

    Notes
    -----
    .. math:: R = \\max(0,\\ c \\cdot M - W) \\cdot (1 - m)

    with ``c`` cards of ``M`` bytes, weights ``W`` and margin ``m`` (5 %). Weights larger
    than the cards leave no room at all (zero, never negative).
    """
    free = np.maximum(0.0, cards * card_memory_bytes - weights_bytes)
    return free * (1.0 - margin)


def seats_that_fit(budget_bytes, seat_tokens, bytes_per_token):
    """Whole seats of ``seat_tokens`` each that the KV budget holds (``room for N``)."""
    return np.floor(budget_bytes / (seat_tokens * bytes_per_token) + 1e-9)


def seats_granted(requested, budget_bytes, seat_tokens, bytes_per_token):
    """Seats that actually run: the scheduler's ask, capped by what memory holds.

    Notes
    -----
    .. math:: s = \\min\\left(s_{req},\\ \\lfloor R / (T_{seat} \\cdot b_{kv}) \\rfloor\\right)

    The excess over the cap waits in the queue; nothing reports an error.
    """
    fit = seats_that_fit(budget_bytes, seat_tokens, bytes_per_token)
    return np.minimum(requested, fit)


def cards_needed(weights_bytes, seat_bytes, card_memory_bytes, margin=MEMORY_MARGIN):
    """Fewest cards whose memory holds the weights and the cache of at least one seat.

    Notes
    -----
    From :math:`(c M - W)(1 - m) \\ge b_{seat}`:
    :math:`c = \\lceil (W + b_{seat} / (1 - m)) / M \\rceil`.
    """
    return np.ceil((weights_bytes + seat_bytes / (1.0 - margin)) / card_memory_bytes - 1e-9)
