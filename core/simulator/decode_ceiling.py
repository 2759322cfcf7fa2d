"""The decode ceiling: one stream can never beat the weight read, and a batch shares that read.

A decode step reads every weight once, however many seats it writes for, so one request
streams at most bandwidth over weight bytes; batching multiplies the tokens each read buys
until memory refuses the next seat (the memory wall).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog import BANDWIDTH_EFFICIENCY, BYTES_PER_NUMBER, GPUS, TIERS, Gpu, ModelShape
from core.evaluate import evaluate
from core.scenario.knobs import Scenario
from core.scenario.result import Result
from core.whiteboard import memory, timing

MOST_SEATS = 512  # the curve runs from one seat to this many
REFERENCE_TIER = "large"  # the textbook case: a 70B model in bf16 on one H100
REFERENCE_GPU = "H100 SXM"
REFERENCE_DTYPE = "bf16"


@dataclass(frozen=True)
class ReferenceCeiling:
    """The textbook ceiling: the large tier's weights read by one card for every token."""

    shape: ModelShape
    gpu: Gpu
    bytes_per_weight: int
    weight_bytes: float
    tokens_per_s: float


def reference_ceiling() -> ReferenceCeiling:
    """The large tier in bf16 on one H100: its weight bytes and single-stream ceiling.

    Notes
    -----
    .. math:: W = P \\cdot b_w, \\qquad r_{max} = B / W
    """
    shape, gpu = TIERS[REFERENCE_TIER], GPUS[REFERENCE_GPU]
    size = BYTES_PER_NUMBER[REFERENCE_DTYPE]
    weights = float(memory.weight_bytes(shape.params, size))
    ceiling = float(timing.single_stream_ceiling(weights, 1, gpu.hbm_bytes_per_s))
    return ReferenceCeiling(shape, gpu, size, weights, ceiling)


@dataclass(frozen=True)
class DecodeCeiling:
    """Aggregate and per-stream decode rates of a node against the seats requested.

    ``aggregate`` and ``stream`` are NaN where no seat fits. ``wall`` is the most seats
    memory grants when that is fewer than :data:`MOST_SEATS` (None otherwise); ``ceiling``
    is one request's rate at full bandwidth; ``one`` is the evaluation at one seat; ``best``
    the highest aggregate (0 when nothing runs); ``bandwidth_share`` the share of peak
    bandwidth the model's decode reaches.
    """

    seats: np.ndarray
    aggregate: np.ndarray
    stream: np.ndarray
    wall: int | None
    ceiling: float
    one: Result
    best: float
    bandwidth_share: float = BANDWIDTH_EFFICIENCY


def decode_ceiling(scenario: Scenario, prompt_tokens: int, answer_tokens: int) -> DecodeCeiling:
    """The decode-rate curve of ``scenario``'s node for requests of this shape, cold cache.

    Notes
    -----
    At :math:`s` granted seats a step reads :math:`W + s\\,T\\,b_{kv}` bytes, so the aggregate
    :math:`s / t(s)` climbs almost linearly while the weights dominate; the single-stream
    ceiling is :math:`c\\,B / W_1`, :math:`W_1` the weights one token reads (all of them for a
    dense model; :func:`core.whiteboard.timing.single_stream_ceiling`).
    """
    seats = np.arange(1, MOST_SEATS + 1)
    shape = {"prompt_tokens": prompt_tokens, "answer_tokens": answer_tokens, "prefix_hit_rate": 0.0}
    result = evaluate(scenario, seats=seats, **shape)
    one = evaluate(scenario, seats=1, **shape)
    served = result.seats_granted >= 1
    aggregate = np.where(served, result.decode_tokens_per_s, np.nan)
    stream = np.where(served, result.stream_tokens_per_s, np.nan)
    refused = np.flatnonzero(result.seats_granted < result.seats_requested)
    wall = int(seats[refused[0]] - 1) if refused.size else None
    ceiling = float(one.single_stream_tokens_per_s)
    best = float(np.nanmax(aggregate)) if np.isfinite(aggregate).any() else 0.0
    return DecodeCeiling(seats, aggregate, stream, wall or None, ceiling, one, best)
