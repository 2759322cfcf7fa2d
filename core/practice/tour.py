"""The guided walkthrough's answers: what each of its questions has for an answer, from the model.

The tour (``/tour``) asks one question per step, either a guess at a figure (graded by
:func:`core.practice.calibration.reveal`: right within 25 %) or a choice among a few
options. Each choice's answer is one function here, computed from :func:`core.evaluate` for
the step's configuration, so the tour's wording never carries a figure of its own.
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np

from core.catalog.workloads import WORKLOADS
from core.evaluate import evaluate
from core.practice.calibration import Reveal, reveal
from core.scenario.knobs import Scenario
from core.studies.sensitivity import knob_effects

MORE, FEWER, SAME = "more", "fewer", "the same"
YES, NO = "yes", "no"
LEDGER_PARTS = ("weights", "cache in use", "free room for cache")


def busier_workload(scenario: Scenario) -> str:
    """The workload with more arrivals in its peak minute, on ``scenario``'s node."""
    rates = {name: float(evaluate(scenario, workload=name).arrivals_per_min) for name in WORKLOADS}
    return max(rates, key=rates.get)


def seats_after(scenario: Scenario, knob: str, value) -> str:
    """Whether setting ``knob`` to ``value`` grants more seats, fewer, or the same."""
    now = float(evaluate(scenario).seats_granted)
    then = float(evaluate(scenario, **{knob: value}).seats_granted)
    return MORE if then > now else FEWER if then < now else SAME


def largest_part(scenario: Scenario) -> str:
    """The largest of the ledger's parts of the node's memory (one of :data:`LEDGER_PARTS`).

    Notes
    -----
    The parts are the weights' bytes, the cache the granted seats hold, and the room left
    for more cache; the fixed margin is left out, as no knob of the tour moves it.
    """
    result = evaluate(scenario)
    sizes = np.array([result.weight_bytes, result.kv_bytes_in_use, result.free_kv_bytes], float)
    return LEDGER_PARTS[int(np.argmax(sizes))]


def passes_on(scenario: Scenario, workload: str) -> str:
    """Whether ``scenario``'s configuration passes all three checks on ``workload``."""
    return YES if bool(evaluate(scenario, workload=workload).passes) else NO


def mattered_most(scenario: Scenario, defaults: Mapping[str, object], output: str) -> str:
    """The knob of ``defaults`` whose reset moves ``output`` most (see :func:`knob_effects`)."""
    effects = knob_effects(scenario, defaults, [output])
    return max(effects, key=lambda effect: abs(float(effect.changes[output]))).knob


def best_change(scenario: Scenario, changes: Mapping[str, Mapping], output: str) -> str:
    """The key of ``changes`` (each a dict of knobs) that raises ``output`` the most."""
    found = {
        name: float(getattr(evaluate(scenario, **knobs), output)) for name, knobs in changes.items()
    }
    return max(found, key=found.get)


# The tour's choice questions, by name: each takes the step's scenario and its arguments.
ANSWERS = {
    "busier_workload": busier_workload,
    "seats_after": seats_after,
    "largest_part": largest_part,
    "passes_on": passes_on,
    "mattered_most": mattered_most,
    "best_change": best_change,
}


def answer(name: str, scenario: Scenario, **args) -> str:
    """The right option of the choice question ``name`` on ``scenario``.

    Raises
    ------
    ValueError
        For a ``name`` outside :data:`ANSWERS`.
    """
    if name not in ANSWERS:
        raise ValueError(f"answer={name!r} is not a tour question; allowed: {', '.join(ANSWERS)}")
    return ANSWERS[name](scenario, **args)


def grade_guess(scenario: Scenario, field: str, text: str) -> Reveal:
    """A typed guess at ``field``, compared as predict-first compares it (right within 25 %)."""
    return reveal(scenario, field, text)
