"""Predict, then reveal: a typed guess at a headline figure, set beside what each level says.

A lab with "predict first" on hides its headline figures after a knob change; the student
types a guess in any unit :func:`core.practice.reading.read_answer` reads, and
:func:`reveal` puts it beside the whiteboard's figure, the engine level's, and the
measurement of a published case run on the same node, if one was. It names the engine-level
term that moves the figure most between the two levels (the waterfall of
:mod:`core.evidence.fidelity`). :class:`Calibration` keeps one student's running score.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import param

from core.engine_level.terms import TERMS
from core.evaluate import evaluate, evaluate_terms
from core.evidence.cases import PublishedCase
from core.evidence.fidelity import MOVED, PUBLISHED, STEP_LABELS, predict
from core.practice.reading import Reading, read_answer
from core.scenario.knobs import Scenario

# Result field -> (kind of answer, the unit a bare number is read in).
GUESS_UNITS: dict[str, tuple[str, str]] = {
    "seats_granted": ("seats", "seats"),
    "ttft_p95_s": ("seconds", "ms"),
    "prefill_s": ("seconds", "ms"),
    "decode_tokens_per_s": ("tokens_per_s", "tok/s"),
    "monthly_usd": ("dollars", "$"),
    "kv_bytes_per_token": ("bytes", "B"),
    "seat_kv_bytes": ("bytes", "GB"),
}
# A headline field -> the published metric measured on the same quantity (or close to it).
PUBLISHED_METRIC = {"decode_tokens_per_s": "throughput", "ttft_p95_s": "ttft"}
# A guess counts as calibrated within this share of the figure.
WITHIN = 0.25


def miss(guess: float, figure: float) -> float:
    """How far ``guess`` lies from ``figure``, as a share of the figure.

    Notes
    -----
    :math:`m = |g - f| / f`; where the figure is zero, a zero guess misses by 0 and any
    other by 1 (the whole of it).
    """
    if figure == 0:
        return 0.0 if guess == 0 else 1.0
    return abs(guess - figure) / abs(figure)


@dataclass(frozen=True)
class Effect:
    """The engine-level term that moves a figure most from the whiteboard's."""

    term: str
    label: str
    factor: float  # what it multiplies the figure by (below 1: it lowers it)


@dataclass(frozen=True)
class Reveal:
    """A guess at one headline figure and what it is compared with."""

    field: str
    reading: Reading
    shown: float  # the figure the card shows, at the scenario's level of detail
    whiteboard: float
    engine: float
    case: PublishedCase | None = None  # a published case on the same node and storage
    measured: float = math.nan
    case_engine: float = math.nan  # the engine level's figure for that case's own set-up
    effect: Effect | None = None

    @property
    def ok(self) -> bool:
        """True when the guess could be read."""
        return self.reading.ok

    @property
    def miss(self) -> float:
        """The guess's miss as a share of the figure shown (see :func:`miss`)."""
        return miss(self.reading.value, self.shown) if self.ok else math.nan

    @property
    def within(self) -> bool:
        """True when the guess lies within :data:`WITHIN` of the figure shown."""
        return self.ok and self.miss <= WITHIN

    @property
    def gaps(self) -> dict[str, float]:
        """Each comparison's miss: guess vs whiteboard, whiteboard vs engine, engine vs measured."""
        found = {"whiteboard": miss(self.whiteboard, self.engine)}
        if self.ok:
            found = {"guess": miss(self.reading.value, self.whiteboard), **found}
        if self.case is not None:
            found["measured"] = miss(self.case_engine, self.measured)
        return found

    @property
    def largest_gap(self) -> str:
        """The key of :attr:`gaps` that misses most."""
        gaps = self.gaps
        return max(gaps, key=gaps.get)


def _scalar(value, index: int = 0) -> float:
    figures = np.asarray(value, dtype=float).reshape(-1)
    figure = float(figures[min(index, figures.size - 1)])
    return figure if math.isfinite(figure) else 0.0


def largest_effect(scenario: Scenario, field: str, index: int = 0, **overrides) -> Effect | None:
    """The waterfall step that moves ``field`` most between the two levels, if any moves it.

    Notes
    -----
    The figure is walked from the whiteboard's :math:`v_0` through the engine's batch
    :math:`v_1` and one term of :data:`core.engine_level.terms.TERMS` at a time to the engine
    level's :math:`v_n`; the step :math:`i` with the largest :math:`|\\ln(v_i / v_{i-1})|` is
    named, when its factor exceeds :data:`core.evidence.fidelity.MOVED` either way.
    """
    white = evaluate(scenario, realism="whiteboard", **overrides)
    values = [_scalar(getattr(white, field), index)]
    terms: list[str] = []
    for term in (None, *TERMS):
        terms += [term] if term else []
        found = evaluate_terms(scenario, frozenset(terms), **overrides)
        values.append(_scalar(getattr(found, field), index))
    best, best_log = None, math.log(MOVED)
    labels = list(STEP_LABELS.items())
    for step in range(1, len(values)):
        before, after = values[step - 1], values[step]
        if before <= 0 or after <= 0:
            continue
        size = abs(math.log(after / before))
        if size > best_log:
            best, best_log = step, size
    if best is None:
        return None
    term, label = labels[best]
    return Effect(term, label, values[best] / values[best - 1])


def matching_case(
    scenario: Scenario, field: str, cards: int, prompt_tokens: int | None = None
) -> PublishedCase | None:
    """A published case measured on ``scenario``'s node and storage, for the metric ``field`` is.

    The model must be an exact catalog model (the tiers are round numbers, never measured);
    of several cases the one whose prompt is nearest in ratio to the scenario's is chosen.
    """
    metric = PUBLISHED_METRIC.get(field)
    if metric is None or not scenario.model or scenario.model_config:
        return None
    found = [
        case
        for case in PUBLISHED
        if case.metric == metric
        and case.model == scenario.model
        and case.gpu == scenario.gpu
        and case.cards == cards
        and case.dtype == scenario.weight_dtype
        and case.cache_dtype == scenario.kv_dtype
    ]
    if not found:
        return None
    prompt = max(int(scenario.prompt_tokens if prompt_tokens is None else prompt_tokens), 1)
    return min(found, key=lambda case: abs(math.log(max(case.prompt_tokens, 1) / prompt)))


def reveal(scenario: Scenario, field: str, text: str, index: int = 0, **overrides) -> Reveal:
    """Read the guess ``text`` at ``field`` and set it beside both levels and a measurement.

    Parameters
    ----------
    scenario : Scenario
        The student's knobs.
    field : str
        A key of :data:`GUESS_UNITS`, the headline figure guessed.
    text : str
        What the student typed; read by :func:`core.practice.reading.read_answer`.
    index : int
        Which configuration to read where ``overrides`` hold arrays (the lab's active one).
    **overrides
        The lab's own knobs, as it passes them to :func:`core.evaluate`.

    Returns
    -------
    Reveal
        Never raises for any ``text``; an unreadable one gives ``reading.ok`` False.

    Raises
    ------
    ValueError
        For a ``field`` outside :data:`GUESS_UNITS` (a caller's mistake).
    """
    if field not in GUESS_UNITS:
        raise ValueError(f"field={field!r} has no guess unit; allowed: {', '.join(GUESS_UNITS)}")
    kind, unit = GUESS_UNITS[field]
    reading = read_answer(text, kind, unit)
    knobs = {k: v for k, v in overrides.items() if k != "realism"}
    white = evaluate(scenario, realism="whiteboard", **knobs)
    real = evaluate(scenario, realism="engine", **knobs)
    levels = {
        "whiteboard": _scalar(getattr(white, field), index),
        "engine": _scalar(getattr(real, field), index),
    }
    shown = levels["engine" if scenario.realism == "engine" else "whiteboard"]
    prompt = _scalar(knobs.get("prompt_tokens", scenario.prompt_tokens), index)
    case = matching_case(scenario, field, int(_scalar(white.cards, index)), int(prompt))
    extra = {}
    if case is not None:
        extra = {"case": case, "measured": case.measured, "case_engine": predict(case)}
    effect = largest_effect(scenario, field, index, **knobs)
    return Reveal(field, reading, shown, levels["whiteboard"], levels["engine"], effect=effect,
                  **extra)  # fmt: skip


class Calibration(param.Parameterized):
    """One student's running score: how often a guess lands within 25 %, and the median miss."""

    misses = param.List(default=[], item_type=float, doc="Each readable guess's miss, in order.")
    reveals = param.List(default=[], item_type=Reveal, doc="Each readable guess, in order.")

    def record(self, found: Reveal) -> None:
        """Count ``found``'s guess (an unreadable one is not a guess); keep it for the report."""
        if found.ok:
            self.reveals = [*self.reveals, found]
            self.misses = [*self.misses, float(found.miss)]

    @property
    def guesses(self) -> int:
        """Readable guesses so far."""
        return len(self.misses)

    @property
    def share_within(self) -> float:
        """The share of guesses within :data:`WITHIN` of their figure (0 before any)."""
        if not self.misses:
            return 0.0
        return float(np.mean(np.array(self.misses) <= WITHIN))

    @property
    def median_miss(self) -> float:
        """The median miss as a share of the figure (0 before any guess)."""
        return float(np.median(self.misses)) if self.misses else 0.0


__all__ = ["GUESS_UNITS", "Calibration", "Effect", "Reveal", "largest_effect", "reveal"]
