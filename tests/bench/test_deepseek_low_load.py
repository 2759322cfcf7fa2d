"""bench/deepseek_low_load.py: DeepSeek's few-user steps, measured and priced, by card and engine."""

from __future__ import annotations

from bench.deepseek_low_load import MOST_USERS, low_load_steps
from core.evidence.fidelity import PUBLISHED


def test_every_scored_few_user_deepseek_step_is_listed_once_grouped_by_family():
    """Each scored DeepSeek time between tokens at 16 users or fewer appears once, grouped by
    card family and engine, its step measured and priced in seconds."""
    rows = low_load_steps()
    expected = {case.key for case in PUBLISHED if case.scored and case.metric == "itl"
                and case.model in ("DeepSeek-R1", "DeepSeek-V3")
                and case.load_value <= MOST_USERS}  # fmt: skip
    assert sorted(row[2] for row in rows) == sorted(expected)
    assert [row[:2] for row in rows] == sorted(row[:2] for row in rows)
    assert {"D470", "D113", "D339", "D453"} <= expected
    assert all(0 < row[5] < 1 and 0 < row[6] < 1 for row in rows)
