"""The Frontier lab at the parameter level: figures from core, axes, clicks, link state, CSV."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import TTFT_SLO_S, Scenario
from core.studies.frontier import frontiers, sweep
from labs.frame.shell import LabShell, lab_bindings
from labs.frontier.lab import FrontierLab
from labs.page import format as fmt
from labs.page.links import query_for, restore


@pytest.fixture
def lab():
    return FrontierLab()


def test_cards_state_this_configuration_from_core(lab):
    """The per-GPU card is the sweep's figure for the scenario's own batch, cards and storage."""
    points = sweep(Scenario())
    i = np.flatnonzero(
        (points.seats == 16)
        & (points.cards == 1)
        & (points.weight_dtype == "bf16")
        & (points.kv_dtype == "bf16")
        & (points.realism == "whiteboard")
    )[0]
    card = next(card for card in lab.cards.cards if card.label == "per GPU")
    assert card.value == fmt.rate(points.gpu_tokens_per_s[i]).removesuffix(" tok/s")
    assert_allclose(lab.current.data["x"], [points.user_tokens_per_s[i]])


def test_each_level_has_its_frontier_line(lab):
    """Both frontier lines hold the core frontier's points of their level, in x order."""
    mask = frontiers(lab.points)
    for level, source in lab.line_sources.items():
        expected = np.sort(lab.points.user_tokens_per_s[mask & (lab.points.realism == level)])
        assert_allclose(source.data["x"], expected)


def test_ttft_axis_shades_the_slo_and_drops_unbounded_points(lab):
    """On the TTFT axis the SLO region is shown up to the target and every x is finite."""
    assert not lab.slo.visible
    lab.x_axis = "ttft"
    assert lab.slo.visible and lab.slo.right == TTFT_SLO_S
    assert np.all(np.asarray(lab.point_source.data["x"]) < 3600)
    assert "first token" in lab.plot.xaxis[0].axis_label


def test_cost_axis_shows_dollars_per_million(lab):
    """The $ axis plots core's cost per million output tokens."""
    lab.y_axis = "cost"
    rows = lab.point_source.data["index"]
    assert_allclose(lab.point_source.data["y"], lab.points.usd_per_million_output[rows])


def _line(lab, level="whiteboard"):
    data = lab.line_sources[level].data
    return np.concatenate([np.asarray(data["x"]), np.asarray(data["y"])])


def _moved(before, after) -> bool:
    return before.shape != after.shape or not np.allclose(before, after)


def test_frontier_moves_with_kv_dtype_and_cards_when_held(lab):
    """With cards and cache held, switching either knob redraws both levels' frontiers elsewhere."""
    lab.param.update(sweep_cards=False, sweep_cache=False)
    for level in ("whiteboard", "engine"):
        lab.scenario.param.update(kv_dtype="bf16", cards=None)
        before = _line(lab, level)
        lab.scenario.kv_dtype = "fp8"
        after_cache = _line(lab, level)
        lab.scenario.cards = 2
        assert _moved(before, after_cache)
        assert _moved(after_cache, _line(lab, level))


def test_a_click_loads_the_point_and_opens_the_pool():
    """Tapping a point sets its knobs on the shared scenario and switches the shell to the pool."""
    shell = LabShell()
    shell.lab = "frontier"
    lab = shell.view("frontier")
    source = lab.point_source
    row = int(np.flatnonzero(np.asarray(source.data["level"]) == "engine")[3])
    index = source.data["index"][row]
    source.selected.indices = [row]
    s = shell.scenario
    assert (s.seats, s.cards, s.weight_dtype, s.kv_dtype, s.realism) == (
        lab.points.seats[index],
        lab.points.cards[index],
        lab.points.weight_dtype[index],
        lab.points.kv_dtype[index],
        "engine",
    )
    assert shell.lab == "pool"
    assert source.selected.indices == []


def test_lab_knobs_live_in_the_link():
    """Axes and held sweeps are written to the link and restored from it."""
    shell = LabShell()
    shell.lab = "frontier"
    lab = shell.view("frontier")
    lab.param.update(x_axis="ttft", y_axis="cost", sweep_cache=False)
    query = query_for(lab_bindings(lab, shell.scenario))
    fresh = LabShell()
    fresh.lab = "frontier"
    restore(lab_bindings(fresh.view("frontier"), fresh.scenario), query)
    again = fresh.view("frontier")
    assert (again.x_axis, again.y_axis, again.sweep_cache) == ("ttft", "cost", False)


def test_points_table_downloads_every_configuration(lab):
    """The CSV frame has one row per configuration, with the frontier flag from core."""
    frame = lab._table_frame()
    assert len(frame) == len(lab.points)
    assert frame["on_frontier"].sum() == lab.mask.sum()
    assert_allclose(frame["output_tokens_per_s_per_gpu"], lab.points.gpu_tokens_per_s)


def test_hopeless_scenarios_draw_finite_points_or_none(lab):
    """A context no node holds, a tiny card or a zero answer draws only finite, positive figures."""
    for knobs in (
        {"prompt_tokens": 64_000, "tier": "large", "gpu": "L40S"},
        {"answer_tokens": 0},
        {"arrivals_per_min": 1e6, "workload": "document analysis"},
    ):
        lab.scenario.param.update(**knobs)
        for measures in (("user", "gpu"), ("ttft", "cost")):
            lab.param.update(x_axis=measures[0], y_axis=measures[1])
            for data in (lab.point_source.data, lab.line_sources["engine"].data, lab.current.data):
                values = np.concatenate(
                    [np.asarray(data["x"], float), np.asarray(data["y"], float)]
                )
                assert np.all(np.isfinite(values)) and np.all(values > 0)
            assert "nan" not in lab.table.object and "inf" not in lab.table.object
        lab.scenario.param.update(**{k: Scenario.param[k].default for k in knobs})


def test_embedded_click_links_to_the_pool_with_the_point(lab):
    """Alone in an iframe, a loaded point says so and links to the pool lab with its knobs."""
    index = int(np.flatnonzero(lab.points.feasible & (lab.points.seats == 64))[0])
    lab.load_point(index)
    assert lab.navigate is None
    assert "./pool?" in lab.loaded.object and "seats=64" in lab.loaded.object


def test_the_points_table_and_the_files_fold_and_are_built_only_when_opened(lab):
    """At the defaults both folds are closed and unbuilt; the table's line counts core's frontier."""
    assert not lab.points_fold.built and not lab.measured_fold.built
    assert not lab.points_fold.toggle.value and not lab.measured_fold.toggle.value
    shown = lab.mask & (lab.points.realism == "whiteboard")
    assert fmt.plural(int(shown.sum()), "configuration") in lab.points_fold.summary.object
    lab.scenario.realism = "engine"
    shown = lab.mask & (lab.points.realism == "engine")
    assert fmt.plural(int(shown.sum()), "configuration") in lab.points_fold.summary.object
    assert "the engine level" in lab.points_fold.summary.object
    lab.points_fold.toggle.value = True
    assert lab.points_fold.built and lab.table in lab.points_fold.body.objects
    assert not lab.measured_fold.built
