"""Chart data is sent only when it changed: a knob that leaves a chart alone resends nothing."""

import numpy as np
from bokeh.document import Document
from bokeh.models import ColumnDataSource

from core import Scenario, evaluate
from core.catalog.custom import scenario_shape
from labs.page.updates import refill
from labs.widgets.moe_chart import MoeReadChart


def _sent(source, data) -> int:
    """How many change events ``refill(source, data)`` emits on a document."""
    events = []
    doc = Document()
    doc.add_root(source)
    doc.on_change(events.append)
    refill(source, data)
    return len(events)


def test_equal_data_is_not_sent_again():
    """The same columns, as new arrays or lists of equal values, emit no change."""
    source = ColumnDataSource({"x": np.arange(5.0), "name": ["a", "b", "c", "d", "e"]})
    assert _sent(source, {"x": np.arange(5.0), "name": list("abcde")}) == 0


def test_changed_data_is_sent():
    """A changed value, length or set of columns replaces the data."""
    source = ColumnDataSource({"x": np.arange(5.0)})
    assert _sent(source, {"x": np.arange(5.0) + 1}) == 1
    assert source.data["x"][0] == 1
    assert _sent(ColumnDataSource({"x": np.arange(5.0)}), {"x": np.arange(6.0)}) == 1
    assert _sent(ColumnDataSource({"x": np.arange(5.0)}), {"y": np.arange(5.0)}) == 1


def test_nan_columns_are_sent():
    """NaN never equals itself, so data holding it is always sent (no stale chart)."""
    source = ColumnDataSource({"x": np.array([1.0, np.nan])})
    assert _sent(source, {"x": np.array([1.0, np.nan])}) == 1


def test_a_dense_models_read_curve_is_sent_once_across_batch_sizes():
    """Moving the batch under a dense model moves the marker only; the curve stays put."""
    chart = MoeReadChart()
    result = evaluate(Scenario())
    shape = scenario_shape(Scenario())
    args = ("bf16", result.weight_bytes_per_number)
    chart.update(shape, *args, 8, result.cards, result.card_memory_bytes)
    before = chart.source.data
    chart.update(shape, *args, 32, result.cards, result.card_memory_bytes)
    assert chart.source.data is before
    assert chart.marker.location == 32


def test_assign_sends_only_the_properties_that_changed():
    """assign() leaves an equal property alone (no event) and sets a different one."""
    from bokeh.models import Range1d

    from labs.page.updates import assign

    span = Range1d(0, 10)
    events = []
    doc = Document()
    doc.add_root(span)
    doc.on_change(events.append)
    assign(span, start=0, end=10)
    assert events == []
    assign(span, start=0, end=12)
    assert span.end == 12 and len(events) == 1
