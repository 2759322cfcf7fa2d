"""Panel's per-event bookkeeping made cheap on the server: every widget behaves as before."""

import logging

import panel as pn
from bokeh.document import Document

from labs.server import panel_overhead
from tests.labs.server.test_latency import restore_panel_overhead


def test_edit_readonly_unlocks_only_for_the_edit_and_leaves_every_parameter_as_it_was():
    """A constant parameter can be set inside, is constant again after; the others untouched."""
    slider = pn.widgets.IntSlider(start=0, end=10, value=1)
    before = {name: (p.readonly, p.constant) for name, p in slider.param.objects().items()}
    assert type(slider).param.value_throttled.constant  # locked again, as Panel leaves it
    with panel_overhead.edit_readonly(slider):
        slider.value_throttled = 7
    assert slider.value_throttled == 7
    after = {name: (p.readonly, p.constant) for name, p in slider.param.objects().items()}
    assert after == before


def test_configured_widgets_still_reach_their_models_and_take_their_stylesheets(monkeypatch):
    """After configure(), a value and a stylesheet set on a widget both reach its Bokeh model."""
    restore_panel_overhead(monkeypatch)
    panel_overhead.configure()
    slider = pn.widgets.IntSlider(start=0, end=10, value=1)
    model = slider.get_root(Document())
    designed = len(model.stylesheets)
    slider.value = 4
    slider.stylesheets = [":host { color: red; }"]
    assert model.value == 4
    assert len(model.stylesheets) == designed + 1  # the design's sheets kept, the new one added
    slider._process_events({"value": 6, "value_throttled": 6})  # a browser's drag, released
    assert slider.value == slider.value_throttled == 6
    assert type(slider).param.value_throttled.constant  # locked again, as Panel leaves it


def test_configured_panel_makes_no_debug_records_its_handler_would_drop(monkeypatch):
    """Panel's logger is raised to its handler's level: a debug call builds no record."""
    restore_panel_overhead(monkeypatch)
    panel_log = logging.getLogger("panel")
    monkeypatch.setattr(panel_log, "level", logging.DEBUG)  # as Panel sets it
    for handler in panel_log.handlers:
        monkeypatch.setattr(handler, "level", logging.WARNING)  # as a server's config does
    panel_overhead.configure()
    assert panel_log.level == logging.WARNING
    assert not panel_log.isEnabledFor(logging.DEBUG)
