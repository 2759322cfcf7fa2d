"""The size rule: no source file over 400 lines, no function over 80 (tests/ are exempt)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MOST_LINES_PER_FILE = 400
MOST_LINES_PER_FUNCTION = 80

SOURCES = sorted(
    path
    for path in [*ROOT.glob("core/**/*.py"), *ROOT.glob("labs/**/*.py"), *ROOT.glob("bench/**/*.py"),
                 ROOT / "app.py"]
)  # fmt: skip


def line_count(text: str) -> int:
    """Lines in a file as an editor numbers them."""
    return len(text.splitlines())


def long_functions(text: str, most: int = MOST_LINES_PER_FUNCTION) -> list[tuple[str, int]]:
    """(name, lines) of every function or method longer than ``most`` lines, decorators included."""
    found = []
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            start = min([node.lineno, *(d.lineno for d in node.decorator_list)])
            length = node.end_lineno - start + 1
            if length > most:
                found.append((node.name, length))
    return found


def test_the_rule_sees_every_source_folder():
    """The rule reads core/, labs/, bench/ and app.py (a glob that matched nothing would pass)."""
    folders = {path.relative_to(ROOT).parts[0] for path in SOURCES}
    assert folders == {"core", "labs", "bench", "app.py"}


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_file_over_400_lines(path):
    """A source file holds at most 400 lines: a longer one is split by concern."""
    lines = line_count(path.read_text())
    assert lines <= MOST_LINES_PER_FILE, f"{path.relative_to(ROOT)} has {lines} lines"


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_no_function_over_80_lines(path):
    """Every function and method is at most 80 lines long, its decorators included."""
    assert not long_functions(path.read_text()), f"{path.relative_to(ROOT)}: over 80 lines"


def test_the_rule_catches_a_long_function_and_a_long_file():
    """A function of 81 lines and a file of 401 are caught (the test can fail)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(80))
    source = f"@staticmethod\ndef probe():\n{body}\n"
    assert long_functions(source) == [("probe", 82)]
    assert not long_functions(source, most=82)
    assert line_count("\n".join(["pass"] * 401)) > MOST_LINES_PER_FILE
