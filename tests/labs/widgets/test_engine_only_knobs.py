"""The engine level's own knobs (serving mode, engine, layout) are not shown where they change nothing."""

import numpy as np
import pytest

from core import Scenario, evaluate
from labs.widgets import knobs as ui

ROWS = {
    "serving_mode": (ui.serving_mode_buttons, "disaggregated"),
    "engine": (ui.engine_buttons, "vLLM"),
    "layout": (ui.layout_buttons, "dep"),
}


@pytest.mark.parametrize("knob", ROWS)
def test_the_whiteboard_ignores_the_knob_and_does_not_show_it(knob):
    """At the whiteboard level the knob changes no figure, so its row is not on the page at all."""
    _make, other = ROWS[knob]
    base = evaluate(Scenario(model="Mixtral-8x7B")).as_dict()
    moved = evaluate(Scenario(model="Mixtral-8x7B", **{knob: other})).as_dict()
    for name, value in base.items():
        if np.asarray(value).dtype.kind == "f":
            assert np.allclose(value, moved[name], equal_nan=True), name
    scenario = Scenario()
    rows = ui.engine_level_rows(scenario)
    assert rows.objects == []
    scenario.realism = "engine"
    knobs = [row[0].value for row in rows.objects]
    assert len(knobs) == 3 and getattr(scenario, knob) in knobs
    assert not any(row[0].disabled for row in rows.objects)
    scenario.realism = "whiteboard"
    assert rows.objects == []
