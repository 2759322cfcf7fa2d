"""Fit the expert-layer kernel figures of core/catalog/kernels.py to measured MoE kernel tables.

The tables are NVIDIA aiconfigurator's (Apache-2.0): grouped-GEMM MoE latencies measured per
card, engine, weight format, model shape, token count and TP x EP split. They are read here as
a cited source of kernel efficiencies; the lab never imports aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator
    /tmp/aic/bin/python bench/moe_kernel_fit.py \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

One layer of the mixture on one card is modelled as

    t = t0 + max(bytes / (s_B * B), 2 (T k + min(h E_T, T k)) p / (s_F * F)) + 8 T k d / B

(a launch-and-routing floor; the touched experts' weights streamed or their rows multiplied,
each of the E_T touched experts costing h rows beyond its tokens, a tile only partly filled,
never more rows than were routed, since kernels pick smaller tiles for fewer tokens;
and the permutation of each routed token copy), with B and F the card's measured bandwidth and
matmul rate. The floor and the bandwidth share are fitted on decode-sized steps (1-256 tokens),
the compute share and the padding rows together on every row (1-16,384 tokens, 1 to thousands
of tokens per expert), each minimising the root-mean-square log error, so that the fitted
latency is the measured rows' geometric mean rather than their median. One compute share for
every token count (fitted on 1,024-8,192 tokens, as before issue 37) left the kernels 20-25 %
fast at 128-512 tokens per expert and 30-90 % slow past 2,048; the padding rows take that
bias to within about 10 % in every band but the largest. Prints one line per kernel: the four
figures, the two RMS log errors and the mean log(fitted / measured) per band of tokens per
expert.

Issue 37's forty-fourth round also fits a cost per input beside the floor, as the dense GEMMs'
(core/catalog/dense_gemms.py): ``t0 + c k`` with ``k`` the inputs a layer's two GEMMs walk
(the hidden size for gate-up, the expert's slice of its width for down). With few shapes in a
table that term could fit the shapes rather than the kernel, so it is kept only where it holds
on shapes the fit did not see: each shape is left out in turn, both models are fitted on the
rest, and the term is kept where the left-out shapes' decode rows read at least a point closer
(RMS log error) with it. Printed after the figures: ``c`` and the two left-out errors.

The routing imbalance is fitted on the same tables' power-law-routed rows (alpha 1.2, the
routing aiconfigurator assumes for a mixture) over their balanced twins at 2,048 tokens and
more, where the busiest card's matmuls set the pace:

    t_power_law / t_balanced = 1 + m0 + kappa * sqrt(2 ln(EP) / (E / EP))

Prints the two figures and the mean error with and without them.

``--release 1.2.0rc5`` fits the TensorRT-LLM kernels again on that release's tables instead,
which aiconfigurator 0.12 does not ship: point the script at a clone of
ai-dynamo/aiconfigurator at 095f58a5, its aic-core/src/aiconfigurator_core/systems/data
folder. The catalog does not price them (issue 37's thirtieth round tried it; its note says why).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import numpy as np

# Measured rates the catalog uses (core/catalog/cards.py): H100 from FlashMLA and MAMF; B200's
# bf16 and fp8 matmul from MAMF, its bandwidth and fp4 at the H100's measured shares of peak;
# the A100 80GB's bandwidth from cuda-stream's read, its bf16 matmul rate as cards.py gives it;
# the H200's bandwidth from its dense GEMM tables.
BANDWIDTH = {"h100_sxm": 3.0e12, "b200_sxm": 8.0e12 * 3.0 / 3.35, "a100_sxm": 1.769e12,
             "h200_sxm": 4.41e12}  # fmt: skip
FLOPS = {
    "a100_sxm": {"bf16": 271.2e12},
    "h100_sxm": {"bf16": 794.5e12, "fp8": 1402.6e12},
    "b200_sxm": {"bf16": 1745.0e12, "fp8": 3432.5e12, "fp4": 9.0e15 * 1402.6 / 1979},
}  # fmt: skip
BYTES_PER_WEIGHT = {"bfloat16": 2, "fp8": 1, "fp8_block": 1, "w4a16_mxfp4": 4.25 / 8,
                    "w4a8_mxfp4_mxfp8": 4.25 / 8, "nvfp4": 4.5 / 8, "int4_wo": 4.25 / 8}  # fmt: skip
# (card, engine/version, kernel source prefix, table dtype, compute path) as the catalog cites.
KERNELS = [
    ("h100_sxm", "trtllm/1.3.0rc10", "moe_torch_flow_cutlass", "bfloat16", "bf16"),
    ("h100_sxm", "trtllm/1.3.0rc10", "moe_torch_flow_cutlass", "fp8", "fp8"),
    ("h100_sxm", "trtllm/1.3.0rc20", "moe_torch_flow_cutlass", "fp8_block", "fp8"),
    ("h100_sxm", "sglang/0.5.10", "sglang_marlin_moe", "int4_wo", "bf16"),
    ("h100_sxm", "vllm/0.24.0", "vllm_gptossmxfp4moe_triton", "w4a16_mxfp4", "bf16"),
    ("b200_sxm", "trtllm/1.3.0rc20", "moe_torch_flow_cutlass", "bfloat16", "bf16"),
    ("b200_sxm", "trtllm/1.3.0rc20", "moe_torch_flow_cutlass", "fp8", "fp8"),
    ("b200_sxm", "trtllm/1.3.0rc20", "deepgemm", "fp8_block", "fp8"),
    ("b200_sxm", "vllm/0.24.0", "vllm_gptossmxfp4moe_flashinfer_trtllm", "w4a16_mxfp4", "bf16"),
    ("b200_sxm", "vllm/0.24.0", "vllm_compressedtensorsw4a4nvfp4moe", "nvfp4", "fp4"),
]
# Engines' own kernels where their default differs from TensorRT-LLM's (core/catalog/kernels.py
# ENGINE_EXPERT_KERNELS): the earliest release of each measured on an H100 or B200. Printed
# beside the others, but left out of the routing-imbalance fit, which stays on the ten above.
ENGINE_KERNELS = [
    ("h100_sxm", "sglang/0.5.10", "sglang_fused_moe_triton", "bfloat16", "bf16"),
    ("h100_sxm", "sglang/0.5.10", "sglang_fused_moe_triton", "fp8_block", "fp8"),
    ("h100_sxm", "vllm/0.24.0", "vllm_unquantizedfusedmoe_triton", "bfloat16", "bf16"),
    ("h100_sxm", "trtllm/1.3.0rc20", "moe_torch_flow", "w4a16_mxfp4", "bf16"),
    ("b200_sxm", "trtllm/1.3.0rc20", "moe_torch_flow", "w4a8_mxfp4_mxfp8", "fp8"),
    ("b200_sxm", "sglang/0.5.14", "sglang_flashinfer_trtllm_moe", "w4a8_mxfp4_mxfp8", "fp8"),
    ("h100_sxm", "vllm/0.24.0", "vllm_fp8moe_triton_tritonexperts", "fp8_block", "fp8"),
    ("b200_sxm", "sglang/0.5.14", "sglang_fused_moe_triton", "bfloat16", "bf16"),
    ("b200_sxm", "vllm/0.19.0", "vllm_fused_moe", "bfloat16", "bf16"),
    ("b200_sxm", "trtllm/1.3.0rc20", "moe_torch_flow_cutlass", "nvfp4", "fp4"),
    ("b200_sxm", "sglang/0.5.14", "sglang_fused_moe_triton", "fp8_block", "fp8"),
    # the Marlin MoE kernel on the A100, which vLLM runs for MXFP4 experts below SM90
    ("a100_sxm", "sglang/0.5.10", "sglang_marlin_moe", "int4_wo", "bf16"),
    # the Triton fused MoE vLLM and SGLang run for bf16 experts on the A100
    A100_TRITON := ("a100_sxm", "sglang/0.5.10", "sglang_fused_moe_triton", "bfloat16", "bf16"),
]
# The kernels of SGLang's tables and vLLM's Triton fused MoE (issue 37's forty-ninth round) are
# fitted on their tables' tensor-parallel rows only (EP 1), the layout the engine level prices
# them in (SGLang runs DeepGEMM, not Triton, under DeepEP's expert parallelism). Their EP rows
# time more work than their share of the routed rows (SGLang's about every routed row, vLLM's
# between): fitted with them, one compute share read the TP rows slow by e^0.3-0.75 at 2,048
# tokens and more. The A100's Triton row is SGLang's (vLLM 0.14's own A100 table, power-law rows
# only, times the same rows at x1.00, printed).
TP_FITTED = {"sglang_fused_moe_triton", "sglang_marlin_moe", "vllm_unquantizedfusedmoe_triton",
             "vllm_fused_moe", "vllm_fp8moe_triton_tritonexperts"}  # fmt: skip
VLLM_TWIN = ("a100_sxm", "vllm/0.14.0", "vllm_fused_moe")
# (hidden, expert width, experts, experts per token) of gpt-oss-120b/20b, Qwen3-235B/30B,
# DeepSeek-V3, Llama 4 Maverick/Scout and Mixtral.
SHAPES = {(2880, 2880, 128, 4), (2880, 2880, 32, 4), (4096, 1536, 128, 8), (2048, 768, 128, 8),
          (7168, 2048, 256, 8), (5120, 8192, 128, 1), (5120, 8192, 16, 1), (4096, 14336, 8, 2)}  # fmt: skip
# Padding rows tried per touched expert (a Hopper or Blackwell grouped-GEMM tile is 64-256 rows).
PADDING_ROWS = (0, 8, 16, 32, 48, 64, 96, 128, 192, 256, 384, 512)
# Bands of tokens per expert (balanced routing) the bias is printed in.
BANDS = ((1, 2), (2, 8), (8, 32), (32, 128), (128, 512), (512, 2048), (2048, 1e9))


def rows(data: Path, card, version, kernel, dtype, distribution="balanced", tp_only=False):
    """The rows of one kernel and routing over the shapes, TP x EP up to 8 (``tp_only``: EP 1)."""
    import pandas as pd

    table = pd.read_parquet(data / card / "moe" / version / "moe_perf.parquet")
    keep = (
        (table.distribution == distribution)
        & (table.moe_tp_size * table.moe_ep_size <= 8)
        & table.kernel_source.str.startswith(kernel)
        & (table.moe_dtype == dtype)
        & ((table.moe_ep_size == 1) | (not tp_only))
    )
    table = table[keep]
    shape = list(
        zip(table.hidden_size, table.inter_size, table.num_experts, table.topk, strict=True)
    )
    return table[[s in SHAPES for s in shape]]


def columns(table, card, dtype):
    """:func:`shape_columns` of one aiconfigurator table's rows on ``card``."""
    return shape_columns(
        table.num_tokens.to_numpy(float),
        table.num_experts.to_numpy(float),
        table.topk.to_numpy(float),
        table.hidden_size.to_numpy(float),
        table.inter_size.to_numpy(float),
        (table.moe_tp_size * table.moe_ep_size).to_numpy(float),
        BYTES_PER_WEIGHT[dtype],
        BANDWIDTH[card],
        table.latency.to_numpy(float) * 1e-3,
    )


def shape_columns(tokens, experts, top, hidden, width, split, bytes_per_weight, bandwidth,
                  latency, routing="balanced"):  # fmt: skip
    """(tokens, top-k, touched experts, weight bytes, FLOPs a routed row, permute s, latency s).

    Per card of the TP x EP ``split`` (1 where the shape is already one card's). aiconfigurator's
    ``balanced`` rows spread the T k routed copies evenly, so they touch ``min(E, T k)`` experts
    (their latency grows in proportion to T until T k = E and is flat after: DeepSeek-V3's 256
    experts, 8 a token, at 1-32 tokens); ``random`` routing (each token's k drawn at random)
    touches ``E (1 - (1 - k/E)^T)`` on average. Until issue 37's twenty-second round every table
    was read as random, which at T k < E counts fewer experts than the balanced rows read.
    """
    if routing == "balanced":
        touched = np.minimum(experts, tokens * top)
    else:
        touched = experts * (1 - (1 - top / experts) ** tokens)
    weights = touched * 3 * hidden * width * bytes_per_weight / split
    row_flops = 2 * 3 * hidden * width / split
    moved = 8.0 * tokens * top * hidden / split / bandwidth
    return tokens, top, touched, weights, row_flops, moved, latency


def modelled(cols, card, compute, floor, bandwidth_share, compute_share, pad):
    """The model's latency of each row on an aiconfigurator ``card`` (:func:`latency_of`)."""
    return latency_of(cols, BANDWIDTH[card], FLOPS[card][compute], floor, bandwidth_share,
                      compute_share, pad)  # fmt: skip


def latency_of(cols, bandwidth, rate, floor, bandwidth_share, compute_share, pad):
    """The module's equation for the rows ``cols`` at a card's ``bandwidth`` and matmul ``rate``."""
    tokens, top, touched, weights, row_flops, moved, _ = cols
    stream = weights / (bandwidth_share * bandwidth)
    # Each touched expert's GEMM costs as if it held ``pad`` more rows than its tokens (a tile
    # only partly filled, the expert's own prologue and epilogue), never more than it routes.
    rows = tokens * top + np.minimum(pad * touched, tokens * top)
    math = row_flops * rows / (compute_share * rate)
    return floor + np.maximum(stream, math) + moved


# the grids the floor and the bandwidth share are searched over
FLOORS = np.arange(0, 100e-6, 2e-6)
BANDWIDTH_SHARES = np.arange(0.1, 1.3, 0.05)


def fit_figures(cols, predict, floors=FLOORS, bandwidth_shares=BANDWIDTH_SHARES):
    """(floor s, bandwidth share, compute share, padding rows, decode error, all-rows error)
    searched over the rows ``cols`` (:func:`columns`' order), ``predict(floor, bandwidth share,
    compute share, pad)`` giving the modelled latency of every row; the floor and the bandwidth
    share are searched over ``floors`` and ``bandwidth_shares``."""
    tokens, latency = cols[0], cols[-1]
    decode = tokens <= 256

    def error(figures, rows):
        predicted = predict(*figures)
        return float(np.sqrt(np.mean(np.log(predicted[rows] / latency[rows]) ** 2)))

    # streaming alone on decode-sized steps: no multiplication (an infinite compute share)
    best = min(
        (error((t0, sb, np.inf, 0), decode), t0, sb) for t0 in floors for sb in bandwidth_shares
    )
    _, floor, bandwidth_share = best
    best_compute = compute_fit(predict, latency, floor, bandwidth_share, tokens > 0)
    return floor, bandwidth_share, best_compute[1], best_compute[2], best[0], best_compute[0]


def compute_fit(predict, latency, floor, bandwidth_share, rows=slice(None)):
    """(RMS log error on ``rows``, compute share, padding rows) searched with the floor and the
    bandwidth share held at the decode fit's: ``predict`` as :func:`fit_figures` takes it."""
    return min(
        (float(np.sqrt(np.mean(np.log(predict(floor, bandwidth_share, sf, pad)[rows]
                                      / latency[rows]) ** 2))), sf, pad)
        for sf in np.arange(0.05, 1.3, 0.025)
        for pad in PADDING_ROWS
    )  # fmt: skip


# the grid a cost per input is searched over, and the least gain on left-out shapes that keeps it
PER_INPUT = np.arange(0.0, 6e-9, 0.25e-9)
KEEP_GAIN = 0.01


def inputs_of(table) -> np.ndarray:
    """The inputs one layer's two GEMMs walk: gate-up the hidden size, down its TP slice."""
    return (table.hidden_size + table.inter_size / table.moe_tp_size).to_numpy(float)


def _decode_fit(cols, bandwidth, inputs, rows, per_inputs, floors=FLOORS,
                bandwidth_shares=BANDWIDTH_SHARES):  # fmt: skip
    """(error, floor, bandwidth share, cost per input) streaming alone on ``rows``."""
    latency = cols[-1][rows]
    stream = cols[3][rows] / bandwidth
    moved = cols[5][rows]
    walked = inputs[rows]
    best = (np.inf, 0.0, 1.0, 0.0)
    for share in bandwidth_shares:
        for per_input in per_inputs:
            base = stream / share + moved + per_input * walked
            errors = np.sqrt(np.mean(np.log((floors[:, None] + base) / latency) ** 2, axis=1))
            at = int(np.argmin(errors))
            if errors[at] < best[0]:
                best = (float(errors[at]), float(floors[at]), float(share), float(per_input))
    return best


def held_out_errors(cols, bandwidth, inputs, shapes) -> tuple[float, float]:
    """Decode rows' RMS log error on each shape (a row of ``shapes``) left out in turn: a floor
    alone, and a floor with a cost per input, each fitted on the other shapes; NaN where a
    table holds one shape (nothing to leave out)."""
    decode = cols[0] <= 256
    found = {0: [], 1: []}
    unique = np.unique(shapes, axis=0)
    if len(unique) < 2:
        return float("nan"), float("nan")
    for one in unique:
        left = np.all(shapes == one, axis=1)
        if not (np.any(decode & left) and np.any(decode & ~left)):
            continue
        for kind, grid in ((0, PER_INPUT[:1]), (1, PER_INPUT)):
            _, floor, share, per_input = _decode_fit(cols, bandwidth, inputs, decode & ~left, grid)
            rows = decode & left
            fitted = (floor + per_input * inputs[rows] + cols[3][rows] / (share * bandwidth)
                      + cols[5][rows])  # fmt: skip
            found[kind].append(np.log(fitted / cols[-1][rows]))
    alone, walked = (float(np.sqrt(np.mean(np.concatenate(found[k]) ** 2))) for k in (0, 1))
    return alone, walked


def fit_with_inputs(cols, bandwidth, inputs, shapes, predict):
    """(floor s, bandwidth share, compute share, padding rows, cost per input s, decode error,
    all-rows error, left-out error alone, left-out error with the cost) of one kernel's rows:
    the cost per input is fitted with the floor and kept where :func:`held_out_errors` says it
    holds; ``predict(floors, bandwidth share, compute share, pad)`` models every row."""
    alone, walked = held_out_errors(cols, bandwidth, inputs, shapes)
    grid = PER_INPUT if walked <= alone - KEEP_GAIN else PER_INPUT[:1]
    decode_error, floor, share, per_input = _decode_fit(cols, bandwidth, inputs,
                                                        cols[0] <= 256, grid)  # fmt: skip
    every, compute_share, pad = compute_fit(predict, cols[-1], floor + per_input * inputs, share)
    return floor, share, compute_share, pad, per_input, decode_error, every, alone, walked


def table_fit(table, card, dtype, compute):
    """:func:`fit_with_inputs` of one aiconfigurator table's rows on ``card``."""
    cols, inputs = columns(table, card, dtype), inputs_of(table)
    shapes = np.array(list(zip(table.hidden_size, table.inter_size, table.num_experts,
                               table.topk, strict=True)), dtype=float)  # fmt: skip
    return fit_with_inputs(cols, BANDWIDTH[card], inputs, shapes,
                           partial(modelled, cols, card, compute))  # fmt: skip


def bias_by_tokens_per_expert(table, card, dtype, compute, figures):
    """Mean log(fitted / measured) in each band of tokens per expert (:data:`BANDS`)."""
    cols = columns(table, card, dtype)
    ratio = np.log(modelled(cols, card, compute, *figures) / cols[-1])
    per_expert = cols[0] * cols[1] / table.num_experts.to_numpy(float)
    return [float(np.mean(ratio[(per_expert >= lo) & (per_expert < hi)])) for lo, hi in BANDS]


def imbalance(data: Path):
    """(m0, kappa, error with, error without) of the routing imbalance over every kernel."""
    import pandas as pd

    key = ["hidden_size", "inter_size", "num_experts", "topk", "moe_tp_size", "moe_ep_size",
           "num_tokens"]  # fmt: skip
    ratios = []
    for card, version, kernel, dtype, _ in KERNELS:
        even = rows(data, card, version, kernel, dtype).groupby(key).latency.min()
        skewed = rows(data, card, version, kernel, dtype, "power_law_1.2")
        skewed = skewed.groupby(key).latency.min()
        both = pd.concat([even.rename("even"), skewed.rename("skewed")], axis=1).dropna()
        ratios.append(both.reset_index())
    table = pd.concat(ratios)
    table = table[table.num_tokens >= 2048]
    ranks = table.moe_ep_size.to_numpy(float)
    spread = np.sqrt(2 * np.log(ranks) * ranks / table.num_experts.to_numpy(float))
    ratio = (table.skewed / table.even).to_numpy(float)
    best = min(
        (float(np.mean(np.abs(np.log((1 + m0 + kappa * spread) / ratio)))), m0, kappa)
        for m0 in np.arange(-0.1, 0.4, 0.01)
        for kappa in np.arange(0.0, 3.0, 0.025)
    )
    return best[1], best[2], best[0], float(np.mean(np.abs(np.log(ratio)))), len(table)


def twin_ratio(data: Path) -> float:
    """vLLM 0.14's A100 fused-MoE latency over SGLang's Triton kernel's on the same power-law TP
    rows (vLLM's own A100 table has no balanced rows): the median ratio."""
    key = ["hidden_size", "inter_size", "num_experts", "topk", "moe_tp_size", "num_tokens"]
    card, version, kernel, dtype, _ = A100_TRITON
    found = [rows(data, card, v, k, dtype, "power_law_1.2", tp_only=True).groupby(key).latency.min()
             for v, k in ((VLLM_TWIN[1], VLLM_TWIN[2]), (version, kernel))]  # fmt: skip
    both = found[0].to_frame("vllm").join(found[1].rename("sglang"), how="inner")
    return float((both.vllm / both.sglang).median())


def release_kernels(release: str) -> list:
    """:data:`KERNELS`' and :data:`ENGINE_KERNELS`' TensorRT-LLM rows as ``release``'s tables
    measured them (``--release 1.2.0rc5``)."""
    return [
        (card, f"trtllm/{release}", kernel, dtype, compute)
        for card, version, kernel, dtype, compute in KERNELS + ENGINE_KERNELS
        if version.startswith("trtllm/")
    ]


def main() -> None:
    args = sys.argv[1:]
    release = ""
    if len(args) == 3 and args[1] == "--release":
        args, release = args[:1], args[2]
    if len(args) != 1:
        raise SystemExit(__doc__)
    data = Path(args[0])
    print(
        f"{'card':<9} {'engine':<17} {'kernel':<32} {'format':<12} floor  s_B   s_F   pad  "
        "decode  all   bias by tokens per expert " + " ".join(f"{lo:g}+" for lo, _ in BANDS)
    )
    listed = release_kernels(release) if release else KERNELS + ENGINE_KERNELS
    for card, version, kernel, dtype, compute in listed:
        table = rows(data, card, version, kernel, dtype, tp_only=kernel in TP_FITTED)
        if table.empty:
            print(f"{card:<9} {version:<17} {kernel[:32]:<32} {dtype:<12} no rows")
            continue
        floor, sb, sf, pad, per_input, decode, every, alone, walked = table_fit(
            table, card, dtype, compute
        )
        floors = floor + per_input * inputs_of(table)
        bias = bias_by_tokens_per_expert(table, card, dtype, compute, (floors, sb, sf, pad))
        print(f"{card:<9} {version:<17} {kernel[:32]:<32} {dtype:<12} {floor * 1e6:4.0f}us "
              f"{sb:.2f} {sf:.3f} {pad:4d}  {decode:5.0%} {every:5.0%}   "
              + " ".join(f"{b:+.2f}" for b in bias)
              + f"   c {per_input * 1e9:.2f}ns, left out {alone:.0%} / {walked:.0%}")  # fmt: skip
    if release:  # the routing imbalance stays fitted on the kernels the catalog cites
        return
    print(f"vLLM 0.14's fused MoE over SGLang's Triton kernel on the A100 (power-law TP rows): "
          f"median x{twin_ratio(data):.2f}")  # fmt: skip
    m0, kappa, error, ignored, count = imbalance(data)
    print(f"routing imbalance over {count} rows: m0 {m0:.2f}, kappa {kappa:.3f}, "
          f"mean error {error:.0%} ({ignored:.0%} if ignored)")  # fmt: skip


if __name__ == "__main__":
    main()
