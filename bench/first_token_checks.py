"""SGLang's measured first-token path (issue 37's forty-first round) against first tokens it never saw.

The engine level prices SGLang's first token with its own path since the forty-first round
(:mod:`core.catalog.eager_dispatch`): each kernel an eager prefill launches, 40.3 µs holding the
cards, and a 9.7 ms server path beside them, both read from SGLang PR #13094's eager and
piecewise-graph first tokens. Before, it borrowed vLLM's 0.8 ms a layer. This prints

- the pair itself and what the engine level gives back at its set-up;
- SGLang PR #12160's DeepSeek-V3 pass, which checks the cost per launch without setting it;
- GPUStack's Qwen3-8B runs on one H100 at 4 users, whose first tokens no figure was read from
  (the development set scores their time between tokens, D101-D105): SGLang's own path and
  the borrowed one beside each measurement, vLLM's and TensorRT-LLM's for comparison.

To rerun, from this repository's root (a second): ``python -m bench.first_token_checks``
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from dataclasses import replace
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import Scenario
from core.catalog.eager_dispatch import (
    PIECEWISE_PAIR_EAGER_TTFT_S,
    PIECEWISE_PAIR_GRAPHED_TTFT_S,
    SGLANG_EAGER_LAUNCH_S,
    SGLANG_SERVER_PATH_S,
)
from core.catalog.engines import ENGINES
from core.evaluate import engine_node, evaluate
from core.evidence.fidelity import PUBLISHED

# SGLang PR #12160: one DeepSeek-V3 prefill of a single new token, eager and as a whole graph
DEEPSEEK_PASS_S = (82.64e-3, 23.10e-3)
# GPUStack docs/performance-lab/qwen3-8b/h100-latency.md @1dbc3b81, the default serving commands
# at 4 users (100 ShareGPT requests): mean and median TTFT, by the development case that holds
# the same run's time between tokens
GPUSTACK_FIRST_TOKENS_S = {
    "D103": (27.70e-3, 27.25e-3),  # SGLang 0.5.3.post3, Qwen/Qwen3-8B
    "D105": (39.66e-3, 33.38e-3),  # SGLang 0.5.3.post3, Qwen/Qwen3-8B-FP8
    "D101": (64.00e-3, 60.26e-3),  # vLLM 0.11.0
    "D104": (51.61e-3, 45.46e-3),  # TensorRT-LLM 1.2.0rc1, trtllm-serve
}


@contextmanager
def borrowed_sglang_path():
    """The engine level with SGLang's first-token path as it was priced until the forty-first
    round: vLLM's 0.8 ms a layer, all of it holding the cards."""
    own = ENGINES["sglang"]
    ENGINES["sglang"] = replace(
        own, request_overhead_per_layer_s=ENGINES["vllm"].request_overhead_per_layer_s,
        eager_launch_s=0.0, server_path_s=0.0,
    )  # fmt: skip
    try:
        yield
    finally:
        ENGINES["sglang"] = own


def pair_scenario(**knobs) -> Scenario:
    """SGLang PR #13094's set-up: Llama-3.1-8B in fp8 on eight H100 (FlashAttention 3 runs on
    Hopper), one user, 1,024-token prompts; ``knobs`` change it."""
    set_up = dict(
        model="Llama-3-8B", gpu="H100 SXM", cards=8, weight_dtype="fp8", kv_dtype="bf16",
        prompt_tokens=1024, answer_tokens=16, prefix_hit_rate=0.0, realism="engine",
        engine="sglang", engine_version="0.5", seats=1, concurrency=1,
    )  # fmt: skip
    return Scenario(**{**set_up, **knobs})


def first_token_s(scenario: Scenario) -> tuple[float, float]:
    """The engine level's first token (median) with SGLang's own path and with the borrowed one."""
    own = float(evaluate(scenario).ttft_p50_s)
    with borrowed_sglang_path():
        borrowed = float(evaluate(scenario).ttft_p50_s)
    return own, borrowed


def deepseek_launch_s() -> tuple[float, float]:
    """PR #12160's pass: the seconds it saved per launch the engine level counts, and the count."""
    node = engine_node(Scenario(model="DeepSeek-V3", gpu="H200", cards=8, engine="sglang"))
    launches = node.eager_dispatch_s / SGLANG_EAGER_LAUNCH_S
    return (DEEPSEEK_PASS_S[0] - DEEPSEEK_PASS_S[1]) / launches, launches


def gpustack_rows() -> list[tuple]:
    """Each GPUStack run: (case key, engine, release, weights, measured mean and median, the
    engine level's first token with SGLang's own path and with the borrowed one)."""
    cases = {case.key: case for case in PUBLISHED}
    rows = []
    for key, (mean, median) in GPUSTACK_FIRST_TOKENS_S.items():
        case = cases[key]
        own, borrowed = first_token_s(case.scenario())
        rows.append((key, case.engine, case.engine_version, case.dtype, mean, median, own,
                     borrowed))  # fmt: skip
    return rows


def main() -> None:
    own, borrowed = first_token_s(pair_scenario())
    print("SGLang PR #13094, Llama-3.1-8B fp8 on eight H100, one user, 1,024-token prompts:")
    print(f"  measured: eager {PIECEWISE_PAIR_EAGER_TTFT_S * 1e3:.2f} ms, piecewise graph "
          f"{PIECEWISE_PAIR_GRAPHED_TTFT_S * 1e3:.2f} ms")  # fmt: skip
    print(f"  derived: {SGLANG_EAGER_LAUNCH_S * 1e6:.1f} µs a launch, server path "
          f"{SGLANG_SERVER_PATH_S * 1e3:.2f} ms")  # fmt: skip
    print(f"  engine level: {own * 1e3:.2f} ms (borrowed 0.8 ms a layer: {borrowed * 1e3:.2f} ms)")
    per_launch, launches = deepseek_launch_s()
    print(
        f"SGLang PR #12160, DeepSeek-V3 single-token prefill: {per_launch * 1e6:.1f} µs a "
        f"launch over {launches:,.0f} counted (the pair gives {SGLANG_EAGER_LAUNCH_S * 1e6:.1f})"
    )
    print("GPUStack, Qwen3-8B on one H100 at 4 users (first tokens never read):")
    print("  case  engine          release       weights  measured mean/median   "
          "engine level (borrowed)")  # fmt: skip
    for key, engine, version, weights, mean, median, own, borrowed in gpustack_rows():
        print(f"  {key:5s} {engine:15s} {version:13s} {weights:8s} "
              f"{mean * 1e3:5.1f} / {median * 1e3:5.1f} ms      {own * 1e3:5.1f} ms "
              f"x{own / mean:.2f}/x{own / median:.2f} ({borrowed * 1e3:5.1f} ms)")  # fmt: skip


if __name__ == "__main__":
    main()
