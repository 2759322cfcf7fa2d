"""Labs format and lay out; core computes: no lab imports a catalog number or does model arithmetic."""

import ast
import dataclasses
import importlib
import numbers
import pkgutil
from pathlib import Path

import core
import core.catalog

LABS = Path(__file__).resolve().parents[1] / "labs"
ARITHMETIC = (ast.Add, ast.Sub, ast.Mult, ast.Div, ast.FloorDiv, ast.Pow)
NUMERIC_TYPES = ("float", "int", "ndarray")
# Names a widget shares with a numeric field (a slider's ``value`` is the lab's own knob).
WIDGET_NAMES = {"value"}


def model_quantities() -> set[str]:
    """Names of every numeric field of every dataclass core defines (results, cards, shapes...)."""
    names = set()
    for module in pkgutil.walk_packages(core.__path__, "core."):
        loaded = importlib.import_module(module.name)
        for value in vars(loaded).values():
            if dataclasses.is_dataclass(value) and isinstance(value, type):
                names |= {
                    field.name
                    for field in dataclasses.fields(value)
                    if any(kind in str(field.type) for kind in NUMERIC_TYPES)
                }
    return names - WIDGET_NAMES


def is_number_or_table(value) -> bool:
    """A number, or a mapping whose values are numbers (such as bytes per storage type)."""
    if isinstance(value, numbers.Number) and not isinstance(value, bool):
        return True
    return isinstance(value, dict) and bool(value) and all(map(is_number_or_table, value.values()))


def is_text(node: ast.AST) -> bool:
    """A string literal, an f-string, or words joined or chosen from them: '+' joins words here."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return is_text(node.left) or is_text(node.right)
    if isinstance(node, ast.IfExp):
        return is_text(node.body) and is_text(node.orelse)
    return False


def touches(node: ast.AST, names: set[str]) -> str:
    """The model quantity an expression reads directly (an attribute of that name), or ''."""
    for sub in ast.walk(node):
        if isinstance(sub, ast.Attribute) and sub.attr in names:
            return sub.attr
    return ""


def lab_files() -> list[Path]:
    return sorted(LABS.rglob("*.py"))


def test_no_lab_imports_a_number_from_the_catalog():
    """Constants reach the page through core's results, never by a lab importing them."""
    found = []
    for path in lab_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module == "core.catalog":
                for alias in node.names:
                    if is_number_or_table(getattr(core.catalog, alias.name, None)):
                        found.append(f"{path.name}: {alias.name}")
    assert found == []


def test_no_lab_does_arithmetic_on_model_quantities():
    """No +, -, x or / in labs/ has a model quantity (a numeric field of a core result) as operand."""
    names = model_quantities()
    assert {"monthly_usd", "hbm_bytes_per_s", "params", "output_tokens_per_s"} <= names
    found = []
    for path in lab_files():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.BinOp) or not isinstance(node.op, ARITHMETIC):
                continue
            if is_text(node.left) or is_text(node.right):
                continue
            quantity = touches(node.left, names) or touches(node.right, names)
            if quantity:
                found.append(f"{path.relative_to(LABS)}:{node.lineno} {ast.unparse(node)}")
    assert found == []


def test_the_check_catches_what_it_is_for():
    """The scan flags a lab-style price re-resolution and a catalog constant import."""
    names = model_quantities()
    sample = ast.parse("bill = result.nodes * price\nshare = 1 - MEMORY_MARGIN")
    flagged = [
        node
        for node in ast.walk(sample)
        if isinstance(node, ast.BinOp) and (touches(node.left, names) or touches(node.right, names))
    ]
    assert len(flagged) == 1
    assert is_number_or_table(core.catalog.MEMORY_MARGIN)
    assert is_number_or_table(core.catalog.BYTES_PER_NUMBER)
    assert not is_number_or_table(core.catalog.GPUS)
