"""How long the gathers of attention data parallelism take on one NVLink node, measured.

``nccl_gathers.csv`` beside this module is written by ``bench/nccl_table.py`` from NVIDIA
aiconfigurator 0.12's measured NCCL tables (Apache-2.0; see this folder's README): nccl-tests'
all-gather and reduce-scatter under NCCL 2.29.2 on 2, 4 and 8 H100 SXM, H200 and B200 cards,
from 512 B to 512 MiB, each size's out-of-place time. A size is the whole buffer, every card's
share together, as a step of attention data parallelism gathers its tokens.

Between a few MB and a few tens of MB, where a DEP decode step's gathers sit, NCCL reaches a
third to a half of the bus bandwidth its largest messages reach (on 8 x H200, 32 MiB in 123 µs
where 337 GB/s would take 87 µs), so a line of one latency and one bandwidth reads those gathers
fast. :func:`gather_seconds` interpolates the table in the logarithm of the size; past its
largest message the time grows in proportion to the size, and below its smallest it is the
smallest's. A card or card count the tables do not measure has no table (-1): the engine level
prices its gathers on the line (:func:`core.engine_level.terms.gather_scatter_seconds`).
"""

from __future__ import annotations

import functools
from bisect import bisect_right
from pathlib import Path

import numpy as np

_FILE = Path(__file__).resolve().parent / "nccl_gathers.csv"
OPERATIONS = ("all_gather", "reduce_scatter")
NCCL_GATHER_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured NCCL tables, <card>/comm/nccl/2.29.2/"
    "nccl_perf.parquet: nccl-tests all_gather_perf and reduce_scatter_perf in bf16 on 2, 4 and "
    "8 x H100 SXM, H200 and B200, 512 B to 512 MiB (bench/nccl_table.py); TensorRT-LLM's fused "
    "MoE gathers with them under attention data parallelism (fused_moe_cutlass.py allgather and "
    "reducescatter, cpp/tensorrt_llm/thop/allgatherOp.cpp ncclAllGather, reducescatterOp.cpp "
    "ncclReduceScatter)"
)
# The engines whose expert layers gather a DEP step's tokens with NCCL's all-gather and give
# the results back with its reduce-scatter (the source above); others keep the line.
NCCL_GATHER_ENGINES = frozenset({"tensorrt-llm"})


@functools.cache
def _table():
    """({card: its table's index}, the card counts measured, log2 sizes,
    seconds[card, card count, operation, size])."""
    rows = np.genfromtxt(_FILE, delimiter=",", skip_header=1, dtype=str, encoding="ascii")
    names = sorted({card for card, *_ in rows})
    counts = tuple(sorted({int(cards) for _, cards, *_ in rows}))
    sizes = np.unique(rows[:, 3].astype(float))
    seconds = np.zeros((len(names), len(counts), len(OPERATIONS), sizes.size))
    for card, cards, operation, size, time in rows:
        at = int(np.searchsorted(sizes, float(size)))
        where = (names.index(card), counts.index(int(cards)), OPERATIONS.index(operation), at)
        seconds[where] = float(time)
    # a larger buffer never takes less time: nccl-tests' few-kB times differ by a few µs of noise
    seconds = np.maximum.accumulate(seconds, axis=-1)
    seconds.setflags(write=False)
    return {name: index for index, name in enumerate(names)}, counts, np.log2(sizes), seconds


def gather_table_index(gpu: str, engine: str) -> int:
    """The table measured on ``gpu`` cards where ``engine`` gathers with NCCL, else -1."""
    return _table()[0].get(gpu, -1) if engine in NCCL_GATHER_ENGINES else -1


def _count_index(cards):
    """Each card count's place among the measured counts, -1 where it is not measured."""
    counts = _table()[1]
    cards = np.asarray(cards, dtype=float)
    return np.select([cards == count for count in counts], range(len(counts)), -1)


def measured_gathers(table, cards):
    """Whether ``cards`` cards of ``table``'s card were measured (:func:`gather_table_index`)."""
    return (np.asarray(table) >= 0) & (_count_index(cards) >= 0)


def gather_seconds(table, cards, gathered_bytes, scattered_bytes):
    """Seconds of one all-gather of ``gathered_bytes`` and one reduce-scatter of
    ``scattered_bytes`` (each the whole buffer) on ``cards`` cards of ``table``'s card; 0 where
    they were not measured (:func:`measured_gathers`).

    Vectorised over every argument; one node's floats take the same arithmetic in plain floats
    (:func:`gather_seconds_scalar`) and get the same bits.

    Notes
    -----
    Linear in :math:`\\log_2` of the size between the measured sizes :math:`s_i`; past the
    largest, :math:`t(s) = t(s_{max})\\, s / s_{max}`; below the smallest, :math:`t(s_{min})`.
    """
    _, _, grid, seconds = _table()
    measured = measured_gathers(table, cards)
    card = np.where(measured, table, 0).astype(int)
    count = np.where(measured, _count_index(cards), 0).astype(int)
    total = 0.0
    for operation, nbytes in enumerate((gathered_bytes, scattered_bytes)):
        nbytes = np.asarray(nbytes, dtype=float)
        at = np.clip(np.log2(np.maximum(nbytes, 1.0)), grid[0], grid[-1])
        cell = np.clip(np.searchsorted(grid, at, side="right") - 1, 0, grid.size - 2)
        fraction = (at - grid[cell]) / (grid[cell + 1] - grid[cell])
        low = seconds[card, count, operation, cell]
        high = seconds[card, count, operation, cell + 1]
        beyond = nbytes / 2.0 ** grid[-1]
        largest = seconds[card, count, operation, -1] * beyond
        total = total + np.where(beyond > 1.0, largest, low + fraction * (high - low))
    return np.where(measured, total, 0.0)


def gather_seconds_scalar(table: int, cards: float, gathered_bytes: float,
                          scattered_bytes: float) -> float:  # fmt: skip
    """:func:`gather_seconds` of one node, in plain floats (a step's hot path)."""
    _, counts, grid, seconds = _table()
    if table < 0 or cards not in counts:
        return 0.0
    points = _points()
    total = 0.0
    for operation, nbytes in enumerate((gathered_bytes, scattered_bytes)):
        times = seconds[table, counts.index(cards), operation]
        beyond = nbytes / 2.0 ** grid[-1]
        if beyond > 1.0:
            total += float(times[-1]) * beyond
            continue
        at = min(max(float(np.log2(max(nbytes, 1.0))), points[0]), points[-1])
        cell = min(max(bisect_right(points, at) - 1, 0), len(points) - 2)
        fraction = (at - points[cell]) / (points[cell + 1] - points[cell])
        low, high = float(times[cell]), float(times[cell + 1])
        total += low + fraction * (high - low)
    return total


def largest_rate(table, cards, gathered_bytes, scattered_bytes):
    """Seconds a gather of ``gathered_bytes`` and a scatter of ``scattered_bytes`` add to a step
    whose gathers are already paid (tokens riding in it), at the rate of the tables' largest
    messages; 0 where not measured."""
    _, _, grid, seconds = _table()
    measured = measured_gathers(table, cards)
    card = np.where(measured, table, 0).astype(int)
    count = np.where(measured, _count_index(cards), 0).astype(int)
    per_byte = seconds[card, count, :, -1] / 2.0 ** grid[-1]
    rate = per_byte[..., 0] * gathered_bytes + per_byte[..., 1] * scattered_bytes
    return np.where(measured, rate, 0.0)


@functools.cache
def _points() -> list[float]:
    """The grid's log2 sizes as plain floats, for :func:`gather_seconds_scalar`."""
    return _table()[2].tolist()
