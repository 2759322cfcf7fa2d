"""Fit the MI300X's Triton fused-MoE figures (core/catalog/kernels.py) to AMD's published tables.

vLLM on ROCm runs a mixture's experts through its own Triton fused-MoE kernel unless AITER is
switched on (``VLLM_ROCM_USE_AITER``, off by default: vllm/envs.py), so a vLLM release without
AITER on an MI300X multiplies its experts with the kernel that sorts each expert's tokens into
blocks of ``BLOCK_SIZE_M`` rows (``sorted_token_ids``, ``expert_ids``) and loops over K. AMD's
Triton team measured that kernel on the MI300X: ROCm/triton PR #702 (2025-01-17, "moe quantization
support int8 and fp8", merged), its "FP8_W8A8 Benchmark" table, printed by
``python/perf-kernels/fused_moe/moe_gemm.py`` (whose only tuned configuration file is
``configs/device_name=AMD_Instinct_MI300X.json``: the card the table ran on), and the same
script's fp16 table a month before, in PR #685 (2024-12-18, merged; fp16 and bf16 multiply at one
rate on the card), which prices vLLM's unquantised experts there. Their rows are typed below as
printed (M tokens, an expert's N x K weights, E = 8 experts, top 2, milliseconds).

Read here as follows:

- every call the script times reads ``num_tokens_post_padded.item()`` (moe_gemm), a host sync
  inside ``triton.testing.do_bench``'s loop, so each row carries the same floor: the two
  smallest shapes (about 0.26 MB and 15 MB of fp8 weights, microseconds of work) take 0.100 ms
  and 0.099 ms (0.080 and 0.089 in fp16). Their mean is taken off every row of their table;
  what is left is the kernel. The catalog keeps
  the floor of the row the family borrowed before (a launch-and-routing floor inside a CUDA
  graph, which this table cannot give);
- the table's fp8 is per-tensor scaled; vLLM's 128 x 128 block-scaled kernel is the same loop
  with a scale load per K block, so its figures price block fp8 too, as a lower bound;
- the model and its fit are bench/moe_kernel_fit.py's (:func:`latency_of`): the bandwidth share
  on rows of 256 tokens or fewer (16-64 routed rows an expert), the compute share and padding
  rows on all; the tokens' own bytes (the A read, the top-k outputs written in fp16) are the
  moved bytes.

    python -m bench.rocm_triton_moe_fit    # from this repository's root: prints the figures
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from bench.moe_kernel_fit import fit_figures, latency_of
from core.catalog.cards import GPUS

EXPERTS, TOP = 8, 2
CARD = "MI300X"


@dataclass(frozen=True)
class Table:
    """One of AMD's printed tables: (tokens, N, K, milliseconds) rows, the first ``floor``
    rows the benchmark's own floor; weights and activations of ``bytes_per_weight`` bytes,
    multiplied at the card's ``rate`` (a :class:`core.catalog.cards.GPU` field)."""

    source: str
    floor_rows: tuple
    rows: tuple
    bytes_per_weight: float
    rate: str


TABLES = {
    "fp8": Table(
        "ROCm/triton PR #702 (AMD, 2025-01-17, merged): FP8_W8A8 Benchmark of python/perf-kernels/"
        "fused_moe/moe_gemm.py on the MI300X, 8 experts, top 2",
        ((64, 256, 128, 0.100965), (64, 1792, 1024, 0.099205)),
        ((64, 7168, 4096, 0.237007), (128, 7168, 4096, 0.246640), (1024, 7168, 4096, 0.367420),
         (4096, 7168, 4096, 0.859841), (64, 14336, 4096, 0.315952), (128, 14336, 4096, 0.325784),
         (256, 14336, 4096, 0.366155), (512, 14336, 4096, 0.419629),
         (1024, 14336, 4096, 0.584223)),
        1.0, "achieved_fp8_flops",
    ),
    # the same script's fp16 table, before it had quantisation: every row the text this project
    # can read holds (its tenth and later are cut), the larger-batch rows among them too few to
    # pin the compute share as well as the fp8 table's five
    "bf16": Table(
        "ROCm/triton PR #685 (AMD, 2024-12-18, merged): benchmark result of python/perf-kernels/"
        "fused_moe/moe-gemm.py on the MI300X, fp16, 8 experts, top 2",
        ((64, 256, 128, 0.080184), (64, 1792, 1024, 0.088724)),
        ((64, 7168, 4096, 0.270237), (128, 7168, 4096, 0.279320), (1024, 7168, 4096, 0.649728),
         (4096, 7168, 4096, 1.300630), (64, 14336, 4096, 0.422626), (128, 14336, 4096, 0.425669),
         (256, 14336, 4096, 0.483249)),
        2.0, "achieved_bf16_flops",
    ),
}  # fmt: skip
SOURCE = TABLES["fp8"].source


def columns(table: Table = TABLES["fp8"], card=CARD):
    """bench/moe_kernel_fit.py's columns for the table's rows, their floor taken off."""
    tokens, width, depth, milliseconds = np.array(table.rows, float).T
    floor = np.mean([row[-1] for row in table.floor_rows]) * 1e-3
    bandwidth = GPUS[card].achieved_hbm_bytes_per_s
    touched = EXPERTS * (1 - (1 - TOP / EXPERTS) ** tokens)  # torch.topk of random scores
    weights = touched * width * depth * table.bytes_per_weight
    row_flops = 2.0 * width * depth
    # the tokens' own bytes: A read in the weights' format, the top-k outputs written in fp16
    moved = (tokens * depth * table.bytes_per_weight + 2.0 * tokens * TOP * width) / bandwidth
    kernel = milliseconds * 1e-3 - floor
    return tokens, np.full_like(tokens, TOP), touched, weights, row_flops, moved, kernel


def modelled(cols, bandwidth_share, compute_share, pad, table: Table = TABLES["fp8"], card=CARD):
    """The kernel's modelled time of each row (no floor: the table's is the benchmark's)."""
    rates = GPUS[card]
    return latency_of(cols, rates.achieved_hbm_bytes_per_s, getattr(rates, table.rate), 0.0,
                      bandwidth_share, compute_share, pad)  # fmt: skip


def fit(table: Table = TABLES["fp8"]):
    """(bandwidth share, compute share, padding rows, decode RMS log error, all rows' error):
    bench/moe_kernel_fit.py's search with no floor (the table's is the benchmark's) and the
    bandwidth share on a finer grid."""
    cols = columns(table)
    _, *figures = fit_figures(
        cols, lambda _floor, *shares: modelled(cols, *shares, table=table), floors=(0.0,),
        bandwidth_shares=np.round(np.arange(0.05, 1.3, 0.025), 3),
    )  # fmt: skip
    return tuple(figures)


def main() -> None:
    for weight, table in TABLES.items():
        share_b, share_f, pad, decode, every = fit(table)
        print(f"{weight}: {table.source}\n  at the {CARD}'s catalog rates: bandwidth share "
              f"{share_b:.3f}, compute share {share_f:.3f}, padding rows {pad}; RMS log error "
              f"{decode:.0%} on 256 tokens or fewer, {every:.0%} on every row")  # fmt: skip


if __name__ == "__main__":
    main()
