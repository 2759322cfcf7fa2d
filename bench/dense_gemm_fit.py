"""Fit the dense GEMM floors of core/catalog/kernels.py to measured GEMM kernel tables.

The tables are NVIDIA aiconfigurator's (Apache-2.0): GEMM latencies measured per card, engine,
kernel, weight format and shape (m tokens x n outputs x k inputs). They are read here as a
cited source; the lab never imports aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator
    /tmp/aic/bin/python -m bench.dense_gemm_fit \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

The A100's and the H200's rows (issue 37's thirty-fifth round) and the releases added in the
thirty-sixth (TensorRT-LLM 1.2.0rc5, vLLM 0.14.0 and 0.19.0, SGLang 0.5.9) read the tables of
the repository at a later commit than the 0.12 wheel: ``git clone
https://github.com/ai-dynamo/aiconfigurator && git -C aiconfigurator checkout 4fabb773``, then
pass ``aiconfigurator/aic-core/src/aiconfigurator_core/systems/data``. That checkout gives every
H100 and B200 row as the wheel does but one, SGLang 0.5.14's block-fp8 GEMM on the B200 (16.5 µs
+ 0.63 ns an input, where the wheel's table gives 5.7 µs + 0.66 ns): the checkout's rows, and
0.5.9's block-fp8 rows beside them, timed the load-time packing of the weights' scales inside
every call, and aiconfigurator collected them again after it (commit 1c99f788f, AIC-1744, the
table the 0.12 wheel ships). The catalog holds the wheel's figure for every SGLang release on
Blackwell (issue 37's sixty-fifth round), so that row is read from the wheel's data folder.

A decode step's dense GEMM (1-16 tokens, 4-300 MB of weights on one card) is modelled as

    t = t0 + c k + n k b / B

with B the card's measured bandwidth (core/catalog/cards.py) and b the format's bytes per
weight: the weights streamed, after a floor t0 that holds the launch and the activation's
quantisation, and c for each of the k inputs the kernel walks (issue 37's forty-fourth round: a
skinny GEMM's few output tiles each loop over every input, and a quantised format rescales each
block of them, so its latency grows with k at a fixed weight size; a constant floor alone misfit
the block-scaled and fp4 tables by 21-62 %). Both are fitted together, minimising the
root-mean-square log error over those rows. Prints one line per kernel: the floor, the cost per
input, the RMS log error (and the best constant floor's alone, for comparison), and the same two
errors on the rows of 0.1-4 MB of weights the fit left out (a small model's GEMMs: the
constant floor priced them 1.2-1.9 times too slow in the block-scaled, fp4 and int4 tables).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

from bench.moe_kernel_fit import BANDWIDTH

BYTES_PER_WEIGHT = {"bfloat16": 2.0, "fp8": 1.0, "fp8_block": 1.0, "nvfp4": 4.5 / 8,
                    "int4_wo": 4.25 / 8}  # fmt: skip
_TRT_INT4 = "trt_flow_/weight_only_quant_matmul_L257/PLUGIN_V2_WeightOnlyQuantMatmul_0"
# (card, engine/version, kernel source, table dtype): each engine's default dense kernel per
# format on an H100 and a B200, by release where measured at several (issue 37's thirty-sixth
# round: core/catalog/dense_gemms.py RELEASE_DENSE_GEMM_FLOORS; 1.2.0rc5, vLLM 0.14.0 and 0.19.0
# and SGLang 0.5.9 from aiconfigurator @4fabb773, the rest as the 0.12 wheel ships them), and
# on an A100 and an H200 below.
KERNELS = [
    *(("h100_sxm", f"trtllm/{release}", "torch_flow", dtype)
      for release in ("1.2.0rc5", "1.3.0rc20") for dtype in ("bfloat16", "fp8", "fp8_block")),
    *(("h100_sxm", f"vllm/{release}", "vllm_default", dtype)
      for release in ("0.14.0", "0.19.0") for dtype in ("bfloat16", "fp8", "fp8_block")),
    ("h100_sxm", "vllm/0.24.0", "torch.nn.functional.linear", "bfloat16"),
    ("h100_sxm", "vllm/0.24.0", "CutlassFP8ScaledMMLinearKernel", "fp8"),
    *(("h100_sxm", "sglang/0.5.6.post2", "sglang", dtype)
      for dtype in ("bfloat16", "fp8", "fp8_block")),
    *(("b200_sxm", f"trtllm/{release}", kernel, dtype)
      for release in ("1.2.0rc5", "1.3.0rc20")
      for kernel, dtype in (("torch_flow", "bfloat16"), ("torch_flow", "fp8"),
                            ("deepgemm", "fp8_block"), ("torch_flow", "nvfp4"))),
    *(("b200_sxm", "vllm/0.19.0", "vllm_default", dtype)
      for dtype in ("bfloat16", "fp8", "fp8_block", "nvfp4")),
    ("b200_sxm", "vllm/0.24.0", "torch.nn.functional.linear", "bfloat16"),
    ("b200_sxm", "vllm/0.24.0", "CutlassFP8ScaledMMLinearKernel", "fp8"),
    ("b200_sxm", "vllm/0.24.0", "FlashInferCuteDslNvFp4LinearKernel", "nvfp4"),
    *(("b200_sxm", "sglang/0.5.9", "sglang", dtype)
      for dtype in ("bfloat16", "fp8", "nvfp4")),  # its fp8_block timed the scales' packing
    ("b200_sxm", "sglang/0.5.14", "sglang_torch_linear", "bfloat16"),
    ("b200_sxm", "sglang/0.5.14", "sglang_sgl_kernel_fp8_scaled_mm", "fp8"),
    ("b200_sxm", "sglang/0.5.14", "sglang_deepgemm_gemm_nt_f8f8bf16", "fp8_block"),
    ("b200_sxm", "sglang/0.5.14", "sglang_flashinfer_cutedsl_nvfp4", "nvfp4"),
    # Ampere's own (issue 37's thirty-fifth round; aiconfigurator @4fabb773, 2026-07-24): bf16,
    # the one format all three engines' A100 tables hold, and TensorRT-LLM's weight-only int4
    ("a100_sxm", "trtllm/1.0.0", "torch_flow", "bfloat16"),
    ("a100_sxm", "trtllm/1.0.0", _TRT_INT4, "int4_wo"),
    ("a100_sxm", "vllm/0.14.0", "vllm_default", "bfloat16"),
    ("a100_sxm", "sglang/0.5.9", "sglang", "bfloat16"),
    # Hopper's int4: TensorRT-LLM's weight-only GEMM, measured on the H200 only (1.2.0rc5);
    # its bf16 beside it, a check that the H200's table reads as the H100's
    ("h200_sxm", "trtllm/1.2.0rc5", _TRT_INT4, "int4_wo"),
    ("h200_sxm", "trtllm/1.2.0rc5", "torch_flow", "bfloat16"),
]  # fmt: skip
TOKENS = (1, 16)  # a decode step's tokens on one card
WEIGHT_BYTES = (4e6, 3e8)  # one layer's GEMMs on one card, 7B to 405B, TP 1 to 8
SMALL_WEIGHTS = (1e5, 4e6)  # a small model's GEMMs (0.5B-3B), left out of the fit to check it


class GemmFit(NamedTuple):
    """One kernel's fit: its floor and cost per input, their RMS log error, the best constant
    floor alone and its error, and the mean log(fitted / measured) at 1, 4 and 16 tokens."""

    floor: float
    per_input: float
    error: float
    alone_floor: float
    alone_error: float
    bias: list


def rows(data: Path, card, version, kernel, dtype, weight_bytes=WEIGHT_BYTES, tokens=TOKENS):
    """(tokens, weight bytes, inputs k, latency s) of one kernel's rows of ``tokens`` (the
    decode-sized ones unless told) and ``weight_bytes``."""
    import pandas as pd

    table = pd.read_parquet(data / card / "gemm" / version / "gemm_perf.parquet")
    table = table[(table.kernel_source == kernel) & (table.gemm_dtype == dtype)]
    weights = table.n.to_numpy(float) * table.k.to_numpy(float) * BYTES_PER_WEIGHT[dtype]
    m = table.m.to_numpy(float)
    keep = (m >= tokens[0]) & (m <= tokens[1])
    keep &= (weights >= weight_bytes[0]) & (weights < weight_bytes[1])
    inputs = table.k.to_numpy(float)[keep]
    return m[keep], weights[keep], inputs, table.latency.to_numpy(float)[keep] * 1e-3


def _log_error(floor, per_input, stream, inputs, latency):
    """RMS log error of ``floor + per_input k + stream`` against ``latency``, for each pair of
    ``floor`` and ``per_input`` (arrays of one shape) at once."""
    fitted = np.asarray(floor)[..., None] + np.asarray(per_input)[..., None] * inputs + stream
    return np.sqrt(np.mean(np.log(fitted / latency) ** 2, axis=-1))


def fit_floor(tokens, weights, inputs, latency, bandwidth) -> GemmFit:
    """The :class:`GemmFit` of ``t = t0 + c k + w / B`` over one kernel's rows.

    A grid of 0.2 µs by 0.05 ns, then one of 0.02 µs by 0.005 ns around its best point; the
    catalog keeps the floor to 0.1 µs and the cost per input to 0.01 ns.
    """
    stream = weights / bandwidth
    floors = np.arange(0.0, 40e-6, 0.1e-6)
    alone = _log_error(floors, np.zeros_like(floors), stream, inputs, latency)
    floor, per_input = np.meshgrid(np.arange(0.0, 40e-6, 0.2e-6), np.arange(0.0, 4e-9, 0.05e-9))
    best = np.unravel_index(np.argmin(_log_error(floor, per_input, stream, inputs, latency)),
                            floor.shape)  # fmt: skip
    near = np.meshgrid(
        np.maximum(floor[best] + np.arange(-0.2e-6, 0.21e-6, 0.02e-6), 0.0),
        np.maximum(per_input[best] + np.arange(-0.05e-9, 0.051e-9, 0.005e-9), 0.0),
    )
    errors = _log_error(*near, stream, inputs, latency)
    at = np.unravel_index(np.argmin(errors), errors.shape)
    floor, per_input = round(near[0][at], 7), round(near[1][at], 11)
    bias = np.log((floor + per_input * inputs + stream) / latency)
    return GemmFit(
        floor, per_input, float(_log_error(floor, per_input, stream, inputs, latency)),
        float(floors[np.argmin(alone)]), float(np.min(alone)),
        [float(np.mean(bias[tokens == m])) if np.any(tokens == m) else float("nan")
         for m in (1, 4, 16)],
    )  # fmt: skip


def small_errors(found: GemmFit, weights, inputs, latency, bandwidth) -> tuple[float, float]:
    """RMS log errors on rows the fit left out (:data:`SMALL_WEIGHTS`): the floor and cost per
    input, and the constant floor alone."""
    stream = weights / bandwidth
    both = _log_error(found.floor, found.per_input, stream, inputs, latency)
    return float(both), float(_log_error(found.alone_floor, 0.0, stream, inputs, latency))


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    print(f"{'card':<9} {'engine':<19} {'kernel':<34} {'format':<10} floor  per input RMS "
          "(floor alone); on 0.1-4 MB, left out")  # fmt: skip
    for card, version, kernel, dtype in KERNELS:
        tokens, weights, inputs, latency = rows(data, card, version, kernel, dtype)
        if len(latency) == 0:
            print(f"{card:<9} {version:<19} {kernel[:34]:<34} {dtype:<10} no rows")
            continue
        found = fit_floor(tokens, weights, inputs, latency, BANDWIDTH[card])
        _, small, small_inputs, small_latency = rows(data, card, version, kernel, dtype,
                                                     SMALL_WEIGHTS)  # fmt: skip
        left_out = small_errors(found, small, small_inputs, small_latency, BANDWIDTH[card])
        print(f"{card:<9} {version:<19} {kernel[:34]:<34} {dtype:<10} {found.floor * 1e6:4.1f}us "
              f"{found.per_input * 1e9:4.2f}ns {found.error:5.0%} ({found.alone_error:4.0%}); "
              f"{left_out[0]:4.0%} ({left_out[1]:4.0%})")  # fmt: skip


if __name__ == "__main__":
    main()
