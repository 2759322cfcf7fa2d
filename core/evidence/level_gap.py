"""Where the two levels of detail part: figures a real engine would report differently.

The labs teach the whiteboard's figures; beside them they show what the engine level says
wherever the two differ by more than the published-case band (x0.80 to x1.25).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from core.catalog.custom import scenario_gpu, scenario_shape
from core.catalog.kernels import card_family, expert_kernel
from core.engine_level.formats import expert_format
from core.evaluate import evaluate
from core.evidence.crossval import cross_validated_band
from core.evidence.families import card_maker, is_mixture, vendor
from core.evidence.fidelity import report, within_band
from core.scenario.knobs import Scenario


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


def level_gaps(scenario: Scenario, fields, shown=None, **overrides) -> list[Gap]:
    """:func:`gaps` of ``fields`` between the two levels for ``scenario`` (with ``overrides``).

    ``shown``, where given, is the scenario's result (with ``overrides``) at its own level,
    as the caller has already evaluated it; only the other level is evaluated then.
    """
    knobs = {**overrides}
    level = knobs.pop("realism", scenario.realism)
    white = shown if shown is not None and level == "whiteboard" else None
    real = shown if shown is not None and level == "engine" else None
    if white is None:
        white = evaluate(scenario, realism="whiteboard", **knobs)
    if real is None:
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


@dataclass(frozen=True)
class TrustBand:
    """How far the engine level held up on published cases like a scenario's."""

    low: float  # the 10th percentile of prediction / measurement, publishers held out
    high: float  # the 90th percentile
    family: str  # the cases it was read from, in words
    cases: int
    publishers: int = 1  # how many publishers measured them, each weighted alike


# Fewer cases than this in the narrow family and the band is read from the broader one.
_FEWEST_CASES = 5


def trust_band(scenario: Scenario) -> TrustBand:
    """The engine level's cross-validated band on the published cases of ``scenario``'s family.

    The family is the scenario's kind of model (dense or mixture of experts) on its maker's
    cards (NVIDIA or AMD), over both development sets; where that holds fewer than five cases,
    the kind of model alone.

    Notes
    -----
    The band runs from the 10th to the 90th percentile of the family's held-out ratios
    :math:`p_i / m_i` (each case predicted by the fold that never saw its publisher), each
    publisher weighted alike (:func:`core.evidence.crossval.cross_validated_band`): eight in
    ten of what an unseen publisher measures should land inside it.
    """
    return _family_band(bool(scenario_shape(scenario).is_moe), card_maker(scenario.gpu))


# Four families at most, each read from every published case (a Scenario built per case):
# about 100 ms, which a knob change must not pay again.
@cache
def _family_band(mixture: bool, maker: str) -> TrustBand:
    """:func:`trust_band` of the family of mixtures (or dense models) on ``maker``'s cards."""
    found = report()
    kind = "mixtures of experts" if mixture else "dense models"
    rows = list(found.sets["both"])
    same_kind = [i for i in rows if is_mixture(found.cases[i]) == mixture]
    narrow = [i for i in same_kind if vendor(found.cases[i]) == maker]
    chosen, family = (narrow, f"{kind} on {maker} cards") if len(narrow) >= _FEWEST_CASES else (
        same_kind, kind)  # fmt: skip
    return _band_of(found, chosen, family)


def _band_of(found, chosen: list[int], family: str) -> TrustBand:
    """The cross-validated band over the report ``found``'s cases ``chosen``, each publisher
    weighted alike, named ``family``."""
    publishers = [found.publishers[i] for i in chosen]
    low, high = cross_validated_band(found.held_out[chosen], publishers)
    return TrustBand(low, high, family, len(chosen), len(set(publishers)))


@cache
def first_token_band(leaving: frozenset = frozenset()) -> TrustBand:
    """The engine level's band on every published time to first token, scored and shown.

    A first token is the figure the engine level holds up least on: the few scored ones sit
    within a few per cent, while the rows shown beside them (benchmark clients' means on
    mixtures at 4-64 users, core/evidence/cases_atom.py and cases_inferencex.py) read as low as
    a fifth of the measurement. Shown rows are left out of the scores for how they were typed
    or read, not for what they measured, so the band counts them. Read as :func:`trust_band`
    is: the 10th to 90th percentile of prediction / measurement, each publisher weighted alike;
    less the cases ``leaving`` names (the band as it stood before they were typed).
    """
    found = report()
    chosen = [i for i, case in enumerate(found.cases)
              if case.metric == "ttft" and case.key not in leaving]  # fmt: skip
    return _band_of(found, chosen, "first tokens, scored and shown")


@dataclass(frozen=True)
class RateProvenance:
    """Whether the engine level's rates for a card were measured on it or borrowed."""

    card: str
    rates_borrowed: bool  # bandwidth or matmul rates taken from the H100's measured shares
    kernels_from: str  # the card family whose expert-kernel tables price it
    kernels_borrowed: bool
    borrowed_rates: str = ""  # which of them: "bandwidth and matmul", "bandwidth"
    bandwidth_note: str = ""  # how a bandwidth bounded by another card's stream is set


def rate_provenance(scenario: Scenario) -> RateProvenance:
    """Where ``scenario``'s card rates and expert-kernel tables come from (measured or borrowed):
    the tables of the kernel its engine's release runs for its experts' format (AITER's rows,
    which SGLang and vLLM with the ATOM plugin run, and vLLM's own Triton rows on CDNA3 are
    measured on AMD cards; the other engines' there are borrowed)."""
    gpu = scenario_gpu(scenario)
    family = card_family(scenario.gpu)
    weight = expert_format(scenario.weight_dtype, scenario_shape(scenario))
    _, measured = expert_kernel(scenario.gpu, weight, scenario.engine, scenario.engine_version)
    return RateProvenance(
        card=gpu.name,
        rates_borrowed=bool(gpu.borrowed_rates) or scenario.gpu == "custom",
        borrowed_rates=gpu.borrowed_rates or "bandwidth and matmul",
        bandwidth_note=gpu.bandwidth_note,
        kernels_from=measured,
        kernels_borrowed=measured != family,
    )
