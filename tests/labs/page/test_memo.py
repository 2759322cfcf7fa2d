"""A session keeps core's answers for the scenarios it showed last, and shows the same figures."""

import labs.pool.lab as pool_lab
from core import Scenario
from core.evaluate import evaluate
from core.evidence.level_gap import level_gaps
from labs.page.memo import Memo, scenario_key
from labs.pool.checks import ENGINE_FIELDS
from labs.pool.lab import PoolLab


def _counted_evaluations(monkeypatch) -> list:
    """The pool lab's calls of ``evaluate`` from now on (each still evaluates)."""
    calls, real = [], pool_lab.evaluate
    monkeypatch.setattr(pool_lab, "evaluate", lambda *a, **k: calls.append(a) or real(*a, **k))
    return calls


def test_a_kept_answer_is_not_computed_again_and_the_oldest_goes_first():
    """An answer is computed once per key; past ``size`` keys the least recent is forgotten."""
    memo, calls = Memo(size=2), []

    def compute(key):
        return lambda: calls.append(key) or key * 10

    assert memo.kept(1, "x", compute(1)) == 10
    assert memo.kept(1, "x", compute(1)) == 10
    memo.kept(2, "x", compute(2))
    memo.kept(1, "x", compute(1))  # 1 is now the newer of the two
    memo.kept(3, "x", compute(3))  # so 2 goes
    assert memo.has(1, "x") and memo.has(3, "x") and not memo.has(2, "x")
    assert calls == [1, 2, 3] and len(memo) == 2


def test_the_key_follows_every_knob():
    """Two scenarios that differ in any knob have different keys; equal ones the same."""
    assert scenario_key(Scenario()) == scenario_key(Scenario())
    assert scenario_key(Scenario(seats=17)) != scenario_key(Scenario())
    assert scenario_key(Scenario(realism="engine")) != scenario_key(Scenario())


def test_level_gaps_with_the_shown_result_are_the_same_gaps():
    """Handing level_gaps the result already on screen changes no gap, at either level."""
    for realism in ("whiteboard", "engine"):
        scenario = Scenario(model="gpt-oss-120b", realism=realism, seats=64)
        shown = evaluate(scenario)
        assert level_gaps(scenario, ENGINE_FIELDS, shown=shown) == level_gaps(
            scenario, ENGINE_FIELDS
        )


def test_the_pool_lab_back_at_a_scenario_evaluates_nothing_and_shows_what_a_fresh_lab_shows(
    monkeypatch,
):
    """A slider moved away and back is answered from the session's memo, with the same page."""
    lab = PoolLab()
    lab.scenario.seats = 40
    lab.scenario.seats = 16
    calls = _counted_evaluations(monkeypatch)
    lab.scenario.seats = 40
    assert calls == []
    fresh = PoolLab(scenario=Scenario(seats=40))
    assert lab.cards._pane.object == fresh.cards._pane.object
    assert lab.mattered._pane.object == fresh.mattered._pane.object
    assert lab.engine_note._pane.object == fresh.engine_note._pane.object
    assert lab.other.object == fresh.other.object
    assert lab.ledger.bars.data == fresh.ledger.bars.data


def test_a_scenario_one_session_showed_is_not_computed_again_for_another(monkeypatch):
    """Sessions share core's answers: a second lab reaching a shown scenario evaluates nothing."""
    first, second = PoolLab(), PoolLab()
    first.scenario.seats = 41
    calls = _counted_evaluations(monkeypatch)
    second.scenario.seats = 41
    assert calls == []
    assert second.result is first.result
    assert first.scenario is not second.scenario  # answers are shared, scenarios are not
    second.scenario.seats = 42
    assert first.scenario.seats == 41 and first.cards._pane.object != second.cards._pane.object
