"""Mixtures of experts: what a decode step reads, and how experts spread over a node's cards.

Memory pays for every expert; a decode step reads only the experts its batch routes to. One
request touches ``k`` of ``E`` experts in a layer, a batch of ``B`` about ``E (1 - (1 - k/E)^B)``,
so a mixture of experts is cheap to read at batch 1 and nearly as dear as a dense model of the
same size at a large batch. Every function takes scalars or numpy arrays.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog import ModelShape
from core.foundation.vector import plain


def expert_weight_bytes_read(weight_bytes, params, active_params, experts, per_token, batch):
    """Weight bytes one decode step of ``batch`` requests reads from a mixture of experts.

    Notes
    -----
    With :math:`E` experts per layer of which each token uses :math:`k`, a batch of :math:`B`
    tokens touches on average :math:`E (1 - (1 - k/E)^B)` distinct experts. The shared part
    (attention, embeddings, routers) is always read:

    .. math:: W_{read} = W \\frac{P_{shared} + E (1 - (1-k/E)^B) P_{expert}}{P}

    with :math:`P_{expert} = (P - P_{active}) / (E - k)`. A dense model (E = 1) reads all of W,
    and so does a mixture whose every token takes every expert (k = E): nothing is skipped.
    A step runs at least one token, so a batch below 1 reads what one token reads,
    :math:`W P_{active} / P`: never less (the shared part alone can come out negative when
    the input embedding, left out of :math:`P_{active}`, is large beside one expert).
    """
    if plain(experts, per_token, batch, params, active_params, weight_bytes):  # the same bits
        if experts <= 1 or per_token >= experts:
            return weight_bytes
        per_expert = (params - active_params) / (experts - per_token)
        shared = params - experts * per_expert
        share_hit = 1.0 - np.power(1.0 - per_token / experts, max(batch, 1.0))
        return weight_bytes * (shared + experts * share_hit * per_expert) / params
    dense = (np.asarray(experts) <= 1) | (np.asarray(per_token) >= np.asarray(experts))
    spare = np.where(dense, 1.0, np.subtract(experts, per_token))
    per_expert = np.where(dense, 0.0, np.subtract(params, active_params) / spare)
    shared = params - np.multiply(experts, per_expert)
    share_hit = 1.0 - np.power(1.0 - np.divide(per_token, experts), np.maximum(batch, 1.0))
    touched = np.multiply(experts, share_hit) * per_expert
    read = weight_bytes * (shared + touched) / params
    return np.where(dense, weight_bytes, read)


def distinct_experts(experts, per_token, batch):
    """Experts of one layer that a batch of ``batch`` tokens touches, on average.

    Notes
    -----
    Each token picks :math:`k` of :math:`E` experts; an expert escapes one token with
    probability :math:`1 - k/E`, and all :math:`B` tokens with its :math:`B`-th power:

    .. math:: E_{read} = E \\left(1 - (1 - k/E)^B\\right)

    One token reads :math:`k`; as :math:`B` grows this tends to :math:`E`. Routing is taken as
    independent and uniform (real routers are less even, so real batches touch a little fewer).
    """
    if plain(experts, per_token, batch):  # one scenario's step: numpy's power, then floats
        return experts * (1.0 - np.power(1.0 - per_token / experts, max(batch, 0.0)))
    share = np.divide(per_token, experts)
    return np.multiply(experts, 1.0 - np.power(1.0 - share, np.maximum(batch, 0.0)))


@dataclass(frozen=True)
class ReadCurve:
    """Weight bytes one decode step reads against batch size, for a model and its dense twin."""

    batch: np.ndarray
    moe_bytes: np.ndarray  # the mixture: shared weights plus the experts the batch touches
    dense_bytes: np.ndarray  # a dense model of the same total size reads everything every step
    active_bytes: float  # one token's share: shared weights plus k experts
    experts_read: np.ndarray  # distinct experts per layer


def read_curve(shape: ModelShape, bytes_per_weight: float, batch) -> ReadCurve:
    """Weight bytes read per decode step at each batch size in ``batch``.

    Notes
    -----
    With :math:`W = P\\,b_w` the weights and :math:`P_e = (P - P_{active})/(E - k)` one expert's
    parameters summed over the layers:

    .. math:: W_{read}(B) = b_w \\left(P - E P_e + E (1 - (1-k/E)^B) P_e\\right)

    A dense model (E = 1) reads :math:`W` at every batch size.
    """
    batch = np.asarray(batch, dtype=float)
    weights = shape.params * bytes_per_weight
    read = expert_weight_bytes_read(
        weights, shape.params, shape.active_params, shape.experts, shape.experts_per_token, batch
    )
    active = expert_weight_bytes_read(
        weights, shape.params, shape.active_params, shape.experts, shape.experts_per_token, 1.0
    )
    zeros = np.zeros(batch.shape)  # every figure as an array of the batch's shape
    return ReadCurve(
        batch=batch,
        moe_bytes=zeros + read,
        dense_bytes=zeros + weights,
        active_bytes=float(active),
        experts_read=zeros + distinct_experts(shape.experts, shape.experts_per_token, batch),
    )


def experts_per_card(experts, cards):
    """Experts each card holds when a layer's experts are spread over the node (expert parallelism).

    Notes
    -----
    .. math:: E_{card} = \\lceil E / c \\rceil

    Spreading experts instead of slicing every expert (tensor parallelism) keeps each expert's
    matrices whole on one card; the memory and the bytes read per card are the same on average.
    """
    return np.ceil(np.divide(experts, np.maximum(cards, 1)))


def needs_expert_parallelism(weight_bytes, card_memory_bytes, experts):
    """True where a mixture's weights are too large for one card, so its experts must spread."""
    return (np.asarray(experts) > 1) & (np.asarray(weight_bytes) > np.asarray(card_memory_bytes))
