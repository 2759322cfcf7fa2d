"""Which knobs moved the pool: each knob returned alone to its default, in one sweep."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.evaluate import evaluate
from core.scenario.knobs import Scenario

VERDICTS = ("latency_ok", "capacity_ok", "cost_ok")
# A change smaller than this share of the figure (5 %), or than the floor in its own unit, is noise.
RELATIVE_NOISE = 0.05


@dataclass(frozen=True)
class KnobEffect:
    """What returning one knob to its default does to each output."""

    knob: str
    current: object
    default: object
    changes: dict  # output -> current value minus the value with this knob at its default
    flipped: tuple  # verdicts that differ between the two
    mattered: bool
    values: dict = field(
        default_factory=dict
    )  # output -> (current value, value with this knob reset)


def knob_effects(
    scenario: Scenario,
    defaults: Mapping[str, object],
    outputs: Sequence[str],
    floors: Mapping[str, float] | None = None,
    verdicts: Sequence[str] = VERDICTS,
    **base,
) -> list[KnobEffect]:
    """For each knob in ``defaults``, how much each output changes when it alone is reset.

    Parameters
    ----------
    scenario : Scenario
        The shared knobs.
    defaults : mapping
        Knob name to its default value; one row of the sweep resets each.
    outputs : sequence of str
        Result fields to compare.
    floors : mapping, optional
        The smallest change, per output and in its own unit, that counts as mattering.
    verdicts : sequence of str
        The checks whose flip makes a knob matter (a lab shows only some of them).
    **base
        Overrides applied to every row (a lab's own knobs, such as its sequence length).

    Notes
    -----
    Row 0 is the current configuration; row :math:`i` resets knob :math:`i`. A knob
    *mattered* when some output moves by more than 5 % and more than its floor, or when a
    verdict flips. The whole sweep is one vectorised :func:`evaluate` call.
    """
    floors = floors or {}
    knobs = {**scenario.knobs(), **base}
    names = list(defaults)
    rows = len(names) + 1
    overrides = dict(base)
    for column, name in enumerate(names):
        values = [knobs[name]] * rows
        values[column + 1] = defaults[name]
        overrides[name] = np.array(values, dtype=object if _categorical(values) else float)
    swept = evaluate(scenario, **overrides)

    effects = []
    for column, name in enumerate(names):
        row = column + 1
        changes, values, moved = {}, {}, False
        for output in outputs:
            array = np.asarray(getattr(swept, output), dtype=float)
            now, reset = float(array[0]), float(array[row])
            changes[output] = now - reset
            values[output] = (now, reset)
            scale = max(abs(now), abs(reset))
            moved |= abs(now - reset) > max(RELATIVE_NOISE * scale, floors.get(output, 0.0))
        flipped = tuple(
            verdict
            for verdict in verdicts
            if bool(np.asarray(getattr(swept, verdict))[0])
            != bool(np.asarray(getattr(swept, verdict))[row])
        )
        effects.append(
            KnobEffect(
                name, knobs[name], defaults[name], changes, flipped, moved or bool(flipped), values
            )
        )
    return effects


def _categorical(values) -> bool:
    return any(value is None or isinstance(value, str) for value in values)
