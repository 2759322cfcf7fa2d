"""Which knobs moved the pool: each knob returned alone to its default, in one sweep."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from core.evaluate import evaluate
from core.scenario.knobs import KNOBS, Scenario

VERDICTS = ("latency_ok", "capacity_ok", "cost_ok")
# A change smaller than this share of the figure (5 %), or than the floor in its own unit, is noise.
RELATIVE_NOISE = 0.05
# Knobs one evaluation cannot sweep as an array: single values by contract (the pasted config,
# the custom card, the traffic, the fleet's router and hit-rate source), paths read once per
# evaluation (serving mode, engine and its release, layout, bursts, memory tiers, sessions), and
# the level of detail (an array holding one level throughout comes back as a single row), a
# closed loop's run length and batch limit (read only where a closed loop runs), and the
# engine's memory share (None, the release's own, is no number an array can hold). Their reset rows
# are evaluated one at a time; every other knob's row is part of the one vectorised call.
ROW_BY_ROW = frozenset({
    "model_config", "card_memory_gb", "card_tb_per_s", "card_tflops", "traffic", "router",
    "prefix_source", "realism", "serving_mode", "kv_link", "engine", "engine_version", "layout",
    "burstiness", "run_requests", "batch_limit", "memory_share", "recv_interval",
    "kv_offload", "session_turns", "think_time_s", "turn_growth_tokens",
})  # fmt: skip
# Knobs read only through another one: resetting the one they follow resets what they describe
# (a pasted config is read only as the "custom" model, a custom card's figures only as its card).
FOLLOWERS = {"model_config": "model", "card_memory_gb": "gpu", "card_tb_per_s": "gpu",
             "card_tflops": "gpu"}  # fmt: skip
# Knobs whose value belongs to another's: an engine's release is one of that engine's, so
# returning the engine to its default returns its release to that engine's newest too.
RESET_TOGETHER = {"engine": ("engine_version",)}


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


def knob_defaults() -> dict[str, object]:
    """Every knob of :class:`Scenario` at its default."""
    return {name: Scenario.param[name].default for name in KNOBS}


def moved_knobs(
    scenario: Scenario,
    always: Mapping[str, object],
    defaults: Mapping[str, object] | None = None,
    left_out: Sequence[str] = (),
) -> dict[str, object]:
    """The knobs a mattered-vs-noise table sweeps, each with the default it is reset to.

    Parameters
    ----------
    scenario : Scenario
        The configuration on screen.
    always : mapping
        Knob name to default: rows shown whatever their setting (a lab's walkthrough knobs).
    defaults : mapping, optional
        Every knob's default (:func:`knob_defaults` when None).
    left_out : sequence of str
        Knobs never swept (the table's own frame, such as the workload it is "on").

    Notes
    -----
    A knob joins the rows when its value differs from its default, unless it is left out,
    follows another knob (:data:`FOLLOWERS`), or is the tier while an exact model replaces it.
    """
    defaults = knob_defaults() if defaults is None else defaults
    knobs = scenario.knobs()
    skipped = {*left_out, *FOLLOWERS, *(("tier",) if knobs["model"] is not None else ())}
    moved = {
        name: defaults[name]
        for name in KNOBS
        if name not in always and name not in skipped and knobs[name] != defaults[name]
    }
    return {**always, **moved}


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
    verdict flips. The knobs that sweep as arrays are one vectorised :func:`evaluate` call;
    those of :data:`ROW_BY_ROW` add one call each.
    """
    floors = floors or {}
    knobs = {**scenario.knobs(), **base}
    rows = _reset_rows(scenario, defaults, knobs, base)
    fields = (*outputs, *verdicts)
    now = {name: _figure(rows[None], name) for name in fields}

    effects = []
    for name in defaults:
        reset = rows[name]
        changes, values, moved = {}, {}, False
        for output in outputs:
            after = _figure(reset, output)
            changes[output] = now[output] - after
            values[output] = (now[output], after)
            scale = max(abs(now[output]), abs(after))
            moved |= abs(now[output] - after) > max(RELATIVE_NOISE * scale, floors.get(output, 0.0))
        flipped = tuple(
            verdict for verdict in verdicts if bool(now[verdict]) != bool(_figure(reset, verdict))
        )
        effects.append(
            KnobEffect(
                name, knobs[name], defaults[name], changes, flipped, moved or bool(flipped), values
            )
        )
    return effects


@dataclass(frozen=True)
class _Reset:
    """Where one reset row's figures are: a result, and its row in that result's arrays."""

    result: object
    row: int = 0


def _figure(reset: _Reset, name: str) -> float:
    """The Result field ``name`` in ``reset``'s row."""
    return float(np.asarray(getattr(reset.result, name), dtype=float).ravel()[reset.row])


def _reset_rows(scenario, defaults, knobs, base) -> dict:
    """Each knob's reset row (``None``: the configuration as it is), in as few evaluations as may be."""
    swept = [name for name in defaults if name not in ROW_BY_ROW]
    one_by_one = [name for name in defaults if name in ROW_BY_ROW]
    overrides = dict(base)
    for column, name in enumerate(swept):
        values = [knobs[name]] * (len(swept) + 1)
        values[column + 1] = defaults[name]
        overrides[name] = np.array(values, dtype=object if _categorical(values) else float)
    vector = evaluate(scenario, **overrides)
    rows = {None: _Reset(vector), **{name: _Reset(vector, c + 1) for c, name in enumerate(swept)}}
    for name in one_by_one:
        owned = {
            knob: scenario.param[knob].default
            for knob in RESET_TOGETHER.get(name, ())
            if knob not in base
        }
        rows[name] = _Reset(evaluate(scenario, **{**base, **owned, name: defaults[name]}))
    return rows


def _categorical(values) -> bool:
    return any(value is None or isinstance(value, str) for value in values)
