"""Where the two levels of detail part: figures a real engine would report differently.

The labs teach the whiteboard's figures; beside them they show what the engine level says
wherever the two differ by more than the published-case band (x0.80 to x1.25).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.evaluate import evaluate
from core.fidelity import BAND
from core.scenario import Scenario


@dataclass(frozen=True)
class Gap:
    """One figure at both levels."""

    field: str
    whiteboard: float
    engine: float

    @property
    def ratio(self) -> float:
        """Engine over whiteboard (infinite where the whiteboard says zero and the engine not)."""
        if self.whiteboard == 0:
            return 1.0 if self.engine == 0 else float("inf")
        return self.engine / self.whiteboard


def gaps(whiteboard: dict, engine: dict) -> list[Gap]:
    """The figures whose engine value lies outside the band around the whiteboard's, in order."""
    found = []
    for field, value in whiteboard.items():
        gap = Gap(field, float(value), float(engine[field]))
        if not BAND[0] <= gap.ratio <= BAND[1]:
            found.append(gap)
    return found


def level_gaps(scenario: Scenario, fields, **overrides) -> list[Gap]:
    """:func:`gaps` of ``fields`` between the two levels for ``scenario`` (with ``overrides``)."""
    knobs = {**overrides}
    knobs.pop("realism", None)
    white = evaluate(scenario, realism="whiteboard", **knobs)
    real = evaluate(scenario, realism="engine", **knobs)
    return gaps(
        {field: getattr(white, field) for field in fields},
        {field: getattr(real, field) for field in fields},
    )
