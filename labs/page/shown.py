"""The registry of figures shown on more than one page, and how to read each from its lab.

A figure two pages show for the same knobs must be one number, or carry the words that make it
a different quantity (:mod:`labs.page.qualifiers`: "at full load" against "at the peak-minute
rate", "0% cached" against "30% cached"). :data:`SHOWN` names, for each such quantity, every
place that shows it and how to read it from that lab's objects (its cards, its panes' text) as
the page shows it; :func:`disagreements` finds two places that show one quantity under the same
qualifier with different figures. ``tests/labs/page/test_shown.py`` draws scenarios and holds
every lab to it.

Readers take the lab object and know only its attributes, so this module imports no lab.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations

PRICE = "price per million output tokens"
TTFT = "TTFT p95"
CONTINUOUS_RATE = "continuous batching's output rate"


@dataclass(frozen=True)
class Reading:
    """One figure as a page shows it: the words that qualify it, and the figure itself."""

    qualifier: str
    figure: str


@dataclass(frozen=True)
class Shown:
    """One place that shows a quantity: the lab's route, where on the page, and its reader."""

    quantity: str
    lab: str
    place: str
    read: Callable[[object], list[Reading]]


def _card(label: str) -> Callable[[object], list[Reading]]:
    """A reader of the headline card called ``label`` (none where the lab shows no such card)."""

    def read(lab) -> list[Reading]:
        return [
            Reading(card.qualifier, f"{card.value} {card.unit}".strip())
            for card in lab.cards.cards
            if card.label == label
        ]

    return read


_PRICE_NOTE = re.compile(r"^(\S+) per M output ?(.*)$")


def _bill_note(lab) -> list[Reading]:
    """The price per million output tokens in the pool's bill card's note."""
    notes = [card.note for card in lab.cards.cards if card.label == "monthly bill"]
    parts = [part for note in notes for part in note.split(" \u00b7 ")]
    found = [_PRICE_NOTE.match(part) for part in parts]
    return [Reading(match.group(2), match.group(1)) for match in found if match]


_RATE = re.compile(r"(\S+ tok/s)( on [\d,]+ requests?)?")


def _engine_qualifier(lab, sample: str) -> str:
    return f"B = {lab.batch_size}, {lab.kv_layout} KV{sample}"


def _timeline(lab) -> list[Reading]:
    """The continuous run's rate in the batching lab's timeline caption."""
    if lab.runs is None:
        return []
    captions = lab.views["timeline"].captions.values()
    shown = [caption.object for caption in captions if '="continuous"' in caption.object]
    found = [_RATE.search(text) for text in shown]
    return [
        Reading(_engine_qualifier(lab, match.group(2) or ""), match.group(1))
        for match in found
        if match
    ]


_SWEEP_PEAK = re.compile(r"Measured peak: (\S+ tok/s) at B = (\d+)( on [\d,]+ requests?)?")
_SWEEP_HERE = re.compile(
    r"At your B = (\d+) the sweep measures continuous batching at (\S+ tok/s)( on [\d,]+ requests?)?"
)


def _sweep(lab) -> list[Reading]:
    """The batch-size sweep's continuous rates its text quotes: at the peak, and at your B
    (none while its folded tab was never opened: the page shows none)."""
    if lab.runs is None or "sweep" not in lab.views:
        return []
    text = lab.views["sweep"].text.object
    readings = []
    peak = _SWEEP_PEAK.search(text)
    if peak and int(peak.group(2)) == lab.batch_size:
        readings.append(Reading(_engine_qualifier(lab, peak.group(3) or ""), peak.group(1)))
    here = _SWEEP_HERE.search(text)
    if here:
        readings.append(Reading(_engine_qualifier(lab, here.group(3) or ""), here.group(2)))
    return readings


SHOWN: tuple[Shown, ...] = (
    Shown(PRICE, "frontier", "the '$ per M output' card", _card("$ per M output")),
    Shown(PRICE, "pool", "the monthly bill card's note", _bill_note),
    Shown(TTFT, "pool", "the 'TTFT p95' card", _card("TTFT p95")),
    Shown(TTFT, "frontier", "the 'TTFT p95' card", _card("TTFT p95")),
    Shown(TTFT, "prefix", "the 'TTFT p95' card", _card("TTFT p95")),
    Shown(CONTINUOUS_RATE, "batching", "the timeline's caption", _timeline),
    Shown(CONTINUOUS_RATE, "batching", "the batch-size sweep's text", _sweep),
)


def readings(labs: Mapping[str, object], shown: Sequence[Shown] = SHOWN) -> dict:
    """Every registered figure the ``labs`` (by route) show, by quantity: (place, reading).

    A place on a lab not among ``labs`` is left out.
    """
    found: dict[str, list] = {}
    for place in shown:
        if place.lab not in labs:
            continue
        for reading in place.read(labs[place.lab]):
            found.setdefault(place.quantity, []).append((f"{place.lab}: {place.place}", reading))
    return found


def disagreements(found: Mapping[str, Sequence]) -> list[str]:
    """Two places showing one quantity under the same qualifier with different figures."""
    return [
        f"{quantity}: {first} shows {a.figure} and {second} {b.figure}, both '{a.qualifier}'"
        for quantity, places in found.items()
        for (first, a), (second, b) in combinations(places, 2)
        if a.qualifier == b.qualifier and a.figure != b.figure
    ]
