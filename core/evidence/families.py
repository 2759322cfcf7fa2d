"""The published cases in families, and each level's error per family and per set.

One global error hides where a model can be trusted: the engine level was built on dense 2024
models served by TensorRT-LLM, and it misses mixtures of experts on 2025-26 engines by far more.
A family is the cases that share one trait: dense or mixture of experts, an NVIDIA or an AMD
card, the engine that measured them, throughput or latency. :func:`family_rows` scores every
family over each development set and over both together.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from core.catalog.custom import scenario_shape
from core.evidence.cases import ENGINES, PublishedCase
from core.evidence.crossval import CrossValidated, cross_validated
from core.evidence.scores import Score, summarise

# The development sets: the 2024 engines the engine level was built on, the 2025-26 engines
# of issue 23, and both together.
SETS = {
    "first": "2024 engines, dense models (core/evidence/cases.py)",
    "second": "2024-26 engines, mixtures of experts and dense (core/evidence/cases_2026.py)",
    "both": "the two sets together",
}
LEVELS = ("whiteboard", "engine")


def is_mixture(case: PublishedCase) -> bool:
    """True where the case's model is a mixture of experts (a pasted config.json included)."""
    return scenario_shape(case.scenario()).is_moe


def card_maker(gpu: str) -> str:
    """The maker of a card: AMD for the Instinct cards (named MI...), else NVIDIA."""
    return "AMD" if str(gpu).startswith("MI") else "NVIDIA"


def vendor(case: PublishedCase) -> str:
    """The maker of the case's card (:func:`card_maker`)."""
    return card_maker(case.gpu)


def is_throughput(case: PublishedCase) -> bool:
    """True for a throughput case; the others time a token or a request."""
    return case.metric == "throughput"


# Each family by dimension: its name and the test a case passes to belong to it.
FAMILIES = {
    "every case": ("all", lambda case: True),
    "dense": ("model", lambda case: not is_mixture(case)),
    "mixture of experts": ("model", is_mixture),
    "NVIDIA": ("card", lambda case: vendor(case) == "NVIDIA"),
    "AMD": ("card", lambda case: vendor(case) == "AMD"),
    **{name: ("engine", lambda case, name=name: case.engine == name) for name in ENGINES},
    "throughput": ("figure", is_throughput),
    "latency": ("figure", lambda case: not is_throughput(case)),
}


@dataclass(frozen=True)
class FamilyRow:
    """One family's score at each level over each set, ``None`` where it has no case there."""

    family: str
    dimension: str
    scores: dict[tuple[str, str], Score | None]  # by (set, level)
    # the engine level's leave-one-publisher-out score by set (core.evidence.crossval)
    cross_validated: dict[str, CrossValidated | None] = field(default_factory=dict)

    def score(self, set_name: str, level: str = "engine") -> Score | None:
        """The family's score over ``set_name`` at ``level``."""
        return self.scores[(set_name, level)]

    def held_out(self, set_name: str) -> CrossValidated | None:
        """The family's engine-level score over ``set_name`` with each publisher held out."""
        return self.cross_validated.get(set_name)


def family_rows(cases, ratios: dict[str, np.ndarray], sets: dict[str, tuple[int, ...]],
                held_out=None):  # fmt: skip
    """Every family of :data:`FAMILIES`, scored over each set at each level.

    Parameters
    ----------
    cases : sequence of PublishedCase
        Every case shown.
    ratios : dict
        Prediction over measurement for each case, by level (``"whiteboard"``, ``"engine"``).
    sets : dict
        The indices into ``cases`` of each set's scored cases, by set name.
    held_out : array_like, optional
        Each case's engine-level ratio from the fold that never saw its publisher
        (:func:`core.evidence.crossval.held_out_ratios`); where given, each family's
        cross-validated score is kept beside its in-sample ones.

    Returns
    -------
    tuple of FamilyRow
        In the order of :data:`FAMILIES`.
    """
    publishers = np.array([case.publisher for case in cases], dtype=str)
    rows = []
    for family, (dimension, belongs) in FAMILIES.items():
        members = {index for index, case in enumerate(cases) if belongs(case)}
        scores, validated = {}, {}
        for set_name, indices in sets.items():
            chosen = [index for index in indices if index in members]
            for level in ratios:
                scores[(set_name, level)] = (
                    summarise(np.asarray(ratios[level])[chosen]) if chosen else None
                )
            if held_out is not None:
                validated[set_name] = (
                    cross_validated(np.asarray(held_out)[chosen], publishers[chosen])
                    if chosen else None
                )  # fmt: skip
        rows.append(FamilyRow(family, dimension, scores, validated))
    return tuple(rows)
