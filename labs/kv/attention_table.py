"""The KV lab's attention row: one model's cache under MHA, GQA and MLA, side by side."""

from __future__ import annotations

from html import escape

import panel as pn

from core.catalog import ModelShape
from core.foundation.units import kib
from core.whiteboard.attention import attention_variants
from core.whiteboard.layer_kinds import (
    kv_layers,
    layer_kind_rows,
    paged_full_bytes_per_token,
    seat_total,
)
from labs.page import format as fmt
from labs.page.text import LiveHTML


def _factor(label: str, value: float) -> str:
    number = f"{value:,.0f}" if float(value).is_integer() else f"{value:g}"
    unit = " B" if label == "bytes per number" else ""
    return f'{number}{unit} <span class="muted">{escape(label)}</span>'


def _layers(shape: ModelShape) -> str:
    if shape.cacheless_layers:
        return f"{kv_layers(shape)} attention layers of {shape.layers}"
    return f"{shape.layers} layers"


def _kinds_table(shape: ModelShape, bytes_per_number: float, tokens: int, own: float) -> str:
    """The model's own cache, one row per kind of layer, when its layers are not all alike."""
    rows = layer_kind_rows(shape, bytes_per_number, tokens)
    if len(rows) < 2 and not shape.sparse_top_k:
        return ""
    body = []
    seat = "all of them, one seat"  # each figure's heading, shown beside it on a phone
    for row in rows:
        if row.per_sequence:
            one = f"{fmt.memory(row.per_layer_bytes)} a sequence"
        else:
            one = f"{fmt.count(row.per_layer_bytes)} B a token"
        kept = f"{fmt.count(row.held_tokens)} tokens" if row.held_tokens else "fixed"
        body.append(
            f'<tr data-layer-kind="{escape(row.kind)}"><td><b>{escape(row.kind)}</b>'
            f"<div class='small muted'>{escape(row.what)}</div></td>"
            f'<td class="num" data-label="layers">{row.layers}</td>'
            f'<td class="num" data-label="one layer keeps">{one}</td>'
            f'<td class="num" data-label="held">{kept}</td>'
            f'<td class="num" data-label="{seat}">{fmt.memory(row.seat_bytes)}</td></tr>'
        )
    total = seat_total(rows)
    paged = ""
    if shape.window_layers:
        full = paged_full_bytes_per_token(shape, bytes_per_number)
        paged = (
            "<p class='small'>An engine that pages every attention layer alike (vLLM with its "
            "hybrid KV cache manager off) gives the window layers full-size pages: "
            f"<b>{fmt.count(full)} B</b> a token instead of {fmt.count(own)} B.</p>"
        )
    return (
        f"<p class='small'><b>This model's own cache by kind of layer</b>, for one "
        f"{fmt.count(tokens)}-token sequence:</p>"
        '<table class="grid attention" data-layer-kinds><thead><tr><th>layer kind</th>'
        '<th class="num">layers</th><th class="num">one layer keeps</th>'
        f'<th class="num">held</th><th class="num">{seat}</th></tr></thead>'
        f"<tbody>{''.join(body)}<tr><td><b>total</b></td><td></td><td></td><td></td>"
        f'<td class="num" data-label="{seat}"><b>{fmt.memory(total)}</b></td></tr></tbody>'
        f"</table>{paged}"
    )


class AttentionComparison(pn.viewable.Viewer):
    """A table of the three attention designs for the model the lab shows, with each derivation.

    The lab passes the model, its cache storage, the sequence length and the KV room; every
    figure comes from :func:`core.whiteboard.attention.attention_variants`.
    """

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))

    def update(
        self, shape: ModelShape, kv_dtype: str, bytes_per_number: float, tokens: int,
        room_bytes: float, own_bytes_per_token: float,
    ) -> None:  # fmt: skip
        """Redraw for ``shape`` with ``tokens``-token sequences in ``room_bytes`` of KV room."""
        rows = attention_variants(shape, bytes_per_number, tokens, room_bytes)
        widths = fmt.bar_widths([row.bytes_per_token for row in rows])
        body = []
        # each figure's heading, which a phone shows beside it (its rows stack: phone.css)
        seat, held = f"one {fmt.count(tokens)}-token seat", "seats the room holds"
        for row, width in zip(rows, widths, strict=True):
            derivation = " \u00d7 ".join(_factor(label, value) for label, value in row.factors)
            own = ' <span class="chip neutral">this model</span>' if row.the_models_own else ""
            body.append(
                f'<tr class="{"here" if row.the_models_own else ""}" data-variant="{row.name}">'
                f"<td><b>{row.name}</b>{own}<div class='small muted'>{escape(row.what)}</div></td>"
                f'<td class="mono small">{derivation} = <b>{fmt.count(row.bytes_per_token)} B</b></td>'
                f'<td class="num" data-label="per token">{fmt.count(kib(row.bytes_per_token))} KiB'
                f'<div class="attn-bar" style="width:{width}"></div></td>'
                f'<td class="num" data-label="{seat}">{fmt.memory(row.seat_bytes)}</td>'
                f'<td class="num" data-label="{held}">{fmt.count(row.seats_room)}</td></tr>'
            )
        window = ""
        if shape.window_layers:
            window = (
                f"<p class='small'>The first rows give every layer the whole context. This model "
                f"keeps only the last {fmt.count(shape.sliding_window)} tokens on "
                f"{shape.window_layers} of its {shape.layers} layers, so past that window those "
                f"layers stop growing: at {fmt.count(tokens)} tokens its own cache averages "
                f"<b>{fmt.count(own_bytes_per_token)} B</b> a token, the last row and the card "
                "above.</p>"
            )
        window += _kinds_table(shape, bytes_per_number, tokens, own_bytes_per_token)
        self._pane.object = (
            '<div class="lab" data-attention-comparison>'
            f"<p class='small muted'>The same {escape(shape.name)} ({shape.query_heads} query heads "
            f"of {shape.head_dim}, {_layers(shape)}, {escape(kv_dtype)} cache) built three "
            f"ways{', then as it is built' if shape.window_layers else ''}. Weights, heads and "
            "layers stay; only what each layer keeps per token changes.</p>"
            '<table class="grid attention" data-variants><thead><tr><th>attention</th>'
            '<th>one token, derived</th><th class="num">per token</th>'
            f'<th class="num">{seat}</th><th class="num">{held}</th></tr></thead><tbody>'
            + "".join(body)
            + f"</tbody></table>{window}</div>"
        )

    def __panel__(self):
        return self._pane
