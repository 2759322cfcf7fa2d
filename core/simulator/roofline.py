"""The roofline: whether a step is limited by the card's arithmetic or by its memory reads.

A step that does ``F`` FLOPs while reading ``Q`` bytes has arithmetic intensity ``F / Q``.
Below the card's ridge point (peak FLOP/s over bandwidth) it cannot use the arithmetic it
has: it waits on memory, and reaches at most intensity x bandwidth. Above the ridge it runs
into the flat compute roof. A decode step reads all the weights to do two FLOPs per
parameter per seat, so its intensity is about the batch size (in bf16) and sits far left of
an H100's ridge of about 295 FLOP/byte; a prefill of a long prompt does the same read for
hundreds of tokens at once and sits on the roof.

Intensities use the same FLOP and byte counts as the timing model: 2 FLOPs per active
parameter per token, the weights read once per step, and the cache each seat reads.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.foundation.validation import check_array
from core.simulator.steps import StepCosts


def ridge_point(peak_flops, hbm_bytes_per_s):
    """FLOPs per byte at which a card's memory can just keep its arithmetic busy.

    Notes
    -----
    .. math:: I^{*} = F / B

    An H100 SXM in bf16: 989e12 / 3.35e12, about 295 FLOP/byte (datasheet peaks).
    """
    return np.divide(peak_flops, hbm_bytes_per_s)


def attainable_flops(intensity, peak_flops, hbm_bytes_per_s):
    """FLOP/s a step of ``intensity`` can reach: the lower of the roof and the slope.

    Notes
    -----
    .. math:: R(I) = \\min(F,\\ I \\cdot B)
    """
    return np.minimum(peak_flops, np.multiply(intensity, hbm_bytes_per_s))


def decode_intensity(costs: StepCosts, batch, context_tokens):
    """Arithmetic intensity of one decode step of ``batch`` seats of ``context_tokens`` each.

    Notes
    -----
    .. math:: I_{dec} = \\frac{2 P s}{W + s\\,T\\,b_{kv}}

    With bf16 weights (:math:`W = 2P`) and a short cache this is about :math:`s`: one FLOP
    per byte per seat, so it takes hundreds of seats to reach an H100's ridge.
    """
    batch = check_array("batch", batch, (1, None))
    check_array("context_tokens", context_tokens, (0, None))
    flops = 2.0 * costs.active_params * batch
    read = costs.weight_bytes + batch * np.multiply(context_tokens, costs.kv_bytes_per_token)
    return flops / read


def prefill_intensity(costs: StepCosts, prompt_tokens):
    """Arithmetic intensity of prefilling a ``prompt_tokens``-token prompt.

    Notes
    -----
    The pass reads the weights once and writes the prompt's cache:

    .. math:: I_{pre} = \\frac{2 P T}{W + T\\,b_{kv}}
    """
    tokens = check_array("prompt_tokens", prompt_tokens, (1, None))
    return (
        2.0
        * costs.active_params
        * tokens
        / (costs.weight_bytes + tokens * costs.kv_bytes_per_token)
    )


@dataclass(frozen=True)
class Roofline:
    """A card's roof, and where a decode step and a prefill sit under it.

    ``intensity``/``attainable`` trace the roof; ``path``/``path_attainable`` the decode
    step from 1 to :data:`PATH_SEATS` seats; ``decode`` and ``prefill`` are the two steps'
    intensities with their attainable FLOP/s; ``ridge`` the ridge point.
    """

    peak_flops: float
    hbm_bytes_per_s: float
    ridge: float
    intensity: np.ndarray
    attainable: np.ndarray
    path: np.ndarray
    path_attainable: np.ndarray
    decode: float
    decode_attainable: float
    prefill: float
    prefill_attainable: float

    @property
    def decode_memory_bound(self) -> bool:
        """True when the decode step sits left of the ridge: it waits on memory."""
        return self.decode < self.ridge

    @property
    def prefill_compute_bound(self) -> bool:
        """True when the prefill reaches the flat compute roof."""
        return self.prefill >= self.ridge


PATH_SEATS = 256
ROOF_INTENSITIES = (0.5, 20_000)  # FLOP/byte span of the roof drawn


def roofline(costs: StepCosts, batch, context_tokens, prompt_tokens) -> Roofline:
    """The roof of ``costs``' card and its decode (``batch`` seats) and prefill points."""
    peak, bandwidth = costs.peak_flops, costs.hbm_bytes_per_s
    intensity = np.geomspace(*ROOF_INTENSITIES, 120)
    path = decode_intensity(costs, np.arange(1, PATH_SEATS + 1), context_tokens)
    decode = float(decode_intensity(costs, batch, context_tokens))
    prefill = float(prefill_intensity(costs, prompt_tokens))
    return Roofline(
        peak_flops=peak,
        hbm_bytes_per_s=bandwidth,
        ridge=float(ridge_point(peak, bandwidth)),
        intensity=intensity,
        attainable=attainable_flops(intensity, peak, bandwidth),
        path=path,
        path_attainable=attainable_flops(path, peak, bandwidth),
        decode=decode,
        decode_attainable=float(attainable_flops(decode, peak, bandwidth)),
        prefill=prefill,
        prefill_attainable=float(attainable_flops(prefill, peak, bandwidth)),
    )
