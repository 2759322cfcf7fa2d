"""Reading typed answers: numbers, units, the stated unit for bare numbers, clear messages."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.testing import assert_allclose

from core.foundation.units import KINDS, express, number_text
from core.practice import Tolerance, read_answer
from core.practice.reading import examples

READABLE = [
    ("131072", "bytes", "B", 131_072),
    ("131,072", "bytes", "B", 131_072),
    ("131 072", "bytes", "B", 131_072),
    ("128 KiB", "bytes", "B", 131_072),
    ("0.13 MB", "bytes", "B", 130_000),
    ("1.3e5 B", "bytes", "B", 130_000),
    ("1.3 x 10^5 B", "bytes", "B", 130_000),
    ("1.3 \u00d7 10^5 bytes", "bytes", "B", 130_000),
    ("19 GB", "bytes", "GB", 19e9),
    ("19", "bytes", "GB", 19e9),
    ("17.7 GiB", "bytes", "GB", 17.7 * 2**30),
    ("27 ms", "seconds", "ms", 0.027),
    ("0.027 s", "seconds", "ms", 0.027),
    ("27", "seconds", "ms", 0.027),
    ("27 milliseconds", "seconds", "ms", 0.027),
    ("24 tok/s", "tokens_per_s", "tok/s", 24),
    ("~24 tokens per second", "tokens_per_s", "tok/s", 24),
    ("1.7k tok/s", "tokens_per_s", "tok/s", 1700),
    ("$2,913", "dollars", "$", 2913),
    ("2913 $/month", "dollars", "$", 2913),
    ("$2.9k", "dollars", "$", 2900),
    ("2,913 USD a month", "dollars", "$", 2913),
    ("13.4 TFLOP", "flops", "FLOP", 13.4e12),
    ("13.4 trillion FLOPs", "flops", "FLOP", 13.4e12),
    ("1.344e13", "flops", "FLOP", 1.344e13),
    ("115 seats", "seats", "seats", 115),
    ("3 nodes", "nodes", "nodes", 3),
]


@pytest.mark.parametrize(("text", "kind", "unit", "value"), READABLE)
def test_reads_numbers_with_and_without_units(text, kind, unit, value):
    """Each written form reads as the right amount in the kind's base unit."""
    reading = read_answer(text, kind, unit)
    assert reading.ok, reading.message
    assert_allclose(reading.value, value, rtol=1e-12)


def test_binary_prefixes_count_in_1024_and_decimal_in_1000():
    """KiB, MiB, GiB are powers of 1,024; kB, MB, GB powers of 1,000."""
    for binary, decimal, power in (("KiB", "kB", 1), ("MiB", "MB", 2), ("GiB", "GB", 3)):
        assert_allclose(read_answer(f"1 {binary}", "bytes").value, 1024.0**power)
        assert_allclose(read_answer(f"1 {decimal}", "bytes").value, 1000.0**power)


def test_bare_number_is_read_in_the_stated_unit():
    """A bare number takes the question's unit and is flagged as bare."""
    reading = read_answer("19", "bytes", "GB")
    assert reading.bare and reading.unit == "GB"
    assert not read_answer("19 GB", "bytes", "GB").bare


@pytest.mark.parametrize(
    ("text", "kind", "words"),
    [
        ("27 ms", "bytes", ("time", "bytes")),
        ("128 KiB", "seconds", ("bytes", "time")),
        ("$5", "bytes", ("money", "bytes")),
        ("24 tok/s", "dollars", ("tokens per second", "money")),
    ],
)
def test_unit_of_the_wrong_kind_is_named(text, kind, words):
    """A unit of another quantity is refused with a message naming both quantities."""
    reading = read_answer(text, kind)
    assert not reading.ok
    for word in words:
        assert word in reading.message


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "Type an answer"),
        ("   ", "Type an answer"),
        ("hello", "doesn't start with a number"),
        ("0,13 MB", "point"),
        ("5 parsecs", "isn't a unit"),
        ("2 \u00d7 2 \u00d7 32", "one number"),
        ("-5 GB", "positive"),
        ("1e999", "too large"),
    ],
)
def test_garbage_gets_a_clear_message(text, fragment):
    """Unreadable text gives no value and a message saying what to fix."""
    reading = read_answer(text, "bytes")
    assert not reading.ok
    assert fragment in reading.message


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=40), st.sampled_from(list(KINDS)))
def test_any_text_reads_without_raising(text, kind):
    """Any text gives a Reading: a finite non-negative value, or a message."""
    reading = read_answer(text, kind)
    if reading.ok:
        assert math.isfinite(reading.value) and reading.value >= 0
    else:
        assert reading.message


def test_bad_kind_or_unit_raises_naming_them():
    """Asking for an unknown kind or a unit of another kind is a caller's error."""
    with pytest.raises(ValueError, match=r"kind=.weight.*bytes"):
        read_answer("1", "weight")
    with pytest.raises(ValueError, match=r"unit='ms'.*KiB"):
        read_answer("1", "bytes", "ms")


@settings(max_examples=200, deadline=None)
@given(
    st.sampled_from(list(KINDS)),
    st.floats(1e-3, 1e14, allow_nan=False),
    st.data(),
)
def test_expressed_values_read_back(kind, value, data):
    """A value written by express() in any unit of its kind reads back to within 1e-5."""
    unit = data.draw(st.sampled_from([u.label for u in KINDS[kind].units]))
    reading = read_answer(express(value, unit, kind, digits=7), kind)
    assert reading.ok, reading.message
    assert_allclose(reading.value, value, rtol=1e-5)


def test_tolerance_accepts_within_and_rejects_outside():
    """Within 2 % is right, 2.1 % is not; a whole count must be exact."""
    close = Tolerance(0.02)
    assert close.accepts(102.0, 100.0) and close.accepts(98.0, 100.0)
    assert not close.accepts(102.1, 100.0)
    whole = Tolerance(0.0, whole=True)
    assert whole.accepts(115.0, 115.0)
    assert not whole.accepts(116.0, 115.0) and not whole.accepts(115.2, 115.2)
    assert "2%" in close.describe() and "round down" in whole.describe()


def test_tolerance_out_of_range_raises():
    """A tolerance outside 0 to 1 names the argument, the value and the range."""
    with pytest.raises(ValueError, match=r"relative=1\.5.*0"):
        Tolerance(1.5)


def test_number_text_writes_whole_numbers_in_full():
    """Whole numbers keep every digit; others get four significant figures."""
    assert number_text(131072) == "131,072"
    assert number_text(27.17897) == "27.18"
    assert number_text(0.1310720) == "0.1311"
    assert express(131_072, "KiB", "bytes") == "128 KiB"
    assert express(2912.7, "$", "dollars") == "$2,913"


def test_the_examples_for_an_answer_in_gigabytes_are_written_in_gigabytes():
    """A question stated in GB suggests answers in GB, each read as the value it shows."""
    text = examples("bytes", "GB")
    assert text.startswith("12.5, 12.5 GB or 11.6 GiB")
    readings = [read_answer(sample.strip(), "bytes", "GB") for sample in ("12.5", "12.5 GB")]
    assert [reading.value for reading in readings] == [12.5e9, 12.5e9]
