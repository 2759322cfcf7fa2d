"""The student's measured runs on the Frontier lab's chart, over the model's curve.

A run is one point: the speed each user saw (one over its time between tokens) against its
output tokens per second per card, both from core's explanation of the run; it shows on the
per-user and per-GPU axes only, the two a results file measures. Also the words of the lab's
folded sections (the student's files, the frontier's points).
"""

from __future__ import annotations

from html import escape
from math import log10

from bokeh.models import ColumnDataSource, HoverTool, LabelSet

from core.evidence.measured.explain import setup_text
from labs.page import format as fmt
from labs.widgets.measurements import run_colour

COLUMNS = ("x", "y", "colour", "run", "setup", "key", "dx", "dy")
# Label places round a square, tried in turn until one clears the labels already placed.
_PLACES = ((9, 4), (-30, 4), (9, -20), (-30, -20))
_NEAR_DECADES = 0.12  # squares closer than this on both log axes would overprint labels


def measured_data(explained, x_measure: str, y_measure: str) -> dict:
    """One row per run with both figures, on the axes a results file measures (else none)."""
    rows = []
    if (x_measure, y_measure) == ("user", "gpu"):
        rows = [(index, item) for index, item in enumerate(explained)
                if item.setup and item.user_tokens_per_s and item.gpu_tokens_per_s]  # fmt: skip
    data = {
        "x": [item.user_tokens_per_s for _, item in rows],
        "y": [item.gpu_tokens_per_s for _, item in rows],
        "colour": [run_colour(index) for index, _ in rows],
        "run": [item.run.label for _, item in rows],
        "setup": [setup_text(item.setup) for _, item in rows],
        "key": [item.points[0].case.key.split("-")[0] if item.points else "" for _, item in rows],
    }
    data["dx"], data["dy"] = _label_places(data["x"], data["y"])
    return data


def _label_places(xs, ys) -> tuple[list, list]:
    """Pixel offsets for each run's name, so that squares close together keep legible names."""
    placed: list[tuple[float, float, tuple[int, int]]] = []
    for x, y in zip(xs, ys, strict=True):
        here = (log10(x), log10(y))
        taken = {place for px, py, place in placed
                 if abs(px - here[0]) < _NEAR_DECADES and abs(py - here[1]) < _NEAR_DECADES}  # fmt: skip
        place = next((option for option in _PLACES if option not in taken), _PLACES[0])
        placed.append((*here, place))
    return [place[0] for *_, place in placed], [place[1] for *_, place in placed]


def add_measured(plot) -> ColumnDataSource:
    """Large squares in each run's colour, drawn over everything else, with their own hover."""
    source = ColumnDataSource({name: [] for name in COLUMNS})
    squares = plot.scatter("x", "y", source=source, marker="square", size=15,
                           fill_color="colour", line_color="#1d2433", line_width=1.5)  # fmt: skip
    # Each square named by its run (M1, M2 ...): the card-size colours share the palette.
    plot.add_layout(LabelSet(x="x", y="y", text="key", source=source, x_offset="dx", y_offset="dy",
                             text_font_size="12px", text_font_style="bold", text_color="#1d2433"))  # fmt: skip
    plot.add_tools(
        HoverTool(
            renderers=[squares],
            tooltips=[
                ("measured", "@run"),
                ("set-up", "@setup"),
                ("x", "@x{0,0.0} tok/s per user"),
                ("y", "@y{0,0} tok/s per GPU"),
            ],
        )
    )
    return source


def notes_html(messages, explained) -> str:
    """Files refused and runs left off the chart, each with its reason; '' when there are none."""
    items = [escape(text) for text in messages]
    items += [
        f"{escape(item.run.label)}: {escape(item.problem)}" for item in explained if item.problem
    ]
    if not items:
        return ""
    rows = "".join(f"<li>{text}</li>" for text in items)
    return (
        '<div class="lab"><div class="notice" data-file-notice><b>Not on the chart:</b>'
        f'<ul class="facts">{rows}</ul></div></div>'
    )


MEASURED_NOTE = (
    "Each run of a results file you drop here (or on the Reality check lab) shows as a square in "
    "its colour, on the tokens/s-per-user and per-GPU axes: one over its time between tokens, its "
    "output tokens/s per card. Set the model and card to the run's to read it against the "
    "model's curve."
)
POINTS_NOTE = "The configurations no other beats on both axes, best on the horizontal axis first."


def points_summary(count: int, realism: str) -> str:
    """The folded points table's line: how many configurations are on the frontier."""
    level = "the engine level" if realism == "engine" else "the whiteboard level"
    return (
        f'<div class="lab small muted" data-fold-summary>{fmt.plural(count, "configuration")} '
        f"on the frontier at {level}, each with its cards, storage and figures; download every "
        "point as CSV.</div>"
    )
