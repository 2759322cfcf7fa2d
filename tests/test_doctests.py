"""The examples in core's and the labs' docstrings run and give what they say."""

import doctest
import importlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WITH_EXAMPLES = sorted(
    ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
    for folder in ("core", "labs")
    for path in (ROOT / folder).rglob("*.py")
    if ">>> " in path.read_text()
)


def test_some_modules_carry_examples():
    """Formulas carry doctest examples (the list below is not empty, so the test can fail)."""
    assert len(WITH_EXAMPLES) >= 5


@pytest.mark.parametrize("name", WITH_EXAMPLES)
def test_a_modules_examples_hold(name):
    """Every example in the module's docstrings gives the output it shows."""
    result = doctest.testmod(importlib.import_module(name), optionflags=doctest.ELLIPSIS)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"
