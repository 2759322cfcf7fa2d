"""Page furniture every lab uses: the page frame, the intro, the knob column, and titled white panels."""

from __future__ import annotations

from html import escape

import panel as pn

from labs.page.text import LiveHTML

PANEL_STYLE = {
    "background": "#ffffff",
    "border": "1px solid #dfe3ea",
    "border-radius": "10px",
    "padding": "8px 16px",
}
KNOB_COLUMN_WIDTH = 330


def intro(title: str, lede: str) -> pn.pane.HTML:
    """The lab's heading and one paragraph saying what it is for."""
    return LiveHTML(
        f'<div class="lab"><h1>{escape(title)}</h1><p class="lede">{escape(lede)}</p></div>',
        sizing_mode="stretch_width",
        margin=(0, 0, 8, 0),
    )


def lab_page(title: str, lede: str, knobs, results, *below) -> pn.Column:
    """A lab's page: its intro, the knobs beside the results, then whatever runs full width below.

    Below 600 px (assets/phone.css) the row is one column: the results' first part (the
    headline cards), the knobs under it, then the rest of the results.
    """
    # what assets/phone.css stacks on a phone
    results.css_classes = [*results.css_classes, "lab-results"]
    return pn.Column(
        intro(title, lede),
        pn.Row(knobs, results, sizing_mode="stretch_width", margin=0, css_classes=["lab-row"]),
        *below,
        sizing_mode="stretch_width",
        margin=(0, 0, 24, 0),
    )


def section(title: str, *objects, note: str = "", margin=(16, 0, 0, 0), **kwargs) -> pn.Column:
    """A white panel with a heading (and an optional muted note) above ``objects``."""
    note_html = f'<p class="small muted">{escape(note)}</p>' if note else ""
    heading_html = f'<div class="lab"><h2>{escape(title)}</h2>{note_html}</div>'
    kwargs.setdefault("sizing_mode", "stretch_width")
    first = objects[0] if objects else None
    if isinstance(first, LiveHTML) and not first.heading_html and first.visible:
        first.heading_html = heading_html  # the heading rides in the first text's pane
        return pn.Column(*objects, styles=PANEL_STYLE, margin=margin, **kwargs)
    heading = LiveHTML(heading_html, margin=(0, 0))
    return pn.Column(heading, *objects, styles=PANEL_STYLE, margin=margin, **kwargs)


def knob_column(*objects) -> pn.Column:
    """The fixed-width column of knobs at the left of a lab."""
    # Sized in CSS so presenter mode (which scales the type) widens it with the text.
    return pn.Column(
        *objects,
        styles={
            **PANEL_STYLE,
            "padding": "4px 12px 12px",
            "width": f"calc({KNOB_COLUMN_WIDTH}px * var(--presenter-scale, 1))",
            "flex": "0 0 auto",
        },
        css_classes=["knob-column"],  # what the browser tests look for
        margin=(0, 16, 0, 0),
    )


def note(text: str) -> pn.pane.HTML:
    """A muted explanatory line under a knob."""
    return LiveHTML(
        f'<div class="lab small muted">{escape(text)}</div>',
        sizing_mode="stretch_width",
        margin=(0, 10),
    )
