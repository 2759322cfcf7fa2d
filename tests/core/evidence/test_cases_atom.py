"""AMD ATOM's vLLM-plugin rows: typed from the workflow's files, figures as the table prints them."""

from __future__ import annotations

import pytest

from core.evidence.cases_2026 import SECOND
from core.evidence.cases_atom import _TABLE, ATOM, ATOM_FIRST_TOKENS
from core.evidence.cases_atom_dashboard import ATOM_DASHBOARD, ATOM_DASHBOARD_FIRST_TOKENS
from core.evidence.fidelity import PUBLISHED


def test_atoms_rows_follow_in_key_order_none_scored():
    """D154-D164 come after every earlier row, one a printed row, shown but not scored."""
    start = [case.key for case in SECOND].index("D154")
    assert SECOND[start : start + len(ATOM)] == ATOM
    assert [case.key for case in ATOM] == [f"D{n}" for n in range(154, 165)]
    assert len(ATOM) == len(_TABLE.splitlines())
    assert not any(case.scored for case in ATOM)
    assert all(case.unscored_why for case in ATOM)


def test_atom_is_a_publisher_no_other_row_has():
    """ROCm/ATOM is its own publisher (its pull request and its dashboard), and no row of
    another source names it."""
    rows = [*ATOM, *ATOM_FIRST_TOKENS, *ATOM_DASHBOARD, *ATOM_DASHBOARD_FIRST_TOKENS]
    assert {case.publisher for case in rows} == {"AMD ATOM (ROCm/ATOM)"}
    others = [case for case in PUBLISHED if case not in rows]
    assert not any(case.publisher == ATOM[0].publisher for case in others)


@pytest.mark.parametrize("case", ATOM, ids=lambda case: case.key)
def test_an_atom_row_is_its_printed_tpot_on_eight_mi355x_under_the_atom_release(case):
    """Each row is the printed mean TPOT, DeepSeek-R1 fp8 TP8 on eight MI355X, vLLM's 0.17-atom
    release, lengths at 0.9 times nominal (a range ratio of 0.8), ten requests a user."""
    cells = [cell.strip() for cell in case.quoted.split("|")]
    prompt, answer, users, ratio, _, tpot_ms = cells[1:7]
    assert case.metric == "itl" and case.measured == pytest.approx(float(tpot_ms) / 1000)
    assert case.load == "users" and case.load_value == int(users)
    assert float(ratio) == 0.8
    assert case.prompt_tokens == round(0.9 * int(prompt))
    assert case.answer_tokens == round(0.9 * int(answer))
    assert (case.model, case.gpu, case.cards, case.layout) == ("DeepSeek-R1", "MI355X", 8, "TP8")
    assert case.engine_knob == "vllm" and case.version_knob == "0.17-atom"
    assert case.requests == 10 * case.load_value  # --num-prompts=$(( CONC * 10 ))


def test_the_same_rows_first_tokens_follow_d165_shown_not_scored():
    """D166-D176 are the table's rows again, each its mean TTFT, after D165 and not scored."""
    keys = [case.key for case in SECOND]
    assert keys.index("D166") == keys.index("D165") + 1
    assert [case.key for case in ATOM_FIRST_TOKENS] == [f"D{n}" for n in range(166, 177)]
    assert all(case.metric == "ttft" and not case.scored for case in ATOM_FIRST_TOKENS)
    for tpot, ttft, row in zip(ATOM, ATOM_FIRST_TOKENS, _TABLE.splitlines(), strict=True):
        assert ttft.measured == pytest.approx(float(row.split("|")[4]) / 1000)
        assert (ttft.prompt_tokens, ttft.load_value) == (tpot.prompt_tokens, tpot.load_value)


def test_the_dashboard_runs_first_tokens_follow_d412_shown_not_scored():
    """D413-D442 follow D412: each of the dashboard run's 30 points again (D339-D368), its
    printed mean TTFT, every knob of its set-up the same, shown but not scored."""
    keys = [case.key for case in SECOND]
    start = keys.index("D413")
    assert start == keys.index("D412") + 1
    assert SECOND[start : start + len(ATOM_DASHBOARD_FIRST_TOKENS)] == ATOM_DASHBOARD_FIRST_TOKENS
    assert [case.key for case in ATOM_DASHBOARD_FIRST_TOKENS] == [f"D{n}" for n in range(413, 443)]
    for point, first in zip(ATOM_DASHBOARD, ATOM_DASHBOARD_FIRST_TOKENS, strict=True):
        assert first.metric == "ttft" and not first.scored and first.unscored_why
        assert first.measured == pytest.approx(float(point.quoted.split("|")[4]) / 1000)
        assert first.scenario().param.values() | {"name": ""} == point.scenario().param.values() | {
            "name": ""
        }
