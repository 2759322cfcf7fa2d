"""Fit AMD cards' block-fp8 dense GEMM floors (core/catalog/dense_gemms.py) to AITER's tables.

SGLang's ROCm images run with SGLANG_USE_AITER=1, under which a block-fp8 linear layer runs
AITER's ``gemm_a8w8_blockscale`` (sglang layers/quantization/fp8_utils.py
``dispatch_w8a8_block_fp8_linear``: ``aiter_w8a8_block_fp8_linear``) after AITER's per-128
quantisation of its input, a kernel the engine level counts on its own. AITER keeps the time
it measured for the fastest kernel of each GEMM shape it tuned on a card (ROCm/aiter
aiter/configs/a8w8_blockscale_tuned_gemm.csv and model_configs/
a8w8_blockscale_tuned_gemm_ds_v3.csv, the ``us`` column). To rerun, from this repository's
root with AITER's repository at hand (the catalog's figures are from @e4048607):

    python -m bench.aiter_gemm_fit aiter/aiter/configs

The model and the fit are bench/dense_gemm_fit.py's: a decode-sized GEMM (1-16 tokens, 4-300 MB
of weights) takes ``t = t0 + c k + n k / B`` with B the catalog card's measured (or borrowed)
bandwidth; the floor t0 and the cost c of each of the k inputs the kernel walks minimise the RMS
log error together. A card is named by its compute units (304: MI300X and MI325X, whose rates
are used; 256: MI355X). Prints, per card, the rows, the floor, the cost per input, the RMS log
error (and the constant floor's alone) and the mean log(fitted / measured) at 1, 4 and 16
tokens.

The same tables time prefill-sized GEMMs too (1,024 tokens and more). From them the script
writes AMD's rows of core/catalog/gemm_tables/gemm_shares.csv, as bench/gemm_shape_fit.py writes
NVIDIA's from aiconfigurator's: each shape's arithmetic rate (its time less the floor fitted
here and its weights' stream, never below a tenth of it) over the rate the engine level
multiplies fp8 at on the card (core/catalog/cards.py), at most 1, keyed engine "aiter" (the
releases that run AITER's kernels). AITER tuned only the shapes its models run, so each point of
the shares' grid takes the measured shape nearest it in the logarithms of n and k, at the
measured token count nearest its m; DeepSeek's slices are among the measured shapes.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bench.dense_gemm_fit import TOKENS, WEIGHT_BYTES, fit_floor
from bench.gemm_shape_fit import TOKENS as GRID_TOKENS
from bench.gemm_shape_fit import WIDTHS, write_shares
from core.catalog.cards import GPUS

TABLES = ("a8w8_blockscale_tuned_gemm", "model_configs/a8w8_blockscale_tuned_gemm_ds_v3")
CARDS = ((304, "MI325X"), (256, "MI355X"))
FAMILIES = {304: "cdna3", 256: "cdna4"}
PREFILL_TOKENS = 1024  # from here a dense GEMM multiplies; below it streams its weights


def timed(configs: Path, cu_num: int):
    """One card's block-fp8 GEMMs: the fastest time AITER measured per (M, N, K), in us."""
    import pandas as pd

    table = pd.concat([pd.read_csv(configs / f"{name}.csv") for name in TABLES])
    table = table[(table.cu_num == cu_num) & np.isfinite(table.us) & (table.us > 0)]
    return table.groupby(["M", "N", "K"], as_index=False).us.min()


def rows(configs: Path, cu_num: int):
    """(tokens, weight bytes, inputs k, latency s) of one card's decode-sized block-fp8 GEMMs."""
    table = timed(configs, cu_num)
    weights = table.N.to_numpy(float) * table.K.to_numpy(float)  # one byte a weight
    tokens = table.M.to_numpy(float)
    keep = (tokens >= TOKENS[0]) & (tokens <= TOKENS[1])
    keep &= (weights >= WEIGHT_BYTES[0]) & (weights <= WEIGHT_BYTES[1])
    inputs = table.K.to_numpy(float)[keep]
    return tokens[keep], weights[keep], inputs, table.us.to_numpy(float)[keep] * 1e-6


def shares(configs: Path, cu_num: int, gpu: str, floor: float, per_input: float) -> list[str]:
    """AMD's gemm_shares.csv rows of one card: each grid point's share of the card's fp8 rate,
    read at the nearest measured prefill-sized shape (the module's docstring)."""
    table = timed(configs, cu_num)
    table = table[table.M >= PREFILL_TOKENS]
    card = GPUS[gpu]
    seconds = table.us.to_numpy(float) * 1e-6
    m, n, k = (table[c].to_numpy(float) for c in ("M", "N", "K"))
    stream = n * k / card.achieved_hbm_bytes_per_s  # one byte a weight
    math = np.maximum(seconds - (floor + per_input * k) - stream, 0.1 * seconds)
    share = np.minimum(2.0 * m * n * k / math / card.achieved_fp8_flops, 1.0)
    pairs = np.unique(np.stack([n, k], axis=1), axis=0)
    lines = []
    for tokens in GRID_TOKENS:
        for outputs in WIDTHS:
            for inputs in WIDTHS:
                gap = np.log(pairs / (outputs, inputs))
                near_n, near_k = pairs[np.argmin(np.sum(gap * gap, axis=1))]
                same = (n == near_n) & (k == near_k)
                nearest = np.flatnonzero(same)[np.argmin(np.abs(np.log(m[same] / tokens)))]
                lines.append(f"{FAMILIES[cu_num]},fp8_block,aiter,{tokens},{outputs},{inputs},"
                             f"{share[nearest]:.3f}")  # fmt: skip
    return lines


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    configs = Path(sys.argv[1])
    print(f"{'CUs':>3} {'card':<7} rows floor  per input RMS (floor alone)  bias 1/4/16")
    written = []
    for cu_num, gpu in CARDS:
        tokens, weights, inputs, latency = rows(configs, cu_num)
        bandwidth = GPUS[gpu].achieved_hbm_bytes_per_s
        fitted = fit_floor(tokens, weights, inputs, latency, bandwidth)
        print(f"{cu_num:>3} {gpu:<7} {len(latency):>4} {fitted.floor * 1e6:4.1f}us "
              f"{fitted.per_input * 1e9:4.2f}ns {fitted.error:5.0%} ({fitted.alone_error:4.0%})  "
              + " ".join(f"{b:+.2f}" for b in fitted.bias))  # fmt: skip
        found = shares(configs, cu_num, gpu, fitted.floor, fitted.per_input)
        values = np.array([float(line.rsplit(",", 1)[1]) for line in found])
        print(
            f"    prefill shares of {GPUS[gpu].achieved_fp8_flops / 1e12:.0f} TFLOP/s: median "
            f"{np.median(values):.2f}, range {values.min():.2f}-{values.max():.2f}"
        )
        written += found
    write_shares(written, set(FAMILIES.values()))


if __name__ == "__main__":
    main()
