"""The wings of core/ and labs/ import only downwards: no module reaches a wing above its own."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# Lowest first. A module may import its own wing and any wing below it, never one above.
# core.evaluate composes the whiteboard and the engine level; the simulator, the evidence and
# the studies run it. Traffic spans floors: its arrivals, queue, goodput and autoscaler sit
# below the whiteboard that reads them; its replay runs the simulator, its study evaluate.
# The lab packages are siblings at one floor; the frame holds them by name.
WINGS = {
    "core.foundation": 0,
    "core.catalog": 1,
    "core.scenario": 1.5,
    "core.traffic": 1.7,
    "core.whiteboard": 2,
    "core.cache": 2.5,
    "core.engine_level": 3,
    "core.evaluate": 4,
    "core": 4,
    "core.simulator": 5,
    "core.traffic.replay": 5.5,
    "core.evidence": 6,
    "core.evidence.measured": 6,
    "core.studies": 6,
    "core.traffic.rent_or_autoscale": 6,
    "core.practice": 7,
    "labs.page": 10,
    "labs.widgets": 11,
    "labs.pool": 12,
    "labs.kv": 12,
    "labs.prefix": 12,
    "labs.batching": 12,
    "labs.frontier": 12,
    "labs.reality": 12,
    "labs.practice": 12,
    "labs.sources": 12,
    "labs.poll": 12,
    "labs.frame": 13,
    "labs.tour": 13,
    "labs.teach": 13,
    "labs.server": 14,
}


def wing_of(module: str) -> str:
    """The longest wing name that ``module`` sits in."""
    parts = module.split(".")
    for cut in range(len(parts), 0, -1):
        name = ".".join(parts[:cut])
        if name in WINGS:
            return name
    raise AssertionError(f"{module} sits in no wing: add its folder to WINGS")


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path) -> list[str]:
    """Every core or labs module that ``path`` imports, as written."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
        elif isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
    return [name for name in found if name.split(".")[0] in ("core", "labs")]


MODULES = sorted(p for p in [*ROOT.glob("core/**/*.py"), *ROOT.glob("labs/**/*.py")])


def test_every_module_sits_in_a_wing():
    """Every module of core/ and labs/ belongs to a named wing (a new folder needs a floor)."""
    for path in MODULES:
        if path.parent.name in ("core", "labs") and path.name == "__init__.py":
            continue
        if path.parent == ROOT / "core" and path.name == "evaluate.py":
            continue
        wing_of(module_name(path))


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(ROOT)))
def test_no_module_imports_a_wing_above_its_own(path):
    """A module imports only its own wing and the wings below it."""
    name = module_name(path)
    if name in ("core", "labs"):
        return
    own = WINGS[wing_of(name)]
    above = [m for m in imports(path) if WINGS[wing_of(m)] > own]
    assert not above, f"{name} (floor {own}) imports {above} from above its own wing"


def test_the_layer_rule_catches_an_upward_import(tmp_path):
    """The rule sees an import from a higher wing (the test can fail)."""
    source = tmp_path / "probe.py"
    source.write_text("from core.evaluate import evaluate\n")
    assert WINGS[wing_of(imports(source)[0])] > WINGS[wing_of("core.whiteboard.memory")]


def test_core_never_imports_the_ui():
    """core/ imports neither Panel nor Bokeh nor anything from labs/."""
    for path in ROOT.glob("core/**/*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = []
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            elif isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            for name in names:
                assert name.split(".")[0] not in ("panel", "bokeh", "labs"), f"{path}: {name}"
