"""The published static-against-continuous comparison, rerun by the step engine on every card.

The measurement (:mod:`core.evidence.published`): one 13B model, 512-token prompts, answers exponential
of mean 128 capped at 1,536, every request sent at once, the scheduler capped at vLLM's default
of 256 running sequences, on the card of the 2023 measurements (a 40 GB A100).
"""

from __future__ import annotations

from core.catalog import BANDWIDTH_EFFICIENCY, GPUS
from core.evidence.published import (
    CONTINUOUS_BATCHING_TOK_S,
    OPTIMISED_KERNELS_FACTOR,
    STATIC_BATCHING_TOK_S,
)
from core.scenario.knobs import Scenario
from core.simulator import draw_requests, simulate
from core.simulator.steps import step_costs

PUBLISHED_MODEL = "Llama-2-13B"
PUBLISHED_GPU = "A100 40GB SXM"
PUBLISHED_LAB = {
    "policy": "continuous",
    "kv_layout": "paged",
    "batch_size": 256,
    "arrival": "offline",
    "prompt_tokens": 512,
    "answer": "capped exponential",
    "answer_mean": 128,
    "answer_cap": 1536,
    "requests": 300,
    "seed": 0,
}
PUBLISHED_NODE = {
    "model": PUBLISHED_MODEL,
    "gpu": PUBLISHED_GPU,
    "cards": None,
    "weight_dtype": "bf16",
    "kv_dtype": "bf16",
}
PUBLISHED_RATIO = CONTINUOUS_BATCHING_TOK_S / STATIC_BATCHING_TOK_S


def published_gap(requests: int = PUBLISHED_LAB["requests"]) -> list[dict]:
    """The published workload on every card: static + reserved against continuous + paged.

    Each row holds the card, its KV room, both engines' output tokens per second and peak
    seats, the share of bandwidth the rates assume, the naive baseline's rate (static + reserved on kernels
    :data:`~core.evidence.published.OPTIMISED_KERNELS_FACTOR` times slower), and the two ratios.
    """
    workload = draw_requests(
        requests,
        PUBLISHED_LAB["seed"],
        arrival="offline",
        prompt_tokens=PUBLISHED_LAB["prompt_tokens"],
        answer="capped exponential",
        answer_mean=PUBLISHED_LAB["answer_mean"],
        answer_cap=PUBLISHED_LAB["answer_cap"],
    )
    batch = PUBLISHED_LAB["batch_size"]
    rows = []
    for gpu in GPUS:
        scenario = Scenario(**{**PUBLISHED_NODE, "gpu": gpu})
        try:
            costs = step_costs(scenario)
        except ValueError:  # a card too small to hold the published node (the L4)
            continue

        def run(policy, layout, costs=costs, scenario=scenario):
            return simulate(
                scenario, policy, layout, workload=workload, costs=costs, batch_size=batch
            )

        static, continuous = run("static", "reserved"), run("continuous", "paged")
        # The published baseline: static batching with reserved KV on unoptimised kernels.
        naive = run("static", "reserved", costs.slowed(OPTIMISED_KERNELS_FACTOR))
        rows.append(
            {
                "gpu": gpu,
                "room": costs.kv_budget_bytes,
                "static": static.output_tokens_per_s,
                "continuous": continuous.output_tokens_per_s,
                "naive": naive.output_tokens_per_s,
                "static_seats": static.peak_seats,
                "continuous_seats": continuous.peak_seats,
                "ratio": continuous.output_tokens_per_s / static.output_tokens_per_s,
                "naive_ratio": continuous.output_tokens_per_s / naive.output_tokens_per_s,
                "bandwidth_share": BANDWIDTH_EFFICIENCY,
            }
        )
    return rows


def published_row(rows: list[dict]) -> dict | None:
    """The row of the card the published run used."""
    return next((row for row in rows if row["gpu"] == PUBLISHED_GPU), None)
