"""How long a node's collectives take on NVLink, measured: DEP's gathers and TP's all-reduces.

Two files beside this module are written by ``bench/collective_tables.py`` from NVIDIA
aiconfigurator 0.12's measured tables (Apache-2.0; see this folder's README), each a time by
card, card count (2, 4 and 8) and size, for sizes that double from one to the next:

- ``nccl_gathers.csv``: nccl-tests' all-gather and reduce-scatter under NCCL 2.29.2 on H100
  SXM, H200 and B200 cards, 512 B to 512 MiB, a size being the whole buffer, every card's
  share together, as a step of attention data parallelism gathers its tokens. TensorRT-LLM's
  fused MoE gathers with them (:data:`NCCL_GATHER_ENGINES`).
- ``allreduce.csv``: each engine's own all-reduce (TensorRT-LLM's, vLLM's and SGLang's custom
  kernels, replayed in a CUDA graph where the engine captures one) on H100 SXM, H200, B200 and
  A100 SXM cards, 256 B to 1 GiB, a size being each card's whole tensor, as a tensor-parallel
  layer reduces its tokens' hidden states.

Between a few MB and a few tens of MB, where a decode step's collectives sit, they reach a
third to a half of the bus bandwidth their largest messages reach (on 8 x H200, NCCL gathers
32 MiB in 123 µs where 337 GB/s would take 87 µs; TensorRT-LLM's all-reduce of 8 MiB on 8 x
H100 takes 79 µs, where NVLink's 450 GB/s at NCCL's protocol share gives 40), so a line of one
latency and one bandwidth reads them fast. :func:`collective_seconds` reads a table linearly in
the size between its sizes (a collective's time is a latency plus its bytes over a rate, linear
in the bytes, the rate changing from one protocol to the next); past its largest message the
time grows in proportion to the size, and below its smallest it is the smallest's. A card, card
count or engine the tables do not measure has no table (-1): the engine level prices its
collectives on the line (:mod:`core.engine_level.terms`), as it does over PCIe (aiconfigurator's
L40S server all-reduces at a few GB/s of bus bandwidth, a host-staged path, not the PCIe share
the catalog measures).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass
from pathlib import Path

import numpy as np

_FOLDER = Path(__file__).resolve().parent
NCCL_GATHER_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured NCCL tables, <card>/comm/nccl/2.29.2/"
    "nccl_perf.parquet: nccl-tests all_gather_perf and reduce_scatter_perf in bf16 on 2, 4 and "
    "8 x H100 SXM, H200 and B200, 512 B to 512 MiB (bench/collective_tables.py); TensorRT-LLM's "
    "fused MoE gathers with them under attention data parallelism (fused_moe_cutlass.py "
    "allgather and reducescatter, cpp/tensorrt_llm/thop/allgatherOp.cpp ncclAllGather, "
    "reducescatterOp.cpp ncclReduceScatter)"
)
ALLREDUCE_SOURCE = (
    "NVIDIA aiconfigurator 0.12 (Apache-2.0) measured all-reduce tables, <card>/comm/<engine>/"
    "<release>/custom_allreduce_perf.parquet: TensorRT-LLM 1.2.0rc5 (A100: 1.0.0), vLLM 0.14.0 "
    "(B200: 0.19.0) vLLM_custom_graph and SGLang 0.5.9 SGLang_CustomAllReduce_graph, bf16, on "
    "2, 4 and 8 x H100 SXM, H200, B200 and A100 SXM, 256 B to 1 GiB (bench/collective_tables.py)"
)
# The engines whose expert layers gather a DEP step's tokens with NCCL's all-gather and give
# the results back with its reduce-scatter (the source above); others keep the line.
NCCL_GATHER_ENGINES = frozenset({"tensorrt-llm"})


@dataclass(frozen=True)
class _Tables:
    """One file's times: ``times[key, card count, operation, size]`` for sizes that double from
    ``2**smallest_power`` bytes."""

    keys: dict
    counts: tuple
    operations: tuple
    smallest_power: int
    times: np.ndarray

    @property
    def largest_bytes(self) -> float:
        """The largest size measured, in bytes."""
        return 2.0 ** (self.smallest_power + self.times.shape[-1] - 1)


@functools.cache
def _load(name: str) -> _Tables:
    """The file ``name``: its key columns (card, and engine where it has one) before ``cards``."""
    rows = np.genfromtxt(_FOLDER / name, delimiter=",", names=True, dtype=None, encoding="ascii")
    fields = rows.dtype.names
    key_fields = fields[: fields.index("cards")]
    keys = sorted({tuple(str(row[f]) for f in key_fields) for row in rows})
    counts = tuple(sorted({int(count) for count in rows["cards"]}))
    operations = tuple(sorted({str(op) for op in rows["operation"]})) if "operation" in fields \
        else ("",)  # fmt: skip
    sizes = np.unique(rows["bytes"].astype(float))
    first = int(np.log2(sizes[0]))
    if not np.array_equal(sizes, 2.0 ** np.arange(first, first + sizes.size)):
        raise ValueError(f"{name}: sizes must double from one to the next, got {sizes}")
    seconds = np.zeros((len(keys), len(counts), len(operations), sizes.size))
    for row in rows:
        key = keys.index(tuple(str(row[f]) for f in key_fields))
        operation = operations.index(str(row["operation"])) if "operation" in fields else 0
        size = int(np.log2(float(row["bytes"]))) - first
        seconds[key, counts.index(int(row["cards"])), operation, size] = float(row["seconds"])
    # a larger buffer never takes less time: below a few MiB the measured times differ by µs of
    # noise, and an engine may switch to a faster algorithm a size up (up to 10 %)
    seconds = np.maximum.accumulate(seconds, axis=-1)
    seconds.setflags(write=False)
    index = {key if len(key) > 1 else key[0]: at for at, key in enumerate(keys)}
    return _Tables(index, counts, operations, first, seconds)


def _gathers() -> _Tables:
    return _load("nccl_gathers.csv")


def _allreduces() -> _Tables:
    return _load("allreduce.csv")


def gather_table_index(gpu: str, engine: str) -> int:
    """The gather table measured on ``gpu`` cards where ``engine`` gathers with NCCL, else -1."""
    return _gathers().keys.get(gpu, -1) if engine in NCCL_GATHER_ENGINES else -1


def allreduce_table_index(gpu: str, engine: str) -> int:
    """The table of ``engine``'s own all-reduce measured on ``gpu`` cards, else -1."""
    return _allreduces().keys.get((gpu, engine), -1)


def _count_index(tables: _Tables, cards):
    """Each card count's place among the measured counts, -1 where it is not measured."""
    counts = np.asarray(tables.counts, dtype=float)
    cards = np.asarray(cards, dtype=float)
    place = np.minimum(np.searchsorted(counts, cards), counts.size - 1)
    return np.where(counts[place] == cards, place, -1)


@dataclass(frozen=True)
class Reader:
    """One node's (or one sweep's) place in a file's tables, found once and read at any size."""

    tables: _Tables
    measured: object  # bool array: where the tables hold the node
    key: object  # int arrays: its table, its card count's place
    count: object

    def seconds(self, operation: int, nbytes):
        """One operation's seconds at ``nbytes``; 0 where not measured.

        Notes
        -----
        Between measured sizes :math:`2^k \\le s < 2^{k+1}`,
        :math:`t(s) = t_k + (s / 2^k - 1)(t_{k+1} - t_k)`; past the largest,
        :math:`t(s) = t(s_{max})\\, s / s_{max}`; below the smallest, :math:`t(s_{min})`.
        """
        times = self.tables.times
        if self.key.ndim == 0:  # one table for every point: index its row alone
            row = times[int(self.key), int(self.count), operation]
            pick = row.__getitem__
        else:
            pick = lambda cell: times[self.key, self.count, operation, cell]  # noqa: E731
        first, last = self.tables.smallest_power, times.shape[-1] - 1
        nbytes = np.asarray(nbytes, dtype=float)
        power = np.frexp(nbytes)[1] - 1  # 2**power <= nbytes < 2**(power + 1), exactly
        cell = np.clip(power - first, 0, last - 1)
        fraction = np.ldexp(nbytes, -power) - 1.0
        low, high = pick(cell), pick(cell + 1)
        within = low + fraction * (high - low)
        largest = pick(last) * (nbytes / self.tables.largest_bytes)
        read = np.where(power >= first + last, largest, np.where(power < first, low, within))
        return np.where(self.measured, read, 0.0)

    def largest_rate(self, operation: int):
        """Seconds a byte at the rate of the largest message; 0 where not measured."""
        rate = self.tables.times[self.key, self.count, operation, -1] / self.tables.largest_bytes
        return np.where(self.measured, rate, 0.0)


def _reader(tables: _Tables, table, cards) -> Reader:
    count = _count_index(tables, cards)
    measured = (np.asarray(table) >= 0) & (count >= 0)
    key = np.where(measured, table, 0).astype(int)
    return Reader(tables, measured, key, np.where(measured, count, 0).astype(int))


def gather_reader(table, cards) -> Reader:
    """Where ``cards`` cards of ``table``'s card are in the gather tables
    (:func:`gather_table_index`; operations 0 all-gather, 1 reduce-scatter)."""
    return _reader(_gathers(), table, cards)


def allreduce_reader(table, cards) -> Reader:
    """Where ``cards`` cards of ``table``'s are in the all-reduce tables
    (:func:`allreduce_table_index`; operation 0)."""
    return _reader(_allreduces(), table, cards)


def collective_seconds(table, cards, operation: str, nbytes):
    """Seconds of one NCCL ``operation`` (``"all_gather"`` or ``"reduce_scatter"``) of
    ``nbytes`` (the whole buffer) on ``cards`` cards of ``table``'s card; 0 where not measured.

    Vectorised over every argument but ``operation``; one node's floats take the same
    arithmetic in plain floats (:func:`read_times` of :func:`node_times`) and get the same
    bits. Read as :meth:`Reader.seconds`'s Notes give.
    """
    return gather_reader(table, cards).seconds(_gathers().operations.index(operation), nbytes)


def gather_seconds(table, cards, gathered_bytes, scattered_bytes, reader=None):
    """Seconds of one all-gather of ``gathered_bytes`` and one reduce-scatter of
    ``scattered_bytes`` (:func:`collective_seconds`): a DEP expert layer's exchange. ``reader``:
    :func:`gather_reader`'s for ``table`` and ``cards``, found once by a caller that reads often."""
    reader = gather_reader(table, cards) if reader is None else reader
    return reader.seconds(0, gathered_bytes) + reader.seconds(1, scattered_bytes)


def allreduce_seconds(table, cards, nbytes, reader=None):
    """Seconds of the engine's all-reduce of ``nbytes`` (each card's whole tensor) on ``cards``
    cards of ``table``'s card, read as :meth:`Reader.seconds` gives; 0 where not measured."""
    return (allreduce_reader(table, cards) if reader is None else reader).seconds(0, nbytes)


def largest_rate(table, cards, gathered_bytes, scattered_bytes, reader=None):
    """Seconds a gather of ``gathered_bytes`` and a scatter of ``scattered_bytes`` add to a step
    whose gathers are already paid (tokens riding in it), at the rate of the tables' largest
    messages; 0 where not measured."""
    reader = gather_reader(table, cards) if reader is None else reader
    return reader.largest_rate(0) * gathered_bytes + reader.largest_rate(1) * scattered_bytes


def allreduce_largest_rate(table, cards, nbytes, reader=None):
    """Seconds an all-reduce of ``nbytes`` adds to a step whose all-reduces are already paid, at
    the rate of the table's largest message; 0 where not measured."""
    return (allreduce_reader(table, cards) if reader is None else reader).largest_rate(0) * nbytes


@functools.cache
def _node_times(name: str, table: int, cards: float):
    tables = _load(name)
    if table < 0 or cards not in tables.counts:
        return None
    times = tables.times[table, tables.counts.index(cards)]
    return tables.smallest_power, *(
        (tuple(per_size.tolist()), float(per_size[-1] / tables.largest_bytes)) for per_size in times
    )


def node_times(table: int, cards: float):
    """One node's gather tables as plain floats for :func:`read_times`: (first power, (the
    all-gather's times by size, its seconds a byte at its largest message), the same of the
    reduce-scatter); None where not measured."""
    return _node_times("nccl_gathers.csv", table, cards)


def allreduce_node_times(table: int, cards: float):
    """One node's all-reduce table as plain floats: (first power, (times by size, seconds a
    byte at the largest message)); None where not measured."""
    return _node_times("allreduce.csv", table, cards)


def read_times(first: int, times: tuple[float, ...], nbytes: float) -> float:
    """:meth:`Reader.seconds` of one node's times (:func:`node_times`,
    :func:`allreduce_node_times`), in plain floats (a step's hot path)."""
    last = len(times) - 1
    power = math.frexp(nbytes)[1] - 1
    if power >= first + last:
        return times[last] * (nbytes / 2.0 ** (first + last))
    if power < first:
        return times[0]
    cell = min(power - first, last - 1)
    low, high = times[cell], times[cell + 1]
    return low + (math.ldexp(nbytes, -power) - 1.0) * (high - low)
