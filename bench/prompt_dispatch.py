"""Three readings of vLLM's prompt dispatch explored in issue 37's fiftieth round, none landed.

The engine level charges each prompt vLLM's eager dispatch (aiconfigurator's 0.8 ms a layer,
:attr:`core.catalog.engines.Engine.request_overhead_per_layer_s`) and lets prompts share one
dispatch only with those that arrive while it runs (:func:`core.engine_level.joining.coalesced`:
``1 + rate x dispatch`` prompts a dispatch). Engine facts read it otherwise:

- *per step*: the schedulers put every waiting prompt the step's token budget holds into the
  next pass (V1's ``vllm/v1/core/sched/scheduler.py``; V0's and SGLang's prefill steps take all
  that wait), so the prompts that arrive during a whole step (its decode step and the dispatch)
  share it, at most the budget over the prompt; scored for every engine, and only for those
  that prefill in a step of their own (vLLM V0, SGLang);
- *inside a captured graph*: V1 replays a step of at most 512 tokens from its piecewise CUDA
  graphs (``CompilationConfig``'s capture sizes), so a prompt whose step fits one (prompt plus
  the running decodes) pays no eager dispatch at all.

This prices both sets and the publisher-held-out figure under each reading and prints the rows
each moves. The first and the third move GPUStack's 128-token bursts (D372-D412), whose A100 and
H100 runs part: the first brings the A100's into the band and sends the H100's and H200's far
out. On one H100 those bursts run their prompts at a smaller share of the card's peak than on
one A100, which the bench prints too. A diagnostic: no figure here sets a constant of the
engine level. To rerun, from this repository's root (a few seconds):

    python -m bench.prompt_dispatch
"""

from __future__ import annotations

import importlib
import math
import sys
from contextlib import contextmanager, nullcontext
from pathlib import Path
from unittest.mock import patch

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out, scored_figures
from bench.rounds import before_riding_prompts
from core import evaluate
from core.catalog.cards import GPUS
from core.catalog.engine_versions import engine_version
from core.engine_level import load, pool
from core.evidence.cases_gpustack_bursts import GPUSTACK_BURSTS

# core.evaluate's module (the package re-exports its function under the same name)
_EVALUATE = importlib.import_module("core.evaluate")


def _closed_loop_with(adjust):
    """:func:`core.engine_level.load.closed_loop` with ``adjust`` (a context manager taking the
    loop's own arguments) entered around it."""
    closed = load.closed_loop

    def loop(node, users, granted, prompt, answer, hit_tokens, terms):
        with adjust(node, users, granted, prompt, answer, hit_tokens, terms):
            return closed(node, users, granted, prompt, answer, hit_tokens, terms)

    return loop


@contextmanager
def _patched_loop(adjust):
    """Both callers of the closed loop see it ``adjust``-ed."""
    loop = _closed_loop_with(adjust)
    with patch.object(load, "closed_loop", loop), patch.object(pool, "closed_loop", loop):
        yield


@contextmanager
def dispatch_per_step(separate_only: bool = False):
    """The first reading: prompts share a dispatch with all that arrive during a whole step
    (``separate_only``: only where the engine prefills in a step of its own, vLLM V0's and
    SGLang's, the rest as the engine level has it)."""

    @contextmanager
    def adjust(node, users, granted, prompt, answer, hit_tokens, terms):
        running = np.maximum(np.minimum(users, granted), 1.0)
        step = node.step_s(running, load.decode_context(prompt, answer, terms), terms)
        chunk = np.asarray(node.prefill_chunk_tokens, dtype=float)
        most = np.where(chunk > 0, np.maximum(chunk / np.maximum(prompt - hit_tokens, 1.0), 1.0),
                        np.inf)  # fmt: skip

        read = np.asarray(node.separate_prefill) if separate_only else True

        def shared(overhead, rate):
            """A prompt's share of a dispatch: the step's prompts, at most the budget's."""
            per_step = np.minimum(1.0 + np.multiply(rate, overhead + step), most)
            return overhead / np.where(read, per_step, 1.0 + np.multiply(rate, overhead))

        # the scalar path inlines the dispatch window; the array path calls coalesced
        with (
            patch.object(load, "_solved_scalar", load._solved_arrays),
            patch.object(load, "coalesced", shared),
        ):
            yield

    with _patched_loop(adjust):
        yield


def _largest_graph(engine, version) -> float:
    """The most tokens a step of ``engine``'s release may carry and replay from its captured
    CUDA graphs (:attr:`~core.catalog.engine_versions.EngineVersion.graph_max_batch`)."""
    return float(engine_version(str(engine), str(version)).graph_max_batch)


@contextmanager
def dispatch_outside_graphs():
    """The third reading: a V1 prompt whose step fits a captured graph pays no dispatch (V1: a
    vLLM release whose prompt steps are not eager, :attr:`Node.eager_prompt_steps`)."""
    build = _EVALUATE._engine_node

    def node_of(knobs, pool_knobs, catalog, values):
        node = build(knobs, pool_knobs, catalog, values)
        engine, version = (np.asarray(knobs[name]) for name in ("engine", "engine_version"))
        v1 = (engine.astype(str) == "vllm") & ~np.asarray(node.eager_prompt_steps, dtype=bool)
        graph = np.vectorize(_largest_graph, otypes=[float])(engine, version)
        object.__setattr__(node, "v1_graph_tokens", np.where(v1, graph, 0.0))
        return node

    @contextmanager
    def adjust(node, users, granted, prompt, answer, hit_tokens, terms):
        limit = getattr(node, "v1_graph_tokens", 0.0)
        step_tokens = prompt - hit_tokens + np.maximum(np.minimum(users, granted) - 1.0, 0.0)
        graphed = (limit > 0) & (step_tokens <= limit)
        paid = type(node).request_overhead
        with patch.object(type(node), "request_overhead",
                          lambda self, t: np.where(graphed, 0.0, paid(self, t))):  # fmt: skip
            yield

    with patch.object(_EVALUATE, "_engine_node", node_of), _patched_loop(adjust):
        yield


def figures(leaving=frozenset()) -> dict:
    """{reading: (both sets' (error, within, cases), held out (error, within share), ratio of
    each case by key)} for the engine level as the round left it (no later round's rule: a
    riding prompt priced at its step's size, the fifty-first's and fifty-second's) and under
    each reading."""
    readings = {
        "as it is": nullcontext,
        "per step": dispatch_per_step,
        "per step, prefill steps apart": lambda: dispatch_per_step(separate_only=True),
        "outside graphs": dispatch_outside_graphs,
    }
    found = {}
    for name, reading in readings.items():
        with before_riding_prompts(), reading():
            found[name] = scored_figures(leaving)
    return found


def prompt_peak_shares() -> dict[str, tuple[str, float]]:
    """{key: (card, share)} for GPUStack's one-card 128-token bursts: the prompt arithmetic the
    run did a second (its requests times one prompt's FLOPs, as the engine level counts them,
    over the run's time, its requests' output over the measured output rate), over the card's
    bf16 peak. The bursts are prompt-bound: four output tokens a request."""
    shares = {}
    for case in GPUSTACK_BURSTS:
        if case.cards == 1 and case.prompt_tokens < 1000:
            seconds = case.requests * case.answer_tokens / case.measured
            flops = float(evaluate(case.scenario()).prefill_flops) * case.requests
            shares[case.key] = (case.gpu, flops / seconds / GPUS[case.gpu].bf16_flops)
    return shares


def moved(before: dict, after: dict, least: float = 0.01) -> list[tuple[str, float, float]]:
    """(key, ratio before, ratio after) of the cases a reading moves by more than ``least`` in
    the logarithm, the largest moves first."""
    keys = [key for key in before if abs(math.log(after[key] / before[key])) > least]
    keys.sort(key=lambda key: -abs(math.log(after[key] / before[key])))
    return [(key, before[key], after[key]) for key in keys]


def main() -> None:
    found = figures()
    base = found["as it is"]
    for name, result in found.items():
        print(f"{name}: {both_and_held_out(result)}")
        if result is base:
            continue
        for key, was, now in moved(base["ratios"], result["ratios"])[:12]:
            print(f"  {key:5s} x{was:.2f} -> x{now:.2f}")
    print("GPUStack's one-card 128-token bursts, prompt arithmetic over the card's bf16 peak:")
    for key, (card, share) in prompt_peak_shares().items():
        print(f"  {key:5s} {card:14s} {share:.2f}")


if __name__ == "__main__":
    main()
