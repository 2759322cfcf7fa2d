"""Measure, on a GPU, the kernels the engine level prices: GEMMs, attention, experts, steps.

Runs where PyTorch sees a CUDA card (the lab itself never imports torch). Six parts, each a
table of medians over CUDA-graph replays timed with CUDA events, the L2 flushed before each
replay of a lone kernel:

1. ``ceilings``: 8192-cube bf16 and fp8 matrix products (after a warm-up: an idle card's
   clocks ramp up under load) and a 4 GiB device-to-device copy (bytes read plus written).
2. ``gemms``: decode-sized dense GEMMs (1-128 tokens; Llama-3.1-8B's layers and
   Llama-3.1-70B's TP8 slices): bf16 ``F.linear`` and fp8 rowwise ``torch._scaled_mm`` with
   the activation quantised in the step.
3. ``attention``: one layer's decode attention (PyTorch's fused attention, 8 KV heads of 128
   with 4 queries each) against requests and context.
4. ``experts``: one card's share of a mixture's expert layer against tokens, bf16 and fp8
   (:mod:`bench.gpu_experts`), with the router and layout timed apart.
5. ``decode``: whole decode steps of random-weight decoders built from config.json files
   (:mod:`bench.gpu_decode`), replayed as graphs and run eagerly.
6. ``profile``: one eager Llama-3.1-8B step's device time by kind of kernel.

Usage (on the device machine, from the repository's root)::

    PYTHONUNBUFFERED=1 python3 -m bench.gpu_kernels OUT_DIR [--quick] [--cpu] [--only=PARTS]

writes one CSV per part to ``OUT_DIR`` (``--only=gemms,attention`` runs those alone; without
``--only`` the expert layer is first checked against a float32 loop). ``--quick --cpu`` runs a
few small points on the processor, a check of the code paths. ``bench/measured_here.py``
fits the files and prints the catalog's and the engine level's figures beside them.
"""

from __future__ import annotations

import csv
import math
import sys
import time
from functools import partial
from pathlib import Path

import torch
import torch.nn.functional as F

from bench.gpu_decode import decode_rows, profile_rows
from bench.gpu_experts import check, expert_rows, quantise_rows

FLUSH_BYTES = 256 << 20  # written between timed replays so no run starts from a warm L2


class Timer:
    """Median milliseconds of a function's CUDA-graph replays, timed with events."""

    def __init__(self, device, reps=25):
        self.device, self.reps = device, reps
        self.cuda = device.type == "cuda"
        self.flush = torch.empty(FLUSH_BYTES // 4, dtype=torch.int32, device=device)

    def __call__(self, fn, flush=True):
        if not self.cuda:  # a CPU check of the code path: one run, wall clock
            start = time.perf_counter()
            fn()
            return (time.perf_counter() - start) * 1e3
        stream = torch.cuda.Stream()
        stream.wait_stream(torch.cuda.current_stream())
        with torch.cuda.stream(stream):
            for _ in range(3):
                fn()
        torch.cuda.current_stream().wait_stream(stream)
        graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(graph):
            fn()
        graph.replay()
        times = []
        for _ in range(self.reps):
            if flush:
                self.flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            graph.replay()
            end.record()
            times.append((start, end))
        torch.cuda.synchronize()
        elapsed = sorted(s.elapsed_time(e) for s, e in times)
        del graph
        return elapsed[len(elapsed) // 2]


def ceilings(timer, device, quick):
    """Rows of the card's copy bandwidth and bf16/fp8 matmul rates (matmuls first: the clocks
    of an idle card ramp up under load, and a copy timed first reads low)."""
    rows = []
    size = 256 if quick else 8192
    a = torch.randn(size, size, dtype=torch.bfloat16, device=device)
    b = torch.randn(size, size, dtype=torch.bfloat16, device=device)
    for _ in range(1 if quick else 200):  # about a third of a second of work
        a @ b
    ms = timer(lambda: a @ b, flush=False)
    rows.append({"what": "bf16 matmul", "value": 2 * size**3 / ms / 1e9, "unit": "TFLOP/s",
                 "ms": ms})  # fmt: skip
    try:
        a8, b8 = a.to(torch.float8_e4m3fn), b.t().contiguous().to(torch.float8_e4m3fn).t()
        one = torch.ones((), device=device)
        ms = timer(lambda: torch._scaled_mm(a8, b8, one, one, out_dtype=torch.bfloat16),
                   flush=False)  # fmt: skip
        rows.append({"what": "fp8 matmul", "value": 2 * size**3 / ms / 1e9,
                     "unit": "TFLOP/s", "ms": ms})  # fmt: skip
    except Exception as error:
        print(f"fp8 matmul: {type(error).__name__}: {str(error)[:160]}")
    n = (1 << 20) if quick else (1 << 31)  # 4 GiB of bf16 each way on the card
    src = torch.randn(n, dtype=torch.bfloat16, device=device)
    dst = torch.empty_like(src)
    ms = timer(lambda: dst.copy_(src), flush=False)
    rows.append({"what": "copy", "value": 4 * n / ms / 1e9, "unit": "TB/s", "ms": ms})
    return rows


# Dense decode GEMMs: (name, in, out) of Llama-3.1-8B's layers and Llama-3.1-70B's TP8 slices.
GEMM_SHAPES = [
    ("8B qkv", 4096, 6144), ("8B o", 4096, 4096), ("8B gate_up", 4096, 28672),
    ("8B down", 14336, 4096), ("70B/TP8 qkv", 8192, 1280), ("70B/TP8 o", 1024, 8192),
    ("70B/TP8 gate_up", 8192, 7168), ("70B/TP8 down", 3584, 8192),
]  # fmt: skip
GEMM_TOKENS = [1, 2, 4, 8, 16, 32, 64, 128]


def gemm_rows(timer, device, quick):
    """Rows of decode-sized dense GEMMs: bf16 ``F.linear`` and fp8 rowwise ``_scaled_mm``
    (the activation quantised in the step, as an fp8 engine does)."""
    rows = []
    shapes = [("tiny", 256, 512)] if quick else GEMM_SHAPES
    for name, k, n in shapes:
        weight = torch.randn(n, k, dtype=torch.bfloat16, device=device) / math.sqrt(k)
        weight8, weight_scale = quantise_rows(weight)
        for tokens in [1, 16] if quick else GEMM_TOKENS:
            x = torch.randn(tokens, k, dtype=torch.bfloat16, device=device)
            bf16 = timer(partial(F.linear, x, weight))
            try:
                fp8 = timer(partial(_fp8_linear, x, weight8, weight_scale))
            except Exception as error:
                print(f"{name} fp8: {type(error).__name__}: {str(error)[:160]}")
                fp8 = float("nan")
            rows.append({"shape": name, "in": k, "out": n, "tokens": tokens, "bf16_ms": bf16,
                         "fp8_ms": fp8})  # fmt: skip
            print(f"{name:<16} {tokens:>4} tokens  bf16 {bf16 * 1e3:7.1f} us  "
                  f"fp8 {fp8 * 1e3:7.1f} us  ({2 * k * n / 1e6:.0f} MB bf16)")  # fmt: skip
    return rows


def _fp8_linear(x, weight8, weight_scale):
    x8, x_scale = quantise_rows(x)
    return torch._scaled_mm(
        x8, weight8.t(), x_scale.unsqueeze(1), weight_scale.unsqueeze(0),
        out_dtype=torch.bfloat16,
    )  # fmt: skip


ATTENTION_POINTS = [(b, c) for b in (1, 8, 32, 128, 256) for c in (256, 1024, 4096, 16384)
                    if b * c <= 1 << 20]  # fmt: skip


def attention_rows(timer, device, quick):
    """Rows of one layer's decode attention (PyTorch's fused attention, 8 KV heads of 128
    with 4 queries each, Llama-3.1-8B's) against batch and context."""
    rows = []
    kv_heads, group, d = (2, 2, 32) if quick else (8, 4, 128)
    for batch, context in [(1, 64), (4, 64)] if quick else ATTENTION_POINTS:
        q = torch.randn(batch, kv_heads, group, d, dtype=torch.bfloat16, device=device)
        k = torch.randn(batch, kv_heads, context, d, dtype=torch.bfloat16, device=device)
        v = torch.randn_like(k)
        ms = timer(partial(F.scaled_dot_product_attention, q, k, v))
        rows.append({"batch": batch, "context": context, "kv_heads": kv_heads, "group": group,
                     "head_dim": d, "ms": ms, "cache_bytes": 2 * k.numel() * 2})  # fmt: skip
        print(f"attention batch {batch:>4} context {context:>6}  {ms * 1e3:8.1f} us  "
              f"{2 * k.numel() * 2 / ms / 1e9:6.2f} TB/s")  # fmt: skip
    return rows


def write(rows, path):
    if rows:
        with open(path, "w", newline="") as file:
            writer = csv.DictWriter(file, fieldnames=list(rows[0]))
            writer.writeheader()
            writer.writerows(rows)


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    if len(args) != 1:
        raise SystemExit(__doc__)
    out = Path(args[0])
    out.mkdir(parents=True, exist_ok=True)
    quick, cpu = "--quick" in sys.argv, "--cpu" in sys.argv
    device = torch.device("cpu" if cpu else "cuda")
    torch.manual_seed(0)
    if device.type == "cuda":
        print(torch.__version__, torch.cuda.get_device_name(), flush=True)
    timer = Timer(device)
    only = [p.split("=", 1)[1] for p in sys.argv if p.startswith("--only=")]
    if not only:
        check(device)
    parts = [("ceilings", ceilings), ("gemms", gemm_rows), ("attention", attention_rows),
             ("experts", expert_rows), ("decode", decode_rows), ("profile", profile_rows)]  # fmt: skip
    for name, part in parts:
        if only and name not in only[0].split(","):
            continue
        start = time.perf_counter()
        rows = part(timer, device, quick)
        write(rows, out / f"{name}.csv")
        print(f"-- {name}: {len(rows)} rows in {time.perf_counter() - start:.0f} s", flush=True)
        for row in rows if name == "ceilings" else []:
            print(f"   {row['what']}: {row['value']:.1f} {row['unit']}")


if __name__ == "__main__":
    main()
