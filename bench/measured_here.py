"""The kernels and decode steps measured on this project's lent cards, beside the catalog's.

``bench/gpu_kernels.py`` measured them (PyTorch 2.11, CUDA 13): on one H200 SXM on 2026-12-04
and one H100 SXM (80 GB HBM3) on 2026-12-05, each run twice on a fresh machine; the files are
in ``bench/results/<card>-<date>`` and its ``-rerun``. This script fits each kernel with the
equation the catalog's figures were fitted with from aiconfigurator's H100 tables, and prints
the two side by side; the fitted figures are :data:`core.catalog.measured_here.MEASURED_HERE`
(``tests/core/catalog/test_measured_here.py`` refits them). Nothing here is priced: PyTorch's
grouped GEMM, its fused attention and an unfused decode step are not a serving engine's
kernels, so they check the catalog's figures instead of replacing them. Run::

    python bench/measured_here.py ["H200" | "H100 SXM"]
"""

from __future__ import annotations

import csv
import sys
from dataclasses import replace
from pathlib import Path

import numpy as np

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it compares with.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.catalog import GPUS, KERNEL_FLOOR_S
from core.catalog.attention_kernels import attention_kernel
from core.catalog.dense_gemms import dense_gemm_floor
from core.catalog.kernels import expert_kernel
from core.catalog.measured_here import MEASURED_HERE
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

_FOLDER = Path(__file__).with_name("results")
# each card's run, then the same script run again on a fresh machine the same day (the spread)
RUNS_BY_CARD = {
    card: (_FOLDER / name, _FOLDER / f"{name}-rerun")
    for card, name in (("H200", "h200-2026-12-04"), ("H100 SXM", "h100-2026-12-05"))
}
BYTES = {"bf16": 2.0, "fp8": 1.0}
WIDE_BATCH = 32  # requests that, with 8 key/value heads each, fill the card's 132 SMs
BANDS = ((0, 2), (2, 8), (8, 32), (32, 128), (128, 512), (512, 2048), (2048, 1e9))


def card_of(results: Path) -> str:
    """The catalog's name of the card a run's files were measured on (its log's first line)."""
    first = (results / "log.txt").read_text().splitlines()[0]
    return next(card for card in RUNS_BY_CARD if card.split()[0] in first)


def rates(card: str) -> tuple[float, dict[str, float]]:
    """The catalog's achieved bandwidth (bytes/s) and matmul rates (FLOP/s by format)."""
    gpu = GPUS[card]
    return gpu.achieved_hbm_bytes_per_s, {
        "bf16": gpu.achieved_bf16_flops, "fp8": gpu.achieved_fp8_flops
    }  # fmt: skip


def table(results: Path, name: str) -> list[dict]:
    """The rows of one of the run's files, numbers as floats."""
    with open(results / f"{name}.csv") as file:
        return [{key: _number(value) for key, value in row.items()} for row in csv.DictReader(file)]


def _number(text: str):
    try:
        return float(text)
    except ValueError:
        return text


def rms_log(predicted, measured) -> float:
    """Root-mean-square log error of ``predicted`` against ``measured``."""
    return float(np.sqrt(np.mean(np.log(np.asarray(predicted) / np.asarray(measured)) ** 2)))


def fit_dense(rows, fmt, card):
    """(floor s, stream share, RMS log error) of ``t = t0 + n k b / (s B)`` on 1-16 tokens."""
    bandwidth, _ = rates(card)
    rows = [r for r in rows if r["tokens"] <= 16]
    weights = np.array([r["in"] * r["out"] * BYTES[fmt] for r in rows])
    seconds = np.array([r[f"{fmt}_ms"] for r in rows]) * 1e-3
    grid = [(rms_log(t0 + weights / (s * bandwidth), seconds), t0, s)
            for t0 in np.arange(0, 40e-6, 0.2e-6) for s in np.arange(0.5, 1.3, 0.01)]  # fmt: skip
    error, floor, share = min(grid)
    return floor, share, error


def fit_attention(rows, card):
    """(floor s, per-request s, RMS log error) of ``t = t0 + c b + K / B``.

    On the rows of 32 requests or more: PyTorch's fused attention runs one block per request
    and key/value head, without splitting a long cache over blocks, so fewer requests than
    that leave most of the card idle and their cache streams slower than the card can.
    """
    rows = [r for r in rows if r["batch"] >= WIDE_BATCH]
    requests = np.array([r["batch"] for r in rows])
    stream = np.array([r["cache_bytes"] for r in rows]) / rates(card)[0]
    seconds = np.array([r["ms"] for r in rows]) * 1e-3
    grid = [(rms_log(t0 + c * requests + stream, seconds), t0, c)
            for t0 in np.arange(0, 40e-6, 0.25e-6) for c in np.arange(0, 400e-9, 2.5e-9)]  # fmt: skip
    error, floor, per_request = min(grid)
    return floor, per_request, error


def expert_columns(rows, card):
    """(tokens per expert, weight bytes, multiplied FLOPs a row, rows, touched, moved s, s)."""
    get = {key: np.array([r[key] for r in rows]) for key in rows[0] if key not in ("shape",
           "format")}  # fmt: skip
    per_expert = 3 * get["hidden"] * get["width"]
    bytes_per = np.array([BYTES[r["format"]] for r in rows])
    moved = 8.0 * get["routed_rows"] * get["hidden"] / rates(card)[0]
    per_token = get["tokens"] * get["top_k"] / get["experts"]
    return (per_token, get["touched"] * per_expert * bytes_per, 2 * per_expert,
            get["routed_rows"], get["touched"], moved, get["experts_ms"] * 1e-3)  # fmt: skip


def expert_modelled(cols, fmt, floor, bandwidth_share, compute_share, padding, card):
    """The catalog's expert-layer equation (core.engine_level.expert_layers.ExpertLayers.expert_seconds)."""
    _, weights, row_flops, routed, touched, moved, _ = cols
    rows = routed + np.minimum(padding * touched, routed)
    bandwidth, flops = rates(card)
    math = row_flops * rows / (compute_share * flops[fmt])
    return floor + np.maximum(weights / (bandwidth_share * bandwidth), math) + moved


def fit_experts(rows, cols, fmt, card):
    """(floor, bandwidth share, compute share, padding rows, decode error, all-rows error) of
    one format's rows and their :func:`expert_columns`."""
    seconds, routed = cols[6], cols[3]
    decode = (np.array([r["tokens"] for r in rows]) <= 256) & (routed > 0)
    busy = routed > 0

    def error(figures, keep):
        return rms_log(expert_modelled(cols, fmt, *figures, card)[keep], seconds[keep])

    best = min((error((t0, sb, np.inf, 0), decode), t0, sb)
               for t0 in np.arange(0, 150e-6, 2e-6) for sb in np.arange(0.1, 1.3, 0.02))  # fmt: skip
    _, floor, share = best
    compute = min((error((floor, share, sf, pad), busy), sf, pad)
                  for sf in np.arange(0.05, 1.3, 0.025)
                  for pad in (0, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512))  # fmt: skip
    return floor, share, compute[1], compute[2], best[0], compute[0]


def band_bias(cols, fmt, figures, card):
    """Mean log(modelled / measured) per band of tokens per expert (:func:`expert_columns`)."""
    ratio = np.log(expert_modelled(cols, fmt, *figures, card) / cols[6])
    busy = cols[3] > 0
    return [float(np.mean(ratio[busy & (cols[0] >= lo) & (cols[0] < hi)])) for lo, hi in BANDS]


def fitted(results: Path) -> dict[str, tuple]:
    """Every fit of the run's files, once: each kernel kind's figures and errors, keyed as
    ``MEASURED_HERE`` (an expert layer's: the four figures, decode and all-rows errors; the
    others': their figures, then the error)."""
    card = card_of(results)
    gemms, experts = table(results, "gemms"), table(results, "experts")
    found = {}
    for fmt in ("bf16", "fp8"):
        found[f"dense GEMM, {fmt}"] = fit_dense(gemms, fmt, card)
        some = [r for r in experts if r["format"] == fmt]
        found[f"expert layer, {fmt}"] = fit_experts(some, expert_columns(some, card), fmt, card)
    found["decode attention, bf16"] = fit_attention(table(results, "attention"), card)
    found["kernel in a CUDA graph"] = (*graph_kernel_floor(RUNS_BY_CARD[card]), 0.0)
    return found


def fits(found: dict) -> dict[str, tuple[tuple[float, ...], float]]:
    """Each kernel kind's fitted figures and RMS log error (all rows), as ``MEASURED_HERE``
    keeps them, from :func:`fitted`."""
    return {
        name: (figures[:4], figures[5])
        if name.startswith("expert")
        else (figures[:-1], figures[-1])
        for name, figures in found.items()
    }


def graph_kernel_floor(runs) -> tuple[float, float]:
    """(seconds of device time an elementwise kernel of a decode step takes, seconds between
    kernels in a CUDA graph), the medians over the runs of Llama-3.1-8B at one request."""
    device, gaps = [], []
    for run in runs:
        kinds = [r for r in table(run, "profile") if r["batch"] == 1]
        step = next(r for r in table(run, "decode") if r["model"] == "llama-3.1-8b"
                    and r["batch"] == 1 and r["context"] == kinds[0]["context"])  # fmt: skip
        other = next(r for r in kinds if r["category"] == "other")
        device.append(other["device_us"] / other["kernels"] * 1e-6)
        kernels = sum(r["kernels"] for r in kinds)
        busy = sum(r["device_us"] for r in kinds) * 1e-6
        gaps.append((step["graph_ms"] * 1e-3 - busy) / kernels)
    return float(np.median(device)), float(np.median(gaps))


def full_card_stream(runs) -> float:
    """Median bytes/s decode attention streams caches of 2 GB or more at (the card full), over
    every run's rows."""
    rows = [r for run in runs for r in table(run, "attention") if r["cache_bytes"] >= 2e9]
    return float(np.median([r["cache_bytes"] / (r["ms"] * 1e-3) for r in rows]))


def print_ceilings(results, card):
    print(f"{card} ceilings (8192-cube matmuls, a 4 GiB copy counting bytes read and written):")
    _, flops = rates(card)
    catalog = {f"{fmt} matmul": rate / 1e12 for fmt, rate in flops.items()}
    for row in table(results, "ceilings"):
        beside = catalog.get(row["what"])
        note = f"  catalog {beside:.1f}" if beside else "  (a copy writes as much as it reads)"
        print(f"  {row['what']:<12} {row['value']:8.1f} {row['unit']}{note}")


def print_dense(results, found, card):
    rows = table(results, "gemms")
    bandwidth = rates(card)[0] / 1e12
    print(f"\nDense decode GEMMs, t = floor + weights / (share x {bandwidth:.2f} TB/s), "
          "1-16 tokens:")  # fmt: skip
    for fmt, label in (("bf16", "bf16 F.linear"), ("fp8", "fp8 quantise + _scaled_mm")):
        floor, share, error = found[f"dense GEMM, {fmt}"]
        print(f"  {label:<26} floor {floor * 1e6:5.1f} us  share {share:.2f}  ({error:.0%})  "
              f"catalog's TensorRT-LLM floor {dense_gemm_floor(card, fmt, '') * 1e6:.1f} "
              "us")  # fmt: skip
        added, overlapped = stream_then_math(rows, fmt, floor, share, card)
        print(f"  {'':<26} 1-128 tokens: stream and matmul added {added:.0%}, "
              f"overlapped {overlapped:.0%}")  # fmt: skip


def stream_then_math(rows, fmt, floor, share, card):
    """RMS log error of the fitted floor plus the weights' stream and the matmul added (the
    engine level's ``stream_then_math``) and overlapped (their larger), over 1-128 tokens."""
    bandwidth, flops = rates(card)
    seconds = np.array([r[f"{fmt}_ms"] for r in rows]) * 1e-3
    stream = np.array([r["in"] * r["out"] * BYTES[fmt] for r in rows]) / (share * bandwidth)
    math = np.array([2 * r["in"] * r["out"] * r["tokens"] for r in rows]) / flops[fmt]
    return (rms_log(floor + stream + math, seconds),
            rms_log(floor + np.maximum(stream, math), seconds))  # fmt: skip


def print_attention(results, found, card):
    rows = table(results, "attention")
    floor, per_request, error = found["decode attention, bf16"]
    kernel = attention_kernel(card, "bf16", "")
    print("\nDecode attention (PyTorch SDPA, 8 KV heads x 4 queries, head 128), "
          f"t = floor + c b + cache / {rates(card)[0] / 1e12:.2f} TB/s:")  # fmt: skip
    print(f"  {WIDE_BATCH}+ requests: floor {floor * 1e6:.1f} us, {per_request * 1e9:.0f} ns a "
          f"request ({error:.0%}); "
          f"catalog's TensorRT-LLM kernel {kernel.floor_s * 1e6:.1f} us, "
          f"{kernel.per_request_s * 1e9:.0f} ns")  # fmt: skip
    long = [r for r in rows if r["batch"] == 1]
    streams = ", ".join(f"{r['context']:.0f}: {r['cache_bytes'] / r['ms'] / 1e9:.2f}" for r in long)
    print(f"  one request streams its cache at (TB/s by context) {streams}: no split-KV")


def print_experts(results, found, card):
    rows = table(results, "experts")
    print("\nExpert layers (torch._grouped_mm bf16, _scaled_grouped_mm fp8 rowwise), fitted as "
          "the catalog's (RMS log error on decode rows, all rows):")  # fmt: skip
    print("  " + " " * 36 + "bias by tokens per expert " + " ".join(f"{lo:g}+" for lo, _ in BANDS))
    for fmt in ("bf16", "fp8"):
        cols = expert_columns([r for r in rows if r["format"] == fmt], card)
        here = found[f"expert layer, {fmt}"]
        catalog, _ = expert_kernel(card, fmt)
        theirs = (catalog.fixed_s, catalog.bandwidth_share, catalog.compute_share,
                  catalog.padding_rows)  # fmt: skip
        for label, figures in ((f"{fmt} measured here", here[:4]), (f"{fmt} catalog", theirs)):
            floor, sb, sf, pad = figures
            bias = band_bias(cols, fmt, figures, card)
            print(f"  {label:<19} {floor * 1e6:4.0f} us {sb:.2f} {sf:.3f} {pad:4.0f}  "
                  + " ".join(f"{b:+.2f}" for b in bias))  # fmt: skip
        print(f"  {'':<19} errors of the fit: decode {here[4]:.0%}, all rows {here[5]:.0%}")
    routing = [r["routing_ms"] * 1e3 for r in rows]
    print(
        f"  the router and layout alone: {min(routing):.0f}-{max(routing):.0f} us a layer "
        "(unfused PyTorch: GEMM, softmax, top-k, sort, counts)"
    )


def print_decode(results, card):
    rows = table(results, "decode")
    names = {"llama-3.1-8b": ("Llama-3-8B", 1), "llama-3.1-70b": ("Llama-3-70B", 8),
             "qwen3-30b-a3b": ("Qwen3-30B-A3B", 1)}  # fmt: skip
    print("\nDecode steps (CUDA-graph replays of an unfused PyTorch step; the engine level's "
          "step with no host time, no all-reduce):")  # fmt: skip
    # the engine level's node with no host time; one card's slice: the node's step over
    # ``cards`` cards is one card's share of it
    nodes = {
        name: (replace(engine_node(model=model, gpu=card, weight_dtype="bf16",
                                   realism="engine", cards=cards), host_step_s=0.0), cards)
        for name, (model, cards) in names.items()
    }  # fmt: skip
    terms = ALL_TERMS - {"tensor_parallel"}
    for row in rows:
        if row["model"] not in nodes:
            continue
        device, cards = nodes[row["model"]]
        modelled = float(device.step_s(row["batch"], row["context"], terms)) * 1e3
        print(f"  {row['model']:<14} TP{cards} batch {row['batch']:>4.0f} context "
              f"{row['context']:>5.0f}  measured {row['graph_ms']:6.2f} ms  engine level "
              f"{modelled:6.2f} ms  x{modelled / row['graph_ms']:.2f}  (eager "
              f"{row['eager_ms']:.0f} ms)")  # fmt: skip


def main() -> None:
    card = sys.argv[1] if len(sys.argv) > 1 else "H200"
    if card not in RUNS_BY_CARD:
        raise SystemExit(f"card {card!r}: one of {', '.join(RUNS_BY_CARD)}")
    results = RUNS_BY_CARD[card][0]
    found = fitted(results)
    print_ceilings(results, card)
    print_dense(results, found, card)
    print_attention(results, found, card)
    print_experts(results, found, card)
    print_decode(results, card)
    device, gap, _ = found["kernel in a CUDA graph"]
    print(f"\nAn elementwise kernel of a decode step takes {device * 1e6:.1f} us in a CUDA graph, "
          f"{gap * 1e6:.2f} us apart (catalog's kernel floor, a launch: "
          f"{KERNEL_FLOOR_S * 1e6:g} us)")  # fmt: skip
    print(f"Decode attention over caches of 2 GB or more streams at "
          f"{full_card_stream(RUNS_BY_CARD[card]) / 1e12:.2f} TB/s over both runs; the {card}'s "
          f"achieved bandwidth in core/catalog/cards.py: {rates(card)[0] / 1e12:.2f}")  # fmt: skip
    kept = fits(found)
    print("Kept in core.catalog.measured_here (fitted now / kept):")
    for name, kernel in MEASURED_HERE[card].items():
        figures, error = kept[name]
        now = ", ".join(f"{f:.3g}" for f in figures)
        print(f"  {name:<24} {now}  ({error:.0%})  /  "
              + ", ".join(f"{f:.3g}" for f in kernel.figures) + f"  ({kernel.error:.0%})")  # fmt: skip


if __name__ == "__main__":
    main()
