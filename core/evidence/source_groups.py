"""What a row of the sources table is, the kinds of row, and the table grouped by kind."""

from __future__ import annotations

import re
from dataclasses import dataclass

# The groups of the table, in page order: kind -> (heading, what its rows are).
KINDS: dict[str, tuple[str, str]] = {
    "cards": (
        "Cards",
        "Each card's memory, bandwidth, dense peaks (without sparsity) and links, from the "
        "vendors' datasheets, and an hourly price you can change in a scenario.",
    ),
    "models": (
        "Models",
        "The published configurations of the tiers and named models, the formats weights and "
        "numbers are stored in, and the rules that turn a shape into bytes and FLOPs.",
    ),
    "whiteboard": (
        "Whiteboard assumptions",
        "The efficiencies, margins and calendar the first level of detail applies.",
    ),
    "engine": (
        "Engine constants",
        "Serving engines' documented defaults and the counts the engine level applies.",
    ),
    "measurements": (
        "Measurements on real cards",
        "Rates and fixed costs measured on real cards and links; the engine level uses them in "
        "place of the datasheet peaks.",
    ),
    "published": (
        "Published benchmarks",
        "Figures others measured, which the batching lab sets its engine beside. They are not "
        "inputs of the capacity model: they show what it reproduces and what it leaves out.",
    ),
}
# Only a web address becomes a link: no other scheme (javascript:, data:, file:) is followed.
_URL = re.compile(r"https?://[^\s<>\"'()]+[^\s<>\"'().,;:]", re.IGNORECASE)


@dataclass(frozen=True)
class Source:
    """One row of the 'where the numbers come from' table.

    Attributes
    ----------
    constant, value, unit, source : str
        What the figure is, the figure, its unit, and where it comes from.
    kind : str
        The row's group, a key of :data:`KINDS`. Every row of :func:`core.sources` names
        its kind; a row that names none is a published benchmark figure
        (:func:`core.evidence.published.batching_sources`).
    """

    constant: str
    value: str
    unit: str
    source: str
    kind: str = "published"

    @property
    def link(self) -> str:
        """The first http(s) address in ``source``, or empty when it cites none."""
        found = _URL.search(self.source)
        return found.group() if found else ""


@dataclass(frozen=True)
class SourceGroup:
    """The rows of one kind, with the group's heading and what its rows are."""

    kind: str
    heading: str
    about: str
    rows: tuple[Source, ...]


def source_groups(rows: list[Source]) -> list[SourceGroup]:
    """``rows`` grouped by kind, in the order of :data:`KINDS`, each in its given order.

    Raises
    ------
    ValueError
        For a row whose kind is not a key of :data:`KINDS`.
    """
    unknown = sorted({row.kind for row in rows} - set(KINDS))
    if unknown:
        raise ValueError(f"source kind {unknown[0]!r} is not one of {', '.join(KINDS)}")
    groups = []
    for kind, (heading, about) in KINDS.items():
        members = tuple(row for row in rows if row.kind == kind)
        if members:
            groups.append(SourceGroup(kind, heading, about, members))
    return groups
