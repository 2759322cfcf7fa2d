"""Run the step simulator: check the arguments, draw the stream, serve it in the chosen mode."""

from __future__ import annotations

import math

import numpy as np

from core.catalog import CHUNKED_PREFILL_TOKENS
from core.evaluate import evaluate
from core.foundation.validation import check_choice, knob_error
from core.scenario.knobs import Scenario
from core.simulator.disaggregated import LINKS, decode_parts, prefill_parts, prefill_pool
from core.simulator.requests import (
    DEFAULT_ANSWER_CAP,
    Requests,
    check_int,
    check_number,
    draw_requests,
)
from core.simulator.result import Part, SimulationResult, assemble
from core.simulator.scheduler import Scheduler
from core.simulator.steps import StepCosts, step_costs

POLICIES = ("static", "continuous")
KV_LAYOUTS = ("reserved", "paged")
MODES = ("aggregated", "chunked", "disaggregated")
DEFAULT_WAIT_CAP_S = 0.5
MAX_NODES = 64


def simulate(
    scenario: Scenario | None = None,
    policy: str = "static",
    kv_layout: str = "reserved",
    requests: int = 1000,
    seed: int = 0,
    *,
    batch_size: int | None = None,
    wait_cap_s: float = DEFAULT_WAIT_CAP_S,
    arrival: str = "poisson",
    arrival_rate_per_s: float | None = None,
    prompt_tokens: int | None = None,
    answer: str = "capped exponential",
    answer_mean: float | None = None,
    answer_cap: int = DEFAULT_ANSWER_CAP,
    long_every: int = 0,
    long_prompt_tokens: int = 16_384,
    workload: Requests | None = None,
    costs: StepCosts | None = None,
    mode: str = "aggregated",
    chunk_tokens: int = CHUNKED_PREFILL_TOKENS,
    replicas: int = 1,
    prefill_nodes: int = 1,
    decode_nodes: int = 1,
    link: str = "nvlink",
) -> SimulationResult:
    """Simulate ``requests`` requests and report what every one of them saw.

    Parameters
    ----------
    scenario : Scenario, optional
        The node, and the defaults of ``batch_size`` (its seats), ``prompt_tokens``,
        ``answer_mean`` (its answer tokens) and ``arrival_rate_per_s`` (its peak minute's).
    policy : {"static", "continuous"}
    kv_layout : {"reserved", "paged"}
    requests, seed : int
        How many requests to draw (ignored when ``workload`` is given); the draw's seed.
    batch_size : int, optional
        Most seats the scheduler runs at once on a node, 1 to 4,096; memory may grant fewer.
    wait_cap_s : float
        Static only: the longest the oldest waiting request waits for its wave to fill.
    arrival, arrival_rate_per_s, prompt_tokens, answer, answer_mean, answer_cap, long_every, long_prompt_tokens
        The stream, as in :func:`core.simulator.requests.draw_requests`.
    workload, costs : Requests, StepCosts, optional
        Requests to serve instead of drawing them; ``scenario``'s step costs, precomputed.
    mode, chunk_tokens, replicas, prefill_nodes, decode_nodes, link
        The serving mode, one of :data:`MODES`. *aggregated*: each of ``replicas`` nodes (1 to
        64, sharing the stream round-robin) prefills whole prompts between decode steps.
        *chunked* (continuous only): the same nodes, a step holding at most ``chunk_tokens``
        tokens (vLLM's ``max_num_batched_tokens``, 1 to 1,000,000), decodes first and prompts
        in chunks with them. *disaggregated* (continuous only): ``prefill_nodes`` nodes
        prefill, the cache crosses ``link`` ("nvlink" inside a server, or "infiniband": one
        NDR port per card between servers), ``decode_nodes`` nodes decode (1 to 64 each).

    Returns
    -------
    SimulationResult
        Every request's times and the run's aggregates (its Notes say how each is measured).

    Raises
    ------
    ValueError
        For a bad argument, naming it, its value and the allowed range; or when one request
        at its largest cannot fit in the node's KV room.
    """
    scenario = scenario or Scenario()
    setup = _setup(
        policy, kv_layout, mode, link, chunk_tokens, replicas, prefill_nodes, decode_nodes
    )
    costs = costs or step_costs(scenario)
    seats = scenario.seats if batch_size is None else batch_size
    batch_size = check_int("batch_size", seats, 1, 4096)
    wait_cap_s = check_number("wait_cap_s", wait_cap_s, 0.0, 3600.0)
    if workload is None:
        stream = {"arrival": arrival, "rate_per_s": arrival_rate_per_s, "answer": answer,
                  "prompt_tokens": prompt_tokens, "answer_mean": answer_mean,
                  "answer_cap": answer_cap, "long_every": long_every,
                  "long_prompt_tokens": long_prompt_tokens}  # fmt: skip
        workload = _draw(scenario, requests, seed, stream)
    return _serve(costs, workload, batch_size=batch_size, wait_cap_s=wait_cap_s, **setup)


def _setup(policy, kv_layout, mode, link, chunk_tokens, replicas, prefill_nodes, decode_nodes):
    """The serving knobs, checked in this order, by the names :func:`_serve` takes."""
    policy = str(check_choice("policy", policy, POLICIES))
    kv_layout = str(check_choice("kv_layout", kv_layout, KV_LAYOUTS))
    mode = str(check_choice("mode", mode, MODES))
    link = str(check_choice("link", link, LINKS))
    chunk_tokens = check_int("chunk_tokens", chunk_tokens, 1, 1_000_000)
    replicas = check_int("replicas", replicas, 1, MAX_NODES)
    prefill_nodes = check_int("prefill_nodes", prefill_nodes, 1, MAX_NODES)
    decode_nodes = check_int("decode_nodes", decode_nodes, 1, MAX_NODES)
    if mode != "aggregated" and policy == "static":
        raise knob_error("policy", policy, f"continuous: {mode} mode schedules step by step")
    return {
        "policy": policy,
        "kv_layout": kv_layout,
        "mode": mode,
        "link": link,
        "chunk_tokens": chunk_tokens,
        "replicas": replicas,
        "prefill_nodes": prefill_nodes,
        "decode_nodes": decode_nodes,
    }


def _draw(scenario: Scenario, requests: int, seed: int, stream: dict) -> Requests:
    """Draw the stream, the scenario filling in the rate, prompt and answer left as None."""
    if stream["rate_per_s"] is None or stream["answer_mean"] is None:
        base = _scenario_defaults(scenario)
        stream["rate_per_s"] = base[0] if stream["rate_per_s"] is None else stream["rate_per_s"]
        stream["answer_mean"] = base[1] if stream["answer_mean"] is None else stream["answer_mean"]
    if stream["prompt_tokens"] is None:
        stream["prompt_tokens"] = scenario.knobs()["prompt_tokens"]
    return draw_requests(requests, seed, **stream)


def _serve(costs, workload, *, policy, kv_layout, batch_size, wait_cap_s, mode, link,
           chunk_tokens, replicas, prefill_nodes, decode_nodes) -> SimulationResult:  # fmt: skip
    """Serve a checked workload in one mode: a prefill and a decode pool, or replicas."""
    _check_fits(workload, kv_layout, costs)
    setup = {"policy": policy, "layout": kv_layout, "batch": batch_size, "mode": mode}
    if mode == "disaggregated":
        stage = prefill_pool(costs, workload, prefill_nodes, link)
        decoders, joins = decode_parts(costs, workload, stage, decode_nodes, kv_layout, batch_size)
        parts = prefill_parts(workload, stage, prefill_nodes) + decoders
        transfer = np.where(workload.answer_tokens > 1, stage["sent_s"] - stage["end_s"], 0.0)
        return assemble(costs, workload, parts, transfer_s=transfer, joins=joins, **setup)
    chunk = chunk_tokens if mode == "chunked" else 0
    parts = []
    for node in range(replicas):
        ids = np.arange(node, len(workload), replicas)
        share = workload if replicas == 1 else workload.subset(ids)
        trace = Scheduler(costs, share, policy, kv_layout, batch_size, wait_cap_s, chunk).run()
        parts.append(Part(trace, ids, share.answer_tokens, 0, "serve", batch_size))
    return assemble(costs, workload, parts, chunk_tokens=chunk, **setup)


def _scenario_defaults(scenario: Scenario) -> tuple[float, float]:
    result = evaluate(scenario)
    return max(result.arrivals_per_s, 1e-6), max(float(result.answer_tokens), 1.0)


def _check_fits(workload: Requests, kv_layout: str, costs: StepCosts) -> None:
    """Refuse a stream whose largest request cannot fit in the KV room on its own."""
    if kv_layout == "reserved":
        largest = int((workload.prompt_tokens + workload.max_answer_tokens).max())
        room = costs.kv_budget_tokens
    else:
        largest_tokens = int((workload.prompt_tokens + workload.answer_tokens).max())
        largest = math.ceil(largest_tokens / costs.block_tokens) * costs.block_tokens
        room = costs.kv_budget_blocks * costs.block_tokens
    if largest > room:
        raise knob_error(
            "prompt_tokens + answer_cap",
            largest,
            f"at most {room:,} tokens: the KV room of this node holds no more for one request",
        )
