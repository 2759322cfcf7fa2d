"""The KV lab's long-context note: attention's share of prefill, and when one node is not enough."""

from __future__ import annotations

import panel as pn

from core.whiteboard.long_context import LongContext
from labs.page import format as fmt
from labs.page.text import LiveHTML


def _fit_sentence(lc: LongContext) -> str:
    if lc.room_bytes <= 0:
        return "The weights leave no KV room on this node: no sequence of any length fits."
    if not lc.cache_grows:
        return (
            f"No layer attends to the whole sequence, so its cache stops growing: this "
            f"{fmt.memory(lc.seat_bytes)} {'fits' if lc.fits else 'does not fit'} whatever the length."
        )
    most = f"at most {fmt.tokens(lc.most_tokens)} tokens of one sequence"
    if lc.fits:
        return (
            f"One node holds it: its <b>{fmt.memory(lc.seat_bytes)}</b> of cache fits the "
            f"{fmt.memory(lc.room_bytes)} of KV room, which holds {most}."
        )
    return (
        f"<b>One sequence needs more than a node</b>: {fmt.memory(lc.seat_bytes)} of cache "
        f"against {fmt.memory(lc.room_bytes)} of KV room ({most}). Context parallelism over "
        f"<b>{lc.nodes_needed} nodes</b> would keep a slice on each; ring attention passes every "
        f"slice's keys and values past every node once, <b>{fmt.memory(lc.ring_bytes_per_node)}</b> "
        f"into each node, <b>{fmt.duration(lc.ring_s)}</b> over its InfiniBand ports (50 GB/s a "
        f"card), hidden only if it overlaps the {fmt.duration(lc.attention_s)} of attention "
        "arithmetic each node does meanwhile."
    )


class LongContextNote(pn.viewable.Viewer):
    """What one sequence of the lab's length costs in attention, and whether a node holds it."""

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))

    def update(self, lc: LongContext) -> None:
        """Redraw for ``lc`` (:func:`core.whiteboard.long_context.scenario_long_context`)."""
        self._pane.object = (
            '<div class="lab" data-long-context><p class="small">'
            f"At {fmt.tokens(lc.tokens)} tokens, attention's own arithmetic is "
            f"<b>{fmt.percent(lc.attention_share)}</b> of the prompt's prefill "
            f"({fmt.flops(lc.attention_flops)} against the weights' "
            f"{fmt.flops(lc.weight_flops)}): it grows with the square of the length, the "
            "weights' with the length. The whiteboard's prefill time counts the weights' share; "
            "the engine level adds attention's.</p>"
            f'<p class="small" data-node-fit>{_fit_sentence(lc)}</p></div>'
        )

    def __panel__(self):
        return self._pane
