"""The capacity model of a dedicated LLM serving pool: numpy and param only, no UI."""

from core.catalog import GPUS, MODELS, TIERS
from core.catalog.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S, WORKLOADS
from core.evaluate import UNBOUNDED_WAIT_S, evaluate
from core.evidence.sources import sources
from core.scenario.knobs import KNOBS, Scenario
from core.scenario.result import RESULT_FIELDS, Result

__all__ = [
    "BUDGET_USD_PER_MONTH",
    "GPUS",
    "KNOBS",
    "MODELS",
    "RESULT_FIELDS",
    "TIERS",
    "TTFT_PERCENTILE",
    "TTFT_SLO_S",
    "UNBOUNDED_WAIT_S",
    "WORKLOADS",
    "Result",
    "Scenario",
    "evaluate",
    "sources",
]
