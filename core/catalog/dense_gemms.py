"""What a dense layer's GEMM costs beyond its weights at decode size, by card, format and engine.

A decode step multiplies a few tokens by each weight matrix: the GEMM streams the weights, and
before that pays a floor for its launch, the activation's quantisation and the scales its
format applies. In bf16 that floor is about a kernel launch's (core.catalog.KERNEL_FLOOR_S);
an fp8 GEMM first quantises its input and then runs a scaled kernel, so its floor is three to
four times larger, and at a user or two, with tensor parallelism splitting each matrix over
eight cards, those floors are a large share of the step.

Beyond the floor, a GEMM pays a little for each input (its inner dimension, k) it walks
(:class:`GemmFloor`, issue 37's forty-fourth round): with a few tokens the kernel has few output
tiles, each looping over every input, and a quantised format rescales each block of inputs as it
goes. In bf16 that is about a tenth of a nanosecond an input; block-scaled fp8 and fp4 pay
0.4-1.9 ns, so a matrix of 7,168 inputs (DeepSeek-V3's hidden size) costs 3-13 µs more than one
of 512 with the same weights. Fitted with it, the tables of those formats read within 7-25 %
(RMS log error) where a floor alone read them within 21-62 %.

The floors and costs per input are fitted by ``bench/dense_gemm_fit.py`` to NVIDIA
aiconfigurator's measured GEMM tables (1-16 tokens, 4-300 MB of weights on one card, the card's
measured bandwidth for the stream), each engine's default kernel for the format at the earliest
release measured on the card's family, or, where an engine was measured at several releases, by
release (:data:`RELEASE_DENSE_GEMM_FLOORS`: a release line takes the release measured nearest at
or before it). TensorRT-LLM's PyTorch flow is every engine's unless the engine measured its own;
a family without tables of its own (Ampere, Ada, AMD's) borrows the measured family's
engine-neutral floor (:data:`core.catalog.kernels.BORROWED_FAMILY`) except where a table
measured a kernel on it: AMD's AITER tables the engine's own (bench/aiter_gemm_fit.py),
aiconfigurator's A100 tables each engine's bf16 GEMM and TensorRT-LLM's weight-only int4 GEMM,
every engine's there. Hopper's int4 is TensorRT-LLM's weight-only GEMM measured on the H200,
every engine's (no table measures vLLM's or SGLang's Marlin). A format without a table (int4 on
Blackwell, mxfp4 dense layers, fp4 on Hopper) keeps the kernel floor.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

from core.catalog import KERNEL_FLOOR_S
from core.catalog.engine_versions import engine_version, newest_version
from core.catalog.kernels import amd_card, card_family, kernels_engine, priced_row
from core.catalog.release_kernels import amd_tuned_gemm_shapes, tuned_shares


class GemmFloor(NamedTuple):
    """What one kernel's decode-sized GEMM pays beyond its weights' stream: a floor whatever its
    shape, and a cost for each input (its inner dimension, k) the kernel walks."""

    floor_s: float
    per_input_s: float = 0.0


# the kernel floor alone, where no table measured the format (no cost per input)
UNMEASURED = GemmFloor(KERNEL_FLOOR_S)

DENSE_GEMM_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) measured GEMM tables, h100_sxm and b200_sxm "
    "gemm/<engine>/<release>/gemm_perf.parquet: TensorRT-LLM 1.2.0rc5 torch_flow (bf16, fp8, "
    "fp8_block; DeepGEMM for fp8_block on B200; @4fabb773), SGLang 0.5.6.post2 on H100 (the 0.12 "
    "wheel); floors and costs per input fitted together by bench/dense_gemm_fit.py on 1-16 "
    "tokens and 4-300 MB of weights"
)
# By release (issue 37's thirty-sixth round): where aiconfigurator @4fabb773 measured an engine's
# default linear layers at more than one release on a family, a release line takes the table of
# the release measured nearest at or before the line's first release, else the earliest measured
# (the rule of the engine-neutral floors below). vLLM's block-scaled fp8 layer on an H100 pays
# three to four times TensorRT-LLM's floor. The later releases' rows are also the floors
# bench/gemm_shape_fit.py takes off the prompt-GEMM tables it reads at them. (family, format,
# engine, release measured)
RELEASE_DENSE_GEMM_FLOORS: dict[tuple[str, str, str, str], GemmFloor] = {
    ("hopper", "bf16", "tensorrt-llm", "1.2.0rc5"): GemmFloor(3.4e-6, 0.07e-9),
    ("hopper", "fp8", "tensorrt-llm", "1.2.0rc5"): GemmFloor(15.1e-6, 0.06e-9),
    ("hopper", "fp8_block", "tensorrt-llm", "1.2.0rc5"): GemmFloor(3.9e-6, 0.78e-9),
    ("hopper", "bf16", "tensorrt-llm", "1.3.0rc20"): GemmFloor(3.4e-6, 0.08e-9),
    ("hopper", "fp8", "tensorrt-llm", "1.3.0rc20"): GemmFloor(13.0e-6, 0.09e-9),
    ("hopper", "fp8_block", "tensorrt-llm", "1.3.0rc20"): GemmFloor(4.0e-6, 0.74e-9),
    ("hopper", "bf16", "vllm", "0.14.0"): GemmFloor(3.5e-6, 0.09e-9),
    ("hopper", "fp8", "vllm", "0.14.0"): GemmFloor(12.6e-6, 0.30e-9),
    ("hopper", "fp8_block", "vllm", "0.14.0"): GemmFloor(25.4e-6, 1.10e-9),
    ("hopper", "bf16", "vllm", "0.19.0"): GemmFloor(3.7e-6, 0.08e-9),
    ("hopper", "fp8", "vllm", "0.19.0"): GemmFloor(4.9e-6, 0.25e-9),
    ("hopper", "fp8_block", "vllm", "0.19.0"): GemmFloor(11.9e-6, 1.88e-9),
    ("hopper", "bf16", "vllm", "0.24.0"): GemmFloor(3.5e-6, 0.06e-9),
    ("hopper", "fp8", "vllm", "0.24.0"): GemmFloor(5.3e-6, 0.47e-9),
    ("blackwell", "bf16", "tensorrt-llm", "1.2.0rc5"): GemmFloor(3.3e-6, 0.13e-9),
    ("blackwell", "fp8", "tensorrt-llm", "1.2.0rc5"): GemmFloor(15.2e-6, 0.15e-9),
    ("blackwell", "fp8_block", "tensorrt-llm", "1.2.0rc5"): GemmFloor(9.1e-6, 1.06e-9),
    ("blackwell", "nvfp4", "tensorrt-llm", "1.2.0rc5"): GemmFloor(6.2e-6, 1.58e-9),
    ("blackwell", "bf16", "tensorrt-llm", "1.3.0rc20"): GemmFloor(3.2e-6, 0.13e-9),
    ("blackwell", "fp8", "tensorrt-llm", "1.3.0rc20"): GemmFloor(14.9e-6, 0.14e-9),
    ("blackwell", "fp8_block", "tensorrt-llm", "1.3.0rc20"): GemmFloor(4.9e-6, 0.62e-9),
    ("blackwell", "nvfp4", "tensorrt-llm", "1.3.0rc20"): GemmFloor(6.2e-6, 1.58e-9),
    ("blackwell", "bf16", "vllm", "0.19.0"): GemmFloor(3.3e-6, 0.12e-9),
    ("blackwell", "fp8", "vllm", "0.19.0"): GemmFloor(5.9e-6, 0.48e-9),
    ("blackwell", "fp8_block", "vllm", "0.19.0"): GemmFloor(8.8e-6, 1.25e-9),
    ("blackwell", "nvfp4", "vllm", "0.19.0"): GemmFloor(6.4e-6, 0.54e-9),
    ("blackwell", "bf16", "vllm", "0.24.0"): GemmFloor(3.3e-6, 0.12e-9),
    ("blackwell", "fp8", "vllm", "0.24.0"): GemmFloor(5.5e-6, 0.72e-9),
    ("blackwell", "nvfp4", "vllm", "0.24.0"): GemmFloor(6.4e-6, 0.44e-9),
    ("blackwell", "bf16", "sglang", "0.5.9"): GemmFloor(3.3e-6, 0.13e-9),
    ("blackwell", "fp8", "sglang", "0.5.9"): GemmFloor(5.8e-6, 0.60e-9),
    ("blackwell", "nvfp4", "sglang", "0.5.9"): GemmFloor(5.7e-6, 0.66e-9),
    ("blackwell", "bf16", "sglang", "0.5.14"): GemmFloor(3.6e-6, 0.13e-9),
    ("blackwell", "fp8", "sglang", "0.5.14"): GemmFloor(5.6e-6, 0.60e-9),
    # block-fp8 as collected again (BLACKWELL_SGLANG_BLOCK_FP8_SOURCE), every SGLang release's
    # on Blackwell: 0.5.9's table (23.1 µs + 0.82 ns) and 0.5.14's at @4fabb773 (16.5 µs + 0.63
    # ns) timed the load-time packing of the weights' scales inside every call
    ("blackwell", "fp8_block", "sglang", "0.5.14"): GemmFloor(5.7e-6, 0.66e-9),
    ("blackwell", "nvfp4", "sglang", "0.5.14"): GemmFloor(4.5e-6, 0.57e-9),
}
BLACKWELL_SGLANG_BLOCK_FP8_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) commit 1c99f788f (2026-08-13, AIC-1744; the table the "
    "0.12 wheel ships), b200_sxm gemm/sglang/0.5.14/gemm_perf.parquet: every fp8_block row "
    "collected again, 'the prior rows billed load-time UE8M0 weight-scale packing inside every "
    "timed call (~9 us on a ~7 us gemm)'; the timed op is now the input's per-token-group quant "
    "and the DeepGEMM GEMM (collection_meta.yaml). Fitted by bench/dense_gemm_fit.py: 5.7 µs + "
    "0.66 ns an input, 14 % RMS log error (the earlier table 16.5 µs + 0.63 ns, 23 %)"
)
# TensorRT-LLM's earliest release measured on Hopper and Blackwell at aiconfigurator @4fabb773
EARLIEST_TRTLLM = "1.2.0rc5"
# (family, format): TensorRT-LLM's PyTorch flow, every engine's unless it has its own below: on
# Hopper and Blackwell its earliest release measured there (RELEASE_DENSE_GEMM_FLOORS' rows).
DENSE_GEMM_FLOORS: dict[tuple[str, str], GemmFloor] = {
    **{
        (family, kind): floor
        for (family, kind, engine, release), floor in RELEASE_DENSE_GEMM_FLOORS.items()
        if (engine, release) == ("tensorrt-llm", EARLIEST_TRTLLM)
    },
    # Ampere's own (issue 37's thirty-fifth round; AMPERE_DENSE_GEMM_SOURCE): TensorRT-LLM's
    # PyTorch flow in bf16 and its weight-only int4 GEMM (the int4 kernel its A100 table
    # measured; no table measures vLLM's or SGLang's Marlin), every engine's without its own
    ("ampere", "bf16"): GemmFloor(6.4e-6, 0.04e-9),
    ("ampere", "int4"): GemmFloor(13.2e-6, 1.10e-9),
    # Hopper's int4 (the same round): TensorRT-LLM's weight-only int4 GEMM, measured on the H200
    # (1.2.0rc5; its bf16 there reads 3.8 µs + 0.09 ns an input, the H100's 3.4 + 0.07), every
    # engine's on Hopper
    ("hopper", "int4"): GemmFloor(10.7e-6, 0.35e-9),
}
# -- AITER's Triton block-fp8 GEMM on its default tile (issue 37's sixty-fourth round; the releases
# that run it: core.catalog.release_kernels.SGLANG_TRITON_GEMM). The tile is 128 x 128 with no
# split-K, so a decode-sized GEMM (up to 128 tokens) runs one workgroup per 128 outputs, each
# walking all k inputs: DeepSeek's 2,112 x 7,168 attention GEMM 17 workgroups on a 304-CU card,
# a wave too small to stream the weights at the card's rate. Its time is then one workgroup's,
# proportional to k. AITER timed that tile (ROCm/aiter PR #1232, bench_gemm_a8w8_blockscale on an
# MI350X, the default config before tuning: gfx950's default then was gfx942's tile but for its
# cache modifier and kpack) at 2,112 x 7,168: 128.8 µs at 64 tokens, 127.3 µs at 128, 117.5 µs
# at 256 (34 workgroups), flat as one wave is. On gfx942, AITER PR #4309 timed its Triton
# batched bf16 GEMM on the same default tile at 143-148 µs for 32 workgroups of 1 MiB each (M
# 4-256): 7.2 GB/s a workgroup, 17.8 ns for each 128 fp8 inputs, the figure below within 1 %.
TRITON_DEFAULT_TILE_OUTPUTS = 128  # outputs (and tokens) a workgroup of the default tile covers
TRITON_DEFAULT_TILE_SHAPE = (2112, 7168)  # (outputs, inputs) of the GEMM PR #1232 timed
TRITON_DEFAULT_TILE_TIMES_S = {64: 128.799e-6, 128: 127.317e-6}  # {tokens: seconds} at that shape
TRITON_DEFAULT_TILE_INPUT_S = (
    sum(TRITON_DEFAULT_TILE_TIMES_S.values())
    / len(TRITON_DEFAULT_TILE_TIMES_S)
    / TRITON_DEFAULT_TILE_SHAPE[1]
)
"""Seconds each input costs a decode-sized GEMM on AITER's default Triton tile (one workgroup's
walk over k): the mean of PR #1232's decode-sized rows over their 7,168 inputs, 17.9 ns."""
TRITON_DEFAULT_TILE_SOURCE = (
    "ROCm/aiter PR #1232 (2025-10-23): bench_gemm_a8w8_blockscale on an MI350X, default config "
    "(128 x 128 x 128 tile, 4 warps, 2 stages, NUM_KSPLIT 1, as gfx942-GEMM-A8W8_BLOCKSCALE.json) "
    "at N=2112 K=7168: 128.8 µs (64 tokens), 127.3 µs (128); cross-checked on gfx942 by AITER PR "
    "#4309's default-tile batched GEMM (143-148 µs, 7.2 GB/s a workgroup); AITER's CDNA3 floor"
)

# (family, format, engine): the engine's own default kernel, where measured (one release).
ENGINE_DENSE_GEMM_FLOORS: dict[tuple[str, str, str], GemmFloor] = {
    ("hopper", "bf16", "sglang"): GemmFloor(2.3e-6, 0.09e-9),
    ("hopper", "fp8", "sglang"): GemmFloor(4.5e-6, 0.49e-9),
    ("hopper", "fp8_block", "sglang"): GemmFloor(4.3e-6, 0.94e-9),
    # AMD's own, measured on the card's family, for the releases that run AITER
    # (core.catalog.kernels.kernels_engine): SGLang's ROCm images (SGLANG_USE_AITER=1, 0.5) run a
    # block-fp8 linear layer through AITER's gemm_a8w8_blockscale (fp8_utils.py
    # dispatch_w8a8_block_fp8_linear), as ATOM's models do; its input's quantisation is a kernel
    # counted on its own.
    ("cdna3", "fp8_block", "aiter"): GemmFloor(4.4e-6, 0.69e-9),
    ("cdna4", "fp8_block", "aiter"): GemmFloor(2.3e-6, 1.64e-9),
    # AITER's Triton GEMM on its default tile, where a release runs it (its amd_dense_kernels:
    # SGLang 0.5.6-0.5.9 on CDNA3): AITER's floor, and each input a workgroup walks
    ("cdna3", "fp8_block", "aiter-triton"): GemmFloor(4.4e-6, TRITON_DEFAULT_TILE_INPUT_S),
    # Ampere's own, bf16 (issue 37's thirty-fifth round): each engine's default linear layer
    # measured on an A100 SXM, the earliest release measured there; about twice Hopper's floors.
    ("ampere", "bf16", "vllm"): GemmFloor(6.8e-6, 0.06e-9),
    ("ampere", "bf16", "sglang"): GemmFloor(6.4e-6, 0.09e-9),
}
RELEASE_DENSE_GEMM_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) @4fabb773 measured GEMM tables, h100_sxm and b200_sxm "
    "gemm/<engine>/<release>/gemm_perf.parquet, each engine's default kernel for the format: "
    "TensorRT-LLM 1.2.0rc5 and (from the 0.12 wheel) 1.3.0rc20, torch_flow (DeepGEMM for "
    "block fp8 on B200); vLLM 0.14.0 and 0.19.0 (vllm_default) and 0.24.0 (torch linear, CUTLASS "
    "fp8 scaled mm, FlashInfer CuTe-DSL nvfp4); SGLang 0.5.9 (sglang) and 0.5.14 on B200; "
    "floors and costs per input fitted together by bench/dense_gemm_fit.py on 1-16 tokens and "
    "4-300 MB of weights at the card's measured bandwidth (RMS log errors 5-32 %, a floor alone "
    "5-62 %); each release line priced by the release measured nearest at or before it, else "
    "the earliest"
)
AMD_DENSE_GEMM_SOURCE = (
    "ROCm/aiter (MIT) @e4048607 tuned GEMM tables, aiter/configs/a8w8_blockscale_tuned_gemm.csv "
    "and model_configs/a8w8_blockscale_tuned_gemm_ds_v3.csv, the kernel times AITER measured "
    "while tuning; floors and costs per input fitted together by bench/aiter_gemm_fit.py on "
    "1-16 tokens and 4-300 MB of weights at the card's rates: 304 CUs (MI300X and MI325X, at "
    "the MI325X's) 15 rows, 6 % RMS log error (a floor alone 19 %); MI355X 158 rows, 22 % (48 %)"
)


AMPERE_DENSE_GEMM_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) @4fabb773 (2026-07-24) measured GEMM tables, a100_sxm "
    "gemm/<engine>/<release>/gemm_perf.parquet: bf16, TensorRT-LLM 1.0.0 torch_flow, vLLM "
    "0.14.0 vllm_default, SGLang 0.5.9 (13-14 % RMS log error); int4, TensorRT-LLM 1.0.0's "
    "weight-only GEMM plugin (WeightOnlyQuantMatmul, int4_wo; 18 %, a floor alone 33 %); floors "
    "and costs per input fitted together by "
    "bench/dense_gemm_fit.py on 1-16 tokens and 4-300 MB of weights at the A100 80GB's "
    "measured 1,769 GB/s"
)
HOPPER_INT4_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) @4fabb773 measured GEMM table, h200_sxm "
    "gemm/trtllm/1.2.0rc5/gemm_perf.parquet, int4: TensorRT-LLM's weight-only GEMM plugin "
    "(WeightOnlyQuantMatmul, int4_wo); floor and cost per input fitted together by "
    "bench/dense_gemm_fit.py on 1-16 tokens and 4-300 MB of weights at the H200's measured 4.41 "
    "TB/s, 28 % RMS log error (the fit reads 27 % slow at one token, 27 % fast at 16: the kernel "
    "slows with tokens)"
)


def dense_gemm_source(key: tuple) -> str:
    """Where the floor of a row keyed ``key`` was measured: (family, format), (family, format,
    engine) or, one release's, (family, format, engine, release)."""
    family, kind = key[:2]
    if key[2:] == ("aiter-triton",):
        return TRITON_DEFAULT_TILE_SOURCE
    if key == ("blackwell", "fp8_block", "sglang", "0.5.14"):
        return BLACKWELL_SGLANG_BLOCK_FP8_SOURCE
    if len(key) == 4:
        return RELEASE_DENSE_GEMM_SOURCE
    if family == "ampere":
        return AMPERE_DENSE_GEMM_SOURCE
    if (family, kind) == ("hopper", "int4"):
        return HOPPER_INT4_SOURCE
    return AMD_DENSE_GEMM_SOURCE if family.startswith("cdna") else DENSE_GEMM_SOURCE


def dense_gemm_cost(
    gpu: str, weight: str, engine: str = "", version: str | None = None, gemms=None
) -> GemmFloor:
    r"""What a decode-sized dense GEMM of ``weight`` pays on ``gpu`` beyond its weight stream.

    The row :func:`core.catalog.kernels.priced_row` picks (the engine's own floor measured on
    the card's family, else its own on a measured family, else the family's engine-neutral
    one), else the kernel floor alone. ``gemms`` are the (outputs, inputs) of the GEMMs on one
    card the figure prices together (None: a shape the release holds no tile of its own for);
    where the release's AMD dense kernels hold tuned tiles for some of them
    (:func:`core.catalog.release_kernels.amd_tuned_gemm_shapes`), those are priced with the
    tuned rows, the floor by count and the cost per input by the inputs they walk.

    Notes
    -----
    .. math:: t = t_0 + c\,k + \frac{n k b}{B}

    for a GEMM of ``k`` inputs and ``n`` outputs: the row's floor :math:`t_0` and cost per input
    :math:`c`, then its weights streamed at the card's bandwidth.
    """
    floor, _, _ = _priced_floor(gpu, weight, engine, version)
    return _with_tuned_shapes(floor, gpu, weight, engine, version, gemms)


def _with_tuned_shapes(floor, gpu, weight, engine, version, gemms) -> GemmFloor:
    """``floor`` (None: the kernel floor), ``gemms`` of tuned shapes at the tuned rows (above)."""
    floor = UNMEASURED if floor is None else floor
    if not (gemms and amd_dense_kernels(gpu, engine, version)):
        return floor
    shapes = amd_tuned_gemm_shapes(engine, engine_version(engine, version).version)
    counted, walked = tuned_shares(shapes, gemms)
    if not counted:
        return floor
    tuned = _priced_floor(gpu, weight, engine, version, library=False)[0] or UNMEASURED
    if counted == 1.0:
        return tuned
    return GemmFloor(floor.floor_s + counted * (tuned.floor_s - floor.floor_s),
                     floor.per_input_s + walked * (tuned.per_input_s - floor.per_input_s))  # fmt: skip


def _priced_floor(gpu: str, weight: str, engine: str, version: str | None, library: bool = True):
    """(the row that prices a ``weight`` GEMM on ``gpu``, the family that measured it, whose
    table holds it): the release's own rows, else (with ``library``) the rows of the other
    kernels it runs on AMD cards (:func:`amd_dense_kernels`), else
    :func:`core.catalog.kernels.priced_row`'s (an engine's own row, else TensorRT-LLM's
    engine-neutral one); (None, family, "") where no table holds one."""
    released = release_floor(gpu, weight, engine, version)
    if released is not None:
        return released, card_family(gpu), engine
    library = amd_dense_kernels(gpu, engine, version) if library else ""
    own = ENGINE_DENSE_GEMM_FLOORS.get((card_family(gpu), weight, library)) if library else None
    if own is not None:
        return own, card_family(gpu), library
    floor, family = priced_row(
        ENGINE_DENSE_GEMM_FLOORS, DENSE_GEMM_FLOORS, gpu, weight, engine, version
    )
    if floor is None:
        return None, family, ""
    owners = (kernels_engine(gpu, engine, version), engine)
    whose = [
        name for name in owners if ENGINE_DENSE_GEMM_FLOORS.get((family, weight, name)) is floor
    ]
    return floor, family, whose[0] if whose else "tensorrt-llm"


def amd_dense_kernels(gpu: str, engine: str, version: str | None) -> str:
    """The other kernels ``engine``'s release runs its dense GEMMs in on ``gpu`` where it names
    any (its ``amd_dense_kernels``, on AMD cards: ``"aiter-triton"``), else ``""``."""
    if not engine or not amd_card(gpu):
        return ""
    return engine_version(engine, version).amd_dense_kernels


def dense_gemm_floor(gpu: str, weight: str, engine: str = "", version: str | None = None) -> float:
    """:func:`dense_gemm_cost`'s floor: seconds a decode-sized GEMM pays whatever its shape."""
    return dense_gemm_cost(gpu, weight, engine, version).floor_s


def _release(version: str) -> tuple[int, int, int]:
    """A release's first three numbers, a line read as its first release: "0.10" -> (0, 10, 0),
    "0.19-aiter" -> (0, 19, 0), "1.2.0rc5" -> (1, 2, 0)."""
    numbers = [int(re.match(r"\d*", part).group() or 0) for part in version.split(".")]
    return tuple([*numbers, 0, 0, 0][:3])


@functools.cache
def _measured_releases(family: str, weight: str, engine: str) -> tuple:
    """((release numbers, floor), ...) of :data:`RELEASE_DENSE_GEMM_FLOORS` for one family,
    format and engine, oldest first; built once per key (release_floor runs at every evaluation)."""
    return tuple(sorted(
        (_release(release), floor)
        for (row_family, kind, name, release), floor in RELEASE_DENSE_GEMM_FLOORS.items()
        if (row_family, kind, name) == (family, weight, engine)
    ))  # fmt: skip


def release_floor(gpu: str, weight: str, engine: str, version: str | None) -> GemmFloor | None:
    """The floor :data:`RELEASE_DENSE_GEMM_FLOORS` measured for ``engine``'s release or release
    line ``version`` (None: its newest) on ``gpu``'s own family: the release measured nearest at
    or before it, else the earliest; None where no release of it was measured there."""
    measured = _measured_releases(card_family(gpu), weight, engine)
    if not measured:
        return None
    wanted = _release(version or newest_version(engine))
    earlier = [floor for release, floor in measured if release <= wanted]
    return earlier[-1] if earlier else measured[0][1]


# -- The input's quantisation inside a per-tensor fp8 floor (issue 37's forty-sixth round). The
# fp8 tables measured a whole linear layer on a bf16 input: aiconfigurator's collectors call its
# forward (collector/vllm/collect_gemm.py: RowParallelLinear with Fp8Config(activation_scheme=
# "static"), gemm.forward(x)), so a per-tensor fp8 floor holds the kernel that quantises the
# input with its static scale before the scaled GEMM. The same repository timed that kernel alone
# (collector/<engine>/collect_computescale.py, op "scale_matrix": vLLM's scaled_fp8_quant,
# TensorRT-LLM's static quantise op): the median over 1-16 tokens and up to 16,384 inputs, by
# the family whose tables price the card and whose table priced the floor.
STATIC_QUANT_S: dict[tuple[str, str], float] = {
    ("hopper", "vllm"): 2.08e-6,  # h100_sxm quantize/vllm/0.24.0 (1.89-3.32 µs)
    ("blackwell", "vllm"): 2.20e-6,  # b200_sxm quantize/vllm/0.24.0 (1.72-3.36 µs)
    ("hopper", "tensorrt-llm"): 2.75e-6,  # h100_sxm quantize/trtllm/1.2.0rc5 (2.67-3.07 µs)
    ("blackwell", "tensorrt-llm"): 2.53e-6,  # b200_sxm quantize/trtllm/1.2.0rc5 (2.15-2.98 µs)
}
STATIC_QUANT_SOURCE = (
    "NVIDIA aiconfigurator (Apache-2.0) @4fabb773 measured quantisation tables, h100_sxm and "
    "b200_sxm quantize/<engine>/<release>/scale_matrix_perf.parquet (vLLM 0.24.0's "
    "scaled_fp8_quant with a static per-tensor scale, TensorRT-LLM 1.2.0rc5's): the median over "
    "1-16 tokens and up to 16,384 inputs; its GEMM tables time the fp8 linear layer's forward on "
    "a bf16 input (collector/vllm/collect_gemm.py), that kernel included"
)


def static_quant_s(gpu: str, engine: str, version: str | None = None) -> float:
    """Seconds of the per-tensor fp8 floor :func:`dense_gemm_cost` prices on ``gpu`` that its
    input's static quantisation takes, by whose table priced it (:data:`STATIC_QUANT_S`; 0
    where that table's engine had its quantiser timed on no family)."""
    _, family, whose = _priced_floor(gpu, "fp8", engine, version)
    return STATIC_QUANT_S.get((family, whose), 0.0)


class DenseGemmRow(NamedTuple):
    """A decode-sized dense GEMM's floor and cost per input (:func:`dense_gemm_cost`), and what
    of the floor its input's quantiser takes where the release fuses it into the kernel before
    (:func:`static_quant_s`; 0 otherwise)."""

    floor_s: float
    per_input_s: float
    fused_quant_s: float


def dense_gemm_row(
    gpu: str, weight: str, engine: str, version: str | None, gemms=None
) -> DenseGemmRow:
    """:class:`DenseGemmRow` of ``weight`` GEMMs on ``gpu`` under ``engine``'s release, its
    pricing table picked once (``gemms``: as :func:`dense_gemm_cost` reads them)."""
    floor, family, whose = _priced_floor(gpu, weight, engine, version)
    fuses = weight == "fp8" and engine_version(engine, version).fuses_input_quant
    quantiser = STATIC_QUANT_S.get((family, whose), 0.0) if fuses else 0.0
    return DenseGemmRow(*_with_tuned_shapes(floor, gpu, weight, engine, version, gemms), quantiser)
