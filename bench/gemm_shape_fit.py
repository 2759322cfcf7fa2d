"""Write core/catalog/gemm_tables/gemm_shares.csv from measured GEMM tables: the share of a
card's best matmul rate a dense GEMM of each shape reaches, in each engine's own kernel.

The tables are NVIDIA aiconfigurator 0.12's (Apache-2.0): GEMM latencies measured per card,
engine, kernel, weight format and shape (m tokens x n outputs x k inputs), read here as a cited
source; the lab never imports aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator pandas pyarrow
    /tmp/aic/bin/python -m bench.gemm_shape_fit \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

The A100's and the H200's rows (issue 37's thirty-fifth round) read the tables of the
repository at a later commit than the 0.12 wheel: ``git clone
https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 4fabb773``, then
pass ``aiconfigurator/aic-core/src/aiconfigurator_core/systems/data``.

For each card family and format it takes TensorRT-LLM's PyTorch flow (``torch_flow``, the kernel
of every engine without a table of its own, as core/catalog/dense_gemms.py prices its floors)
and, where aiconfigurator measured them, vLLM's and SGLang's default kernels (the ones
core/catalog/dense_gemms.py fits their floors on); the median latency of each measured shape;
and the part of it the engine level prices as arithmetic: the latency less what it prices apart,
the GEMM's floor and its cost for the inputs it walks (the ones core/catalog/dense_gemms.py
prices for the engine's release) and its weights' stream at the card's measured bandwidth, never below a tenth of the latency. A shape's
rate is 2 m n k over that part; its share is that rate over the rate the engine level multiplies
at on the table's card (the catalog's measured best for the format, core.catalog.cards: MAMF's
bf16 and fp8 figures, the borrowed fp4 share), capped at 1: a kernel slower than the card's best
at every shape (vLLM's and SGLang's fp8 on an H100 reach about 1,100 of its 1,400 TFLOP/s) is
priced so. Only m >= 1,024 is kept: below it a dense GEMM streams its weights, priced apart.
Prints each table's large-GEMM rate against the card's and its shares at the slices of
Llama-3-70B split over 1, 2, 4 and 8 cards at 2,048 tokens. Int4 on an A100 in the engines that
run Marlin there (vLLM, SGLang) has no table: its rows are the engine's bf16 rows times Marlin's
measured rate over a plain fp16 GEMM's (:func:`marlin_rows`).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from core.catalog import BYTES_PER_WEIGHT as CATALOG_BYTES_PER_WEIGHT

# (family, card table, catalog card, engine/version, kernel, table dtype, the engine level's
# name for it, the engine whose kernel it is: "" for TensorRT-LLM's PyTorch flow, every engine's
# without its own): DeepGEMM for block-scaled fp8 on a B200 (as core/catalog/dense_gemms.py)
_T13 = "trtllm/1.3.0rc20"
_H, _B = ("hopper", "h100_sxm", "H100 SXM"), ("blackwell", "b200_sxm", "B200")
_A = ("ampere", "a100_sxm", "A100 80GB SXM")
_HV, _HS = (*_H, "vllm/0.24.0"), (*_H, "sglang/0.5.6.post2")
_BV, _BS = (*_B, "vllm/0.24.0"), (*_B, "sglang/0.5.14")
TABLES = [
    (*_H, _T13, "torch_flow", "bfloat16", "bf16", ""),
    (*_H, _T13, "torch_flow", "fp8", "fp8", ""),
    (*_H, _T13, "torch_flow", "fp8_block", "fp8_block", ""),
    (*_B, _T13, "torch_flow", "bfloat16", "bf16", ""),
    (*_B, _T13, "torch_flow", "fp8", "fp8", ""),
    (*_B, _T13, "deepgemm", "fp8_block", "fp8_block", ""),
    (*_B, _T13, "torch_flow", "nvfp4", "nvfp4", ""),
    (*_A, "trtllm/1.0.0", "torch_flow", "bfloat16", "bf16", ""),
    # vLLM's and SGLang's own on the A100, the earliest releases measured there (issue 37's
    # thirty-fifth round; aiconfigurator @4fabb773)
    (*_A, "vllm/0.14.0", "vllm_default", "bfloat16", "bf16", "vllm"),
    (*_A, "sglang/0.5.9", "sglang", "bfloat16", "bf16", "sglang"),
    ("ada", "l40s", "L40S", _T13, "torch_flow", "bfloat16", "bf16", ""),
    ("ada", "l40s", "L40S", _T13, "torch_flow", "fp8", "fp8", ""),
    (*_HV, "torch.nn.functional.linear", "bfloat16", "bf16", "vllm"),
    (*_HV, "CutlassFP8ScaledMMLinearKernel", "fp8", "fp8", "vllm"),
    (*_HS, "sglang", "bfloat16", "bf16", "sglang"),
    (*_HS, "sglang", "fp8", "fp8", "sglang"),
    (*_HS, "sglang", "fp8_block", "fp8_block", "sglang"),
    (*_BV, "torch.nn.functional.linear", "bfloat16", "bf16", "vllm"),
    (*_BV, "CutlassFP8ScaledMMLinearKernel", "fp8", "fp8", "vllm"),
    (*_BV, "FlashInferCuteDslNvFp4LinearKernel", "nvfp4", "nvfp4", "vllm"),
    (*_BS, "sglang_torch_linear", "bfloat16", "bf16", "sglang"),
    (*_BS, "sglang_sgl_kernel_fp8_scaled_mm", "fp8", "fp8", "sglang"),
    (*_BS, "sglang_deepgemm_gemm_nt_f8f8bf16", "fp8_block", "fp8_block", "sglang"),
    (*_BS, "sglang_flashinfer_cutedsl_nvfp4", "nvfp4", "nvfp4", "sglang"),
]
# the catalog rate each format multiplies at (core.scenario.resolve.tensor_peak)
RATE_OF = {"bf16": "achieved_bf16_flops", "fp8": "achieved_fp8_flops",
           "fp8_block": "achieved_fp8_flops", "nvfp4": "achieved_fp4_flops"}  # fmt: skip
# the catalog's bytes per weight of each format; block-scaled fp8 stores fp8's
BYTES_PER_WEIGHT = {**CATALOG_BYTES_PER_WEIGHT, "fp8_block": CATALOG_BYTES_PER_WEIGHT["fp8"]}
TOKENS = (1024, 2048, 4096, 8192, 16384)
WIDTHS = (256, 512, 1024, 2048, 4096, 8192, 16384)
OUT = Path(__file__).resolve().parents[1] / "core" / "catalog" / "gemm_tables" / "gemm_shares.csv"
HEADER = "family,format,engine,tokens,outputs,inputs,share"


def rates(data: Path, table_card, card, version, kernel, dtype, family, name, engine=""):
    """{(m, n, k): TFLOP/s} of the arithmetic in the table's ``kernel`` rows of ``dtype``."""
    import pandas as pd

    from core.catalog import GPUS
    from core.catalog.dense_gemms import dense_gemm_cost

    table = pd.read_parquet(data / table_card / "gemm" / version / "gemm_perf.parquet")
    table = table[(table.kernel_source == kernel) & (table.gemm_dtype == dtype)]
    latency = table.groupby(["m", "n", "k"]).latency.median()  # milliseconds
    # the floor and cost per input the engine level prices for this engine's release ("":
    # TensorRT-LLM's flow)
    floor, per_input = dense_gemm_cost(card, name, engine or "tensorrt-llm", version.split("/")[1])
    bandwidth = GPUS[card].achieved_hbm_bytes_per_s
    found = {}
    for (m, n, k), ms in latency.items():
        seconds = ms * 1e-3
        stream = n * k * BYTES_PER_WEIGHT[name] / bandwidth
        math = max(seconds - (floor + per_input * k) - stream, 0.1 * seconds)
        found[int(m), int(n), int(k)] = 2.0 * m * n * k / math / 1e12
    return found


def reference(measured) -> float:
    """The median rate of the table's large GEMMs (printed beside the card's)."""
    large = [r for (m, n, k), r in measured.items() if m >= 4096 and n >= 8192 and k >= 8192]
    return float(np.median(large))


def card_rate(card, name) -> float:
    """The rate, in TFLOP/s, the engine level multiplies ``name`` weights at on ``card``."""
    from core.catalog import GPUS

    return getattr(GPUS[card], RATE_OF[name]) / 1e12


def _nearest(measured, m, n, k) -> float:
    """The rate at (m, n, k), or, where the table skipped that shape, at the nearest measured
    token count of the same n and k."""
    if (m, n, k) in measured:
        return measured[m, n, k]
    tokens = [t for (t, a, b) in measured if (a, b) == (n, k)]
    nearest = min(tokens, key=lambda t: abs(np.log(t / m)))
    return measured[nearest, n, k]


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    lines = []
    for family, table_card, card, version, kernel, dtype, name, engine in TABLES:
        measured = rates(data, table_card, card, version, kernel, dtype, family, name, engine)
        best = card_rate(card, name)
        for m in TOKENS:
            for n in WIDTHS:
                for k in WIDTHS:
                    share = min(_nearest(measured, m, n, k) / best, 1.0)
                    lines.append(f"{family},{name},{engine},{m},{n},{k},{share:.3f}")
        slices = []
        for cards in (1, 2, 4, 8):
            shapes = [(10240 // cards, 8192), (8192, 8192 // cards),
                      (57344 // cards, 8192), (8192, 28672 // cards)]  # fmt: skip
            flops = [n * k for n, k in shapes]
            near = [(min(WIDTHS, key=lambda w: abs(np.log(w / n))),
                     min(WIDTHS, key=lambda w: abs(np.log(w / k)))) for n, k in shapes]  # fmt: skip
            time = sum(f / min(_nearest(measured, 2048, n, k) / best, 1.0)
                       for f, (n, k) in zip(flops, near, strict=True))  # fmt: skip
            slices.append(f"TP{cards} {sum(flops) / time:.2f}")
        print(f"{family:<9} {name:<9} {engine or 'every':<6} large {reference(measured):6.0f} of "
              f"{best:6.0f} TFLOP/s; 70B at 2,048 tokens: " + ", ".join(slices))  # fmt: skip
    lines += marlin_rows(lines)
    write_shares(lines, {table[0] for table in TABLES})


def marlin_rows(rows: list[str]) -> list[str]:
    """Int4 rows on an A100 for the engines that run Marlin there: each engine's own bf16
    share times Marlin's measured rate over a plain fp16 GEMM's at the row's tokens
    (core.catalog.gemm_tables.MARLIN_PROMPT_SHARE; the largest measured holds beyond)."""
    from core.catalog.gemm_tables import MARLIN_ENGINES, MARLIN_PROMPT_SHARE

    measured = sorted(MARLIN_PROMPT_SHARE)
    found = []
    for line in rows:
        family, name, engine, m, n, k, share = line.split(",")
        if family == "ampere" and name == "bf16" and engine in MARLIN_ENGINES:
            tokens = max([t for t in measured if t <= int(m)], default=measured[0])
            marlin = float(share) * MARLIN_PROMPT_SHARE[tokens]
            found.append(f"{family},int4,{engine},{m},{n},{k},{marlin:.3f}")
    return found


def write_shares(rows: list[str], families: set[str]) -> None:
    """Write ``rows`` (CSV lines) to gemm_shares.csv in place of its rows of ``families``,
    keeping the other families' (bench/aiter_gemm_fit.py writes AMD's from AITER's tables)."""
    kept = []
    if OUT.exists():
        kept = [line for line in OUT.read_text().splitlines()[1:]
                if line.split(",", 1)[0] not in families]  # fmt: skip
    # grouped by table (family, format, engine), each table's shapes in the order written
    ordered = sorted([*kept, *rows], key=lambda line: line.split(",")[:3])
    OUT.write_text("\n".join([HEADER, *ordered]) + "\n")
    print(f"wrote {OUT} ({len(rows)} shapes of {', '.join(sorted(families))}; {len(kept)} kept)")


if __name__ == "__main__":
    main()
