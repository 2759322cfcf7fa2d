"""Kernels measured on this project's lent cards, fitted as the catalog's own figures are.

``bench/gpu_kernels.py`` measured them on one H200 SXM (2026-12-04) and one H100 SXM
(2026-12-05), with PyTorch 2.11 and CUDA 13, each twice on two fresh machines (the files are
in ``bench/results/``), and
``bench/measured_here.py`` fits each with the equation the catalog's figure of the same kind
was fitted with from NVIDIA aiconfigurator's H100 tables. They are PyTorch's own kernels (its
grouped GEMM, its fused attention, cuBLAS behind ``F.linear``), not a serving engine's, so
none of them prices a step: they check the catalog's figures, and the sources table shows
them beside those figures. The rate the card streamed a cache at is the H200's measured
bandwidth (:data:`core.catalog.cards.GPUS`); the H100's, 3.10 TB/s, checks the FlashMLA figure
the catalog keeps for it (3.0).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

MEASURED_HERE_SOURCES = {
    card: (
        f"measured here, bench/gpu_kernels.py on this project's lent {card} (PyTorch 2.11, "
        f"CUDA 13, {date}, two runs; files in bench/results/{folder}-{date} and its -rerun)"
    )
    for card, folder, date in (("H200", "h200", "2026-12-04"), ("H100 SXM", "h100", "2026-12-05"))
}

# what the H100 run says of the catalog's published H100 rates, which it checks, not replaces
H100_CHECKED_HERE = (
    f"checked: {MEASURED_HERE_SOURCES['H100 SXM']}: decode attention streaming caches of 2 GB or "
    "more at 3.08-3.16 TB/s (median 3.10), 8192-cube products at 731-796 TFLOP/s bf16 and "
    "1,446-1,475 fp8"
)


@dataclass(frozen=True)
class MeasuredKernel:
    """One kernel kind measured here: its fitted figures, their RMS log error, what ran."""

    kind: str
    figures: tuple[float, ...]
    error: float
    kernel: str


# Each kernel was timed alone as one CUDA-graph replay after the L2 was flushed, so a floor
# holds one graph launch besides the kernels' own; PyTorch runs elementwise work (the fp8
# activation's quantisation, the gather and scatter around grouped GEMMs) as separate kernels
# that an engine fuses, so its floors are upper bounds of an engine's.
_H200 = {
    "dense GEMM, bf16": MeasuredKernel(
        "dense", (8.0e-6, 0.79), 0.08, "cuBLAS behind F.linear, 1-16 tokens, 17-235 MB"
    ),
    "dense GEMM, fp8": MeasuredKernel(
        "dense", (28.8e-6, 0.53), 0.14,
        "rowwise activation quantisation (unfused) and torch._scaled_mm, 1-16 tokens",
    ),
    "decode attention, bf16": MeasuredKernel(
        "attention", (13.0e-6, 32.5e-9), 0.04,
        "PyTorch's fused attention (flash), 32-256 requests; fewer leave the card idle: no split-KV",
    ),
    "expert layer, bf16": MeasuredKernel(
        "experts", (74e-6, 0.66, 0.35, 384), 0.45,
        "torch._grouped_mm with its gather, SiLU and scatter, 1-16,384 tokens, 5 shapes (8 % on 1-256)",
    ),
    "expert layer, fp8": MeasuredKernel(
        "experts", (140e-6, 0.54, 0.2, 384), 0.49,
        "torch._scaled_grouped_mm rowwise, activations quantised in the layer (12 % on 1-256)",
    ),
    # device time of each of a Llama-3.1-8B step's 611 elementwise kernels, and the gap between
    # any two of its 965 kernels as a graph replays them (the graph's time less the kernels')
    "kernel in a CUDA graph": MeasuredKernel(
        "graph floor", (2.0e-6, 0.41e-6), 0.0,
        "medians of two runs' eager profile and graph replay of one request's decode step",
    ),
}  # fmt: skip

# The same script on the H100: its streams and floors beside the H200's, shares of its own
# catalog bandwidth (3.0 TB/s)
_H100 = {
    "dense GEMM, bf16": replace(_H200["dense GEMM, bf16"], figures=(8.6e-6, 0.85), error=0.07),
    "dense GEMM, fp8": replace(_H200["dense GEMM, fp8"], figures=(29.4e-6, 0.72), error=0.12),
    "decode attention, bf16": replace(
        _H200["decode attention, bf16"], figures=(13.5e-6, 17.5e-9), error=0.04
    ),
    "expert layer, bf16": replace(
        _H200["expert layer, bf16"], figures=(72e-6, 0.86, 0.325, 192), error=0.44,
        kernel="torch._grouped_mm with its gather, SiLU and scatter, 1-16,384 tokens, 5 shapes "
        "(9 % on 1-256)",
    ),
    "expert layer, fp8": replace(
        _H200["expert layer, fp8"], figures=(146e-6, 0.74, 0.175, 192), error=0.49,
        kernel="torch._scaled_grouped_mm rowwise, activations quantised in the layer "
        "(12 % on 1-256)",
    ),
    "kernel in a CUDA graph": replace(
        _H200["kernel in a CUDA graph"], figures=(2.2e-6, 0.32e-6)
    ),
}  # fmt: skip

# card -> kernel kind -> what was measured
MEASURED_HERE: dict[str, dict[str, MeasuredKernel]] = {"H200": _H200, "H100 SXM": _H100}
