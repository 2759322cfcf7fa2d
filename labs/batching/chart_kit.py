"""What every batching chart shares: its colours, legends, marker lines and axes."""

from __future__ import annotations

from bokeh.models import FixedTicker, Label, Span
from bokeh.plotting import figure

from labs.page import theme

STATIC_COLOUR = "#5b6578"
CONTINUOUS_COLOUR = theme.ACCENT
POLICY_COLOURS = {"static": STATIC_COLOUR, "continuous": CONTINUOUS_COLOUR}
IDLE = "#d9dde5"
HERE = "rgba(29,36,51,.35)"  # the band marking the student's own B
POWERS_OF_TWO = [2**i for i in range(13)]


def legend_html(items, note: str = "") -> str:
    """An HTML legend above a chart: ``items`` are (colour, label, style) with style 'solid',
    'dashed', 'dotted' or 'box'."""
    spans = []
    for colour, label, style in items:
        if style == "box":
            swatch = f'<span class="swatch" style="background:{colour}"></span>'
        else:
            swatch = (
                f'<span class="swatch" style="width:1.6em;height:0;border-radius:0;'
                f'border-top:2.5px {style} {colour};vertical-align:0.25em"></span>'
            )
        spans.append(f"<span>{swatch}{label}</span>")
    extra = f'<span class="muted">{note}</span>' if note else ""
    return f'<div class="lab"><div class="legend">{"".join(spans)}{extra}</div></div>'


def chart(height: int, **options):
    """A stretch-wide Bokeh figure without tools, as every batching chart starts."""
    return figure(
        height=height, sizing_mode="stretch_width", toolbar_location=None, tools="", **options
    )


def marker(plot, colour: str, *, dash="solid", width=2.0, alpha=1.0, visible=True, across=False):
    """A vertical line (``across``: horizontal) added to ``plot``, moved later by ``location``."""
    span = Span(
        location=1,
        dimension="width" if across else "height",
        line_color=colour,
        line_dash=dash,
        line_width=width,
        line_alpha=alpha,
        visible=visible,
    )
    plot.add_layout(span)
    return span


def here_marker(plot):
    """The wide translucent band at the student's own batch size."""
    return marker(plot, theme.INK, width=6, alpha=0.35)


def marker_label(plot, colour: str):
    """A small label at the foot of a marker line; set its ``x`` and ``text`` to move it."""
    label = Label(
        x=1,
        y=0,
        x_units="data",
        y_units="screen",
        y_offset=8,
        x_offset=4,
        text="",
        text_font_size="11px",
        text_color=colour,
    )
    plot.add_layout(label)
    return label


def log_span(plot, low: float, high: float, below: float = 0.5, above: float = 2.5) -> None:
    """Fit ``plot``'s log y axis to ``low``..``high``, with room below and above for labels."""
    plot.y_range.start = low * below
    plot.y_range.end = high * above


def log2_axis(plot, end: int) -> None:
    """Ticks at the powers of two up to ``end``, written in full (1, 2, ... 1,024)."""
    plot.xaxis.ticker = FixedTicker(ticks=[b for b in POWERS_OF_TWO if b <= end])
    plot.xaxis.major_label_overrides = {b: f"{b:,}" for b in POWERS_OF_TWO}


def lines(plot, source, x: str, solid: str, dashed: str, solid_colour: str, dashed_colour: str):
    """A solid line and a dashed one from the same source: the pair most batching charts draw."""
    plot.line(x, solid, source=source, line_color=solid_colour, line_width=2.5)
    plot.line(x, dashed, source=source, line_color=dashed_colour, line_width=2, line_dash="dashed")
