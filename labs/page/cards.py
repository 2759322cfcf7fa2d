"""Headline cards: a big figure, its unit, and a line saying how it differs from the defaults."""

from __future__ import annotations

from dataclasses import dataclass, replace
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
    # what makes this figure a different quantity from one of the same name on another page
    # ("at full load", "30% cached"); shown under the label
    qualifier: str = ""


def tone(difference: float, higher_is_better: bool, tolerance: float = 0.0) -> str:
    """'better', 'worse' or '' for a difference from the default."""
    if abs(difference) <= tolerance:
        return ""
    return "better" if (difference > 0) == higher_is_better else "worse"


def hidden_card(card: Card) -> Card:
    """``card`` with its figure covered until the student has guessed it."""
    return replace(card, value="?", unit="", note="guess first, below", tone="", alarm=False)


def cards_html(cards: list[Card], columns: int | None = None) -> str:
    """The cards as one grid of HTML (one DOM update per change, however many cards)."""
    parts = []
    for card in cards:
        unit = f'<span class="unit">{escape(card.unit)}</span>' if card.unit else ""
        note = f'<div class="note {card.tone}">{escape(card.note)}</div>' if card.note else ""
        alarm = " fail" if card.alarm else ""
        qualifier = (
            f'<span class="qualifier" data-qualifier>{escape(card.qualifier)}</span>'
            if card.qualifier
            else ""
        )
        parts.append(
            f'<div class="card{alarm}" data-card="{escape(card.label)}">'
            f'<div class="label">{escape(card.label)}{qualifier}</div>'
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
        self.hidden: frozenset[str] = frozenset()  # labels whose figure waits for a guess
        # labels whose note would give a waiting figure away (its figure stays)
        self.quiet: frozenset[str] = frozenset()

    def update(self, cards: list[Card]) -> None:
        """Show ``cards`` (those in :attr:`hidden` with their figure covered)."""
        self.cards = cards
        shown = [
            hidden_card(card)
            if card.label in self.hidden
            else replace(card, note="")
            if card.label in self.quiet
            else card
            for card in cards
        ]
        self._pane.object = cards_html(shown, self._columns)

    def hide(self, labels) -> None:
        """Cover the figures of the cards labelled ``labels`` (and uncover the others)."""
        self.hidden = frozenset(labels)
        self.update(self.cards)

    def __panel__(self):
        return self._pane
