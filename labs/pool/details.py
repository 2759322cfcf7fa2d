"""The pool lab's knobs and defaults, and core's answers behind its details stage."""

from __future__ import annotations

from typing import NamedTuple

from core import WORKLOADS, Scenario, evaluate
from core.catalog.custom import scenario_shape
from core.evidence.level_gap import first_token_band, level_gaps, rate_provenance, trust_band
from core.foundation.units import kib
from core.studies.sensitivity import knob_effects, moved_knobs
from labs.page import format as fmt
from labs.pool.checks import ENGINE_FIELDS
from labs.pool.hour import trace_figures

# The node (exact model, card, cards, weights) is shown too: a preset loads it at its
# defaults, so the story's figures are the ones on screen.
POOL_KNOBS = (
    "workload", "seats", "tier", "prompt_tokens", "prefix_hit_rate", "kv_dtype",
    "model", "gpu", "cards", "weight_dtype", "traffic", "arrivals_per_min", "replicas",
    "router", "prefix_source", "kv_offload", "session_turns", "think_time_s",
    "turn_growth_tokens",
)  # fmt: skip
SWEPT_KNOBS = ("seats", "tier", "prompt_tokens", "prefix_hit_rate", "kv_dtype")
HEADLINES = ("seats_granted", "ttft_p95_s", "decode_tokens_per_s", "monthly_usd")
# The smallest change that counts, per output, in its own unit.
NOISE_FLOORS = {
    "seats_granted": 0.5,
    "ttft_p95_s": 0.001,
    "decode_tokens_per_s": 1.0,
    "monthly_usd": 1.0,
}


def pool_defaults() -> dict:
    """The default of every knob the pool lab shows."""
    return {name: Scenario.param[name].default for name in POOL_KNOBS}


def other_workload(name: str) -> str:
    """The workload that is not ``name``."""
    return next(other for other in WORKLOADS if other != name)


def story_figures(knobs) -> dict:
    """Figures a preset's story quotes, from the preset's own evaluation."""
    result = evaluate(Scenario(**{**pool_defaults(), **knobs}))
    return {
        "weights": fmt.gigabytes(result.weight_bytes),
        "granted": fmt.count(result.seats_granted),
        "waiting": fmt.count(result.seats_waiting),
        "nodes": fmt.count(result.nodes),
        "wait": fmt.duration(result.queue_wait_p95_s, result.queue_unbounded),
        "ttft": fmt.duration(result.ttft_p95_s, result.queue_unbounded),
        "prefill": fmt.duration(result.prefill_s),
        "bill": fmt.dollars(result.monthly_usd),
        "kv_per_token": f"{kib(result.kv_bytes_per_token):,.0f} KiB",
        **trace_figures(knobs.get("traffic")),
    }


class Details(NamedTuple):
    """Core's answers behind the details stage of one scenario."""

    other: object  # the Result on the other workload
    effects: list  # knob_effects of the walkthrough's knobs and every other knob moved
    gaps: list  # the figures whose two levels part
    band: object  # the engine level's trust band for the family
    provenance: object  # where the card's engine-level rates come from
    shape: object  # the model's shape, for the MoE chart
    steady: object = None  # a closed loop's Result with no end to its run, beside a finite run
    first_token: object = None  # the engine level's band on every published first token


def details_for(s: Scenario, result) -> Details:
    """What core says beside the headline: the other workload, knob effects, level gaps.

    The mattered table's rows are the walkthrough's five knobs, then every other knob away from
    its default (the table is "on this workload": the workload is its frame, not a row).
    """
    defaults = pool_defaults()
    # An exact model replaces the tier: its row is the one that can matter.
    walkthrough = {k: defaults[k] for k in SWEPT_KNOBS}
    if s.model:
        walkthrough = {
            ("model" if k == "tier" else k): (None if k == "tier" else v)
            for k, v in walkthrough.items()
        }
    swept = moved_knobs(s, walkthrough, left_out=("workload",))
    return Details(
        other=evaluate(s, workload=other_workload(s.workload)),
        effects=knob_effects(s, swept, HEADLINES, NOISE_FLOORS),
        gaps=level_gaps(s, ENGINE_FIELDS, shown=result),
        band=trust_band(s),
        provenance=rate_provenance(s),
        shape=scenario_shape(s),
        steady=evaluate(s, run_requests=None) if s.ends_a_run() else None,
        first_token=first_token_band(),
    )
