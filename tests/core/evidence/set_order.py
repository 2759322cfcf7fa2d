"""Where a module's rows stand in the second development set (its tests' shared check)."""

from __future__ import annotations

from core.evidence.cases_2026 import SECOND


def rows_after(previous: str, cases: list) -> list[str]:
    """Assert ``cases`` stand in the second set right after the row keyed ``previous``, in
    their own order; give the keys that follow them (empty where they close the set)."""
    keys = [case.key for case in SECOND]
    start = keys.index(previous) + 1
    assert SECOND[start : start + len(cases)] == cases
    return keys[start + len(cases) :]
