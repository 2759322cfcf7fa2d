"""One very long sequence: what its attention costs, whether one node holds it, and what not.

At 1,000 tokens a prompt's prefill is the weights' arithmetic, :math:`2 P T`; attention's own
arithmetic grows with the square of the length and passes it somewhere past 100,000 tokens.
The cache grows linearly, and past some length one sequence needs more KV room than a node has
after its weights: then the sequence has to be split over nodes (context parallelism). Ring
attention, the usual way, keeps a slice of the sequence on each node and passes every slice's
keys and values around the ring once per layer, so each node receives nearly the whole cache.
This module prices that on paper: a figure and a sentence, not a simulator.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog import INFINIBAND_NDR_BYTES_PER_S, PREFILL_EFFICIENCY, ModelShape
from core.catalog.custom import scenario_gpu, scenario_shape
from core.whiteboard.attention import (
    causal_pairs,
    indexer_bytes_per_layer,
    kv_numbers_per_layer,
    prefill_head_width,
    shape_kv_bytes_per_token,
)
from core.whiteboard.layer_kinds import attention_only_layers


@dataclass(frozen=True)
class LongContext:
    """One sequence of ``tokens`` tokens against one node's KV room, with the split it needs.

    ``nodes_needed`` is 0 where the node's weights leave no KV room at all; ``ring_*`` price
    context parallelism over that many nodes (zero when one node suffices).
    """

    tokens: float
    seat_bytes: float
    attention_flops: float
    weight_flops: float
    attention_share: float
    room_bytes: float
    fits: bool
    cache_grows: bool  # False where no layer attends to the whole sequence
    most_tokens: float  # 0 where the cache stops growing (any length fits once it fits)
    nodes_needed: int
    ring_bytes_per_node: float
    ring_s: float
    attention_s: float


def attention_flops(shape: ModelShape, tokens) -> np.ndarray:
    """FLOPs of causal attention over a whole prompt of ``tokens`` tokens.

    Notes
    -----
    Token :math:`i` scores and mixes :math:`i` earlier keys in each of :math:`H_q` heads,
    :math:`4 i d` FLOPs a layer (:math:`d` the head's width, :func:`prefill_head_width`); a
    window layer at most :math:`w`, a chunked layer its chunk's; state layers none
    (:func:`~core.whiteboard.attention.causal_pairs`' :math:`p` and :math:`p_w`):

    .. math:: F = 4 H_q d \\left(L_f\\,p(T) + L_w\\,p_w(T)\\right)

    Under DeepSeek sparse attention a query mixes at most :math:`k` tokens,
    :math:`4 L_f H_q d (k T - k^2 / 2)` past :math:`T = k`, and the indexer scores every
    earlier token in :math:`H_{idx}` heads of :math:`d_{idx}`: :math:`+ L_f H_{idx} d_{idx} T^2`.
    """
    tokens = np.asarray(tokens, dtype=float)
    per_head = shape.query_heads * prefill_head_width(shape)
    layers = attention_only_layers(shape)
    if shape.sparse_top_k:
        mixed = causal_pairs(tokens, float(shape.sparse_top_k))  # as if a window of k
        scored = layers * shape.indexer_heads * shape.indexer_dim * np.square(tokens)
        return 4.0 * layers * per_head * mixed + scored
    windowed = causal_pairs(tokens, shape.sliding_window, shape.chunked_attention)
    return 4.0 * per_head * (layers * causal_pairs(tokens) + shape.window_layers * windowed)


def most_tokens(shape: ModelShape, bytes_per_number: float, room_bytes: float) -> float:
    """The longest sequence whose cache fits ``room_bytes``.

    Notes
    -----
    A sequence of :math:`T \\ge w` tokens holds :math:`b n (L_f T + L_w w) + S`; solved for
    :math:`T`. Without full-attention layers the cache stops growing, and any length fits once
    its fixed part does (reported as 0; :attr:`LongContext.cache_grows` says which).
    """
    per_layer = bytes_per_number * float(
        kv_numbers_per_layer(
            shape.kv_heads, shape.head_dim, shape.kv_lora_rank, shape.qk_rope_head_dim
        )
    ) + float(indexer_bytes_per_layer(shape.indexer_dim))
    fixed = per_layer * shape.window_layers * shape.sliding_window
    fixed += bytes_per_number * shape.state_numbers_per_sequence
    growing = per_layer * attention_only_layers(shape)
    if room_bytes <= fixed:
        return 0.0
    return float(np.floor((room_bytes - fixed) / growing)) if growing else 0.0


def long_context(
    shape: ModelShape, bytes_per_number: float, tokens: float, room_bytes: float, cards: int,
    peak_flops: float,
) -> LongContext:  # fmt: skip
    """One ``tokens``-token sequence on a node of ``cards`` cards with ``room_bytes`` of KV room.

    Notes
    -----
    Nodes needed :math:`N = \\lceil T b_{kv}(T) / R \\rceil`. Ring attention over :math:`N`
    nodes sends each node the other slices' cache once, :math:`(N-1)/N \\cdot T b_{kv}` bytes,
    at :math:`c` NDR InfiniBand ports of 50 GB/s; the attention arithmetic it can hide behind
    is :math:`F / (N c\\,F_{peak}\\,\\eta)` at prefill's 50 % of peak.
    """
    tokens = float(max(tokens, 1.0))
    seat = tokens * float(shape_kv_bytes_per_token(shape, bytes_per_number, tokens))
    attention = float(attention_flops(shape, tokens))
    weights = 2.0 * shape.active_params * tokens
    nodes = int(np.ceil(seat / room_bytes - 1e-9)) if room_bytes > 0 else 0
    split = max(nodes, 1)
    ring = seat * (split - 1) / split
    return LongContext(
        tokens=tokens,
        seat_bytes=seat,
        attention_flops=attention,
        weight_flops=weights,
        attention_share=attention / (attention + weights),
        room_bytes=float(max(room_bytes, 0.0)),
        fits=bool(room_bytes > 0 and seat <= room_bytes),
        cache_grows=attention_only_layers(shape) > 0,
        most_tokens=most_tokens(shape, bytes_per_number, max(room_bytes, 0.0)),
        nodes_needed=nodes,
        ring_bytes_per_node=ring,
        ring_s=ring / (cards * INFINIBAND_NDR_BYTES_PER_S),
        attention_s=attention / (split * cards * peak_flops * PREFILL_EFFICIENCY),
    )


def scenario_long_context(scenario, result, tokens: float) -> LongContext:
    """:func:`long_context` for a scenario and its evaluated ``result``, at ``tokens`` tokens.

    The attention arithmetic is priced at the card's bf16 dense peak (attention runs in bf16
    whatever the weights' format).
    """
    return long_context(
        scenario_shape(scenario), float(result.kv_bytes_per_number), tokens,
        float(result.kv_budget_bytes), int(result.cards), scenario_gpu(scenario).bf16_flops,
    )  # fmt: skip
