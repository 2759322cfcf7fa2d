"""The batching lab's folds at the param level: a session's first page builds only what it
shows, and a folded part opened late shows the same figures as one opened early."""

import gc
import weakref

import pytest

from core import Scenario
from labs.batching import BatchingLab
from labs.batching.lab import TABS
from labs.frame.shell import EmbeddedLab, lab_bindings
from labs.page import theme
from labs.page.links import query_for, restore

# A change to every kind of knob a folded view reads: the node, the workload, the scheduler's
# view, the layout and the speculative knobs.
CHANGE = {"batch_size": 8, "policy": "continuous", "kv_layout": "paged", "draft_tokens": 6}
NODE_CHANGE = {"model": "gpt-oss-20b", "weight_dtype": "mxfp4"}


def view_figures(lab, key: str) -> dict:
    """What a folded view shows: its words and every chart source's columns."""
    view = lab.view(key)
    if key == "modes":
        return {"table": view.table.object, "ttft": dict(view.ttft_source.data)}
    if key == "moe":
        folded = view.chart.line in view.chart.__panel__().objects[0].objects
        curve = view.chart.chart and dict(view.chart.chart.source.data)
        return {"line": view.chart.line.object if folded else "chart", "curve": curve}
    shown = {"text": str(view.text.object)}
    for name in ("source", "sources"):
        found = getattr(view, name, None)
        if isinstance(found, dict):
            shown.update({part: dict(source.data) for part, source in found.items()})
        elif found is not None:
            shown[name] = dict(found.data)
    return shown


def same(first: dict, second: dict) -> None:
    """The two views' figures are equal, column by column (NaN equal to NaN)."""
    assert first.keys() == second.keys()
    for name, value in first.items():
        if isinstance(value, dict):
            assert value.keys() == second[name].keys(), name
            for column in value:
                assert list(map(str, value[column])) == list(map(str, second[name][column]))
        else:
            assert str(value) == str(second[name]), name


def test_a_fresh_session_builds_only_the_first_page():
    """At the defaults the deeper views, the modes card, the sweep, the gap table, the queue
    chart and the folded knobs are not built."""
    lab = BatchingLab(Scenario())
    assert set(lab.views) == {"headline", "gap", "timeline"}
    assert lab.tabs is None and not lab.deeper.built and not lab.deeper.toggle.value
    assert not lab.modes.built and lab.modes.results is None
    assert not lab.engine.sweep_cache and lab.views["gap"].rows is None
    assert lab.views["timeline"].queue_plot is None and not lab.views["timeline"].queue.built
    assert not lab.workload.built and not lab.workload.toggle.value


def test_opening_the_deeper_views_builds_only_the_open_tab():
    """The fold's first opening builds the first tab's view; another tab builds when chosen."""
    lab = BatchingLab(Scenario())
    lab.deeper.toggle.value = True
    first = TABS[0][0]
    assert set(lab.views) == {"headline", "gap", "timeline", first}
    assert lab.engine.sweep_cache and not lab.modes.built
    lab.tabs.active = [key for key, _title in TABS].index("modes")
    assert lab.modes.built and lab.modes.results is not None
    assert "waste" not in lab.views


@pytest.mark.parametrize("key", [key for key, _title in TABS])
def test_a_view_opened_after_a_change_shows_what_one_opened_before_it_does(key):
    """Open a view then change the knobs, or change them then open it: the same figures."""
    early, late = BatchingLab(Scenario()), BatchingLab(Scenario())
    early.view(key)
    for lab in (early, late):
        lab.param.update(**CHANGE)
        lab.scenario.param.update(**NODE_CHANGE)
    same(view_figures(early, key), view_figures(late, key))
    assert view_figures(late, key) != view_figures(BatchingLab(Scenario()), key) or key == "gap"


def test_the_queue_opened_late_draws_the_current_runs():
    """The queue chart made after a change holds the current runs' queues; its closed line
    says how many waited at worst under each scheduler."""
    lab = BatchingLab(Scenario())
    timeline = lab.views["timeline"]
    lab.param.update(arrival_rate=30.0, kv_layout="paged")
    worst = int(lab.runs["static", "paged"].queue_length.max())
    assert f"At worst {worst:,} requests waited" in timeline.queue.summary.object
    timeline.queue.toggle.value = True
    assert max(timeline.queue_sources["static"].data["length"]) == worst
    lab.arrival_rate = 5.0
    lower = int(lab.runs["static", "paged"].queue_length.max())
    assert max(timeline.queue_sources["static"].data["length"]) == lower < worst


def test_a_link_to_a_folded_views_knobs_opens_it_on_that_view():
    """A link setting the speculative knobs opens the deeper views on that tab; pd_ knobs on
    the serving modes; a link to the defaults opens neither."""
    for change, key in (({"acceptance": 0.9}, "speculative"), ({}, "modes")):
        source = BatchingLab(Scenario())
        source.param.update(**change)
        if key == "modes":
            source.modes.prefill_cards = 2
        query = query_for(lab_bindings(source, source.scenario))
        opened = BatchingLab(Scenario())
        restore(lab_bindings(opened, opened.scenario), "?" + query.lstrip("?"))
        assert opened.deeper.toggle.value
        assert TABS[opened.tabs.active][0] == key
        assert key in opened.views or opened.modes.built
    plain = BatchingLab(Scenario())
    restore(lab_bindings(plain, plain.scenario), "?batch_size=64")
    assert not plain.deeper.toggle.value and plain.tabs is None


def test_the_folded_knobs_open_when_one_moves_and_say_what_they_hold():
    """The traffic and node fold's line names the requests; a traffic or node knob moved
    (a link, a preset, another lab) opens it."""
    lab = BatchingLab(Scenario())
    assert "200 requests" in lab.workload.summary.object
    lab.requests = 400
    assert lab.workload.toggle.value and "400 requests" in lab.workload.summary.object
    moved = BatchingLab(Scenario(gpu="A100 80GB SXM"))
    assert moved.workload.toggle.value and moved.workload.built


def test_a_closed_session_whose_folds_were_opened_and_closed_is_freed():
    """A fold's rows are out of the layout while closed (the editable sliders' JS links with
    them): released, the session's page, lab and scenario still go."""
    page = EmbeddedLab("batching")
    lab = page.view("batching")
    for fold in (lab.workload, lab.deeper, lab.views["timeline"].queue):
        fold.toggle.value = True
        fold.toggle.value = False
    refs = [weakref.ref(page), weakref.ref(page.scenario), weakref.ref(lab)]
    page.release()
    del page, lab, fold
    gc.collect()
    assert [ref() for ref in refs] == [None] * len(refs)


def test_charts_built_after_the_page_take_presenter_modes_text():
    """Presenter mode reaches the charts a fold builds later, and a closed fold's built ones."""
    big = f"{theme.CHART_TEXT[True][1]}px"
    lab = BatchingLab(Scenario())
    timeline = lab.views["timeline"]
    timeline.queue.toggle.value = True
    timeline.queue.toggle.value = False  # built, then closed: out of the page's layout
    theme.present(lab, True)  # what the page does when presenter mode is switched on
    sweep, modes = lab.view("sweep"), lab.view("modes")
    for plot in (timeline.queue_plot, sweep.throughput_plot, modes.ttft_plot):
        assert plot.xaxis[0].axis_label_text_font_size == big
    assert lab.view("moe").chart.presenter
