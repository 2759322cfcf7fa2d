"""The prefill:decode split problem: the prefill nodes a disaggregated pool needs for its first-token SLO."""

from __future__ import annotations

import math

import numpy as np

from core.catalog.workloads import TTFT_PERCENTILE, TTFT_SLO_S
from core.engine_level.serving_modes import prefill_nodes_for_slo
from core.evaluate import evaluate
from core.foundation.units import number_text
from core.practice.problems import Step, Trap
from core.traffic import queueing

PROMPTS = (2000, 4000, 6000, 8000, 12000, 16000)
RATES_PER_MIN = (60, 120, 240, 360, 480, 720, 960)
NODES = (("small", "H100 SXM"), ("small", "A100 80GB SXM"), ("large", "H100 SXM"))
CLASSIC = {"tier": "small", "gpu": "H100 SXM", "prompt": 8000, "per_min": 480}
_MAX_DRAWS = 500
_MOST_NODES = 8  # keeps the working a handful of Erlang C lines


def knobs(drawn: dict) -> dict:
    """The scenario of a drawn problem: the engine level, disaggregated, a cold prefix cache."""
    return {
        "tier": drawn["tier"],
        "gpu": drawn["gpu"],
        "prompt_tokens": drawn["prompt"],
        "arrivals_per_min": float(drawn["per_min"]),
        "prefix_hit_rate": 0.0,
        "realism": "engine",
        "serving_mode": "disaggregated",
    }


def _acceptable(drawn: dict) -> bool:
    result = evaluate(**knobs(drawn))
    return result.latency_ok and 1 < result.prefill_nodes <= _MOST_NODES


def _draw(rng: np.random.Generator) -> dict:
    for _ in range(_MAX_DRAWS):
        tier, gpu = NODES[int(rng.integers(len(NODES)))]
        drawn = {
            "tier": tier,
            "gpu": gpu,
            "prompt": int(rng.choice(PROMPTS)),
            "per_min": int(rng.choice(RATES_PER_MIN)),
        }
        if _acceptable(drawn):
            return drawn
    return dict(CLASSIC)  # pragma: no cover


def _ms(seconds: float) -> str:
    return f"{number_text(seconds * 1e3, 4)} ms"


def _pd_steps(rate: float, prefill: float, answer: int) -> tuple[Step, ...]:
    """The prefill load, the fewest nodes that keep up, each count's p95 first token, the answer."""
    load = rate * prefill
    stable = math.floor(load) + 1
    steps = [
        Step(
            "Prefill work arriving, in nodes kept busy on average",
            "arrivals per second \u00d7 one prefill",
            f"{number_text(rate, 4)}/s \u00d7 {_ms(prefill)}",
            load,
            f"{number_text(load, 4)} nodes busy",
        ),
        Step(
            "The fewest nodes that keep up: more than that load",
            "\u230aload\u230b + 1",
            f"\u230a{number_text(load, 4)}\u230b + 1",
            stable,
            f"{stable} node{'s' if stable != 1 else ''}",
        ),
    ]
    steps += [_pd_count_step(count, rate, prefill, load) for count in range(stable, answer + 1)]
    steps.append(
        Step(
            "The fewest prefill nodes whose p95 first token meets the SLO",
            "the first count above that fits",
            f"{_ms(steps[-1].value)} < {_ms(TTFT_SLO_S)}",
            float(answer),
            f"{answer} nodes",
        )
    )
    return tuple(steps)


def _pd_count_step(count: int, rate: float, prefill: float, load: float) -> Step:
    """With ``count`` prefill nodes: the chance a prompt waits, and its p95 first token."""
    waiting = float(queueing.erlang_c(count, load))
    wait, _ = queueing.wait_quantile(count, rate, prefill, TTFT_PERCENTILE)
    ttft = prefill + float(wait)
    verdict = "meets" if ttft < TTFT_SLO_S else "misses"
    return Step(
        f"{count} prefill node{'s' if count != 1 else ''}: a prompt waits with chance "
        f"{number_text(waiting, 3)} (Erlang C); its p95 first token {verdict} the SLO",
        "prefill + ln(C / 0.05) / (nodes / prefill \u2212 arrivals)",
        f"{_ms(prefill)} + ln({number_text(waiting, 3)} / 0.05) / "
        f"({count} / {_ms(prefill)} \u2212 {number_text(rate, 4)}/s)",
        ttft,
        _ms(ttft),
    )


def pd_split(rng: np.random.Generator | None) -> dict:
    """The problem's question, givens, hint, derivation, traps and knobs (``rng`` None: classic)."""
    drawn = dict(CLASSIC) if rng is None else _draw(rng)
    result = evaluate(**knobs(drawn))
    rate = drawn["per_min"] / 60
    prefill = result.prefill_s
    answer = int(prefill_nodes_for_slo(rate, prefill))
    decode = result.nodes - result.prefill_nodes
    steps = _pd_steps(rate, prefill, answer)
    stable = int(steps[1].value)
    traps = [
        Trap(float(stable), "That many nodes keep up on average, but a prompt that arrives "
             "while they are all busy waits in line, and the p95 first token pays for it."),
        Trap(float(decode), "That is the decode side of the split: it depends on the streams, "
             "not on the prompts."),
        Trap(float(answer + decode), "That is the whole pool; the question asks for the prefill "
             "side only."),
    ]  # fmt: skip
    slo = f"{number_text(TTFT_SLO_S * 1e3)} ms for {TTFT_PERCENTILE:.0%} of requests"
    return {
        "question": "Prefill and decode run on separate nodes. How many prefill nodes does the "
        f"pool need so the first token comes within {slo}?",
        "givens": (
            ("arrivals at the peak minute", f"{number_text(rate, 4)} per second"),
            ("one prompt's prefill, alone on a node", _ms(prefill)),
            ("a prefill node runs", "one prompt at a time, first come first served"),
            ("first-token SLO", slo),
            ("the decode side", f"{decode} node{'s' if decode != 1 else ''} (for the streams)"),
        ),
        "hint": "Start from the fewest nodes that keep up with the prefill work, then add nodes "
        "until the queue's 95th-percentile wait plus one prefill fits the SLO (Erlang C).",
        "steps": steps,
        "traps": traps,
        "knobs": knobs(drawn),
        "note": f"The split is then x:{decode}; the decode side is sized by its streams.",
    }
