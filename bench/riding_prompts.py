"""A prompt's steps priced at what they carry and how many they are (issue 37, rounds 51-54).

A release that mixes a new prompt into the decodes' step (vLLM V1's chunked prefill,
TensorRT-LLM's in-flight batching) runs each layer's kernels over every token of the step,
whichever request it belongs to. The engine level priced a riding prompt as if the decodes had
paid all that the step's size costs, so a first token read sooner at two users than at one (the
lone prompt pays it all). Three rules price the steps as they run:

- the fifty-first round's: a mixture's grouped GEMMs read every expert any token of the step
  routes to; a few decodes touch a few, a prompt nearly all
  (:meth:`core.engine_level.expert_layers.ExpertLayers.riding_stream_s`);
- the fifty-second round's: the step's collectives carry all its tokens, read from the measured
  tables at that size, where a riding prompt paid the largest messages' rate
  (:meth:`core.engine_level.collectives.Collectives.riding_collectives_s`);
- the fifty-third round's: a prompt the release chunks rides in one step a pass, so its first
  token waits through them all (:func:`core.engine_level.joining.riding_passes`), where it
  waited 1.5 steps however long;
- the fifty-fourth round's: a mixture's lone prompt in several passes runs its chunk's expert
  layers each pass (:meth:`core.engine_level.expert_layers.ExpertLayers.pass_expert_seconds`),
  where they were priced once over the whole prompt.

This prints, for each round, the first tokens at one and two users without its rule and with it
(no later round's rule either way), the scored rows it moves and the sets before and after, so
the README's figures can be checked:

    python -m bench.riding_prompts
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out, moved, scored_figures
from bench.rounds import as_round
from core import Scenario, evaluate
from core.engine_level import joining
from core.engine_level.collectives import Collectives
from core.engine_level.expert_layers import ExpertLayers
from core.evidence.check_cases import CHECK
from core.evidence.check_cases_2026 import CHECK_TRT_1X
from core.evidence.check_cases_trt10 import CHECK_TRT_10
from core.evidence.fidelity import PUBLISHED, predictions, score


@contextmanager
def without_riding_streams():
    """The fifty-first round's rule off: a riding prompt adds its experts' arithmetic only."""
    with patch.object(ExpertLayers, "riding_stream_s", lambda self, beside, tokens, terms: 0.0):
        yield


@contextmanager
def without_riding_collectives():
    """The fifty-second round's rule off: a riding prompt's collectives at the rate of the
    tables' largest messages."""
    off = lambda self, beside, tokens, terms: 0.0  # noqa: E731
    with patch.object(Collectives, "riding_collectives_s", off):
        yield


@contextmanager
def without_pass_experts():
    """The fifty-fourth round's rule off: a lone prompt's expert layers priced once over all its
    tokens, however many passes it runs in."""
    whole = lambda self, tokens, passes, terms, alone=True: self.expert_seconds(  # noqa: E731
        tokens, terms, alone
    )
    with patch.object(ExpertLayers, "pass_expert_seconds", whole):
        yield


@contextmanager
def without_riding_passes():
    """The fifty-third round's rule off: a riding prompt waits 1.5 steps however many passes."""
    with patch.object(joining, "riding_passes", lambda node, miss: 1.0):
        yield


# (model, card, cards, weights, engine) each round shows, under the releases that mix prompts in
SHOWN = {
    51: (("DeepSeek-R1", "H200", 8, "fp8", "vllm"), ("DeepSeek-R1", "MI355X", 8, "fp8", "vllm"),
         ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm"),
         ("gpt-oss-120b", "B200", 1, "mxfp4", "tensorrt-llm"),
         ("Qwen3-235B-A22B", "H200", 8, "fp8", "tensorrt-llm"),
         ("Qwen3-30B-A3B", "H100 SXM", 1, "bf16", "vllm")),
    52: (("Llama-3-70B", "H100 SXM", 8, "bf16", "tensorrt-llm"),
         ("Llama-3-70B", "H200", 4, "fp8", "vllm"), ("Llama-2-7B", "H100 SXM", 8, "bf16", "vllm"),
         ("DeepSeek-R1", "H200", 8, "fp8", "tensorrt-llm")),
    # the fifty-third round's at long prompts: four passes of each release's chunk
    53: (("Llama-2-7B", "B200", 8, "bf16", "vllm", "0.8", 8192),
         ("gpt-oss-120b", "A100 80GB SXM", 1, "mxfp4", "vllm", None, 8192),
         ("Llama-3-8B", "H100 SXM", 1, "bf16", "vllm", None, 32768)),
    # the fifty-fourth round's: mixtures' lone prompts in several passes
    54: (("Qwen3-235B-A22B", "A100 80GB SXM", 8, "bf16", "vllm", None, 32768),
         ("DeepSeek-R1", "H200", 8, "fp8", "vllm", None, 32768)),
}  # fmt: skip
PROMPT, ANSWER = 1024, 512
# ATOM's DeepSeek-R1 on eight MI355X: its first tokens at 4-16 users, shown, not scored
ATOM_FIRST_TOKENS = ("D166", "D167", "D168", "D171", "D172", "D173", "D176")


def first_tokens(users, model, gpu, cards, weights, engine, version=None, prompt=PROMPT) -> float:
    """The mean first token (s) of a prompt (1,024 tokens unless ``prompt``) at ``users`` users
    under ``engine``'s release ``version`` (its newest unless named), no prefix hits."""
    scenario = Scenario(realism="engine", model=model, gpu=gpu, cards=cards, engine=engine,
                        engine_version=version, weight_dtype=weights, prompt_tokens=prompt,
                        answer_tokens=ANSWER, prefix_hit_rate=0.0, concurrency=users)  # fmt: skip
    return float(evaluate(scenario).ttft_p50_s)


def first_token_table(number: int = 51) -> dict:
    """{shown node: (before at 1 and 2 users, after at 1 and 2 users)} in seconds, round
    ``number``'s rule off and on."""
    table = {}
    for shown in SHOWN[number]:
        table[shown] = ()
        for rule in (False, True):
            with as_round(number, rule):
                table[shown] += tuple(first_tokens(users, *shown) for users in (1, 2))
    return table


def _priced(leaving=frozenset()) -> dict:
    """Both sets (:func:`bench.fused_quant.scored_figures`), the two TensorRT-LLM check sets'
    scores and the first check set's, and the ratios of ATOM's first tokens, priced now."""
    tokens = tuple(case for case in PUBLISHED if case.key in ATOM_FIRST_TOKENS)
    ratios = predictions(tokens) / [case.measured for case in tokens]
    return {
        **scored_figures(leaving),
        "checks": tuple(score(cases) for cases in (CHECK_TRT_1X, CHECK_TRT_10, CHECK)),
        "first tokens": dict(zip((case.key for case in tokens), ratios.tolist(), strict=True)),
    }


def figures(number: int = 51, leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`_priced` (less the cases ``leaving`` names) with round
    ``number``'s rule off and on."""
    with as_round(number, rule=False):
        before = _priced(leaving)
    with as_round(number):
        return before, _priced(leaving)


def main() -> None:
    for number in SHOWN:  # the rounds of riding prompts (the fifty-fifth: bench/cublas_tiles.py)
        before, after = figures(number)
        print(f"round {number}: the scored rows its rule moves by 1 % or more, before -> after")
        for key in moved(before, after, 0.01):
            print(f"  {key:5s} x{before['ratios'][key]:.2f} -> x{after['ratios'][key]:.2f}")
        for name, found in (("before", before), ("after", after)):
            checks = ", ".join(f"{100 * check.geometric_mean_error:.1f} % ({check.within_band} "
                               f"of {check.cases})" for check in found["checks"])  # fmt: skip
            first = found["first tokens"].values()
            print(f"{name:6s} {both_and_held_out(found)}; TensorRT-LLM check sets {checks}; "
                  f"ATOM's first tokens x{min(first):.2f}-{max(first):.2f}")  # fmt: skip
        print(
            "first token (ms; 1,024-token prompts unless named): 1 user, 2 users; before -> after"
        )
        for (model, gpu, cards, weights, engine, *more), found in first_token_table(number).items():
            one, two, one_after, two_after = (1e3 * seconds for seconds in found)
            print(f"  {model:16s} {cards}x{gpu:8s} {weights:5s} {engine:12s} {more!s:14s} "
                  f"{one:7.1f} {two:7.1f} -> {one_after:7.1f} {two_after:7.1f}")  # fmt: skip


if __name__ == "__main__":
    main()
