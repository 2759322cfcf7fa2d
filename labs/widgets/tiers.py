"""The memory ledger's tier columns: HBM's KV room, then host memory and NVMe under offload."""

from __future__ import annotations

from html import escape

import panel as pn

from core.cache.tiers import binding_tier, reprefill_s, tier_rows
from labs.page import format as fmt
from labs.page.text import LiveHTML


def tier_sentence(offload: str, result) -> str:
    """The memory sentence's tier clause: where a reused prefix comes back from, and its cost."""
    if offload == "off":
        return ""
    share = float(result.prefix_offloaded_share)
    if share <= 0:
        return (
            " Offload is on, and HBM keeps every hit: the cached prefix stays in the running "
            "requests' blocks (with multi-turn sessions, in the free room between turns), so "
            "nothing is copied back."
        )
    again = reprefill_s(result)
    instead = f" instead of {fmt.duration(again)} of prefill" if again else ""
    waited = (
        "cached prefixes wait" if share >= 1 else f"{fmt.percent(share)} of the cached tokens wait"
    )
    return (
        f" Offload is on: {waited} in {binding_tier(offload)}, which binds each reuse: "
        f"{fmt.count(result.hit_tokens)} cached tokens come back in "
        f"{fmt.duration(result.prefix_read_s)}{instead}."
    )


class TierTable(pn.viewable.Viewer):
    """Capacity per node, rate per card and one reuse's cost for each tier the cache can use."""

    def __init__(self, **params):
        super().__init__(**params)
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))

    def update(self, offload: str, result) -> None:
        """Show the tiers of ``offload`` for ``result``; nothing when offload is off."""
        if offload == "off":
            self._pane.object = ""
            return
        body = "".join(
            f'<tr data-tier="{escape(row.name)}"><td><b>{escape(row.name)}</b></td>'
            f'<td class="num">{fmt.memory(row.capacity_bytes)}</td>'
            f'<td class="num">{fmt.gigabytes(row.bytes_per_s) + "/s" if row.bytes_per_s else "in place"}</td>'
            f'<td class="num">{fmt.count(row.sequences)}</td>'
            f'<td class="num">{fmt.duration(row.reuse_s)}</td></tr>'
            for row in tier_rows(offload, result)
        )
        self._pane.object = (
            '<div class="lab" data-tiers style="overflow-x: auto" tabindex="0" role="region"'
            ' aria-label="Memory tiers"><table class="grid">'
            '<thead><tr><th>tier</th><th class="num">per node</th><th class="num">per card</th>'
            '<th class="num">seats held</th><th class="num">one reuse</th></tr></thead>'
            f"<tbody>{body}</tbody></table><p class='small muted'>Seats held: whole "
            f"{fmt.count(result.seat_tokens)}-token sequences each tier could keep; one reuse: "
            "this request's cached prefix copied back to HBM.</p></div>"
        )

    def __panel__(self):
        return self._pane
