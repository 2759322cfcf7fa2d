"""The memory ledger: each card's memory, weights first, and the seats memory grants.

The memory chart is a Bokeh figure built once per view; every change only replaces its data.
The seat grid is a small inline SVG: a second canvas cost the browser about 10 ms of CPU per
knob change (measured with bench/classroom.py's probe), a quarter of what it spent in all,
while squares in SVG repaint for a fraction of that.
"""

from __future__ import annotations

import math

import panel as pn
from bokeh.models import ColumnDataSource, FactorRange, HoverTool, LabelSet, Range1d, Span
from bokeh.plotting import figure

from core.foundation.units import giga
from labs.page import format as fmt
from labs.page import theme
from labs.page.text import LiveHTML
from labs.page.updates import assign, refill

SEGMENTS = ("weights", "kv_in_use", "free_kv", "margin")
SEGMENT_NAMES = {
    "weights": "weights",
    "kv_in_use": "KV cache in use",
    "free_kv": "free KV room",
    "margin": "safety margin",
}
SEGMENT_COLOURS = (theme.WEIGHTS, theme.KV_IN_USE, theme.FREE_KV, theme.MARGIN)
MAX_CARD_ROWS = 8  # tensor parallelism splits evenly: past eight cards, the rows only repeat
MAX_SQUARES = 256
SQUARES_PER_ROW = 32
SQUARE_PX = 16  # one cell of the seat grid; the square inside leaves a gap


def card_rows(result) -> dict:
    """Per-card memory in GB, weights first (the data of the ledger's bars)."""
    cards = int(result.cards)
    shown = min(cards, MAX_CARD_ROWS)
    per_card = {
        "weights": giga(result.per_card("weight_bytes")),
        "kv_in_use": giga(result.per_card("kv_bytes_in_use")),
        "free_kv": giga(result.per_card("free_kv_bytes")),
        "margin": giga(result.per_card("margin_bytes")),
    }
    names = [f"card {index + 1}" for index in range(shown)]
    if cards > shown:
        names[-1] = f"cards {shown}-{cards}"
    data = {"card": names}
    for segment in SEGMENTS:
        data[segment] = [per_card[segment]] * shown
    return data


def segment_rows(bars: dict) -> dict:
    """The bars as one row per card and segment, each from its left edge to its right, in GB.

    One glyph draws them all: a stack of four glyphs cost the page about thirty Bokeh models
    more (a renderer, its view and three glyphs per segment, two stack transforms each).
    """
    rows = {"card": [], "segment": [], "name": [], "colour": [], "left": [], "right": [], "gb": []}
    for index, card in enumerate(bars["card"]):
        left = 0.0
        for segment, colour in zip(SEGMENTS, SEGMENT_COLOURS, strict=True):
            size = float(bars[segment][index])
            for key, value in (("card", card), ("segment", segment), ("colour", colour),
                               ("name", SEGMENT_NAMES[segment]), ("left", left),
                               ("right", left + size), ("gb", size)):  # fmt: skip
                rows[key].append(value)
            left += size
    return rows


def seat_squares(requested: int, granted: int) -> tuple[dict, int]:
    """Squares for the seats asked for: filled where memory grants them, hollow where they wait.

    Returns the data and how many seats one square stands for.
    """
    per_square = max(1, math.ceil(requested / MAX_SQUARES))
    squares = math.ceil(requested / per_square)
    granted_squares = granted // per_square
    xs, ys, fills, lines, states = [], [], [], [], []
    for index in range(squares):
        xs.append(index % SQUARES_PER_ROW)
        ys.append(-(index // SQUARES_PER_ROW))
        ok = index < granted_squares
        fills.append(theme.GRANTED if ok else "#ffffff")
        lines.append(theme.GRANTED if ok else theme.WAITING)
        states.append("granted" if ok else "waiting")
    return {"x": xs, "y": ys, "fill": fills, "line": lines, "state": states}, per_square


class MemoryLedger(pn.viewable.Viewer):
    """Stacked per-card memory bars plus a grid of requested seats."""

    def __init__(self, **params):
        super().__init__(**params)
        self.bars = ColumnDataSource(data=segment_rows(card_rows_empty()))
        self.labels = ColumnDataSource(data={"x": [], "y": [], "text": []})
        self.seats: dict = {"x": [], "y": [], "fill": [], "line": [], "state": []}
        self.memory_figure = self._memory_figure()
        self.legend = LiveHTML(_legend_html(), margin=(0, 0, 0, 4), sizing_mode="stretch_width")
        self.seat_caption = LiveHTML("", margin=(0, 0, 0, 4), sizing_mode="stretch_width")
        self._layout = pn.Column(
            self.legend,
            pn.pane.Bokeh(self.memory_figure, sizing_mode="stretch_width"),
            self.seat_caption,
            sizing_mode="stretch_width",
            margin=0,
        )

    def _memory_figure(self):
        plot = figure(
            height=110,
            sizing_mode="stretch_width",
            y_range=FactorRange(factors=["card 1"]),
            x_range=Range1d(0, 84),
            toolbar_location=None,
            tools="",  # nothing to pan or zoom: the save button (style_figure) and the hover
            x_axis_label="GB per card",
        )
        bars = plot.hbar(
            y="card",
            left="left",
            right="right",
            height=0.62,
            source=self.bars,
            fill_color="colour",
            line_color="#ffffff",
            line_width=1,
        )
        plot.add_tools(HoverTool(renderers=[bars], tooltips=[("", "@name"), ("GB", "@gb{0.0}")]))
        self.capacity_line = Span(
            location=80, dimension="height", line_color=theme.INK, line_dash="dashed", line_width=1
        )
        plot.add_layout(self.capacity_line)
        plot.add_layout(
            LabelSet(
                x="x",
                y="y",
                text="text",
                source=self.labels,
                text_align="center",
                text_baseline="middle",
                text_font_size="11px",
                text_color="#ffffff",
            )
        )
        plot.ygrid.grid_line_color = None
        theme.style_figure(plot, "memory-ledger")
        return plot

    def update(self, result) -> None:
        """Redraw for ``result`` (a scalar :class:`core.Result`)."""
        bars = card_rows(result)
        card_gb = giga(result.per_card("node_memory_bytes"))
        width = max(card_gb, bars["weights"][0]) * 1.04
        assign(self.memory_figure.y_range, factors=list(reversed(bars["card"])))
        assign(self.memory_figure.x_range, end=width)
        assign(self.memory_figure, height=64 + 34 * len(bars["card"]))
        assign(self.capacity_line, location=card_gb)
        refill(self.bars, segment_rows(bars))
        refill(self.labels, _segment_labels(bars, width))

        requested, granted = int(result.seats_requested), int(result.seats_granted)
        squares, per_square = seat_squares(requested, granted)
        self.seats = squares
        unit = "seat" if per_square == 1 else f"{per_square} seats"
        waiting = requested - granted
        waits = f", {fmt.count(waiting)} waiting" if waiting else ""
        self.seat_caption.object = (
            f'<div class="lab"><div class="legend"><span><b>{fmt.count(granted)} of {fmt.count(requested)}'
            f"</b> requested seats granted{waits}</span>"
            f'<span><span class="swatch" style="background:{theme.GRANTED}"></span>granted</span>'
            f'<span><span class="swatch" style="border:1.5px solid {theme.WAITING}"></span>'
            f"waiting, with no error anywhere</span><span>one square = {unit}</span></div>"
            f"{seat_grid_svg(squares)}</div>"
        )

    def __panel__(self):
        return self._layout


def seat_grid_svg(squares: dict) -> str:
    """The seat squares as an inline SVG, rows of SQUARES_PER_ROW, granted ones filled."""
    rows = max(1, -min(squares["y"], default=0) + 1)
    side = SQUARE_PX - 4
    cells = "".join(
        f'<rect x="{x * SQUARE_PX + 2}" y="{-y * SQUARE_PX + 2}" width="{side}" height="{side}" '
        f'rx="2" fill="{fill}" stroke="{line}" stroke-width="1.5"/>'
        for x, y, fill, line in zip(
            squares["x"], squares["y"], squares["fill"], squares["line"], strict=True
        )
    )
    width, height = SQUARES_PER_ROW * SQUARE_PX, rows * SQUARE_PX
    # Sized in em (one cell per em), so the grid grows with the type in presenter mode.
    return (
        f'<svg class="seat-grid" role="img" aria-label="seats granted and waiting" '
        f'width="{SQUARES_PER_ROW}em" height="{rows}em" viewBox="0 0 {width} {height}">{cells}</svg>'
    )


def card_rows_empty() -> dict:
    return {"card": [], **{segment: [] for segment in SEGMENTS}}


def _segment_labels(bars: dict, width: float) -> dict:
    """Text inside the segments wide enough to hold it."""
    xs, ys, texts = [], [], []
    for card_index, card in enumerate(bars["card"]):
        left = 0.0
        for segment in SEGMENTS:
            size = bars[segment][card_index]
            if size / width > 0.11:
                xs.append(left + size / 2)
                ys.append(card)
                texts.append(f"{size:,.1f} GB" if size < 100 else f"{size:,.0f} GB")
            left += size
    return {"x": xs, "y": ys, "text": texts}


def _legend_html() -> str:
    items = "".join(
        f'<span><span class="swatch" style="background:{colour}"></span>{SEGMENT_NAMES[segment]}</span>'
        for segment, colour in zip(SEGMENTS, SEGMENT_COLOURS, strict=True)
    )
    line = '<span><span class="swatch" style="border-left:2px dashed #1d2433;width:0;border-radius:0"></span>card capacity</span>'
    return f'<div class="lab"><div class="legend">{items}{line}</div></div>'
