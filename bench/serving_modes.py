"""Closed form against simulation for the three serving modes: where they agree and by how much.

The closed form runs at the engine level with only the terms the step-level engine also has
(prefill takes turns with decode, steps read the live context), so both price the same physics;
the engine simulates the arrivals step by step on the nodes the closed form bought.
Prints figures; asserts nothing.
"""

from __future__ import annotations

import sys
from pathlib import Path

if __package__ in (None, ""):
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import Scenario
from core.evaluate import evaluate_terms
from core.simulator import draw_requests, simulate
from core.simulator.steps import step_costs

TERMS = frozenset({"prefill_time", "live_context"})
MODES = ("aggregated", "chunked", "disaggregated")


def compare(title: str, prompt: int, answer: int, rate_per_s: float, seats: int) -> None:
    scenario = Scenario(
        prompt_tokens=prompt,
        answer_tokens=answer,
        prefix_hit_rate=0.0,
        seats=seats,
        arrivals_per_min=rate_per_s * 60,
    )
    costs = step_costs(scenario)
    workload = draw_requests(
        4000, 0, rate_per_s=rate_per_s, prompt_tokens=prompt, answer="fixed", answer_mean=answer
    )
    print(title)
    print(f"  {'mode':>14} {'':>10} {'TTFT p50':>9} {'TTFT p95':>9} {'ITL mean':>9} {'ITL p99':>9}")
    for mode in MODES:
        closed = evaluate_terms(scenario, TERMS, serving_mode=mode)
        nodes = {"replicas": closed.nodes}
        if mode == "disaggregated":
            nodes = {
                "prefill_nodes": closed.prefill_nodes,
                "decode_nodes": closed.nodes - closed.prefill_nodes,
            }
        run = simulate(
            scenario,
            "continuous",
            "paged",
            workload=workload,
            costs=costs,
            batch_size=seats,
            mode=mode,
            **nodes,
        )
        gaps = run.itl_s()
        rows = {
            "closed form": (closed.ttft_p50_s, closed.ttft_p95_s, closed.itl_s, closed.itl_p99_s),
            "simulated": (run.ttft_p50_s, run.ttft_p95_s, gaps.mean(), run.itl_p99_s),
        }
        for label, figures in rows.items():
            cells = " ".join(f"{value * 1e3:7.1f}ms" for value in figures)
            print(f"  {mode if label == 'closed form' else '':>14} {label:>10} {cells}")
        ratio = [c / s for c, s in zip(rows["closed form"], rows["simulated"], strict=True)]
        print(f"  {'':>14} {'ratio':>10} " + " ".join(f"{value:8.2f}x" for value in ratio))
        print(f"  {'':>14} nodes: {nodes}")


def main() -> None:
    compare(
        "Chat: 1,200-token prompts, 128-token answers, 8/s, 8B on H100, 16 seats",
        1200,
        128,
        8.0,
        16,
    )
    compare(
        "Long prompts: 8,000 tokens, 128-token answers, 2/s, 8B on H100, 32 seats",
        8000,
        128,
        2.0,
        32,
    )


if __name__ == "__main__":
    main()
