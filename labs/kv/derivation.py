"""The KV lab's derivation of one cached token: the factors that multiply to its bytes."""

from __future__ import annotations

from html import escape

from core import Scenario
from core.catalog import ModelShape
from core.catalog.custom import scenario_shape
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


def derivation_html(r, scenario: Scenario, sequence_tokens: int) -> str:
    """The live derivation: one token's factors, one seat, the room, the seats granted."""
    s = scenario
    shape = scenario_shape(s)
    number_bytes = round(r.kv_bytes_per_number)
    cards = r.cards
    first = token_lines(shape, s.kv_dtype, number_bytes, sequence_tokens, r.kv_bytes_per_token)
    lines = [
        *first,
        f"one seat   = {fmt.count(sequence_tokens)} tokens \u00d7 {fmt.count(r.kv_bytes_per_token)} B = "
        f"<b>{fmt.gigabytes(r.seat_kv_bytes, 2)}</b>",
        f"room       = ({cards} card{'s' if cards != 1 else ''} \u00d7 {fmt.gigabytes(r.per_card('node_memory_bytes'))} \u2212 "
        f"{fmt.gigabytes(r.weight_bytes)} of weights) \u00d7 {r.kept_share:.2f} = <b>{fmt.gigabytes(r.kv_budget_bytes)}</b>",
        f"seats      = \u230a{fmt.gigabytes(r.kv_budget_bytes)} \u00f7 {fmt.gigabytes(r.seat_kv_bytes, 2)}\u230b = "
        f"{fmt.count(r.seats_room)} \u2192 granted min({fmt.count(r.seats_requested)}, {fmt.count(r.seats_room)}) = "
        f"<b>{fmt.count(r.seats_granted)}</b>",
    ]
    return (
        '<div class="lab"><div class="derivation wraps">'
        + "".join(f'<div class="line">{line.replace("  ", "&nbsp;&nbsp;")}</div>' for line in lines)
        + "</div></div>"
    )
