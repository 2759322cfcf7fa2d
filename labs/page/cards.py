"""Headline cards: a big figure, its unit, and a line saying how it differs from the defaults."""

from __future__ import annotations

from dataclasses import dataclass
from html import escape

import panel as pn

from labs.page.text import LiveHTML


@dataclass(frozen=True)
class Card:
    """One headline figure as the page shows it."""

    label: str
    value: str
    unit: str = ""
    note: str = ""
    tone: str = ""  # "better", "worse" or "" for the note's colour
    alarm: bool = False  # outline the card when this figure breaks a check


def tone(difference: float, higher_is_better: bool, tolerance: float = 0.0) -> str:
    """'better', 'worse' or '' for a difference from the default."""
    if abs(difference) <= tolerance:
        return ""
    return "better" if (difference > 0) == higher_is_better else "worse"


def cards_html(cards: list[Card], columns: int | None = None) -> str:
    """The cards as one grid of HTML (one DOM update per change, however many cards)."""
    parts = []
    for card in cards:
        unit = f'<span class="unit">{escape(card.unit)}</span>' if card.unit else ""
        note = f'<div class="note {card.tone}">{escape(card.note)}</div>' if card.note else ""
        alarm = " fail" if card.alarm else ""
        parts.append(
            f'<div class="card{alarm}" data-card="{escape(card.label)}">'
            f'<div class="label">{escape(card.label)}</div>'
            f'<div class="value"><span class="figure">{escape(card.value)}{unit}</span></div>{note}</div>'
        )
    return f'<div class="lab"><div class="cards" style="--cols:{columns or len(cards)}">{"".join(parts)}</div></div>'


class CardRow(pn.viewable.Viewer):
    """A row of headline cards, updated in place."""

    def __init__(self, columns: int | None = None, **params):
        super().__init__(**params)
        self._columns = columns
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(4, 0))
        self.cards: list[Card] = []

    def update(self, cards: list[Card]) -> None:
        """Show ``cards``."""
        self.cards = cards
        self._pane.object = cards_html(cards, self._columns)

    def __panel__(self):
        return self._pane
