"""What one token costs in the KV cache under each attention variant: MHA, GQA, MQA, MLA, windows.

Multi-head attention caches a key and a value vector for every query head; grouped-query
attention shares each key/value pair among a group of query heads (multi-query attention is the
one-group extreme); multi-head latent attention (DeepSeek) caches one compressed latent per layer
and rebuilds keys and values from it. A sliding-window layer keeps only its last ``w`` tokens,
so past ``w`` its cache stops growing. Every function takes scalars or numpy arrays.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np

from core.catalog import ModelShape
from core.foundation.vector import any_true, plain

# DeepSeek-V2 sizes its latent at four head dims and its decoupled rotary key at half of one
# (d_c = 4 d_h, d_h^R = d_h / 2; arXiv 2405.04434, section 2.1): used to show what MLA would
# store for a model that was not built with it.
MLA_LATENT_PER_HEAD_DIM = 4
MLA_ROPE_PER_HEAD_DIM = 0.5
# Llama 3 and most GQA models of 2024-26 share each key/value pair among groups to 8 KV heads.
GQA_KV_HEADS = 8
# DeepSeek-V3.2's indexer cache: its keys in fp8 (one byte a number) with one fp32 scale per
# 128 numbers (DeepSeek-V3.2-Exp's inference code; vLLM's indexer cache stores the same)
INDEXER_SCALE_BYTES = 4


def indexer_bytes_per_layer(indexer_dim) -> np.ndarray:
    """Bytes a DeepSeek-sparse-attention indexer caches per token per layer (0 without one).

    Notes
    -----
    :math:`d_{idx}` fp8 numbers and one 4-byte scale per 128 of them.
    """
    if plain(indexer_dim) and math.isfinite(indexer_dim):  # one scenario, without numpy
        dim = float(indexer_dim)
        return dim + INDEXER_SCALE_BYTES * math.ceil(dim / 128.0) if dim > 0 else 0.0
    dim = np.asarray(indexer_dim, dtype=float)
    return np.where(dim > 0, dim + INDEXER_SCALE_BYTES * np.ceil(dim / 128.0), 0.0)


def kv_numbers_per_layer(kv_heads, head_dim, kv_lora_rank=0, qk_rope_head_dim=0):
    """Numbers one layer caches for one token.

    Notes
    -----
    Keys and values for each KV head, or, with multi-head latent attention (rank :math:`r > 0`),
    the latent and the shared rotary key:

    .. math:: n = 2 H_{kv} d_{head} \\quad\\text{or}\\quad n = r + d_{rope}
    """
    if plain(kv_heads, head_dim, kv_lora_rank, qk_rope_head_dim):  # one scenario
        latent = float(kv_lora_rank + qk_rope_head_dim)
        return latent if kv_lora_rank > 0 else 2.0 * (kv_heads * head_dim)
    latent = np.add(kv_lora_rank, qk_rope_head_dim)
    return np.where(np.asarray(kv_lora_rank) > 0, latent, 2.0 * np.multiply(kv_heads, head_dim))


def causal_pairs(tokens, window=None, chunked=False) -> np.ndarray:
    r"""Query-key pairs one head of one layer scores over a causal prompt of ``tokens`` tokens.

    Token :math:`i` scores the :math:`i` keys up to it; a sliding-window layer (``window``
    :math:`w > 0`; None or 0: none) the last :math:`\min(i, w)`; a chunked-attention layer
    (``chunked``, Llama 4's) those of its own chunk of :math:`w`. Counted as areas (a token's
    pair with itself as half):

    .. math:: p(T) = \frac{T^2}{2}, \quad p_w(T) = \frac{\min(T, w)^2}{2} + w \max(T - w, 0),
              \quad p_c(T) = \left\lfloor \frac{T}{w} \right\rfloor \frac{w^2}{2}
              + \frac{(T \bmod w)^2}{2}

    The pairs of the tokens after the first :math:`T_0` are :math:`p(T) - p(T_0)`.
    """
    if window is None or not any_true(window):  # no window here (a hot path): a full layer's
        if isinstance(tokens, float):  # one scenario's figure, in Python floats
            return tokens * tokens / 2
        return np.square(np.asarray(tokens, dtype=float)) / 2
    tokens = np.asarray(tokens, dtype=float)
    windowed = np.asarray(window, dtype=float) > 0
    span = np.where(windowed, window, 1.0)
    sliding = np.square(np.minimum(tokens, span)) / 2 + span * np.maximum(tokens - span, 0.0)
    chunks = np.floor(tokens / span) * np.square(span) / 2 + np.square(np.mod(tokens, span)) / 2
    limited = np.where(np.asarray(chunked, dtype=bool), chunks, sliding)
    return np.where(windowed, limited, np.square(tokens) / 2)


def prefill_head_width(shape):
    """The mean of a prompt's query-key and value head sizes, its attention's width per head, for
    a model ``shape`` (a :class:`~core.catalog.ModelShape` or a pool of its fields).

    Notes
    -----
    A prompt's token scores each earlier key with :math:`d_{qk}` numbers and mixes its value's
    :math:`d_v`, :math:`2 (d_{qk} + d_v) = 4 w` FLOPs a pair in each query head. Multi-head and
    grouped-query attention have :math:`d_{qk} = d_v = d_{head}`. Multi-head latent attention
    prefills a prompt in its multi-head form, keys and values rebuilt from the latent, whose
    keys carry the shared rotary part beside their own (DeepSeek-V3's config.json:
    ``qk_nope_head_dim`` 128 + ``qk_rope_head_dim`` 64 = 192 against ``v_head_dim`` 128; the
    head size here is the value's, which the catalog's latent models match to the keys' own
    part: a pasted config whose keys' own part is wider reads at the value's size):

    .. math:: w = d_{head} \\quad\\text{or}\\quad w = d_{head} + d_{rope} / 2
    """
    rope = np.where(np.asarray(shape.kv_lora_rank) > 0, shape.qk_rope_head_dim, 0.0)
    return np.add(shape.head_dim, np.multiply(rope, 0.5))


def kv_bytes_per_token(
    layers, numbers_per_layer, bytes_per_number, tokens, sliding_window=0, window_layers=0,
    cacheless_layers=0, state_bytes=0.0, indexer_bytes=0.0,
):  # fmt: skip
    """Bytes of cache per token of a sequence ``tokens`` long, averaged over the sequence.

    Notes
    -----
    Of :math:`L` layers, :math:`L_w` keep at most :math:`w` tokens and :math:`L_0` keep no
    key and value at all (linear-attention, state-space and MLP-only layers of a hybrid); the
    state layers hold :math:`S` bytes per sequence whatever its length, shared over its
    :math:`T` tokens; a sparse-attention indexer adds :math:`e` bytes a token per layer:

    .. math:: b_{kv} = (b_{num}\\, n + e) \\left((L - L_w - L_0) + L_w \\frac{\\min(T, w)}{T}\\right)
              + \\frac{S}{T}

    With no windowed or hybrid layer this is :math:`b_{num}\\, n\\, L` whatever the length: for
    an 8B-class model, :math:`2 \\cdot 2 \\cdot 8 \\cdot 128 \\cdot 32 = 131{,}072` bytes.
    """
    parts = (layers, numbers_per_layer, bytes_per_number, tokens, sliding_window, window_layers)
    if plain(*parts, cacheless_layers, state_bytes, indexer_bytes):  # one scenario, same bits
        tokens = max(float(tokens), 1.0)
        windowed = min(tokens, sliding_window) if sliding_window > 0 else tokens
        layers_paid = (layers - window_layers - cacheless_layers) + window_layers * (
            windowed / tokens
        )
        per_layer = bytes_per_number * numbers_per_layer + indexer_bytes
        return per_layer * layers_paid + state_bytes / tokens
    tokens = np.maximum(np.asarray(tokens, dtype=float), 1.0)
    windowed = np.where(np.asarray(sliding_window) > 0, np.minimum(tokens, sliding_window), tokens)
    full = np.subtract(np.subtract(layers, window_layers), cacheless_layers)
    layers_paid = full + np.multiply(window_layers, windowed / tokens)
    per_layer = np.multiply(bytes_per_number, numbers_per_layer) + indexer_bytes
    return per_layer * layers_paid + np.divide(state_bytes, tokens)


def shape_kv_bytes_per_token(shape: ModelShape, bytes_per_number, tokens):
    """:func:`kv_bytes_per_token` for a catalog shape at a sequence length of ``tokens``."""
    numbers = kv_numbers_per_layer(
        shape.kv_heads, shape.head_dim, shape.kv_lora_rank, shape.qk_rope_head_dim
    )
    return kv_bytes_per_token(
        shape.layers, numbers, bytes_per_number, tokens, shape.sliding_window, shape.window_layers,
        shape.cacheless_layers, bytes_per_number * shape.state_numbers_per_sequence,
        indexer_bytes_per_layer(shape.indexer_dim),
    )  # fmt: skip


@dataclass(frozen=True)
class KvVariant:
    """One attention variant's cache for one model: the figure and the factors that give it.

    ``factors`` multiply to ``bytes_per_token`` (for a model without windowed layers); each is
    ``(what it counts, value)`` so a lab can write the derivation line.
    """

    name: str
    what: str
    factors: tuple[tuple[str, float], ...]
    bytes_per_token: float
    the_models_own: bool
    seat_bytes: float = 0.0  # one sequence of ``tokens`` tokens
    seats_room: float = 0.0  # such sequences the KV room holds


def full_attention_layers(shape: ModelShape) -> int:
    """Layers that attend to the whole sequence: all but the sliding-window ones."""
    return shape.layers - shape.window_layers


def seats_for(room_bytes, tokens, bytes_per_token):
    """Whole sequences of ``tokens`` tokens that ``room_bytes`` of KV room holds."""
    return np.floor(np.divide(room_bytes, np.multiply(tokens, bytes_per_token)) + 1e-9)


def attention_variants(
    shape: ModelShape, bytes_per_number: float, tokens: float = 0.0, room_bytes: float = 0.0
) -> list[KvVariant]:
    r"""The same model's KV bytes per token under MHA, GQA and MLA, side by side.

    With ``tokens`` and ``room_bytes`` each variant also reports one sequence's cache and how
    many such sequences the room holds.

    Notes
    -----
    The query heads and head dim stay the model's. MHA caches a key and value per query head;
    GQA one per group (the model's own KV heads if it groups, else :data:`GQA_KV_HEADS`); MLA
    the model's own latent if it has one, else one sized as DeepSeek-V2 sizes its own,
    :math:`4 d_h + d_h/2` numbers per layer. Window layers are left out of the three (every
    layer sees the whole context), so they compare like with like; a model with window layers
    gets a fourth row, its own attention as built, at ``tokens``:
    :math:`b \cdot n \cdot (L - L_w + L_w \min(T, W) / T)` bytes a token, the figure the lab's
    card shows, and that row is the model's own.
    """
    heads, dim = shape.query_heads, shape.head_dim
    layers = shape.layers - shape.cacheless_layers  # a hybrid's attention layers only
    own = shape.attention
    gqa_heads = shape.kv_heads if own in ("GQA", "MQA") else min(GQA_KV_HEADS, heads)
    if own == "MLA":
        rank, rope = shape.kv_lora_rank, shape.qk_rope_head_dim
    else:
        rank, rope = MLA_LATENT_PER_HEAD_DIM * dim, MLA_ROPE_PER_HEAD_DIM * dim
    rows = [
        ("MHA", "a key and a value for every query head",
         (("K and V", 2), ("heads", heads), ("head dim", dim))),
        ("GQA" if gqa_heads > 1 else "MQA",
         f"{heads // max(gqa_heads, 1)} query heads share each key/value head",
         (("K and V", 2), ("KV heads", gqa_heads), ("head dim", dim))),
        ("MLA", f"one latent of {rank:g} numbers plus a shared rotary key of {rope:g}",
         (("latent + rotary key", rank + rope),)),
    ]  # fmt: skip
    variants = []
    for name, what, per_layer in rows:
        numbers = float(np.prod([value for _, value in per_layer]))
        per_token = float(bytes_per_number * layers * numbers)
        variants.append(
            KvVariant(
                name=name,
                what=what,
                factors=(("bytes per number", bytes_per_number), ("layers", layers), *per_layer),
                bytes_per_token=per_token,
                the_models_own=name == own,
                seat_bytes=float(tokens * per_token),
                seats_room=float(seats_for(room_bytes, tokens, per_token)) if tokens else 0.0,
            )
        )
    if shape.window_layers and tokens:
        return _with_windows(shape, variants, bytes_per_number, tokens, room_bytes)
    return variants


def _with_windows(shape, variants, bytes_per_number, tokens, room_bytes) -> list[KvVariant]:
    """The variants, plus the model's own attention with its window layers at ``tokens``."""
    full = next(v for v in variants if v.the_models_own)
    per_token = float(shape_kv_bytes_per_token(shape, bytes_per_number, tokens))
    per_layer = full.factors[2:]
    numbers = float(np.prod([value for _, value in per_layer]))
    layers_paid = per_token / (bytes_per_number * numbers)
    built = KvVariant(
        name=f"{full.name} + window",
        what=(
            f"{shape.window_layers} of the {shape.layers} layers keep only the last "
            f"{shape.sliding_window:,} tokens"
        ),
        factors=(("bytes per number", bytes_per_number), ("layers paid", layers_paid), *per_layer),
        bytes_per_token=per_token,
        the_models_own=True,
        seat_bytes=float(tokens * per_token),
        seats_room=float(seats_for(room_bytes, tokens, per_token)),
    )
    return [replace(v, the_models_own=False) for v in variants] + [built]


def own_variant(shape: ModelShape, bytes_per_number: float) -> KvVariant:
    """The model's own attention among :func:`attention_variants` (its derivation line)."""
    return next(v for v in attention_variants(shape, bytes_per_number) if v.the_models_own)


def sparse_read_share(numbers_per_layer, bytes_per_number, indexer_bytes, top_k, tokens):
    """Share of a sequence's cache one decode step reads under DeepSeek sparse attention.

    Notes
    -----
    Each layer reads the indexer's keys of all :math:`T` tokens and the latents of the
    :math:`k` it picks, of the :math:`T (b n + e)` it stores (1 without top-k selection):

    .. math:: \\rho = \\frac{\\min(T, k)\\, b n + T e}{T (b n + e)}
    """
    tokens = np.maximum(np.asarray(tokens, dtype=float), 1.0)
    latent = np.multiply(bytes_per_number, numbers_per_layer)
    picked = np.where(np.asarray(top_k) > 0, np.minimum(tokens, top_k), tokens)
    return (picked * latent + tokens * indexer_bytes) / (tokens * (latent + indexer_bytes))
