"""A patch release's line: the key its tables share with the other releases of its line."""

from __future__ import annotations

import doctest

import pytest

from core.catalog import release_lines
from core.catalog.release_lines import release_line


@pytest.mark.parametrize(
    ("release", "line"),
    [("0.5.6", "0.5"), ("0.5.10", "0.5"), ("0.5", "0.5"), ("0.4-aiter", "0.4-aiter"),
     ("0.17-atom", "0.17-atom"), ("1.0", "1.0"), ("", ""), (None, None)],
)  # fmt: skip
def test_a_patch_release_keys_as_its_line_and_any_other_release_as_itself(release, line):
    """Only a release of three numbers maps to its line; lines, variants and none stay."""
    assert release_line(release) == line


def test_the_examples_in_the_docstring_hold():
    """The module's doctest runs clean."""
    assert doctest.testmod(release_lines).failed == 0
