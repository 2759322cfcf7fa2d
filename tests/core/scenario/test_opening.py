"""A named model opens in its checkpoint's format, in a notebook as in the lab's picker."""

import pytest

from core import MODELS, Scenario, evaluate
from core.scenario.knobs import opening_knobs
from labs.widgets.knobs import model_select


@pytest.mark.parametrize("name", list(MODELS))
def test_scenario_opens_a_named_model_in_its_checkpoints_format(name):
    """Scenario(model=name) stores the weights as the model's published checkpoint does."""
    assert Scenario(model=name).weight_dtype == MODELS[name].checkpoint_dtype


def test_gpt_oss_opens_in_mxfp4_with_seats():
    """gpt-oss-120b opens in MXFP4, where one H100 grants its seats (bf16 granted none)."""
    scenario = Scenario(model="gpt-oss-120b")
    assert scenario.weight_dtype == "mxfp4"
    assert evaluate(scenario).seats_granted == scenario.seats


def test_a_named_storage_is_kept():
    """A weight storage given beside the model is the one the scenario keeps."""
    assert Scenario(model="gpt-oss-120b", weight_dtype="bf16").weight_dtype == "bf16"


def test_the_seeds_models_stay_bf16():
    """The seed's 8B and 70B tiers, and the default scenario, store their weights in bf16."""
    assert {Scenario(tier=tier).weight_dtype for tier in ("small", "large")} == {"bf16"}
    assert Scenario().weight_dtype == "bf16"


@pytest.mark.parametrize("name", list(MODELS))
def test_the_labs_picker_opens_a_model_as_core_does(name):
    """Picking a model in the lab sets the knobs core's Scenario(model=name) opens with."""
    scenario = Scenario(weight_dtype="fp8")
    select = model_select(scenario)
    select.value = name
    opened = Scenario(model=name)
    assert (scenario.model, scenario.weight_dtype) == (opened.model, opened.weight_dtype)
    assert opening_knobs(name) == {"model": name, "weight_dtype": opened.weight_dtype}
