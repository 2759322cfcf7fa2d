"""How a decode step's dense GEMMs combine their weights' stream with their arithmetic, measured.

Between the floors' fit (1-16 tokens, bench/dense_gemm_fit.py) and the shares' (1,024 tokens on,
bench/gemm_shape_fit.py) the engine level prices a dense GEMM of m tokens as

    t = t0 + c k + s + a,    s = n k b / B,    a = 2 m n k / (sigma F)

its floor and cost per input, then its weights streamed at the card's bandwidth B and its
arithmetic at the card's rate F times the table's share sigma at 1,024 tokens, the two added
(``stream_then_math``). A kernel that pipelines its loads under its multiplies pays less than
the sum: this script reads the same measured tables (NVIDIA aiconfigurator's, the kernels
bench/gemm_shape_fit.py reads, TABLES) at 16-1,024 tokens and 4-300 MB of weights on one card
and compares

    t = t0 + c k + (s^p + a^p)^(1/p)

for p = 1 (the engine level's sum), 1.25, 1.5, 2, 3 and the larger of the two alone. Prints one
line per table: its rows, the RMS log error and mean log(priced / measured) at each p, the best
p; then every table's rows together. The tables are read as a cited source; the lab never
imports aiconfigurator. To rerun (the tables of the commit bench/gemm_shape_fit.py names):

    /tmp/aic/bin/python -m bench.gemm_overlap_fit <aiconfigurator_core/systems/data>

Issue 37's forty-seventh round (aiconfigurator @4fabb773): over the 25 tables' 152,074 rows the
sum reads 21.3 % RMS (mean log +0.07: too slow), p = 1.25 19.7 % (+0.01), p = 1.5 19.8 %, the
larger alone 25.1 %; TensorRT-LLM's bf16 and per-tensor fp8 tables on Hopper read best at 1.5
(20.2 -> 15.3 % and 11.9 -> 8.1 %), its block fp8 on Hopper and fp8 on Blackwell, vLLM's fp8 on
Hopper and SGLang's fp8 and block fp8 on Blackwell at the sum. Scored before any rule was
committed, as an exploration (a decode step's weight stream and arithmetic combined at p = 1.25
where a measured table prices the card, format and engine, the sum elsewhere), it took both
development sets from 14.2 % to 14.5 % (252 -> 249 within) while the check sets gained ten cells
(TensorRT-LLM 1.0's table 13.7 % -> 12.5 %, 140 -> 148 within; the first set's tables 326 ->
328) and the first set went from 10.5 % to 9.1 %: Azure's and AMD's runs of TensorRT-LLM
0.15-0.16's C++ engines (D79, D118) read faster still, the 1.0 page's PyTorch-backend runs of
the same shapes closer. One table prices both runtimes (no table measures the C++ engines'
GEMMs), so no rule read from the tables separates them. Not landed: the engine level keeps the
sum (``stream_then_math`` in :data:`core.engine_level.terms.TERMS`).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import NamedTuple

import numpy as np

TOKENS = (16, 1024)  # between the floors' fit and the shares' first measured token count
POWERS = (1.0, 1.25, 1.5, 2.0, 3.0, np.inf)


class Rows(NamedTuple):
    """One table's decode-to-prefill rows, each column an array: what the engine level prices
    apart from the combination (floor and cost per input), the stream, the arithmetic and the
    measured latency, all in seconds."""

    fixed: np.ndarray
    stream: np.ndarray
    arithmetic: np.ndarray
    latency: np.ndarray


def combined(stream, arithmetic, power: float):
    r"""The stream and the arithmetic of a GEMM combined as a ``power``-norm.

    Notes
    -----
    .. math:: (s^p + a^p)^{1/p}

    :math:`p = 1` adds them (the engine level's ``stream_then_math``), :math:`p \to \infty` takes
    the larger (a kernel that hides one under the other entirely).
    """
    stream, arithmetic = np.asarray(stream, float), np.asarray(arithmetic, float)
    if np.isinf(power):
        return np.maximum(stream, arithmetic)
    return (stream**power + arithmetic**power) ** (1.0 / power)


def errors(rows: Rows, power: float) -> tuple[float, float]:
    """(RMS log error, mean log(priced / measured)) of ``rows`` at ``power``."""
    logs = np.log((rows.fixed + combined(rows.stream, rows.arithmetic, power)) / rows.latency)
    return float(np.sqrt(np.mean(logs**2))), float(np.mean(logs))


def best_power(rows: Rows, powers=POWERS) -> float:
    """The power of ``powers`` that prices ``rows`` closest (RMS log error)."""
    return min(powers, key=lambda power: errors(rows, power)[0])


def table_rows(data: Path, table) -> Rows:
    """:class:`Rows` of one entry of bench/gemm_shape_fit.py's TABLES, priced as the engine level
    prices that engine's kernel below 1,024 tokens."""
    from bench.dense_gemm_fit import BYTES_PER_WEIGHT, WEIGHT_BYTES, rows
    from bench.gemm_shape_fit import RATE_OF
    from core.catalog import GPUS
    from core.catalog.dense_gemms import dense_gemm_cost
    from core.catalog.gemm_tables import gemm_share, gemm_table_index

    family, table_card, card, version, kernel, dtype, name, engine = table
    m, weights, k, latency = rows(data, table_card, version, kernel, dtype, WEIGHT_BYTES, TOKENS)
    n = weights / (k * BYTES_PER_WEIGHT[dtype])
    floor = dense_gemm_cost(card, name, engine or "tensorrt-llm", version.split("/")[1])
    share = gemm_share(gemm_table_index(family, name, engine), np.full_like(m, 1024.0), n, k)
    rate = getattr(GPUS[card], RATE_OF[name])
    return Rows(
        floor.floor_s + floor.per_input_s * k,
        weights / GPUS[card].achieved_hbm_bytes_per_s,
        2.0 * m * n * k / (share * rate),
        latency,
    )


def joined(tables: list[Rows]) -> Rows:
    """Every table's rows as one."""
    return Rows(*(np.concatenate(column) for column in zip(*tables, strict=True)))


def _cells(rows: Rows) -> str:
    return " ".join(f"{'max' if np.isinf(p) else p}: {rms:5.1%} {bias:+.2f}"
                    for p in POWERS for rms, bias in [errors(rows, p)])  # fmt: skip


def main() -> None:
    from bench.gemm_shape_fit import TABLES

    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    every = []
    for table in TABLES:
        rows = table_rows(data, table)
        every.append(rows)
        family, _, _, version, _, _, name, engine = table
        print(f"{family:<9} {name:<9} {engine or 'every':<6} {version:<18} {len(rows.latency):5d} "
              f"rows  {_cells(rows)}  best {best_power(rows)}")  # fmt: skip
    rows = joined(every)
    print(
        f"{'all tables':<45} {len(rows.latency):5d} rows  {_cells(rows)}  best {best_power(rows)}"
    )


if __name__ == "__main__":
    main()
