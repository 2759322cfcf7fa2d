"""Split Qwen's H20 decode steps at batch 1 into a fixed part and a weight stream, by format,
beside the engine level's own split of the same rows; then the same for Qwen2.5's A100 rows.

Qwen's speed tables (``core/evidence/cases_qwen_speed.py``, D251-D291, and D29-D31) time one
request of 2,048 generated tokens at a time on an H20 under SGLang 0.4.6.post1. At a one-token
prompt the request is its decode steps, so a step costs about the request's time / 2,048. For
the dense models of each weight format this fits ``a + bytes / rate`` (``bytes`` the weights a
card reads in a step, from the Scenario's own ledger) by least squares, to the measured steps and
to the engine level's, and prints the fixed milliseconds and the rate the stream runs at.

Qwen2.5's tables (``core/evidence/cases_qwen25_speed.py``, D292-D335) time the same kind of
request on an A100 under vLLM 0.6.3, so the same split of their scored rows says whether the
H20's slow stream is the card's or the page's way of measuring.

A diagnostic for issue 37's H20 lead: the rows are in the development set, and no figure here
sets a constant of the engine level. To rerun, from this repository's root (a second):

    python -m bench.h20_batch_one
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core import evaluate
from core.catalog.h20_tables import H20_SKINNY_GEMMS
from core.evidence.cases_qwen25_speed import QWEN25_SPEED
from core.evidence.cases_qwen_speed import QWEN_SPEED

# (card, the page's rows) in the order they are printed
PAGES = (("H20", "Qwen3", QWEN_SPEED), ("A100", "Qwen2.5", QWEN25_SPEED))


def weight_format(case) -> str:
    """The row's checkpoint as the page names it: FP8, AWQ, GPTQ or bf16."""
    name = case.model_label.split(" ")[0]
    return next((tag for tag in ("FP8", "AWQ", "GPTQ") if tag in name), "bf16")


def is_mixture(case) -> bool:
    """Whether the row's model is one of the page's mixtures of experts (30B-A3B, 235B-A22B)."""
    return "-A3B" in case.model_label or "-A22B" in case.model_label


def dense_one_token_rows(cases=QWEN_SPEED) -> dict[str, list]:
    """{format: cases} of the dense models' scored rows at a one-token prompt on one card."""
    rows: dict[str, list] = {}
    for case in cases:
        if case.prompt_tokens == 1 and case.cards == 1 and case.scored and not is_mixture(case):
            rows.setdefault(weight_format(case), []).append(case)
    return rows


def stream_split(weight_bytes, step_s) -> tuple[float, float]:
    """(fixed seconds, bytes a second) of ``step = fixed + bytes / rate``, least squares."""
    slope, fixed = np.polyfit(np.asarray(weight_bytes, float), np.asarray(step_s, float), 1)
    return float(fixed), float(1.0 / slope)


def measured_and_priced(cases) -> dict[str, tuple[float, float]]:
    """{"measured" | "engine": (fixed seconds, bytes a second)}: :func:`stream_split` of the
    rows' measured steps and of the engine level's, over the weights each step reads."""
    results = [evaluate(case.scenario()) for case in cases]
    weights = [float(result.weight_bytes_read) for result in results]
    steps = {
        "measured": [case.measured / case.answer_tokens for case in cases],
        "engine": [float(result.itl_s) for result in results],
    }
    return {name: stream_split(weights, step_s) for name, step_s in steps.items()}


def skinny_gemm_rates() -> np.ndarray:
    """Bytes a second each of :data:`H20_SKINNY_GEMMS` streams its fp16 weights at."""
    shapes = np.array(H20_SKINNY_GEMMS, dtype=float)
    return 2.0 * shapes[:, 0] * shapes[:, 1] / (shapes[:, 2] * 1e-6)


def main() -> None:
    rates = skinny_gemm_rates()
    print(
        f"fp16 GEMMs at 1-4 tokens on an H20 (ROCm/rocm-libraries PR #12329): weights at "
        f"{np.median(rates) / 1e12:4.2f} TB/s, median of {rates.size} shapes "
        f"({rates.min() / 1e12:4.2f}-{rates.max() / 1e12:4.2f})"
    )
    for card, family, page in PAGES:
        print(
            f"dense {family} on one {card}, one-token prompt: "
            "a decode step = fixed + weights / rate"
        )
        for fmt, cases in dense_one_token_rows(page).items():
            for name, (fixed, rate) in measured_and_priced(cases).items():
                print(
                    f"  {fmt:>4} {name:>8}: {fixed * 1e3:5.2f} ms + weights at "
                    f"{rate / 1e12:4.2f} TB/s ({len(cases)} models)"
                )


if __name__ == "__main__":
    main()
