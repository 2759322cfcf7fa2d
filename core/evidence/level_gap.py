"""Where the two levels of detail part: figures a real engine would report differently.

The labs teach the whiteboard's figures; beside them they show what the engine level says
wherever the two differ by more than the published-case band (x0.80 to x1.25).
"""

from __future__ import annotations

from dataclasses import dataclass

from core.evaluate import evaluate
from core.evidence.fidelity import within_band
from core.whiteboard.scenario import Scenario


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
        if not within_band(gap.ratio):
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


def stream_gaps(scenario: Scenario, simulated: dict, prompt_tokens: int, answer_tokens: int,
                batch_size: int, arrivals_per_s: float | None) -> list[Gap]:  # fmt: skip
    """:func:`gaps` between a simulated run (priced like the whiteboard) and the engine level.

    ``simulated`` holds the run's ``throughput_tokens_per_s`` and ``itl_s``. The engine level
    runs the same node, prompt, mean answer and batch: at the stream's arrival rate when one
    node carries it, else (an offline batch, or more traffic than a node can take) with every
    seat kept busy.
    """
    knobs = dict(prompt_tokens=prompt_tokens, answer_tokens=answer_tokens, seats=batch_size,
                 realism="engine")  # fmt: skip
    real = None
    if arrivals_per_s:
        real = evaluate(scenario, arrivals_per_min=60.0 * arrivals_per_s, **knobs)
        if real.nodes > 1 or real.queue_unbounded:
            real = None
    if real is None:
        real = evaluate(scenario, concurrency=batch_size, **knobs)
    return gaps(simulated, {field: getattr(real, field) for field in simulated})
