"""One model's cache split by the kind of layer that holds it: full attention, window, state.

A hybrid model's layers keep different things. A full-attention layer keeps a key and a value
for every token; a sliding-window layer for at most its last ``w`` tokens; a linear-attention or
state-space layer a state of fixed size per sequence, however long; an MLP-only block nothing.
:func:`layer_kind_rows` gives one row per kind the model has, each with the layers of that kind,
what one of them holds per token (or per sequence), and the total for one sequence of ``tokens``
tokens, so the rows add up to the model's own cache (:func:`shape_kv_bytes_per_token` times
``tokens``).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from core.catalog import ModelShape
from core.whiteboard.attention import (
    full_attention_layers,
    indexer_bytes_per_layer,
    kv_numbers_per_layer,
)


@dataclass(frozen=True)
class LayerKindRow:
    """One kind of layer: how many, what one holds, and what all of them hold for one sequence.

    ``per_layer_bytes`` is per token for attention layers and per sequence for state layers
    (``per_sequence`` tells which); ``seat_bytes`` is all the layers of this kind for one
    sequence of the rows' ``tokens``; ``held_tokens`` the tokens each attention layer keeps.
    """

    kind: str
    what: str
    layers: int
    per_layer_bytes: float
    per_sequence: bool
    held_tokens: float
    seat_bytes: float


def kv_layers(shape: ModelShape) -> int:
    """Layers that keep keys and values per token: full attention and window, not state or MLP."""
    return shape.layers - shape.cacheless_layers


def state_bytes_per_layer(shape: ModelShape, bytes_per_number: float) -> float:
    """Bytes one state layer keeps per sequence (0 for a model without state layers)."""
    return float(bytes_per_number * shape.state_numbers)


def attention_only_layers(shape: ModelShape) -> int:
    """Full-attention layers: all but the windowed, state and MLP-only ones."""
    return full_attention_layers(shape) - shape.cacheless_layers


def layer_kind_rows(
    shape: ModelShape, bytes_per_number: float, tokens: float
) -> list[LayerKindRow]:
    """The model's cache by kind of layer, for one sequence of ``tokens`` tokens.

    Notes
    -----
    Full attention: :math:`L_f` layers of :math:`b\\,n` bytes a token, :math:`L_f b n T`;
    window: :math:`L_w b n \\min(T, w)`; state: :math:`L_s b\\,n_s` whatever :math:`T`;
    MLP-only: nothing. With :math:`n = 2 H_{kv} d_h` (or MLA's latent) and :math:`n_s` one
    state layer's numbers. The rows add up to :math:`T\\,b_{kv}(T)`.
    """
    tokens = float(max(tokens, 1.0))
    per_token = float(
        bytes_per_number
        * kv_numbers_per_layer(
            shape.kv_heads, shape.head_dim, shape.kv_lora_rank, shape.qk_rope_head_dim
        )
    )
    held = float(np.minimum(tokens, shape.sliding_window)) if shape.sliding_window else tokens
    full = attention_only_layers(shape)
    window_word = "chunk" if shape.chunked_attention else "window"
    indexer = float(indexer_bytes_per_layer(shape.indexer_dim))
    first = LayerKindRow("full attention", "a key and a value for every token", full, per_token,
                         False, tokens, full * per_token * tokens)  # fmt: skip
    if shape.sparse_top_k:
        first = LayerKindRow(
            "sparse attention (DSA)",
            f"a latent per token and {indexer:,.0f} B of indexer key; each query reads the "
            f"{shape.sparse_top_k:,} tokens the indexer picks", full, per_token + indexer, False,
            tokens, full * (per_token + indexer) * tokens,
        )  # fmt: skip
    rows = [
        first,
        LayerKindRow(f"sliding {window_word}",
                     f"keys and values of the last {shape.sliding_window:,} tokens only",
                     shape.window_layers, per_token, False, held,
                     shape.window_layers * per_token * held),
        LayerKindRow(shape.state_kind or "state", "a state of fixed size per sequence, "
                     f"{shape.state_numbers:,.0f} numbers", shape.state_layers,
                     bytes_per_number * shape.state_numbers, True, 0.0,
                     shape.state_layers * bytes_per_number * shape.state_numbers),
        LayerKindRow("MLP only", "no attention: nothing kept", shape.mlp_layers, 0.0, False, 0.0,
                     0.0),
    ]  # fmt: skip
    return [row for row in rows if row.layers > 0]


def seat_total(rows: list[LayerKindRow]) -> float:
    """All the rows' bytes for one sequence: the model's own cache of that sequence."""
    return float(sum(row.seat_bytes for row in rows))


def paged_full_bytes_per_token(shape: ModelShape, bytes_per_number: float) -> float:
    """Bytes a token costs where an engine gives windowed layers full-size pages.

    Notes
    -----
    Every attention layer, windowed or not, then holds the whole sequence:
    :math:`b\\,n\\,(L - L_0)`.
    """
    numbers = kv_numbers_per_layer(
        shape.kv_heads, shape.head_dim, shape.kv_lora_rank, shape.qk_rope_head_dim
    )
    per_layer = bytes_per_number * numbers + indexer_bytes_per_layer(shape.indexer_dim)
    return float(per_layer * (shape.layers - shape.cacheless_layers))
