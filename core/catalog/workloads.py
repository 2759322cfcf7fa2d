"""The two traffic shapes of the walkthrough and the service level the pool is held to."""

from __future__ import annotations

from dataclasses import dataclass

TTFT_SLO_S = 1.2  # first token within 1,200 ms ...
TTFT_PERCENTILE = 0.95  # ... for 95 % of requests, at the peak-minute arrival rate
BUDGET_USD_PER_MONTH = 6500.0


@dataclass(frozen=True)
class Workload:
    """Peak-minute traffic: how often requests arrive and how long their answers run.

    The prompt length is a knob of the scenario, not of the workload, so that one
    configuration can be read against both workloads. ``typical_prompt_tokens`` is what
    such traffic usually carries, shown to the student as a suggestion.
    """

    name: str
    arrivals_per_min: float
    answer_tokens: int
    typical_prompt_tokens: int
    description: str


WORKLOADS: dict[str, Workload] = {
    "chat": Workload(
        "chat",
        arrivals_per_min=240.0,
        answer_tokens=200,
        typical_prompt_tokens=1200,
        description="an assistant answering short turns behind a shared system preamble",
    ),
    "document analysis": Workload(
        "document analysis",
        arrivals_per_min=30.0,
        answer_tokens=500,
        typical_prompt_tokens=8000,
        description="a few long uploads an hour of peak, each summarised or questioned at length",
    ),
}
DEFAULT_WORKLOAD = "chat"
