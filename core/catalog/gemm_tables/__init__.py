"""The share of a card's best matmul rate a dense GEMM of each shape reaches, measured.

``gemm_shares.csv`` beside this module is written by ``bench/gemm_shape_fit.py`` from NVIDIA
aiconfigurator 0.12's measured GEMM tables (Apache-2.0; see this folder's README): for each card
family, weight format and engine, the engine's default kernel (TensorRT-LLM's PyTorch flow, with
DeepGEMM for block-scaled fp8 on a B200, for every engine without a table of its own; vLLM's
and SGLang's where aiconfigurator measured them), at 1,024 to 16,384 tokens (m) and 256 to
16,384 outputs (n) and inputs (k), the rate of the GEMM's arithmetic (its latency less its floor
and its weights' stream, which the engine level prices apart) over the rate the engine level
multiplies that format at on the table's card (its measured best), at most 1. A matrix split
eight ways multiplies slower than a whole one (fp8 on an H100 in TensorRT-LLM's kernel keeps
0.82 of the card's best at Llama-3-70B's eight-way slices and 2,048 tokens, 0.97 whole), and an
engine's kernel may never reach the card's best (NVFP4 on a B200 about 0.7 of the catalog's
rate).

AMD's block-scaled fp8 rows (engine ``aiter``: the releases that run AMD's AITER kernels, SGLang's
ROCm builds and vLLM with the ATOM plugin) are written by ``bench/aiter_gemm_fit.py`` the same
way from the times AITER measured while tuning its ``gemm_a8w8_blockscale`` kernel on the cards
(ROCm/aiter, MIT), each grid point read at the nearest shape AITER tuned: on 304-CU cards
(MI300X, MI325X) DeepSeek's prefill slices reach 0.2-0.7 of the MI325X's measured fp8 rate.

:func:`gemm_share` interpolates the table in the logarithms of m, n and k; outside the grid it
holds the edge's share (fewer than 1,024 tokens take 1,024's: there a dense GEMM streams its
weights, priced apart). A family, format or kernel the tables do not measure (int4 outside
Marlin on an A100, mxfp4, AMD's cards outside AITER) reads 1: the card's own achieved rate.
Marlin's int4 rows on an A100 are its engine's bf16 rows times Marlin's measured rate over a
plain fp16 GEMM's (:data:`MARLIN_PROMPT_SHARE`).
"""

from __future__ import annotations

import functools
from pathlib import Path

import numpy as np

_FILE = Path(__file__).resolve().parent / "gemm_shares.csv"
GEMM_SHARE_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured GEMM tables, <card>/gemm/<engine>/"
    "<release>/gemm_perf.parquet: TensorRT-LLM 1.3.0rc20 (A100: 1.0.0) torch_flow (DeepGEMM for "
    "fp8_block on B200), vLLM 0.24.0 (A100: 0.14.0) and SGLang 0.5.6.post2 (H100) / 0.5.14 "
    "(B200) / 0.5.9 (A100, aiconfigurator @4fabb773) default kernels; ROCm/aiter @e4048607 "
    "(MIT) aiter/configs/a8w8_blockscale_tuned_gemm.csv and "
    "model_configs/a8w8_blockscale_tuned_gemm_ds_v3.csv for AMD's block-scaled fp8 under AITER: "
    "each shape's arithmetic rate over the card's measured best for the format "
    "(bench/gemm_shape_fit.py, bench/aiter_gemm_fit.py); int4 on an A100 in vLLM and SGLang: "
    "their bf16 shares times Marlin's rate over torch's fp16 GEMM (MARLIN_SOURCE)"
)
# vLLM's and SGLang's int4 GEMMs on Ampere are Marlin's (gptq_marlin, awq_marlin). Past 64
# tokens Marlin runs its 64-token kernel again and again (IST-DASLab/marlin issue #2, its
# author), so a prompt's GEMMs do not reach a plain fp16 GEMM's rate: measured on an A100-class
# card with Marlin's bench.py, its time over torch's fp16 GEMM of the same shape, by tokens
# (the largest measured, 4,000, holds beyond). Issue 37's thirty-sixth round.
MARLIN_PROMPT_SHARE = {1024: 0.66, 2048: 0.60, 4000: 0.61}
MARLIN_ENGINES = ("vllm", "sglang")
MARLIN_SOURCE = (
    "vllm-project/vllm PR #2497 (Integrate Marlin Kernels for Int4 GPTQ inference), comment of "
    "2024-01-24 running IST-DASLab/marlin bench.py: speedup over torch's fp16 GEMM 0.66 at 1,024 "
    "tokens, 0.60 at 2,048, 0.61 at 4,000 (Marlin flat at about 141 TFLOP/s past 64 tokens); "
    "IST-DASLab/marlin issue #2: past 64 tokens the 64-token kernel runs repeatedly"
)


@functools.cache
def _table():
    """({(family, format, engine): its table's index}, m grid, n grid, k grid,
    shares[table, m, n, k]); engine "" is every engine's without a table of its own."""
    rows = np.genfromtxt(_FILE, delimiter=",", skip_header=1, dtype=str, encoding="ascii")
    names = sorted({(family, fmt, engine) for family, fmt, engine, *_ in rows})
    grids = [np.unique(rows[:, column].astype(float)) for column in (3, 4, 5)]
    shares = np.ones((len(names), *(len(g) for g in grids)))
    lookup = {name: index for index, name in enumerate(names)}
    for family, fmt, engine, m, n, k, share in rows:
        at = [int(np.searchsorted(g, float(v))) for g, v in zip(grids, (m, n, k), strict=True)]
        shares[(lookup[family, fmt, engine], *at)] = float(share)
    shares.setflags(write=False)
    return lookup, *(np.log2(g) for g in grids), shares


def token_grid() -> np.ndarray:
    """The token counts the tables measure, as :math:`\\log_2 m`."""
    return _table()[1]


def gemm_table_index(family: str, weight_format: str, engine: str = "") -> int:
    """The table measured for ``family``'s cards in ``weight_format`` in ``engine``'s own
    kernel, else in TensorRT-LLM's (every engine's without its own), or -1 where none is."""
    lookup = _table()[0]
    return lookup.get((family, weight_format, engine), lookup.get((family, weight_format, ""), -1))


def grid_position(grid, values):
    """Each value's cell in ``grid`` (log2 of the grid's points) and its fraction of the way
    across, held at the grid's ends."""
    values = np.clip(np.log2(np.maximum(values, 1.0)), grid[0], grid[-1])
    cell = np.clip(np.searchsorted(grid, values, side="right") - 1, 0, len(grid) - 2)
    return cell, (values - grid[cell]) / (grid[cell + 1] - grid[cell])


def gemm_share(table, tokens, outputs, inputs):
    """The share of the card's best rate a GEMM of ``tokens`` x ``outputs`` x ``inputs`` reaches.

    Vectorised over every argument; ``table`` is :func:`gemm_table_index`'s (-1 reads 1).

    Notes
    -----
    Trilinear in :math:`(\\log_2 m, \\log_2 n, \\log_2 k)` between the measured shapes.
    """
    _, m_grid, n_grid, k_grid, shares = _table()
    table = np.asarray(table)
    measured = table >= 0
    index = np.where(measured, table, 0).astype(int)
    (mi, mf), (ni, nf), (ki, kf) = (
        grid_position(grid, np.asarray(v, dtype=float))
        for grid, v in ((m_grid, tokens), (n_grid, outputs), (k_grid, inputs))
    )
    total = 0.0
    for dm in (0, 1):
        for dn in (0, 1):
            for dk in (0, 1):
                weight = (mf if dm else 1 - mf) * (nf if dn else 1 - nf) * (kf if dk else 1 - kf)
                total = total + weight * shares[index, mi + dm, ni + dn, ki + dk]
    return np.where(measured, total, 1.0)
