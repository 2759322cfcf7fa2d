"""The engine level's own knobs (serving mode, engine, its release, layout) are not shown where they
change nothing."""

import numpy as np
import pytest

from core import Scenario, evaluate
from labs.widgets import knobs as ui
from labs.widgets import release

ROWS = {
    "serving_mode": (ui.serving_mode_buttons, "disaggregated"),
    "engine": (ui.engine_buttons, "vLLM"),
    "layout": (ui.layout_buttons, "dep"),
    "engine_version": (None, "0.14"),
}


@pytest.mark.parametrize("knob", ROWS)
def test_the_whiteboard_ignores_the_knob_and_does_not_show_it(knob):
    """At the whiteboard level the knob changes no figure, so its row is not on the page at all."""
    _make, other = ROWS[knob]
    base = evaluate(Scenario(model="Mixtral-8x7B")).as_dict()
    engine = {"engine": "vllm"} if knob == "engine_version" else {}
    moved = evaluate(Scenario(model="Mixtral-8x7B", **engine, **{knob: other})).as_dict()
    for name, value in base.items():
        if np.asarray(value).dtype.kind == "f":
            assert np.allclose(value, moved[name], equal_nan=True), name
    scenario = Scenario()
    rows = ui.engine_level_rows(scenario)
    assert rows.objects == []
    scenario.realism = "engine"
    knobs = [row[0].value for row in rows.objects]
    shown = getattr(scenario, knob)
    assert len(knobs) == 4 and (shown if shown is not None else release.NEWEST) in knobs
    assert not any(row[0].disabled for row in rows.objects)
    scenario.realism = "whiteboard"
    assert rows.objects == []


def test_the_release_picker_follows_the_engine_and_sets_the_knob():
    """The picker lists the chosen engine's releases, and choosing one sets engine_version."""
    scenario = Scenario(realism="engine", engine="vllm")
    picker = release.release_picker(scenario)[0]
    assert "0.6" in picker.options.values() and picker.value == release.NEWEST
    picker.value = "0.6"
    assert scenario.engine_version == "0.6"
    scenario.engine = "sglang"
    assert scenario.engine_version is None and "0.6" not in picker.options.values()
    picker.value = release.NEWEST
    assert scenario.engine_version is None


def test_the_memory_share_acts_and_is_named_at_the_engine_level_only():
    """memory_share changes no whiteboard figure and the closed header leaves it out there; at
    the engine level it moves the cache's room and the header names it."""
    from labs.widgets.beyond import beyond_summary

    base = evaluate(Scenario(model="Mixtral-8x7B")).as_dict()
    moved = evaluate(Scenario(model="Mixtral-8x7B", memory_share=0.5)).as_dict()
    for name, value in base.items():
        if np.asarray(value).dtype.kind == "f":
            assert np.allclose(value, moved[name], equal_nan=True), name
    assert "memory" not in beyond_summary(Scenario(memory_share=0.5))
    engine = Scenario(realism="engine", memory_share=0.5)
    assert "50% of memory to the engine" in beyond_summary(engine)
    room = evaluate(engine).kv_budget_bytes
    assert room < evaluate(Scenario(realism="engine")).kv_budget_bytes
