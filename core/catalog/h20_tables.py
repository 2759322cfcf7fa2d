"""The H20's measured GEMM tables: the card's own rates, where others timed its kernels.

An H20 is a Hopper card whose tensor cores are held to 148 TFLOP/s of bf16 and 296 of fp8 beside
4.0 TB/s, so neither the H100's measured shares of its peak nor a large GEMM's rate can be assumed
for it. Two published tables time its GEMMs:

- :data:`H20_SKINNY_GEMMS`, the H20 column of ROCm/rocm-libraries PR #12329: fp16 GEMMs of one to
  four tokens, and the rate they multiply a 64-row tile at, :func:`skinny_tile_flops` (issue
  37's fifty-seventh round);
- :data:`H20_BLOCK_FP8_GEMMS`, vLLM PR #49932's comment of 2026-08-03: block-scaled fp8 GEMMs
  (128 x 128 weight blocks) in four backends at 16 to 8,192 tokens (issue 37's fifty-eighth
  round): the card's best large-GEMM fp8 rate, :data:`H20_FP8_FLOPS`, and the rate DeepGEMM
  multiplies a few tokens' 64-row tile at, :func:`deepgemm_tile_flops`.
"""

from __future__ import annotations

import numpy as np

# (N outputs, K inputs, µs) of fp16 NN GEMMs at 1-4 tokens; its library and release not printed
H20_SKINNY_GEMMS: tuple[tuple[int, int, float], ...] = (
    (13312, 17792, 354.4), (76032, 13312, 1454.8), (38016, 13312, 730.4), (35584, 13312, 730.3),
    (19968, 13312, 373.0), (19008, 13312, 372.3), (17792, 13312, 346.0), (9984, 13312, 190.1),
    (8896, 13312, 189.9), (4992, 13312, 54.7), (8192, 12288, 150.3), (4096, 11008, 45.4),
    (13312, 8896, 247.7), (76032, 8192, 898.0),
)  # fmt: skip
H20_SKINNY_SOURCE = (
    "ROCm/rocm-libraries PR #12329 (2026-09-18, 'add rocBLAS wvSpltK skinny GEMMs (M=1/2/4) via "
    "GFA'), the table's 'H20 µs' column: fp16 NN GEMMs of 1-4 tokens on an NVIDIA H20, 14 shapes "
    "(N 4,096-76,032, K 8,192-17,792); library and release not printed"
)

FP8_BACKENDS = ("torch", "triton", "cutlass", "deepgemm")
# (N, K) -> {tokens M: µs in each of FP8_BACKENDS}; the comment's fourth shape (N=7168, K=18432)
# is cut from the text this project can read and is left out
H20_BLOCK_FP8_GEMMS: dict[tuple[int, int], dict[int, tuple[float, float, float, float]]] = {
    (24576, 7168): {
        16: (203.91, 119.05, 201.94, 92.87), 64: (203.98, 113.56, 202.98, 91.64),
        1024: (1306.04, 1436.58, 1318.46, 1316.74), 4096: (5112.92, 5684.84, 5198.03, 5241.13),
        8192: (10207.52, 11351.07, 10372.55, 10343.59),
    },
    (32768, 512): {
        16: (37.92, 28.71, 27.28, 25.78), 64: (37.94, 29.67, 27.04, 23.98),
        1024: (137.32, 193.77, 161.02, 150.00), 4096: (508.20, 754.10, 609.36, 548.30),
        8192: (1003.16, 1500.39, 1207.17, 1085.07),
    },
    (7168, 16384): {
        16: (156.04, 82.69, 153.49, 68.86), 64: (156.51, 84.13, 154.10, 67.43),
        1024: (897.15, 971.97, 904.28, 901.21), 4096: (3411.01, 3962.80, 3460.22, 3586.19),
        8192: (6806.97, 8177.95, 6883.79, 6838.42),
    },
}  # fmt: skip
H20_BLOCK_FP8_SOURCE = (
    "vllm-project/vllm PR #49932 ('[Linear] [Kernel] add block-wise scaled_mm', merged), comment "
    "of 2026-08-03: 'block-wise FP8 GEMM backends on H20', µs of torch, Triton, CUTLASS and "
    "DeepGEMM at M = 16, 64, 1,024, 4,096 and 8,192 tokens for N x K = 24,576 x 7,168, 32,768 x "
    "512 and 7,168 x 16,384 (a fourth shape cut from the text read)"
)
# the most tokens the table times: a large GEMM, the rate a card's MAMF-style figure stands for
LARGE_TOKENS = 8192
# the few-token rows, and the rows a Hopper tile multiplies however few tokens (wgmma's m64)
FEW_TOKENS = (16, 64)
HOPPER_TILE_ROWS = 64.0


def _rates(tokens, backend: str, rows=None) -> np.ndarray:
    """FLOP/s of ``backend`` at each of ``tokens`` over the table's shapes, counting ``rows``
    rows (the tokens where None)."""
    column = FP8_BACKENDS.index(backend)
    return np.array([
        2.0 * (m if rows is None else rows) * n * k / (times[m][column] * 1e-6)
        for (n, k), times in H20_BLOCK_FP8_GEMMS.items() for m in tokens
    ])  # fmt: skip


def h20_fp8_flops() -> float:
    r"""The H20's best fp8 rate in a large GEMM: the fastest backend's at :data:`LARGE_TOKENS`
    tokens, over the table's shapes.

    Notes
    -----
    .. math:: F_{fp8} = \max_{(n, k),\,b} \frac{2\, M n k}{t_b(M, n, k)}, \qquad M = 8192
    """
    return float(max(_rates((LARGE_TOKENS,), backend).max() for backend in FP8_BACKENDS))


def deepgemm_tile_flops() -> float:
    r"""The rate DeepGEMM multiplies a few tokens' 64-row tile at on an H20: the median over the
    table's shapes and its 16- and 64-token rows of 64 rows' arithmetic over the time.

    Notes
    -----
    .. math:: F_{tile} = \operatorname{median}_{(n, k),\, M \in \{16, 64\}}
              \frac{2 \cdot 64\, n k}{t_{DeepGEMM}(M, n, k)}
    """
    return float(np.median(_rates(FEW_TOKENS, "deepgemm", HOPPER_TILE_ROWS)))


def skinny_tile_rates(tile_rows: float = HOPPER_TILE_ROWS) -> np.ndarray:
    """FLOP/s each of the H20's few-token fp16 GEMMs (:data:`H20_SKINNY_GEMMS`) reaches counting
    ``tile_rows`` rows, in the table's order."""
    shapes = np.array(H20_SKINNY_GEMMS, dtype=float)
    return 2.0 * tile_rows * shapes[:, 0] * shapes[:, 1] / (shapes[:, 2] * 1e-6)


def skinny_tile_flops(tile_rows: float = HOPPER_TILE_ROWS) -> float:
    r"""The rate the H20's few-token fp16 GEMMs multiply ``tile_rows`` rows at: the median over
    the table's shapes (:func:`skinny_tile_rates`).

    Notes
    -----
    .. math:: F_{tile} = \operatorname{median}_{(n, k, t)} \frac{2\, m_{tile}\, n k}{t}
    """
    return float(np.median(skinny_tile_rates(tile_rows)))


H20_FP8_FLOPS = h20_fp8_flops()
