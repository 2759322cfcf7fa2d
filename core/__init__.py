"""The capacity model of a dedicated LLM serving pool: numpy and param only, no UI."""

from core.catalog import GPUS, MODELS, TIERS
from core.evaluate import UNBOUNDED_WAIT_S, evaluate
from core.result import RESULT_FIELDS, Result
from core.scenario import KNOBS, Scenario
from core.sources import sources
from core.workloads import BUDGET_USD_PER_MONTH, TTFT_PERCENTILE, TTFT_SLO_S, WORKLOADS

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
