"""How long the gathers of attention data parallelism take on one NVLink node, measured.

``nccl_gathers.csv`` beside this module is written by ``bench/nccl_table.py`` from NVIDIA
aiconfigurator 0.12's measured NCCL tables (Apache-2.0; see this folder's README): nccl-tests'
all-gather and reduce-scatter under NCCL 2.29.2 on 2, 4 and 8 H100 SXM, H200 and B200 cards,
from 512 B to 512 MiB, each size's out-of-place time. A size is the whole buffer, every card's
share together, as a step of attention data parallelism gathers its tokens.

Between a few MB and a few tens of MB, where a DEP decode step's gathers sit, NCCL reaches a
third to a half of the bus bandwidth its largest messages reach (on 8 x H200, 32 MiB in 123 µs
where 337 GB/s would take 87 µs), so a line of one latency and one bandwidth reads those gathers
fast. :func:`collective_seconds` reads the table linearly in the size between its sizes (each
twice the last: a collective's time is a latency plus its bytes over a rate, linear in the
bytes, the rate changing from one protocol to the next); past its largest message the time
grows in proportion to the size, and below its smallest it is the smallest's. A card or card count the tables do not measure has no table (-1): the engine level
prices its gathers on the line (:func:`core.engine_level.terms.gather_scatter_seconds`).
"""

from __future__ import annotations

import functools
import math
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
    """({card: its table's index}, the card counts measured, the smallest size's power of two,
    seconds[card, card count, operation, size]) for sizes that double from one to the next."""
    rows = np.genfromtxt(_FILE, delimiter=",", skip_header=1, dtype=str, encoding="ascii")
    names = sorted({card for card, *_ in rows})
    counts = tuple(sorted({int(cards) for _, cards, *_ in rows}))
    sizes = np.unique(rows[:, 3].astype(float))
    first = int(np.log2(sizes[0]))
    if not np.array_equal(sizes, 2.0 ** np.arange(first, first + sizes.size)):
        raise ValueError(f"{_FILE.name}: sizes must double from one to the next, got {sizes}")
    seconds = np.zeros((len(names), len(counts), len(OPERATIONS), sizes.size))
    for card, cards, operation, size, time in rows:
        at = int(np.log2(float(size))) - first
        where = (names.index(card), counts.index(int(cards)), OPERATIONS.index(operation), at)
        seconds[where] = float(time)
    # a larger buffer never takes less time: below 2 MiB nccl-tests' times differ by µs of noise
    seconds = np.maximum.accumulate(seconds, axis=-1)
    seconds.setflags(write=False)
    return {name: index for index, name in enumerate(names)}, counts, first, seconds


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


def collective_seconds(table, cards, operation: str, nbytes):
    """Seconds of one ``operation`` (``"all_gather"`` or ``"reduce_scatter"``) of ``nbytes``
    (the whole buffer) on ``cards`` cards of ``table``'s card; 0 where not measured
    (:func:`measured_gathers`).

    Vectorised over every argument but ``operation``; one node's floats take the same
    arithmetic in plain floats (:func:`read_times` of :func:`node_times`) and get the same
    bits.

    Notes
    -----
    Between measured sizes :math:`2^k \\le s < 2^{k+1}`,
    :math:`t(s) = t_k + (s / 2^k - 1)(t_{k+1} - t_k)`; past the largest,
    :math:`t(s) = t(s_{max})\\, s / s_{max}`; below the smallest, :math:`t(s_{min})`.
    """
    _, _, first, seconds = _table()
    measured = measured_gathers(table, cards)
    card = np.where(measured, table, 0).astype(int)
    count = np.where(measured, _count_index(cards), 0).astype(int)
    times = seconds[:, :, OPERATIONS.index(operation)]
    last = times.shape[-1] - 1
    nbytes = np.asarray(nbytes, dtype=float)
    power = np.frexp(nbytes)[1] - 1  # 2**power <= nbytes < 2**(power + 1), exactly
    cell = np.clip(power - first, 0, last - 1)
    fraction = np.ldexp(nbytes, -power) - 1.0
    low, high = times[card, count, cell], times[card, count, cell + 1]
    within = low + fraction * (high - low)
    largest = times[card, count, last] * (nbytes / 2.0 ** (first + last))
    read = np.where(power >= first + last, largest, np.where(power < first, low, within))
    return np.where(measured, read, 0.0)


@functools.cache
def node_times(table: int, cards: float):
    """One node's measured all-gather and reduce-scatter times by size, and each one's seconds
    a byte at its largest message, as plain floats for :func:`read_times` and a step's riding
    tokens; None where not measured."""
    _, counts, first, seconds = _table()
    if table < 0 or cards not in counts:
        return None
    times = seconds[table, counts.index(cards)]
    largest = 2.0 ** (first + times.shape[-1] - 1)
    return (
        tuple(times[0].tolist()),
        tuple(times[1].tolist()),
        float(times[0, -1] / largest),
        float(times[1, -1] / largest),
    )


def read_times(times: tuple[float, ...], nbytes: float) -> float:
    """:func:`collective_seconds` of one node's :func:`collective_times`, in plain floats (a
    step's hot path)."""
    first, last = _table()[2], len(times) - 1
    power = math.frexp(nbytes)[1] - 1
    if power >= first + last:
        return times[last] * (nbytes / 2.0 ** (first + last))
    if power < first:
        return times[0]
    cell = min(power - first, last - 1)
    low, high = times[cell], times[cell + 1]
    return low + (math.ldexp(nbytes, -power) - 1.0) * (high - low)


def gather_seconds(table, cards, gathered_bytes, scattered_bytes):
    """Seconds of one all-gather of ``gathered_bytes`` and one reduce-scatter of
    ``scattered_bytes`` (:func:`collective_seconds`): a DEP expert layer's exchange."""
    gathered = collective_seconds(table, cards, "all_gather", gathered_bytes)
    return gathered + collective_seconds(table, cards, "reduce_scatter", scattered_bytes)


def largest_rate(table, cards, gathered_bytes, scattered_bytes):
    """Seconds a gather of ``gathered_bytes`` and a scatter of ``scattered_bytes`` add to a step
    whose gathers are already paid (tokens riding in it), at the rate of the tables' largest
    messages; 0 where not measured."""
    _, _, first, seconds = _table()
    measured = measured_gathers(table, cards)
    card = np.where(measured, table, 0).astype(int)
    count = np.where(measured, _count_index(cards), 0).astype(int)
    per_byte = seconds[card, count, :, -1] / 2.0 ** (first + seconds.shape[-1] - 1)
    rate = per_byte[..., 0] * gathered_bytes + per_byte[..., 1] * scattered_bytes
    return np.where(measured, rate, 0.0)
