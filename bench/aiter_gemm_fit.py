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
of weights) takes ``t = t0 + n k / B`` with B the catalog card's measured (or borrowed)
bandwidth; the floor t0 minimises the RMS log error. A card is named by its compute units (304:
MI300X and MI325X, whose rates are used; 256: MI355X). Prints, per card, the rows, the floor,
the RMS log error and the mean log(fitted / measured) at 1, 4 and 16 tokens.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bench.dense_gemm_fit import TOKENS, WEIGHT_BYTES, fit_floor
from core.catalog.cards import GPUS

TABLES = ("a8w8_blockscale_tuned_gemm", "model_configs/a8w8_blockscale_tuned_gemm_ds_v3")
CARDS = ((304, "MI325X"), (256, "MI355X"))


def rows(configs: Path, cu_num: int):
    """(tokens, weight bytes, latency s) of one card's decode-sized block-fp8 GEMMs."""
    import pandas as pd

    table = pd.concat([pd.read_csv(configs / f"{name}.csv") for name in TABLES])
    table = table[(table.cu_num == cu_num) & np.isfinite(table.us) & (table.us > 0)]
    table = table.groupby(["M", "N", "K"], as_index=False).us.min()
    weights = table.N.to_numpy(float) * table.K.to_numpy(float)  # one byte a weight
    tokens = table.M.to_numpy(float)
    keep = (tokens >= TOKENS[0]) & (tokens <= TOKENS[1])
    keep &= (weights >= WEIGHT_BYTES[0]) & (weights <= WEIGHT_BYTES[1])
    return tokens[keep], weights[keep], table.us.to_numpy(float)[keep] * 1e-6


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    configs = Path(sys.argv[1])
    print(f"{'CUs':>3} {'card':<7} rows floor   RMS   bias 1/4/16")
    for cu_num, gpu in CARDS:
        tokens, weights, latency = rows(configs, cu_num)
        bandwidth = GPUS[gpu].achieved_hbm_bytes_per_s
        floor, error, bias = fit_floor(tokens, weights, latency, bandwidth)
        print(f"{cu_num:>3} {gpu:<7} {len(latency):>4} {floor * 1e6:4.1f}us {error:5.0%}  "
              + " ".join(f"{b:+.2f}" for b in bias))  # fmt: skip


if __name__ == "__main__":
    main()
