"""The engine level's own knobs (serving mode, engine, layout) can't be picked where they change nothing."""

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
def test_the_whiteboard_ignores_the_knob_and_its_buttons_say_so(knob):
    """At the whiteboard level the knob changes no figure, so its buttons are off with a reason."""
    make, other = ROWS[knob]
    base = evaluate(Scenario(model="Mixtral-8x7B")).as_dict()
    moved = evaluate(Scenario(model="Mixtral-8x7B", **{knob: other})).as_dict()
    for name, value in base.items():
        if np.asarray(value).dtype.kind == "f":
            assert np.allclose(value, moved[name], equal_nan=True), name
    scenario = Scenario()
    row = make(scenario)
    buttons, line = row[0], row[1]
    assert buttons.disabled and f'data-idle-knob="{knob}"' in line.object
    scenario.realism = "engine"
    assert not buttons.disabled and "data-idle-knob" not in line.object
