"""Split the SC '25 artifact's one-user first tokens into their fixed, per-token and quadratic
parts, beside the engine level's own split of the same set-ups.

At one user a run's time to first token is one prompt's prefill and the server's path to its
first token, nothing queued before it. Hanindhito and Patel's artifact (the fifth check set's
source, ``core/evidence/check_cases_sc25.py``) ran DeepSeek-R1 under SGLang's 0.4 line on eight
MI300X and eight MI325X at eight prompt lengths (100-12,800 tokens), five answer lengths each.
Each run's bench_serving output prints its median time to first token; this takes the median of
the five runs at each prompt length, fits ``a + b n + c n^2`` (``n`` the prompt's tokens,
weighted by relative error) to the measured and to the engine level's figures, and prints the
rate the quadratic part implies for the prompt's attention: the catalog's causal attention FLOPs
per card (``core.whiteboard.long_context.attention_flops``, 640 FLOPs a pair in each head for
DeepSeek's latent attention) over ``c``.

A diagnostic: the check set scores output throughput, and no figure here sets a constant of the
engine level. To rerun (about a minute):

    git clone https://github.com/hibagus/SC25_AMD_CDNA3_Artifact
    python -m bench.sc25_first_token SC25_AMD_CDNA3_Artifact   # from this repository's root
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the set-ups from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.sc25_rows import CARDS, RUNS
from core import evaluate
from core.catalog.models import MODELS
from core.evidence.check_cases_sc25 import CHECK_SC25
from core.whiteboard.long_context import attention_flops


def first_tokens(root: Path, folder: str) -> dict[int, float]:
    """{prompt tokens: seconds to first token, the median of the one-user runs' medians}."""
    found: dict[int, list[float]] = {}
    for path in (root / RUNS / folder / "exec").glob("run_*-*-1.out"):
        prompt = int(re.match(r"run_(\d+)-", path.name)[1])
        median = re.search(r"Median TTFT \(ms\):\s+([\d.]+)", path.read_text(errors="replace"))
        found.setdefault(prompt, []).append(float(median[1]) / 1e3)
    return {prompt: float(np.median(times)) for prompt, times in sorted(found.items())}


def priced(gpu: str, prompts) -> np.ndarray:
    """The engine level's median time to first token for the same one-user set-ups."""
    pick = {
        case.prompt_tokens: case
        for case in CHECK_SC25
        if case.gpu == gpu and case.load_value == 1 and case.answer_tokens == 100
    }
    return np.array([evaluate(pick[prompt].scenario()).ttft_p50_s for prompt in prompts])


def split(prompts, seconds) -> np.ndarray:
    """(a, b, c) of ``a + b n + c n^2`` fitted by least squares in relative error."""
    tokens = np.asarray(prompts, dtype=float)
    seconds = np.asarray(seconds, dtype=float)
    rows = np.stack([np.ones_like(tokens), tokens, np.square(tokens)], axis=1)
    return np.linalg.lstsq(rows / seconds[:, None], np.ones_like(seconds), rcond=None)[0]


def main(root: Path) -> None:
    shape = MODELS["DeepSeek-R1"]
    cards = CHECK_SC25[0].cards
    per_square = float(attention_flops(shape, 1.0)) / cards  # FLOPs a card per token squared
    for gpu, folder in CARDS.items():
        measured = first_tokens(root, folder)
        prompts = list(measured)
        engine = priced(gpu, prompts)
        print(f"{gpu}: prompt tokens, first token measured / engine level (ms)")
        for prompt, seen, model in zip(prompts, measured.values(), engine, strict=True):
            print(f"  {prompt:>6}  {seen * 1e3:8.1f}  {model * 1e3:8.1f}  x{model / seen:.2f}")
        for name, seconds in (("measured", list(measured.values())), ("engine", engine)):
            fixed, per_token, quadratic = split(prompts, seconds)
            rate = per_square / quadratic if quadratic > 0 else float("inf")
            print(
                f"  {name:>8}: {fixed * 1e3:6.1f} ms + {per_token * 1e6:5.1f} us a token + "
                f"{quadratic * 1e9:6.3f} ns a token squared (attention at {rate / 1e12:5.0f} "
                "TFLOP/s a card)"
            )


if __name__ == "__main__":
    main(Path(sys.argv[1]))
