"""Time on the cards: prefill is compute bound, decode is bandwidth bound.

Every function takes scalars or numpy arrays and broadcasts.
"""

from __future__ import annotations

import numpy as np

from core.catalog import BANDWIDTH_EFFICIENCY, PREFILL_EFFICIENCY


def prefill_flops(active_params, prompt_tokens):
    """Floating-point operations to read a prompt.

    Notes
    -----
    A forward pass costs about two FLOPs per parameter per token (one multiply, one add):

    .. math:: F = 2 \\cdot P \\cdot T_{miss}

    Attention's own FLOPs are left out; they matter only for very long prompts.
    """
    return 2.0 * active_params * prompt_tokens


def prefill_seconds(active_params, prompt_tokens, cards, peak_flops, efficiency=PREFILL_EFFICIENCY):
    """Seconds of tensor time to prefill ``prompt_tokens`` on ``cards`` at ``efficiency`` of peak."""
    return prefill_flops(active_params, prompt_tokens) / (cards * peak_flops * efficiency)


def kv_read_seconds(kv_bytes, cards, hbm_bytes_per_s, efficiency=BANDWIDTH_EFFICIENCY):
    """Seconds to stream ``kv_bytes`` of stored cache from card memory."""
    return kv_bytes / (cards * hbm_bytes_per_s * efficiency)


def decode_step_seconds(
    weights_bytes,
    kv_bytes_in_use,
    active_params,
    running_seats,
    cards,
    hbm_bytes_per_s,
    peak_flops,
    bandwidth_efficiency=BANDWIDTH_EFFICIENCY,
    compute_efficiency=PREFILL_EFFICIENCY,
):
    """Seconds for one decode step that writes one token for every running seat.

    Notes
    -----
    The step re-reads every weight and every running seat's cache once, and is never
    faster than the arithmetic it does:

    .. math:: t = \\max\\left(\\frac{W + K}{c \\cdot B \\cdot \\eta_B},\\
              \\frac{2 P s}{c \\cdot F \\cdot \\eta_F}\\right)

    With one seat the first term is nearly all weights: the whole read buys one token.
    """
    read = (weights_bytes + kv_bytes_in_use) / (cards * hbm_bytes_per_s * bandwidth_efficiency)
    compute = prefill_seconds(active_params, running_seats, cards, peak_flops, compute_efficiency)
    return np.maximum(read, compute)


def single_stream_ceiling(weights_bytes, cards, hbm_bytes_per_s):
    """Tokens per second one request can never beat: peak bandwidth over the weight bytes.

    Notes
    -----
    .. math:: r_{max} = c \\cdot B / W

    70B parameters in bf16 (140 GB) on one card moving 3.35 TB/s: about 24 tokens/s,
    whatever the card's FLOP/s.
    """
    return cards * hbm_bytes_per_s / weights_bytes
