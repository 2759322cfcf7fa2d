"""The prefix lab: what a cached preamble buys, and what one fresh value stamped into it costs."""

from __future__ import annotations

import math
from html import escape

import numpy as np
import panel as pn
import param
from bokeh.models import ColumnDataSource, HoverTool, Range1d, TapTool
from bokeh.plotting import figure

from core import KNOBS, WORKLOADS, Scenario, evaluate
from core.cache.prefix import (
    BLOCK_TOKENS,
    blocks_of,
    cached_prefix_tokens,
    prefill_spend_per_hour,
    prompt_blocks,
    square_tokens,
    work_ratio,
)
from core.catalog.custom import CUSTOM, scenario_shape
from labs.page import format as fmt
from labs.page import theme
from labs.page.cards import Card, CardRow
from labs.page.layout import knob_column, lab_page, note, section
from labs.page.qualifiers import cached, closed_users
from labs.page.text import LiveHTML
from labs.page.updates import DETAILS_DELAY_MS, Later, refill
from labs.widgets import knobs as ui
from labs.widgets.predict import PredictCards
from labs.widgets.sessions import SessionKnobs, turns_table

STATES = ("cached", "edited")
BLOCK_COLOURS = {0: theme.GRANTED, 1: theme.WAITING, 2: theme.KV_IN_USE, 3: "#c9ced8"}
BLOCK_NAMES = {
    0: "cached",
    1: "edit lands here",
    2: "invalidated",
    3: "partial block (never shared)",
}
QUESTION_COLOUR = "#9aa6c7"
MAX_SQUARES = 400
SQUARES_PER_ROW = 40


def prefix_results(
    scenario: Scenario, preamble_tokens: int, question_tokens: int, edit_position: int
):
    """Both states in one vectorised evaluation: index 0 cached, index 1 edited.

    Returns the result and the cached-prefix tokens of each state.
    """
    knobs, hits = prefix_knobs(preamble_tokens, question_tokens, edit_position)
    return evaluate(scenario, **knobs), hits


def prefix_knobs(preamble_tokens: int, question_tokens: int, edit_position: int):
    """The overrides that evaluate both states (cached, edited), and each one's cached tokens."""
    prompt = preamble_tokens + question_tokens
    hits = cached_prefix_tokens(preamble_tokens, np.array([preamble_tokens, edit_position]))
    return {"prompt_tokens": prompt, "prefix_hit_rate": hits / prompt}, hits


def block_squares(
    preamble_tokens: int, question_tokens: int, edit_position: int | None
) -> tuple[dict, int]:
    """One square per cache block (or per group of blocks when the prompt is long)."""
    states = prompt_blocks(preamble_tokens, question_tokens, edit_position)
    per_square = max(1, math.ceil(len(states) / MAX_SQUARES))
    squares = math.ceil(len(states) / per_square)
    # a grouped square shows the edit if it holds it, else its worst state
    groups = [states[index * per_square : (index + 1) * per_square] for index in range(squares)]
    grouped = [1 if (group == 1).any() else int(group.max()) for group in groups]
    colours = {**BLOCK_COLOURS, 4: QUESTION_COLOUR}
    names = {**BLOCK_NAMES, 4: "the question (always new)"}
    index = np.arange(squares)
    first_token, last_token = square_tokens(squares, per_square)
    data = {
        "x": (index % SQUARES_PER_ROW).tolist(),
        "y": (-(index // SQUARES_PER_ROW)).tolist(),
        "colour": [colours[state] for state in grouped],
        "state": [names[state] for state in grouped],
        "tokens": [
            f"tokens {start:,}\u2013{end:,}"
            for start, end in zip(first_token, last_token, strict=True)
        ],
        "first_token": first_token.tolist(),
    }
    return data, per_square


# The cards "predict first" covers, by label: the field each one shows, and its format.
PREDICTED = {"TTFT p95": "ttft_p95_s", "tensor time before the first token": "prefill_s"}
PREDICTED_FORMATS = {"ttft_p95_s": fmt.duration, "prefill_s": fmt.duration}


class PrefixLab(pn.viewable.Viewer):
    """Cached vs edited preamble, side by side, on the session's model, cache and workload."""

    # kept in shareable links
    URL_PARAMS = ("preamble_tokens", "question_tokens", "edit_position", "state")

    scenario = param.ClassSelector(class_=Scenario, doc="The session's shared scenario.")
    preamble_tokens = param.Integer(
        default=1200, bounds=(16, 200_000), doc="Tokens of the preamble every request shares."
    )
    question_tokens = param.Integer(
        default=100, bounds=(0, 100_000), doc="Tokens of each request's own question, always new."
    )
    edit_position = param.Integer(
        default=0,
        bounds=(0, 200_000),
        doc="Token where a fresh value is stamped into the preamble.",
    )
    state = param.Selector(
        default="cached", objects=list(STATES), doc="The state the picture and headline show."
    )

    def __init__(self, scenario: Scenario | None = None, **params):
        super().__init__(scenario=scenario or Scenario(), **params)
        s = self.scenario
        self.state_buttons = pn.widgets.RadioButtonGroup.from_param(
            self.param.state,
            options={"cached preamble": "cached", "edited preamble": "edited"},
            color="primary",
            variant="outline",
            sizing_mode="stretch_width",
        )
        self.edit_slider = pn.widgets.EditableIntSlider.from_param(
            self.param.edit_position, label="Where the edit lands (token)", start=0, end=self.preamble_tokens,
            fixed_start=0, fixed_end=self.preamble_tokens, sizing_mode="stretch_width",
        )  # fmt: skip
        self.preamble_input = pn.widgets.IntInput.from_param(
            self.param.preamble_tokens, label="Preamble (tokens)", sizing_mode="stretch_width"
        )
        self.question_input = pn.widgets.IntInput.from_param(
            self.param.question_tokens, label="Question (tokens)", sizing_mode="stretch_width"
        )
        self.widgets = {
            "workload": ui.workload_buttons(s),
            "tier": ui.tier_buttons(s),
            "kv_dtype": ui.dtype_buttons(s),
        }
        self.cards = CardRow(columns=3)
        self.predict = PredictCards(
            self.cards, PREDICTED, PREDICTED_FORMATS, s, self.predict_knobs, self, self.URL_PARAMS,
            giveaways=lambda: [self.compare_section],
        )  # fmt: skip
        self.compare = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.caption = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.context = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.session_knobs = SessionKnobs(self.scenario)
        self.turns = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.blocks = ColumnDataSource(
            data={"x": [], "y": [], "colour": [], "state": [], "tokens": [], "first_token": []}
        )
        self.block_figure = self._block_figure()
        self.blocks.selected.on_change("indices", self._tapped)
        self.results = None
        self.hits = None
        self._details = Later(self._refresh_details, delay_ms=DETAILS_DELAY_MS, first_now=True)
        s.param.watch(self._refresh, KNOBS)
        self.param.watch(
            self._refresh, ["preamble_tokens", "question_tokens", "edit_position", "state"]
        )
        self.param.watch(self._preamble_changed, "preamble_tokens")
        self._layout = self._build()
        self._refresh()

    def _block_figure(self):
        plot = figure(height=120, sizing_mode="stretch_width", x_range=Range1d(-0.6, SQUARES_PER_ROW - 0.4),
                      y_range=Range1d(-0.6, 0.6), toolbar_location=None, tools="")  # fmt: skip
        squares = plot.rect(x="x", y="y", width=0.82, height=0.82, source=self.blocks, fill_color="colour",
                            line_color="#ffffff", nonselection_fill_alpha=1.0, selection_fill_alpha=1.0)  # fmt: skip
        plot.add_tools(
            HoverTool(renderers=[squares], tooltips=[("", "@state"), ("", "@tokens")]),
            TapTool(renderers=[squares]),
        )
        theme.style_figure(plot)
        plot.axis.visible = False
        plot.xgrid.grid_line_color = None
        plot.ygrid.grid_line_color = None
        return plot

    # -- knobs ---------------------------------------------------------------------------
    def link_bounds(self, name: str) -> tuple | None:
        """A link's edit is clamped into the preamble it edits (read after the preamble's own value)."""
        return (0, self.preamble_tokens) if name == "edit_position" else None

    def _preamble_changed(self, event) -> None:
        self.edit_slider.param.update(end=event.new, fixed_end=event.new)
        if self.edit_position > event.new:
            self.edit_position = event.new

    def _tapped(self, _attr, _old, new) -> None:
        if new:
            first = self.blocks.data["first_token"][new[0]]
            self.param.update(edit_position=min(first, self.preamble_tokens), state="edited")

    # -- computation ---------------------------------------------------------------------
    def predict_knobs(self) -> dict:
        """What a guess is compared at: both states' overrides and the one on screen."""
        edit = min(self.edit_position, self.preamble_tokens)
        knobs, _hits = prefix_knobs(self.preamble_tokens, self.question_tokens, edit)
        return {**knobs, "index": STATES.index(self.state)}

    def _refresh(self, *_events) -> None:
        edit = min(self.edit_position, self.preamble_tokens)
        result, hits = prefix_results(
            self.scenario, self.preamble_tokens, self.question_tokens, edit
        )
        self.results, self.hits = result, hits
        with pn.io.hold():
            self.cards.update(self._cards(result, hits, STATES.index(self.state)))
        self._details.request()

    def _refresh_details(self) -> None:
        """The block picture, the side-by-side table and the captions."""
        result, hits = self.results, self.hits
        edit = min(self.edit_position, self.preamble_tokens)
        squares, per_square = block_squares(
            self.preamble_tokens, self.question_tokens, edit if self.state == "edited" else None
        )
        rows = max(1, -min(squares["y"]) + 1)
        self.compare.object = self._compare_html(result, hits)
        self.block_figure.y_range.start = -rows + 0.4
        self.block_figure.height = 24 + 24 * rows
        refill(self.blocks, squares)
        self.caption.object = self._caption_html(hits, STATES.index(self.state), per_square)
        self.context.object = self._context_html(result)
        self._session_turns()

    def _session_turns(self) -> None:
        """A session's turns on the shared pool, and which tier each turn's prefix came from."""
        cache = self.session_knobs.update(evaluate(self.scenario))
        self.turns.object = f'<div class="lab">{turns_table(cache)}</div>' if cache else ""

    def _cards(self, result, hits, active: int) -> list[Card]:
        ttft = fmt.split_unit(
            fmt.first_token(
                result.ttft_p95_s[active],
                bool(result.queue_unbounded[active]),
                result.seats_granted[active],
            )
        )
        other = 1 - active
        ttft_other = fmt.first_token(
            result.ttft_p95_s[other],
            bool(result.queue_unbounded[other]),
            result.seats_granted[other],
        )
        prefill = fmt.split_unit(fmt.duration(result.prefill_s[active]))
        # how much of which prompt was cached (the pool's is its own), and a closed loop's users
        words = cached(
            result.prompt_tokens[active], result.hit_rate[active], closed_users(self.scenario)
        )
        return [
            Card("TTFT p95", *ttft, f"{STATES[other]}: {ttft_other}, {fmt.percent(result.hit_rate[other])} cached", "better" if result.ttft_p95_s[active] < result.ttft_p95_s[other] else "worse" if result.ttft_p95_s[active] > result.ttft_p95_s[other] else "", alarm=not bool(result.latency_ok[active]), qualifier=words),
            Card("tensor time before the first token", *prefill, f"{fmt.tokens(result.miss_tokens[active])} tokens prefilled"),
            Card("prompt served from the cache", fmt.percent(hits[active] / (self.preamble_tokens + self.question_tokens)), "", f"{fmt.tokens(hits[active])} tokens, {fmt.count(blocks_of(hits[active]))} blocks"),
        ]  # fmt: skip

    def _compare_html(self, result, hits) -> str:
        rows = []
        spend = [prefill_spend_per_hour(result, index) for index in range(2)]

        def row(label: str, values: list[str], emphasis: bool = False) -> str:
            cells = "".join(
                f'<td class="num">{"<b>" + v + "</b>" if emphasis else v}</td>' for v in values
            )
            return f"<tr><td>{escape(label)}</td>{cells}</tr>"

        rows.append(row("cache-hit tokens (a memory read)", [fmt.count(h) for h in hits]))
        rows.append(
            row("cache-miss tokens (prefilled)", [fmt.count(m) for m in result.miss_tokens])
        )
        rows.append(row("prefill work", [fmt.flops(f) for f in result.prefill_flops]))
        rows.append(row("tensor time for the misses", [fmt.duration(t) for t in result.prefill_s]))
        rows.append(
            row("KV read of the cached prefix", [fmt.duration(t) for t in result.prefix_read_s])
        )
        rows.append(
            row(
                "TTFT p95 on this workload",
                [
                    fmt.first_token(t, bool(u), seats)
                    for t, u, seats in zip(
                        result.ttft_p95_s, result.queue_unbounded, result.seats_granted, strict=True
                    )
                ],
                True,
            )
        )
        rows.append(
            row("prefill card-hours per peak hour", [f"{hours:,.3f}" for hours, _ in spend])
        )
        rows.append(row("prefill spend per peak hour", [f"${usd:,.2f}" for _, usd in spend], True))
        ratio = work_ratio(result)
        ratio_text = (
            f"{ratio:,.1f}\u00d7 the prefill work"
            if math.isfinite(ratio)
            else "all of the prefill work"
        )
        return (
            '<div class="lab"><table class="grid compare"><thead><tr><th></th><th class="num">cached</th>'
            f'<th class="num">edited</th></tr></thead><tbody>{"".join(rows)}</tbody></table>'
            f'<p class="small" data-work-formula>{escape(self._work_formula(result))}</p>'
            f'<p class="small muted">The edit costs {ratio_text} of the cached preamble on every arrival. Spend counts the '
            "cards' tensor time used by prefill at the peak arrival rate, at the hourly card price.</p></div>"
        )  # fmt: skip

    def _caption_html(self, hits, active: int, per_square: int) -> str:
        items = [(theme.GRANTED, "cached"), (theme.WAITING, "edit lands here"), (theme.KV_IN_USE, "invalidated after the edit"),
                 ("#c9ced8", "partial block, never shared"), (QUESTION_COLOUR, "the question, always new")]  # fmt: skip
        legend = "".join(
            f'<span><span class="swatch" style="background:{c}"></span>{escape(t)}</span>'
            for c, t in items
        )
        unit = (
            f"one square = {per_square} blocks of {BLOCK_TOKENS} tokens"
            if per_square > 1
            else f"one square = one block of {BLOCK_TOKENS} tokens"
        )
        if self.state == "cached":
            say = f"Cached: the {fmt.count(self.preamble_tokens)}-token preamble matches block for block, so {fmt.count(hits[0])} tokens come from memory."
        else:
            say = (f"Edited at token {fmt.count(min(self.edit_position, self.preamble_tokens))}: every block from the edit onward misses, "
                   f"so only {fmt.count(hits[1])} tokens still come from memory. Click a block to move the edit.")  # fmt: skip
        return f'<div class="lab"><p>{escape(say)}</p><div class="legend">{legend}<span>{unit}</span></div></div>'

    def _context_html(self, result) -> str:
        s = self.scenario
        workload = WORKLOADS[s.workload]
        shape = scenario_shape(s)
        card = "my own card" if s.gpu == CUSTOM else s.gpu
        node = f"{fmt.count(np.max(result.cards))} \u00d7 {card}"
        return (
            f'<div class="lab small muted">Running the <b>{escape(shape.name)}</b> on <b>{escape(node)}</b> with '
            f"<b>{s.weight_dtype}</b> weights and a <b>{s.kv_dtype}</b> cache on <b>{escape(workload.name)}</b> "
            f"traffic, as set in the other labs, with {fmt.plural(s.seats, 'seat')}.</div>"
        )  # fmt: skip

    def _work_formula(self, result) -> str:
        """The prefill work of the edited prompt, written out with the model's active parameters."""
        shape = scenario_shape(self.scenario)
        active = fmt.billions(shape.active_params)
        line = (
            f"prefill work = 2 FLOPs \u00d7 active parameters \u00d7 tokens prefilled; edited: "
            f"2 \u00d7 {active} \u00d7 {fmt.count(result.miss_tokens[1])} = {fmt.flops(result.prefill_flops[1])}."
        )  # fmt: skip
        if shape.is_moe:
            line += (
                " A mixture of experts multiplies only the weights a token passes through (the "
                f"shared layers and its routed experts): {active} of its {fmt.billions(shape.params)}."
            )
        return line

    # -- layout --------------------------------------------------------------------------
    def _build(self):
        w = self.widgets
        # Both states' first tokens and tensor times: predict first covers it until guessed.
        self.compare_section = section("Cached vs edited, side by side", self.compare, margin=(8, 0, 0, 0))  # fmt: skip
        knobs = knob_column(
            ui.heading("Press both states"),
            self.state_buttons,
            self.edit_slider,
            note(
                "A timestamp at token 0 voids the whole preamble; at the last block it costs almost nothing."
            ),
            ui.heading("The prompt"),
            pn.Row(self.preamble_input, self.question_input, sizing_mode="stretch_width", margin=0),
            ui.heading("Shared with the other labs"),
            w["workload"],
            w["tier"],
            w["kv_dtype"],
            self.context,
        )
        results = pn.Column(
            self.predict,
            section("The prompt as cache blocks", self.caption, pn.pane.Bokeh(self.block_figure, sizing_mode="stretch_width"), margin=(8, 0, 0, 0)),
            self.compare_section,
            section("A multi-turn session, turn by turn", self.session_knobs, self.turns, margin=(8, 0, 0, 0)),
            sizing_mode="stretch_width",
            margin=0,
        )  # fmt: skip
        return lab_page(
            "The prefix lab",
            "Every request opens with the same preamble: the role, the rules, the shared document. While it stays "
            "byte-for-byte identical, each arrival finds its KV blocks already stored and pays only a memory read. "
            "Stamp one fresh value into it and every block after that point must be prefilled again, on every "
            "arrival. Press both states and compare the first-token bills.",
            knobs,
            results,
        )

    def __panel__(self):
        return self._layout
