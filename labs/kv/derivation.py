"""The KV lab's derivation of one cached token: the factors that multiply to its bytes."""

from __future__ import annotations

from html import escape

from core.catalog import ModelShape
from core.whiteboard.attention import full_attention_layers, indexer_bytes_per_layer
from core.whiteboard.layer_kinds import kv_layers, state_bytes_per_layer
from labs.page import format as fmt


def _layers_text(shape) -> str:
    """The layers that cache keys and values, "of" all of them for a hybrid."""
    if shape.cacheless_layers:
        return f"{kv_layers(shape)} of {shape.layers} layers"
    return f"{shape.layers} layers"


def token_lines(
    shape: ModelShape, kv_dtype: str, number_bytes: int, tokens: int, per_token_bytes: float
) -> list[str]:
    """The derivation's first line (two for a hybrid, whose state gets a line of its own)."""
    if shape.kv_lora_rank:
        per_token = (
            f"{number_bytes} B ({kv_dtype}) \u00d7 {shape.layers} layers \u00d7 "
            f"({shape.kv_lora_rank} latent + {shape.qk_rope_head_dim} rotary key)"
        )
        if shape.indexer_dim:  # DeepSeek sparse attention's indexer key, fp8 and its scale
            per_token += (
                f" + {shape.layers} layers \u00d7 "
                f"{fmt.count(indexer_bytes_per_layer(shape.indexer_dim))} B of indexer key"
            )
    else:
        per_token = (
            f"2 (key and value) \u00d7 {number_bytes} B ({kv_dtype}) \u00d7 {_layers_text(shape)} "
            f"\u00d7 {shape.kv_heads} KV heads \u00d7 {shape.head_dim} head dim"
        )
    if shape.window_layers:
        per_token += (
            f" \u00d7 ({full_attention_layers(shape)} full layers + {shape.window_layers} keeping "
            f"{fmt.count(shape.sliding_window)} of {fmt.count(tokens)} tokens) \u00f7 "
            f"{shape.layers} layers"
        )
    first = [f"one token  = {per_token} = <b>{fmt.count(per_token_bytes)} B</b>"]
    if shape.state_layers:  # a hybrid: its state layers' fixed state, on a line of its own
        first = [
            f"one token  = {per_token}",
            f"           + {shape.state_layers} {escape(shape.state_kind.split(' (')[0])} layers \u00d7 "
            f"{fmt.count(state_bytes_per_layer(shape, number_bytes))} B of state \u00f7 "
            f"{fmt.count(tokens)} tokens = <b>{fmt.count(per_token_bytes)} B</b>",
        ]
    return first
