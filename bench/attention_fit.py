"""Fit the decode attention kernels of core/catalog/attention_kernels.py to measured tables.

The tables are NVIDIA aiconfigurator's (Apache-2.0): decode ("generation") attention latencies
measured per card, engine, kernel, cache format and shape (requests, context, query and
key/value heads, head size). They are read here as a cited source; the lab never imports
aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator
    /tmp/aic/bin/python -m bench.attention_fit \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

The A100's and the H200's rows (issue 37's thirty-fifth round) read the tables of the
repository at a later commit than the 0.12 wheel: ``git clone
https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 4fabb773``, then
pass ``aiconfigurator/aic-core/src/aiconfigurator_core/systems/data``.

One layer's decode attention over ``b`` requests is modelled as

    t = t0 + c b + K / B

with K the cache bytes the requests hold (``b`` x context x key/value heads x head size x 2 x
bytes per number) and B the card's measured bandwidth: a floor (launch, the rotary embedding
and the cache write the kernel fuses), a cost for each request (its block tables and its share
of the grid) and the cache streamed. The floor and the per-request cost are fitted together,
minimising the root-mean-square log error over grouped-query rows (4 or 8 query heads per
key/value head, head size 128, no sliding window). Prints one line per kernel: the two
figures, the RMS log error and the bandwidth share a free fit would give (near 1: the cache
streams at the card's measured rate).
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bench.moe_kernel_fit import BANDWIDTH

BYTES_PER_NUMBER = {"bfloat16": 2.0, "fp8": 1.0}
# (card, engine/version, kernel source): each engine's default decode attention, the earliest
# release measured on an H100 or a B200.
KERNELS = [
    ("h100_sxm", "trtllm/1.3.0rc20", "torch_flow"),
    ("h100_sxm", "vllm/0.24.0", "vllm_flash_attn_fa3"),
    ("h100_sxm", "sglang/0.5.14", "fa3"),
    ("b200_sxm", "trtllm/1.3.0rc20", "torch_flow"),
    ("b200_sxm", "vllm/0.22.0", "vllm_flashinfer"),
    ("b200_sxm", "sglang/0.5.14", "trtllm_mha"),
    # Ampere's own (issue 37's thirty-fifth round), bf16 caches: the earliest release of each
    # engine measured on an A100 SXM (aiconfigurator @4fabb773, 2026-07-24)
    ("a100_sxm", "trtllm/1.0.0", "torch_flow"),
    ("a100_sxm", "vllm/0.14.0", "vllm_flash_attn"),
    ("a100_sxm", "sglang/0.5.9", "flash_attention"),
]
FLOORS = np.arange(0.0, 30e-6, 0.5e-6)
PER_REQUEST = np.arange(0.0, 200e-9, 5e-9)


def rows(data: Path, card, version, kernel, cache):
    """(requests, cache bytes, latency s) of one kernel's grouped-query rows."""
    import pandas as pd

    path = data / card / "attention" / version / "generation_attention_perf.parquet"
    table = pd.read_parquet(path)
    group = table.num_heads // table.num_key_value_heads
    keep = (table.kernel_source == kernel) & (table.kv_cache_dtype == cache)
    keep &= unwindowed(table) & (table.head_dim == 128) & group.isin([4, 8])
    table = table[keep]
    requests = table.batch_size.to_numpy(float)
    context = (table.isl + table.step).to_numpy(float)
    heads = table.num_key_value_heads.to_numpy(float)
    cache_bytes = requests * context * heads * 128 * 2 * BYTES_PER_NUMBER[cache]
    return requests, cache_bytes, table.latency.to_numpy(float) * 1e-3


def unwindowed(table):
    """Which of an attention table's rows attend every key (no sliding window); the older
    tables, the A100's among them, have no window column and no windowed rows."""
    return table.window_size == 0 if "window_size" in table else True


def floor_and_per_request(requests, modelled, latency, floors=FLOORS, per_request=PER_REQUEST):
    """(floor s, per-request s, RMS log error): the pair on the grids ``floors`` and
    ``per_request`` whose ``floor + per_request * requests + modelled`` (``modelled`` the rest of
    each row's seconds) has the smallest RMS log error against ``latency``."""
    predicted = floors[:, None, None] + per_request[None, :, None] * requests + modelled
    error = np.sqrt(np.mean(np.log(predicted / latency) ** 2, axis=-1))
    floor, each = np.unravel_index(np.argmin(error), error.shape)
    return floors[floor], per_request[each], float(error.min())


def fit(requests, cache_bytes, latency, card):
    """(floor s, per-request s, RMS log error, free bandwidth share)."""
    stream = cache_bytes / BANDWIDTH[card]
    floor, per_request, error = floor_and_per_request(requests, stream, latency)
    shares = np.arange(0.3, 1.3, 0.05)
    free = [
        np.sqrt(np.mean(np.log((floor + per_request * requests + stream / share) / latency) ** 2))
        for share in shares
    ]
    return floor, per_request, error, shares[np.argmin(free)]


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    print(f"{'card':<9} {'engine':<17} {'kernel':<28} {'cache':<9} floor  per request  RMS  share")
    for card, version, kernel in KERNELS:
        for cache in BYTES_PER_NUMBER:
            requests, cache_bytes, latency = rows(data, card, version, kernel, cache)
            if len(latency) == 0:
                print(f"{card:<9} {version:<17} {kernel:<28} {cache:<9} no rows")
                continue
            floor, per_request, error, share = fit(requests, cache_bytes, latency, card)
            print(f"{card:<9} {version:<17} {kernel:<28} {cache:<9} {floor * 1e6:4.1f}us "
                  f"{per_request * 1e9:5.0f} ns    {error:4.0%}  {share:.2f}")  # fmt: skip


if __name__ == "__main__":
    main()
