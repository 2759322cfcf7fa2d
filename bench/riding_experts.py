"""The experts a mixture's prompt streams when it rides in the running step (issue 37, 51st round).

A release that mixes a new prompt into the decodes' step (vLLM V1's chunked prefill,
TensorRT-LLM's in-flight batching) runs one grouped GEMM a layer over every token of the step,
and that kernel reads each expert any of those tokens routes to. A few decodes touch a few
experts; a prompt of hundreds of tokens touches nearly all of them, so the step it rides in
streams what a step of its own would. The engine level priced a riding prompt's experts as their
arithmetic only, as if the decodes had streamed them already: a mixture's first token at two
users then read faster than at one (the lone prompt pays the stream). Since this round the
prompt pays the experts the decodes do not touch
(:meth:`core.engine_level.expert_layers.ExpertLayers.riding_stream_s`).

This prints the first tokens at one and two users with the rule and without it
(:func:`without_riding_streams`, the engine level as it was priced before) for the catalog's
mixtures under vLLM and TensorRT-LLM, the rows the rule moves and the sets before and after,
so the README's figures can be checked:

    python -m bench.riding_experts
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out, scored_figures
from core import Scenario, evaluate
from core.engine_level.expert_layers import ExpertLayers
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.check_cases_trt10 import CHECK_TRT_10
from core.evidence.fidelity import PUBLISHED, predictions, score

# (model, card, cards, weights, engine): mixtures under the two releases that mix prompts in
MIXTURES = (
    ("DeepSeek-R1", "H200", 8, "fp8", "vllm"),
    ("DeepSeek-R1", "MI355X", 8, "fp8", "vllm"),
    ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm"),
    ("gpt-oss-120b", "B200", 1, "mxfp4", "tensorrt-llm"),
    ("Qwen3-235B-A22B", "H200", 8, "fp8", "tensorrt-llm"),
    ("Qwen3-30B-A3B", "H100 SXM", 1, "bf16", "vllm"),
)
PROMPT, ANSWER = 1024, 512


@contextmanager
def without_riding_streams():
    """The engine level before the round: a riding prompt adds its experts' arithmetic only."""
    with patch.object(ExpertLayers, "riding_stream_s", lambda self, beside, tokens, terms: 0.0):
        yield


def first_tokens(model, gpu, cards, weights, engine, users) -> float:
    """The mean first token (s) of a 1,024-token prompt at ``users`` users, no prefix hits."""
    scenario = Scenario(realism="engine", model=model, gpu=gpu, cards=cards, engine=engine,
                        weight_dtype=weights, prompt_tokens=PROMPT, answer_tokens=ANSWER,
                        prefix_hit_rate=0.0, concurrency=users)  # fmt: skip
    return float(evaluate(scenario).ttft_p50_s)


def first_token_table() -> dict:
    """{mixture: (before at 1 and 2 users, after at 1 and 2 users)} in seconds."""
    table = {}
    for mixture in MIXTURES:
        with without_riding_streams():
            before = tuple(first_tokens(*mixture, users) for users in (1, 2))
        table[mixture] = (*before, *(first_tokens(*mixture, users) for users in (1, 2)))
    return table


# ATOM's DeepSeek-R1 on eight MI355X: its first tokens at 4-16 users, shown, not scored
ATOM_FIRST_TOKENS = ("D166", "D167", "D168", "D171", "D172", "D173", "D176")


def _priced() -> dict:
    """Both sets (:func:`bench.fused_quant.scored_figures`), the two TensorRT-LLM check sets'
    scores and the ratios of ATOM's first tokens, priced now."""
    tokens = tuple(case for case in PUBLISHED if case.key in ATOM_FIRST_TOKENS)
    ratios = predictions(tokens) / [case.measured for case in tokens]
    return {
        **scored_figures(),
        "checks": tuple(score(cases) for cases in (CHECK_TRT_1X, CHECK_TRT_10)),
        "first tokens": dict(zip((case.key for case in tokens), ratios.tolist(), strict=True)),
    }


def figures() -> tuple[dict, dict]:
    """(before, after): :func:`_priced` without the rule and with it."""
    with without_riding_streams():
        before = _priced()
    return before, _priced()


def main() -> None:
    before, after = figures()
    print("the scored rows the rule moves by 1 % or more (predicted / measured), before -> after")
    for key, ratio in before["ratios"].items():
        if abs(after["ratios"][key] / ratio - 1.0) >= 0.01:
            print(f"  {key:5s} x{ratio:.2f} -> x{after['ratios'][key]:.2f}")
    for name, found in (("before", before), ("after", after)):
        checks = ", ".join(f"{100 * check.geometric_mean_error:.1f} % ({check.within_band} of "
                           f"{check.cases})" for check in found["checks"])  # fmt: skip
        first = found["first tokens"].values()
        print(f"{name:6s} {both_and_held_out(found)}; TensorRT-LLM check sets {checks}; ATOM's "
              f"first tokens x{min(first):.2f}-{max(first):.2f}")  # fmt: skip
    print(f"first token of a {PROMPT:,}-token prompt (ms): 1 user, 2 users; before -> after")
    for (model, gpu, cards, weights, engine), found in first_token_table().items():
        one, two, one_after, two_after = (1e3 * seconds for seconds in found)
        print(f"  {model:16s} {cards}x{gpu:8s} {weights:5s} {engine:12s} "
              f"{one:6.1f} {two:6.1f} -> {one_after:6.1f} {two_after:6.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
