"""core.foundation.vector: numpy's answers for scalars and arrays alike, without its dispatch."""

import numpy as np
import pytest

from core.foundation.vector import any_true, ndim, plain, where

VALUES = [
    0, 3, 0.0, 2.5, np.float64(1.5), np.int64(4), True, np.bool_(False), np.array(2.0),
    np.array([0.0, 1.0]), np.zeros((2, 3)), [1.0, 2.0], (0.0,), [[1, 0]], None,
]  # fmt: skip


@pytest.mark.parametrize("value", VALUES, ids=repr)
def test_ndim_is_numpys(value):
    """ndim gives np.ndim's answer for plain numbers, numpy scalars, arrays and sequences."""
    assert ndim(value) == np.ndim(value)


@pytest.mark.parametrize("value", [v for v in VALUES if v is not None], ids=repr)
def test_any_true_is_numpys(value):
    """any_true gives bool(np.any(value)) for plain numbers, bools, arrays and sequences."""
    assert any_true(value) is bool(np.any(value))


def test_any_true_reads_a_comparison_of_either_kind():
    """A comparison's result, a numpy bool or an array of them, is read as np.any reads it."""
    assert any_true(np.asarray(3.0) > 1) and not any_true(np.asarray(0.0) > 1)
    assert any_true(np.array([0.0, 2.0]) > 1) and not any_true(np.array([0.0, 1.0]) > 1)


def test_where_keeps_scalars_plain_and_arrays_numpys():
    """where picks a branch for scalars and runs np.where where any argument is an array."""
    assert where(True, 1.0, 2.0) == 1.0 and type(where(False, 1.0, 2)) is int
    assert np.array_equal(where(np.array([True, False]), 1.0, 2.0), [1.0, 2.0])
    assert np.array_equal(where(True, np.array([1.0, 3.0]), 2.0), [1.0, 3.0])


def test_plain_is_true_only_for_plain_numbers():
    """plain holds for Python ints and floats and numpy floats, never an array or a sequence."""
    assert plain(1, 2.0, np.float64(3.0), True)
    assert plain()
    assert not plain(1.0, np.array(2.0)) and not plain([1.0]) and not plain(None)
