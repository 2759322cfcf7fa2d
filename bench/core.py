"""Time the capacity model: one full evaluate, and a 10,000-configuration vectorised sweep.

Prints figures; asserts nothing (speed is measured here, never in a timed test).
Targets from the foundation issue: one evaluate under 200 us, the 10k sweep under 20 ms; from
the engine-level issue: one engine-level evaluate (a mixture of experts under DEP) under 3 ms.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would come first on sys.path and this module would
    # shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import numpy as np

from core import Scenario, evaluate
from core.studies.sensitivity import knob_effects


def best_of(function, repeats: int, inner: int) -> tuple[float, float]:
    """Median and best seconds per call over ``repeats`` batches of ``inner`` calls."""
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        for _ in range(inner):
            function()
        samples.append((time.perf_counter() - start) / inner)
    return statistics.median(samples), min(samples)


def main() -> None:
    scenario = Scenario()
    evaluate(scenario)  # warm imports and caches
    median, best = best_of(lambda: evaluate(scenario), repeats=15, inner=200)
    print(
        f"one evaluate (defaults):          median {median * 1e6:7.1f} us   best {best * 1e6:7.1f} us"
    )

    for label, knobs in (
        ("engine level (defaults)", {"realism": "engine"}),
        ("engine level (DeepSeek-R1 DEP8)", {
            "realism": "engine", "model": "DeepSeek-R1", "gpu": "H200", "cards": 8,
            "weight_dtype": "fp8", "layout": "dep", "concurrency": 64, "seats": 4096,
        }),
        ("engine level (a run of 1,000 requests)", {
            "realism": "engine", "model": "Llama-3-70B", "gpu": "H100 SXM", "cards": 8,
            "weight_dtype": "fp8", "concurrency": 896, "run_requests": 1000, "seats": 4096,
        }),
    ):  # fmt: skip
        engine = Scenario(**knobs)
        evaluate(engine)
        median, best = best_of(lambda engine=engine: evaluate(engine), repeats=15, inner=50)
        print(
            f"one evaluate, {label + ':':<20} median {median * 1e6:7.1f} us   best {best * 1e6:7.1f} us"
        )

    rng = np.random.default_rng(0)
    size = 10_000
    sweep = {
        "seats": rng.integers(1, 257, size),
        "prompt_tokens": rng.integers(100, 64_000, size),
        "prefix_hit_rate": rng.uniform(0.0, 1.0, size),
        "tier": rng.choice(["small", "large"], size),
        "kv_dtype": rng.choice(["bf16", "fp8"], size),
    }
    numeric = {key: sweep[key] for key in ("seats", "prompt_tokens", "prefix_hit_rate")}
    median, best = best_of(lambda: evaluate(scenario, **numeric), repeats=15, inner=1)
    print(
        f"10k sweep, numeric knobs:         median {median * 1e3:7.2f} ms   best {best * 1e3:7.2f} ms"
    )
    median, best = best_of(lambda: evaluate(scenario, **sweep), repeats=15, inner=1)
    print(
        f"10k sweep, numeric + tier + cache: median {median * 1e3:7.2f} ms   best {best * 1e3:7.2f} ms"
    )

    defaults = {
        "seats": 16,
        "tier": "small",
        "prompt_tokens": 1200,
        "prefix_hit_rate": 0.3,
        "kv_dtype": "bf16",
    }
    busy = Scenario(seats=64, tier="large", prompt_tokens=8000, kv_dtype="fp8")
    outputs = ["seats_granted", "ttft_p95_s", "decode_tokens_per_s", "monthly_usd"]
    median, best = best_of(lambda: knob_effects(busy, defaults, outputs), repeats=15, inner=20)
    print(
        f"mattered-vs-noise (5 knobs):      median {median * 1e3:7.2f} ms   best {best * 1e3:7.2f} ms"
    )


if __name__ == "__main__":
    main()
