"""Fit the prompt-attention kernels of core/catalog/attention_kernels.py to measured tables.

The tables are NVIDIA aiconfigurator's (Apache-2.0): context-attention latencies measured per
card, engine, kernel, formats and shape (requests, prompt tokens, query and key/value heads,
head size). They are read here as a cited source; the lab never imports aiconfigurator. To
rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator pandas pyarrow
    /tmp/aic/bin/python -m bench.prefill_attention_fit \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

The A100's and the H200's rows (issue 37's thirty-fifth round) read the tables of the
repository at a later commit than the 0.12 wheel: ``git clone
https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 4fabb773``, then
pass ``aiconfigurator/aic-core/src/aiconfigurator_core/systems/data``.

One layer's causal attention over ``b`` prompts of ``n`` tokens in ``h`` query heads of size
``d`` is modelled as

    t = t0 + 4 h d b (n^2 / 2 + k n) / (s F)

with F the card's measured bf16 matmul rate: a floor per call, the causal pairs' arithmetic
(4 h d FLOPs a query-key pair) at a share ``s`` of that rate, and ``k`` keys' worth of work
each query token pays beyond its causal keys (the tiles on the diagonal, computed whole, and
the softmax and the output's epilogue a row), which is why a short prompt's attention runs
well below the kernel's best rate. The three are fitted together, minimising the root-mean-
square log error over grouped-query rows (4 or 8 query heads per key/value head, head size
128, no sliding window, prompts of 256 tokens or more). Latent attention (DeepSeek's) prefills
its prompt unabsorbed, each head's keys 192 numbers wide and its values 128, so its rows (the
``context_mla_perf`` tables, the heads a card holds) count ``d`` = 160. Prints one line per
kernel and cache format: the three figures, the RMS log error and the rows fitted.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from bench.attention_fit import KERNELS as DECODE_KERNELS
from bench.attention_fit import unwindowed
from bench.moe_kernel_fit import FLOPS

FLOPS_BF16 = {**{card: rates["bf16"] for card, rates in FLOPS.items()}, "a100_sxm": 271.2e12}
# (card, engine/version, kernel source): each engine's default prompt attention, the releases
# and kernels bench/attention_fit.py reads for decode (on the A100 each engine's earliest
# release measured there: TensorRT-LLM 1.0.0, vLLM 0.14.0, SGLang 0.5.9)
KERNELS = list(DECODE_KERNELS)
# latent attention's prompt kernels (the engines with an attention-only table)
LATENT_KERNELS = [
    ("h100_sxm", "trtllm/1.3.0rc20", "default"),
    ("h100_sxm", "sglang/0.5.14", "flash_attention"),
    ("b200_sxm", "trtllm/1.3.0rc20", "default"),
    ("b200_sxm", "sglang/0.5.14", "trtllm_mla"),
]
# DeepSeek-V3's unabsorbed head, keys 192 numbers wide and values 128: the engine level's own
# count (core.whiteboard.attention.prefill_head_width, which a test holds it to), written out
# so the script runs where only aiconfigurator's tables are installed
LATENT_WIDTH = (192 + 128) / 2
# (cache format, the attention's inputs the engine runs with it): SGLang casts the query to the
# cache's fp8 where the cache is fp8 (its FlashAttention backend); the others keep bf16 inputs
FORMATS = {"bf16": ("bfloat16", "bfloat16"), "fp8": ("bfloat16", "fp8")}
SGLANG_FP8 = ("fp8", "fp8")
FLOORS = np.arange(0.0, 40e-6, 2e-6)
SHARES = np.arange(0.10, 1.31, 0.02)
EXTRA_KEYS = np.arange(0.0, 3001.0, 50.0)
HEAD_SIZES = (64, 128, 256)
# Attention with sinks below Hopper (issue 37, forty-ninth round): vLLM's Triton unified attention
# beside its FlashAttention 2 on the same prompt shapes, timed only at head size 192 and the
# Triton kernel only over an fp8 cache; the L40S (SM89) gives the catalog's figures, the RTX PRO
# 6000 (SM120) checks them. Both cards' shares are of the L40S's datasheet bf16 rate (362 TFLOP/s
# dense): the ratio of two kernels' shares on one card needs no rate of its own.
SINK_CARDS = ("l40s", "rtx_pro_6000_server")
SINK_RATE = 362e12
SINK_KERNELS = (("vllm_flash_attn_fa2", ("bfloat16", "bfloat16")),
                ("vllm_triton_attn", ("bfloat16", "fp8")))  # fmt: skip
SINK_HEAD_SIZE = 192


def rows(data: Path, card, version, kernel, inputs, head_size=128):
    """(FLOPs of the causal pairs, FLOPs of one key a query token, latency s) of one kernel's
    grouped-query rows with ``inputs`` (attention dtype, cache dtype) and ``head_size``."""
    import pandas as pd

    path = data / card / "attention" / version / "context_attention_perf.parquet"
    table = pd.read_parquet(path)
    group = table.num_heads // table.num_key_value_heads
    keep = (table.kernel_source == kernel) & (table.attn_dtype == inputs[0])
    keep &= (table.kv_cache_dtype == inputs[1]) & unwindowed(table)
    keep &= (table.head_dim == head_size) & group.isin([4, 8]) & (table.isl >= 256)
    return _pairs(table[keep], head_size)


def latent_rows(data: Path, card, version, kernel, cache):
    """:func:`rows` of one latent-attention kernel over a cache of ``cache`` (the table's)."""
    import pandas as pd

    table = pd.read_parquet(data / card / "mla" / version / "context_mla_perf.parquet")
    keep = (table.kernel_source == kernel) & (table.kv_cache_dtype == cache)
    return _pairs(table[keep & (table.isl >= 256)], LATENT_WIDTH)


def _pairs(table, width):
    """(FLOPs of the causal pairs, FLOPs of one key a query token, latency s) of ``table``'s
    rows, its heads ``width`` numbers wide."""
    tokens = table.isl.to_numpy(float)
    per_pair = 4.0 * table.num_heads.to_numpy(float) * width * table.batch_size.to_numpy(float)
    return per_pair * tokens**2 / 2.0, per_pair * tokens, table.latency.to_numpy(float) * 1e-3


def fit(pairs, per_key, latency, rate):
    """(floor s, share of ``rate``, extra keys a query token, RMS log error)."""
    work = pairs + EXTRA_KEYS[:, None] * per_key  # (keys, rows)
    predicted = FLOORS[:, None, None, None] + work[None, None] / (SHARES[:, None, None] * rate)
    error = np.sqrt(np.mean(np.log(predicted / latency) ** 2, axis=-1))
    floor, share, keys = np.unravel_index(np.argmin(error), error.shape)
    return FLOORS[floor], SHARES[share], EXTRA_KEYS[keys], float(error.min())


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    print(f"{'card':<9} {'engine':<17} {'kernel':<26} {'cache':<5} floor  share  keys   RMS  rows")
    for card, version, kernel in KERNELS:
        for cache, inputs in FORMATS.items():
            if version.startswith("sglang") and cache == "fp8":
                inputs = SGLANG_FP8
            pairs, per_key, latency = rows(data, card, version, kernel, inputs)
            if len(latency) == 0:
                print(f"{card:<9} {version:<17} {kernel:<26} {cache:<5} no rows")
                continue
            report(card, version, kernel, cache, pairs, per_key, latency)
    for card, version, kernel in LATENT_KERNELS:
        for cache, inputs in FORMATS.items():
            report(card, version, f"{kernel} (MLA)", cache,
                   *latent_rows(data, card, version, kernel, inputs[1]))  # fmt: skip
    print("\nshare at a head size of 64 and 256 over the share at 128 (bf16 cache), and by family")
    ratios: dict[str, list] = {}
    for card, version, kernel in KERNELS:
        tables = {size: rows(data, card, version, kernel, FORMATS["bf16"], size)
                  for size in HEAD_SIZES}  # fmt: skip
        if any(len(table[-1]) == 0 for table in tables.values()):
            print(f"{card:<9} {version:<17} {kernel:<26} no rows at some head size")
            continue
        shares = {size: fit(*table, FLOPS_BF16[card])[1] for size, table in tables.items()}
        ratio = [shares[size] / shares[128] for size in (64, 256)]
        ratios.setdefault(card, []).append(ratio)
        print(f"{card:<9} {version:<17} {kernel:<26} x{ratio[0]:.2f}  x{ratio[1]:.2f}")
    for card, rows_ in ratios.items():
        mean = np.mean(rows_, axis=0)
        print(f"{card:<9} mean of its engines               x{mean[0]:.2f}  x{mean[1]:.2f}")
    sink_ratios(data)


def sink_ratios(data: Path) -> None:
    """Print vLLM's Triton prompt attention (sinks, below Hopper) beside its FlashAttention 2 on
    each of :data:`SINK_CARDS`: both kernels' fitted figures and Triton's share over FA2's."""
    print(f"\nvLLM 0.24 Triton attention over FlashAttention 2, head size {SINK_HEAD_SIZE}")
    for card in SINK_CARDS:
        fits = []
        for kernel, inputs in SINK_KERNELS:
            table = rows(data, card, "vllm/0.24.0", kernel, inputs, SINK_HEAD_SIZE)
            fits.append(fit(*table, SINK_RATE))
            floor, share, keys, error = fits[-1]
            print(f"{card:<19} {kernel:<20} {inputs[1]:<8} {floor * 1e6:3.0f}us {share:5.2f} "
                  f"{keys:5.0f}  {error:4.0%} {len(table[-1]):5d}")  # fmt: skip
        print(f"{card:<19} Triton's share over FlashAttention 2's: {fits[1][1] / fits[0][1]:.3f}")


def report(card, version, kernel, cache, pairs, per_key, latency) -> None:
    """Print one kernel's fitted figures."""
    floor, share, keys, error = fit(pairs, per_key, latency, FLOPS_BF16[card])
    print(f"{card:<9} {version:<17} {kernel:<26} {cache:<5} {floor * 1e6:3.0f}us "
          f"{share:5.2f} {keys:5.0f}  {error:4.0%} {len(latency):5d}")  # fmt: skip


if __name__ == "__main__":
    main()
