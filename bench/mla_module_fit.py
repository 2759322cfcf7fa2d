"""Fit the latent-attention blocks of core/catalog/attention_kernels.py to measured module tables.

The tables are NVIDIA aiconfigurator 0.12's (Apache-2.0) ``mla_generation_module_perf``: one
decode step of DeepSeek-V3's whole latent-attention block (its fused q_a/kv_a projection, the
two norms, q_b, the rotary embedding and cache write, the absorbed k and v products, the
attention kernel and o_proj), timed inside a CUDA graph per card, engine, cache format,
projection format, query heads on the card, requests and context. They are read here as a
cited source; the lab never imports aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator pandas pyarrow
    /tmp/aic/bin/python -m bench.mla_module_fit \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

One layer's block over ``b`` requests of context ``s`` with ``h`` query heads on the card is
modelled as

    t = t0 + c b + (W(h) + K) / B + F / R

with W the block's weights on the card (q_a and kv_a whole, q_b, the absorbed products in
bf16 and o_proj split by head), K the latent cache the requests hold (576 numbers a token), B
the card's measured bandwidth, F the block's FLOPs (its projections for b tokens and the
absorbed attention over b s cached tokens) and R the card's bf16 matmul rate: a floor (every
kernel's launch and what the graph replays whatever the shape) and a cost per request (rotary,
cache writes, block tables, per-token quantisation). The floor and the per-request cost are
fitted together, minimising the root-mean-square log error over rows of 64 requests or fewer
and 1,024 tokens of context or fewer, every head count from 8 to 128 at once. Prints one line
per (engine, cache, projection format): the two figures and the RMS log error.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bench.attention_fit import floor_and_per_request
from bench.moe_kernel_fit import BANDWIDTH, BYTES_PER_WEIGHT, FLOPS

# DeepSeek-V3's latent attention (config.json): hidden size, q and kv ranks, head sizes
HIDDEN, Q_RANK, KV_RANK, ROPE, NOPE, V_HEAD = 7168, 1536, 512, 64, 128, 128
CACHE_NUMBERS = KV_RANK + ROPE
CACHE_BYTES = {"bfloat16": 2.0, "fp8": 1.0}
# (card, engine/version): the engines measured on an H100 and a B200
MODULES = [
    ("h100_sxm", "vllm/0.24.0"),
    ("h100_sxm", "trtllm/1.3.0rc20"),
    ("b200_sxm", "vllm/0.24.0"),
    ("b200_sxm", "trtllm/1.3.0rc20"),
]
HEADS = (8, 16, 32, 64, 128)
MOST_REQUESTS, LONGEST_CONTEXT = 64, 1024
FLOORS = np.arange(0.0, 200e-6, 0.5e-6)
PER_REQUEST = np.arange(0.0, 2e-6, 10e-9)


def block_weight_bytes(heads, gemm):
    """Bytes of one layer's block on a card holding ``heads`` query heads: q_a with kv_a whole,
    q_b and o_proj split by head in ``gemm``'s format, the absorbed products in bf16."""
    per_weight = BYTES_PER_WEIGHT[gemm]
    shared = HIDDEN * (Q_RANK + KV_RANK + ROPE) * per_weight
    split = heads * (Q_RANK * (NOPE + ROPE) + V_HEAD * HIDDEN) * per_weight
    absorbed = heads * KV_RANK * (NOPE + V_HEAD) * 2.0
    return shared + split + absorbed


def block_flops(heads, requests, context):
    """FLOPs of one layer's block: its projections for each request's token and the absorbed
    attention over every cached token (queries of ``KV_RANK + ROPE``, values of ``KV_RANK``)."""
    projections = HIDDEN * (Q_RANK + KV_RANK + ROPE) + heads * (
        Q_RANK * (NOPE + ROPE) + KV_RANK * (NOPE + V_HEAD) + V_HEAD * HIDDEN
    )
    attention = heads * (CACHE_NUMBERS + KV_RANK) * context
    return 2.0 * requests * (projections + attention)


def rows(data: Path, card, version, cache, gemm):
    """(requests, modelled stream and math s, latency s) of one block's fitted rows."""
    import pandas as pd

    path = data / card / "mla" / version / "mla_generation_module_perf.parquet"
    table = pd.read_parquet(path)
    keep = (table.kv_cache_dtype == cache) & (table.gemm_type == gemm)
    keep &= table.num_heads.isin(HEADS) & (table.batch_size <= MOST_REQUESTS)
    table = table[keep & (table.step <= LONGEST_CONTEXT)]
    requests = table.batch_size.to_numpy(float)
    context = table.step.to_numpy(float)
    heads = table.num_heads.to_numpy(float)
    cache_bytes = requests * context * CACHE_NUMBERS * CACHE_BYTES[cache]
    stream = (block_weight_bytes(heads, gemm) + cache_bytes) / BANDWIDTH[card]
    math = block_flops(heads, requests, context) / FLOPS[card]["bf16"]
    return requests, stream + math, table.latency.to_numpy(float) * 1e-3


def fit(requests, modelled, latency):
    """(floor s, per-request s, RMS log error): bench/attention_fit.py's search on this
    module's grids."""
    return floor_and_per_request(requests, modelled, latency, FLOORS, PER_REQUEST)


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    print(f"{'card':<9} {'engine':<17} {'cache':<9} {'projections':<11} floor  per request  RMS")
    for card, version in MODULES:
        for cache in CACHE_BYTES:
            for gemm in ("bfloat16", "fp8_block", "nvfp4"):
                requests, modelled, latency = rows(data, card, version, cache, gemm)
                if len(latency) == 0:
                    continue
                floor, per_request, error = fit(requests, modelled, latency)
                print(f"{card:<9} {version:<17} {cache:<9} {gemm:<11} {floor * 1e6:5.1f}us "
                      f"{per_request * 1e9:5.0f} ns    {error:4.0%}")  # fmt: skip


if __name__ == "__main__":
    main()
