"""Measured collectives (NCCL's gathers, each engine's all-reduce): read back at their sizes,
never faster for more bytes, one bit twin, and nothing where nothing was measured."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from numpy.testing import assert_allclose

from core.catalog import NVLINK_PROTOCOL_EFFICIENCY
from core.catalog.collective_tables import (
    allreduce_largest_rate,
    allreduce_node_times,
    allreduce_reader,
    allreduce_seconds,
    allreduce_table_index,
    collective_seconds,
    gather_reader,
    gather_seconds,
    gather_table_index,
    largest_rate,
    node_times,
    read_times,
)

FOLDER = Path(__file__).resolve().parents[3] / "core/catalog/collective_tables"
CSV = FOLDER / "nccl_gathers.csv"
MIB = 2.0**20


def _rows(path=CSV):
    with path.open() as handle:
        return list(csv.DictReader(handle))


def test_every_measured_size_reads_back_its_time():
    """At a measured size each collective reads the file's time, or the largest time of a
    smaller buffer where nccl-tests' noise put a larger one below it (a few µs, up to 2 MiB)."""
    rows = _rows()
    assert {row["card"] for row in rows} == {"H100 SXM", "H200", "B200"}
    for row in rows:
        table = gather_table_index(row["card"], "tensorrt-llm")
        nbytes, seconds = float(row["bytes"]), float(row["seconds"])
        read = collective_seconds(table, int(row["cards"]), row["operation"], nbytes)
        assert read >= seconds
        if nbytes > 2**21:  # past the noisy sizes every read is the file's own time
            assert_allclose(read, seconds, rtol=0.02)


def test_more_bytes_never_take_less_time():
    """Along the whole grid and past it, each node's gathers grow with the bytes."""
    sizes = 2.0 ** np.linspace(8, 31, 400)
    for card in ("H100 SXM", "H200", "B200"):
        for cards in (2, 4, 8):
            times = gather_seconds(gather_table_index(card, "tensorrt-llm"), cards, sizes, sizes)
            assert np.all(np.diff(times) >= 0) and np.all(times > 0)


def test_past_the_largest_message_time_grows_in_proportion():
    """Twice the tables' largest buffer (512 MiB) takes twice its time."""
    table = gather_table_index("H200", "tensorrt-llm")
    largest = gather_seconds(table, 8, 512 * MIB, 512 * MIB)
    assert_allclose(gather_seconds(table, 8, 1024 * MIB, 1024 * MIB), 2 * largest)
    assert_allclose(largest_rate(table, 8, 1.0, 1.0) * 512 * MIB, largest)


def test_mid_sized_gathers_are_slower_than_the_line():
    """32 MiB on 8 x H200 (a DEP step of 2,048 tokens of 8,192 numbers) takes 123 µs to gather,
    where NVLink's 450 GB/s at NCCL's protocol share would take 79 µs: why the table replaces
    the line there. Its largest messages come near the line."""
    table = gather_table_index("H200", "tensorrt-llm")
    line = 7 / 8 * 32 * MIB / (NVLINK_PROTOCOL_EFFICIENCY * 450e9)
    gathered = collective_seconds(table, 8, "all_gather", 32 * MIB)
    assert_allclose(gathered, 123.4e-6, rtol=0.01)
    assert gathered > 1.5 * line
    largest = largest_rate(table, 8, 1.0, 0.0) * 512 * MIB
    assert 1.0 < largest / (7 / 8 * 512 * MIB / (NVLINK_PROTOCOL_EFFICIENCY * 450e9)) < 1.15


def test_what_was_not_measured_has_no_table():
    """Another card, another card count or an engine that does not gather with NCCL's
    all-gather reads no table, and no seconds."""
    assert gather_table_index("H20", "tensorrt-llm") == -1
    assert gather_table_index("H200", "vllm") == -1
    h200 = gather_table_index("H200", "tensorrt-llm")
    assert not gather_reader(h200, 3).measured and gather_reader(h200, 8).measured
    assert gather_seconds(h200, 3, MIB, MIB) == 0.0 == gather_seconds(-1, 8, MIB, MIB)
    assert node_times(h200, 3.0) is None and node_times(-1, 8.0) is None


def test_one_node_in_floats_gets_the_sweeps_bits():
    """The float read and the array read give the same bits at sizes on, between and past
    the grid, on every measured node."""
    sizes = [0.0, 1.0, 512.0, 700.0, 3e5, 2**21, 5.5e7, 512 * MIB - 1, 512 * MIB, 3e9]
    for card in ("H100 SXM", "H200", "B200"):
        table = gather_table_index(card, "tensorrt-llm")
        for cards in (2, 4, 8):
            first, (gather_times, _), (scatter_times, _) = node_times(table, float(cards))
            for operation, times in (("all_gather", gather_times),
                                     ("reduce_scatter", scatter_times)):  # fmt: skip
                read = collective_seconds(np.full(len(sizes), table), cards, operation, sizes)
                assert read.tolist() == [read_times(first, times, size) for size in sizes]


def test_between_two_sizes_time_is_linear_in_the_bytes():
    """Halfway in bytes between 16 and 32 MiB reads halfway between their times."""
    table = gather_table_index("B200", "tensorrt-llm")
    ends = collective_seconds(table, 8, "all_gather", [16 * MIB, 32 * MIB])
    assert_allclose(collective_seconds(table, 8, "all_gather", 24 * MIB), ends.mean())


def test_every_engines_allreduce_reads_back_its_times():
    """Each engine's all-reduce at a measured size reads the file's time, or a smaller buffer's
    larger time where the engine switches algorithm (a few MiB), on the four NVLink cards, and TensorRT-LLM's 8 MiB on eight H100s takes
    79 µs, twice the 40 µs of NVLink's 450 GB/s at NCCL's protocol share."""
    rows = _rows(FOLDER / "allreduce.csv")
    assert {(row["card"], row["engine"]) for row in rows} == {
        (card, engine) for card in ("H100 SXM", "H200", "B200", "A100 80GB SXM")
        for engine in ("tensorrt-llm", "vllm", "sglang")
    }  # fmt: skip
    for row in rows:
        table = allreduce_table_index(row["card"], row["engine"])
        read = allreduce_seconds(table, int(row["cards"]), float(row["bytes"]))
        assert read >= float(row["seconds"])
        if float(row["bytes"]) > 2**22:
            assert_allclose(read, float(row["seconds"]), rtol=0.07)
    h100 = allreduce_table_index("H100 SXM", "tensorrt-llm")
    assert_allclose(allreduce_seconds(h100, 8, 8 * MIB), 79.4e-6, rtol=0.01)
    line = 2 * 7 / 8 * 8 * MIB / (NVLINK_PROTOCOL_EFFICIENCY * 450e9)
    assert_allclose(line, 40e-6, rtol=0.02)


def test_allreduces_grow_with_bytes_and_keep_their_float_twin():
    """Each engine's all-reduce never takes less time for more bytes, and one node's floats
    read the sweep's bits, riding rate included."""
    sizes = [0.0, 300.0, 8192.0, 5e6, 2**30 - 1, 2**30, 5e9]
    for card in ("H100 SXM", "H200", "B200", "A100 80GB SXM"):
        for engine in ("tensorrt-llm", "vllm", "sglang"):
            table = allreduce_table_index(card, engine)
            for cards in (2, 4, 8):
                swept = allreduce_seconds(table, cards, sizes)
                assert np.all(np.diff(swept) >= 0) and np.all(swept > 0)
                first, (times, rate) = allreduce_node_times(table, float(cards))
                assert swept.tolist() == [read_times(first, times, size) for size in sizes]
                assert allreduce_largest_rate(table, cards, 1.0) == rate


def test_what_has_no_allreduce_table():
    """A PCIe card, an AMD card, a card count of six or one card has no table: the line."""
    assert allreduce_table_index("L40S", "vllm") == -1
    assert allreduce_table_index("MI300X", "vllm") == -1
    h100 = allreduce_table_index("H100 SXM", "vllm")
    assert not allreduce_reader(h100, 6).measured and not allreduce_reader(h100, 1).measured
    assert allreduce_seconds(h100, 6, MIB) == 0.0 and allreduce_node_times(h100, 6.0) is None
