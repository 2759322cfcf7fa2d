"""How well each level of the model predicts what real engines measured, and why they differ.

:func:`predictions` gives every published case's figure at one level of detail in one
vectorised call; :func:`score` sums a set of cases up (geometric-mean error, share within the
band); :func:`waterfall` walks from the whiteboard's figure to the engine level's one physical
term at a time, so a student sees which terms moved it; :func:`term_effects` says which terms
matter across the whole set; :func:`report` puts both development sets, their scores per
family and the check set's scores together, once per process.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import numpy as np

from core.engine_level.terms import TERMS
from core.evaluate import evaluate, evaluate_terms
from core.evidence.cases import DEVELOPMENT, PublishedCase
from core.evidence.cases_2026 import SECOND
from core.evidence.crossval import CrossValidated, cross_validated, held_out_ratios
from core.evidence.families import LEVELS, FamilyRow, family_rows
from core.evidence.scores import BAND, Score, summarise, within_band
from core.evidence.stored import stored
from core.scenario.knobs import Scenario

__all__ = ["BAND", "Score", "within_band"]  # re-exported: the labs read them from here

# Every published case the Reality check lab shows: the first development set, then the second.
PUBLISHED: tuple[PublishedCase, ...] = (*DEVELOPMENT, *SECOND)
# A term "moved" a case when it changed the figure by more than this factor.
MOVED = 1.10
_SET_UP = ("model", "gpu", "cards", "weight_dtype", "kv_dtype", "prompt_tokens",
           "answer_tokens", "prefix_hit_rate", "seats", "concurrency", "arrivals_per_min",
           "engine", "engine_version", "layout", "run_requests", "batch_limit",
           "memory_share", "recv_interval")  # fmt: skip


@cache
def _set_up(case: PublishedCase) -> tuple:
    """``case``'s set-up as its Scenario types it, knob by knob (``_SET_UP``): built once per
    case, not once for every set of terms a waterfall prices it under."""
    scenario = case.scenario()
    return tuple(getattr(scenario, knob) for knob in _SET_UP)


def _overrides(cases) -> dict:
    """Every case's set-up as arrays of knobs, one entry per case."""
    rows = [_set_up(case) for case in cases]
    return {
        knob: np.array([row[column] for row in rows], dtype=object)
        for column, knob in enumerate(_SET_UP)
    }


def _pick(result, cases) -> np.ndarray:
    return np.array(
        [getattr(result, case.field)[index] for index, case in enumerate(cases)], dtype=float
    )


def _by_config(cases, run) -> np.ndarray:
    """``run(**knobs)`` over ``cases``, one vectorised call per pasted config.json.

    A pasted config.json is a scalar knob, so cases that paste different ones (or none) are
    evaluated in separate calls and their figures put back in the cases' order.
    """
    cases = list(cases)
    figures = np.empty(len(cases))
    for config in dict.fromkeys(case.model_config for case in cases):
        rows = [index for index, case in enumerate(cases) if case.model_config == config]
        group = [cases[index] for index in rows]
        pasted = {"model_config": config} if config else {}
        figures[rows] = _pick(run(**pasted, **_overrides(group)), group)
    return figures


def predictions(cases, realism: str = "engine") -> np.ndarray:
    """Each case's figure as ``realism`` predicts it, in the unit it was measured in."""
    return _by_config(cases, lambda **knobs: evaluate(Scenario(), realism=realism, **knobs))


def predict(case: PublishedCase, realism: str = "engine") -> float:
    """The figure ``realism`` predicts for one case."""
    return float(getattr(evaluate(case.scenario(realism)), case.field))


def with_terms(cases, terms) -> np.ndarray:
    """Each case's figure at the engine level with only ``terms`` in force."""
    frozen = frozenset(terms)
    return _by_config(cases, lambda **knobs: evaluate_terms(Scenario(), frozen, **knobs))


def score(cases, realism: str = "engine") -> Score:
    """Ratios and summary statistics of ``realism`` over ``cases`` (see :func:`summarise`)."""
    return summarise(predictions(cases, realism) / np.array([case.measured for case in cases]))


@dataclass(frozen=True)
class Step:
    """One bar of a waterfall: what the figure becomes once ``label`` is taken into account."""

    term: str  # "whiteboard", "load", or a key of TERMS
    label: str
    value: float


STEP_LABELS = {
    "whiteboard": "the whiteboard's arithmetic",
    "load": "the batch the benchmark keeps running (the whiteboard prices every step for a full node)",
    **TERMS,
}


def waterfall_table(cases: tuple[PublishedCase, ...]) -> np.ndarray:
    """Every case's waterfall as one array: a row per case, a column per :data:`STEP_LABELS` key.

    The first column is the whiteboard's figure; the second runs the same arithmetic on the
    batch the benchmark actually keeps running; each further column adds one term of
    :data:`core.engine_level.terms.TERMS` in order, so the last is the engine level's figure.
    Computed on every call (a student's uploaded runs are priced here and never kept).
    """
    columns = [predictions(cases, "whiteboard")]
    terms: set[str] = set()
    columns.append(with_terms(cases, terms))
    for term in TERMS:
        terms.add(term)
        columns.append(with_terms(cases, terms))
    table = np.column_stack(columns)
    table.setflags(write=False)
    return table


@cache
def waterfalls(cases: tuple[PublishedCase, ...] = PUBLISHED) -> np.ndarray:
    """:func:`waterfall_table` computed once per process; the published cases' table is also
    kept between a server's starts (:func:`core.evidence.stored.stored`)."""
    if cases != PUBLISHED:
        return waterfall_table(cases)
    shape = (len(cases), len(STEP_LABELS))
    return stored("waterfalls", shape, lambda: waterfall_table(cases))


def _check_score(name: str, cases: tuple[PublishedCase, ...], realism: str) -> Score:
    """:func:`score` of the check set ``name``, its predictions kept as the waterfalls are."""
    figures = stored(f"{name}_{realism}", (len(cases),), lambda: predictions(cases, realism))
    return summarise(figures / np.array([case.measured for case in cases]))


def waterfall(case: PublishedCase) -> list[Step]:
    """One case's figure from the whiteboard to the engine level, one term at a time."""
    cases = PUBLISHED if case in PUBLISHED else (case,)
    row = waterfalls(cases)[cases.index(case)]
    return [
        Step(term, label, float(value))
        for (term, label), value in zip(STEP_LABELS.items(), row, strict=True)
    ]


@dataclass(frozen=True)
class TermEffect:
    """How much one term moves the published cases."""

    term: str
    label: str
    cases_moved: int  # cases it changes by more than MOVED
    largest: float  # its largest factor, as a ratio (below 1: it lowered the figure)
    largest_case: str


def term_effects(cases: tuple[PublishedCase, ...] = PUBLISHED) -> list[TermEffect]:
    """Each step of the waterfall summed up over ``cases``, largest effect first."""
    table = waterfalls(cases)
    factors = table[:, 1:] / table[:, :-1]
    effects = []
    for column, (term, label) in enumerate(list(STEP_LABELS.items())[1:]):
        logs = np.abs(np.log(factors[:, column]))
        worst = int(np.argmax(logs))
        effects.append(
            TermEffect(
                term, label, int(np.sum(logs > np.log(MOVED))), float(factors[worst, column]),
                cases[worst].key,
            )
        )  # fmt: skip
    return sorted(effects, key=lambda effect: -abs(np.log(effect.largest)))


@dataclass(frozen=True)
class Report:
    """Everything the Reality check lab shows, computed once per process."""

    cases: tuple[PublishedCase, ...]  # both development sets, scored or not (PUBLISHED)
    sets: dict[str, tuple[int, ...]]  # each set's scored cases, as indices into cases
    whiteboard: np.ndarray  # each case's whiteboard prediction
    engine: np.ndarray  # each case's engine-level prediction
    steps: np.ndarray  # waterfalls as prediction / measurement, a row per case
    scores: dict[str, dict[str, Score]]  # by set ("first", "second", "both"), then realism
    check: dict[str, Score]  # by realism, over the held-apart check set
    # by realism, over the rest of the second set's TensorRT-LLM 1.x table (check_cases_2026)
    check_second: dict[str, Score]
    # by realism, over Argonne's MI300X table, its own vLLM 0.6.1 build (check_cases_argonne)
    check_argonne: dict[str, Score]
    # by realism, over TensorRT-LLM 1.0's own throughput table (check_cases_trt10)
    check_trt10: dict[str, Score]
    # by realism, over Dell's SC '25 DeepSeek-R1 runs on MI300X and MI325X (check_cases_sc25)
    check_sc25: dict[str, Score]
    # the engine level over the scored development cases of that release on that card
    argonne_peers: Score
    # per case, other publishers' rows of its set-up (development or any check set), with the
    # ratio of their measurement to the case's (same_set_ups)
    elsewhere: tuple
    families: tuple[FamilyRow, ...]  # each family's scores per set and realism
    effects: list[TermEffect]
    publishers: tuple[str, ...]  # each case's publisher (core.evidence.publishers)
    # each case's engine-level ratio from the fold that never saw its publisher
    held_out: np.ndarray
    cross_validated: dict[str, CrossValidated]  # the engine level's, by set

    @property
    def development(self) -> dict[str, Score]:
        """The first development set's scores, by realism."""
        return self.scores["first"]

    def set_of(self, index: int) -> str:
        """Which set case ``index`` belongs to: ``"first"`` or ``"second"``."""
        return "first" if index < len(DEVELOPMENT) else "second"


def _sets(cases: tuple[PublishedCase, ...]) -> dict[str, tuple[int, ...]]:
    first = tuple(range(len(DEVELOPMENT)))
    second = tuple(index for index in range(len(DEVELOPMENT), len(cases)) if cases[index].scored)
    return {"first": first, "second": second, "both": first + second}


def both_set_cases(leaving=frozenset()) -> list[PublishedCase]:
    """The cases both development sets score, in order, less those whose keys ``leaving`` names
    (a later round's rows, for a figure as a round quoted it): for pricing them afresh, where
    :func:`report` prices them once per process."""
    return [PUBLISHED[i] for i in _sets(PUBLISHED)["both"] if PUBLISHED[i].key not in leaving]


def scored_afresh(leaving=frozenset()) -> tuple[list[PublishedCase], Score, CrossValidated]:
    """Both development sets' cases (less ``leaving``'s keys), their engine-level score and
    their publisher-held-out score, priced now: for a figure under a rule switched on or off
    inside a context, where :func:`report` prices once per process."""
    cases = both_set_cases(leaving)
    both = score(cases)
    publishers = [case.publisher for case in cases]
    return cases, both, cross_validated(held_out_ratios(publishers, both.ratios), publishers)


def same_set_ups(cases, others) -> tuple[tuple[tuple[PublishedCase, float], ...], ...]:
    """For each of ``cases``, other publishers' rows of its set-up among ``others``
    (:attr:`PublishedCase.set_up`), each with its measurement over the case's: how far two
    publishers' runs of one thing part. Each row's set-up is read once."""
    by_set_up: dict[tuple, list[PublishedCase]] = {}
    for other in others:
        by_set_up.setdefault(other.set_up, []).append(other)
    return tuple(
        tuple(
            (other, other.measured / case.measured)
            for other in by_set_up.get(case.set_up, ())
            if other.publisher != case.publisher
        )
        for case in cases
    )


def peers(cases, scored, check) -> tuple[int, ...]:
    """The scored cases (indices into ``cases``) run on a card, engine and release that a case
    of the check set ``check`` runs on: what the same release measured elsewhere reads."""
    kinds = {(case.gpu, case.engine_knob, case.version_knob) for case in check}
    return tuple(
        i for i in scored if (cases[i].gpu, cases[i].engine_knob, cases[i].version_knob) in kinds
    )


@cache
def report() -> Report:
    """Both development sets' predictions, waterfalls and scores per family, and the check sets'.

    Beside each in-sample score sits the leave-one-publisher-out one
    (:mod:`core.evidence.crossval`): each publisher's cases scored by a fold that never saw
    them, each publisher one vote.
    """
    from core.evidence.check_cases import CHECK
    from core.evidence.check_cases_2026 import CHECK_TRT_1X
    from core.evidence.check_cases_argonne import CHECK_ARGONNE
    from core.evidence.check_cases_sc25 import CHECK_SC25
    from core.evidence.check_cases_trt10 import CHECK_TRT_10

    cases = PUBLISHED
    measured = np.array([case.measured for case in cases])
    table = waterfalls(cases)
    steps = table / measured[:, None]
    steps.setflags(write=False)
    ratios = {"whiteboard": steps[:, 0], "engine": steps[:, -1]}
    sets = _sets(cases)
    publishers = tuple(case.publisher for case in cases)
    # nothing in the engine level is fitted on these rows (crossval.FITTED_ON_ROWS): no refit
    held_out = held_out_ratios(publishers, ratios["engine"])
    return Report(
        cases=cases,
        sets=sets,
        whiteboard=table[:, 0],
        engine=table[:, -1],
        steps=steps,
        scores={
            name: {level: summarise(ratios[level][list(rows)]) for level in LEVELS}
            for name, rows in sets.items()
        },
        check={level: _check_score("check", CHECK, level) for level in LEVELS},
        check_second={level: _check_score("trt1x", CHECK_TRT_1X, level) for level in LEVELS},
        check_argonne={level: _check_score("argonne", CHECK_ARGONNE, level) for level in LEVELS},
        check_trt10={level: _check_score("trt10", CHECK_TRT_10, level) for level in LEVELS},
        check_sc25={level: _check_score("sc25", CHECK_SC25, level) for level in LEVELS},
        argonne_peers=summarise(ratios["engine"][list(peers(cases, sets["both"], CHECK_ARGONNE))]),
        elsewhere=same_set_ups(
            cases, (*cases, *CHECK, *CHECK_TRT_1X, *CHECK_TRT_10, *CHECK_ARGONNE, *CHECK_SC25)
        ),
        families=family_rows(cases, ratios, sets, held_out),
        effects=term_effects(cases),
        publishers=publishers,
        held_out=held_out,
        cross_validated={
            name: cross_validated(held_out[list(rows)], [publishers[i] for i in rows])
            for name, rows in sets.items()
        },
    )
