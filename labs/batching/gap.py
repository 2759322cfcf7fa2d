"""The batching lab's published gap: the published workload rerun on every card, the table of
static against continuous, and the story told when the published preset is loaded."""

from __future__ import annotations

from html import escape

from core.evidence.published import (
    CONTINUOUS_BATCHING_TOK_S,
    OPTIMISED_KERNELS_FACTOR,
    STATIC_BATCHING_TOK_S,
)
from core.evidence.published_gap import (
    PUBLISHED_GPU,
    PUBLISHED_LAB,
    PUBLISHED_MODEL,
    PUBLISHED_RATIO,
    published_gap,
    published_row,
)
from labs.batching.view import TAB_MARGIN, BatchingView, html_pane
from labs.page import format as fmt
from labs.page.layout import section


class GapView(BatchingView):
    """The gap table (computed once a session, when first shown) and the loaded-preset story."""

    WATCHES = frozenset()  # the table is the published workload's: no knob of the lab moves it
    NEEDS_RUNS = False

    def __init__(self, lab, **params):
        super().__init__(lab, **params)
        self.rows: list[dict] | None = None
        self.text = html_pane()
        self.story = html_pane()
        self.panel = section(
            "The published gap: static vs continuous",
            self.text,
            note="The same workload on every card in the catalog, simulated.",
            margin=TAB_MARGIN,
        )

    def refresh(self) -> None:
        if self.rows is None:
            self.rows = published_gap()
            self.text.object = self._table_html()

    def tell(self, loaded: bool) -> None:
        """Show the preset's story (``loaded``) or clear it."""
        self.refresh()
        self.story.object = self._story_html() if loaded else ""

    def _table_html(self) -> str:
        body = "".join(
            ('<tr class="here">' if row["gpu"] == PUBLISHED_GPU else "<tr>")
            + f'<td style="white-space:nowrap">{escape(row["gpu"])}</td>'
            f'<td class="num">{fmt.count(row["static_seats"])} \u2192 '
            f"{fmt.count(row['continuous_seats'])}</td>"
            f'<td class="num">{fmt.rate(row["static"])}</td>'
            f'<td class="num">{fmt.rate(row["continuous"])}</td>'
            f'<td class="num"><b>{fmt.ratio(row["ratio"])}</b></td>'
            f'<td class="num"><b>{fmt.ratio(row["naive_ratio"])}</b></td></tr>'
            for row in self.rows
        )
        body += (
            '<tr class="noise"><td>published</td><td></td>'
            f'<td class="num">{fmt.rate(STATIC_BATCHING_TOK_S)}*</td>'
            f'<td class="num">{fmt.rate(CONTINUOUS_BATCHING_TOK_S)}</td><td></td>'
            f'<td class="num"><b>{fmt.ratio(PUBLISHED_RATIO)}</b></td></tr>'
        )
        return (
            '<div class="lab"><table class="grid"><thead><tr><th>card</th>'
            "<th>seats, reserved \u2192 paged</th><th>static + reserved</th>"
            "<th>continuous + paged</th><th>gap</th><th>vs naive kernels</th></tr></thead>"
            f"<tbody>{body}</tbody></table>"
            f"{self._decomposition_html()}"
            '<p class="small muted" style="margin-top:8px">Each engine served '
            f"{fmt.count(PUBLISHED_LAB['requests'])} requests at once: "
            f"{fmt.count(PUBLISHED_LAB['prompt_tokens'])}-token prompts, answers exponential of "
            f"mean {fmt.count(PUBLISHED_LAB['answer_mean'])} capped at "
            f"{fmt.count(PUBLISHED_LAB['answer_cap'])}, B = {PUBLISHED_LAB['batch_size']}, on "
            f"{escape(PUBLISHED_MODEL)} in bf16. <b>gap</b> compares the two schedulers on the "
            "same kernels; the less KV room, the fewer seats and the wider it gets. <b>vs naive "
            "kernels</b> also runs the static engine "
            f"{fmt.ratio(OPTIMISED_KERNELS_FACTOR)} slower, as the benchmark's unoptimised "
            "baseline* was. The model's rates assume "
            f"{fmt.percent(self.rows[0]['bandwidth_share'])} of bandwidth on every engine: compare "
            "ratios, not tokens per second.</p></div>"
        )

    def _decomposition_html(self) -> str:
        """Published gap = scheduling and memory (simulated) x kernels (measured), with numbers."""
        row = published_row(self.rows)
        if row is None:
            return ""
        return (
            '<div class="derivation" style="margin-top:10px">'
            f"{escape(PUBLISHED_GPU)}, the card of the published run:<br>"
            f"scheduling + memory (simulated) {fmt.ratio(row['ratio'])}<br>"
            f"\u00d7 faster kernels (measured) {fmt.ratio(OPTIMISED_KERNELS_FACTOR)}<br>"
            f"= <b>{fmt.ratio(row['naive_ratio'])}</b> against the naive baseline "
            f"(published {fmt.ratio(PUBLISHED_RATIO)})</div>"
        )

    def _story_html(self) -> str:
        row = published_row(self.rows)
        if row is None:
            return ""
        return (
            '<div class="lab"><div class="story" data-preset="published">'
            '<div class="title">The published comparison, loaded</div>'
            f"<div>{escape(PUBLISHED_MODEL)} on one {escape(PUBLISHED_GPU)}, every request sent at "
            "once. Against the published naive baseline (static batching, reserved KV, kernels "
            f"{fmt.ratio(OPTIMISED_KERNELS_FACTOR)} slower: {fmt.rate(row['naive'])}) "
            f"continuous batching with paged KV writes {fmt.rate(row['continuous'])}: "
            f"<b>{fmt.ratio(row['naive_ratio'])}</b>. On the same kernels, scheduling and "
            f"memory alone buy <b>{fmt.ratio(row['ratio'])}</b> "
            f"({fmt.rate(row['static'])} static). Switch the scheduler and the layout one at a "
            "time to see what each buys.</div></div></div>"
        )
