"""The Azure traces ship with the project and read back the figures their README quotes."""

from __future__ import annotations

import pytest

from core.catalog.traces import TRACES, load_trace

# requests, mean a minute, peak minute, peak second, prompt p50/p95, answer p50/p95
QUOTED = {
    "azure-conversation": (19_366, 332, 502, 19, 1020, 4083, 129, 451),
    "azure-code": (8_819, 154, 585, 67, 1469, 7302, 13, 90),
}


@pytest.mark.parametrize("name", TRACES)
def test_each_trace_reads_back_its_quoted_figures(name):
    """Each trace's requests, mean and peak minute, peak second and length percentiles are the README's."""
    trace = load_trace(name)
    requests, mean, peak, second, p50, p95, a50, a95 = QUOTED[name]
    assert trace.requests == requests
    assert round(trace.mean_per_min) == mean
    assert trace.peak_minute == peak
    assert trace.peak_second == second
    assert (trace.percentile("prompt", 50), trace.percentile("prompt", 95)) == (p50, p95)
    assert (trace.percentile("answer", 50), trace.percentile("answer", 95)) == (a50, a95)
    assert trace.per_minute.sum() == requests


def test_a_trace_is_read_once_and_cannot_be_changed():
    """Every caller gets the same cached arrays, and writing to them raises."""
    trace = load_trace("azure-code")
    assert load_trace("azure-code") is trace
    with pytest.raises(ValueError):
        trace.arrival_s[0] = 0.0


def test_an_unknown_trace_is_refused_by_name():
    """A name that is no trace raises a ValueError naming it and the known ones."""
    with pytest.raises(ValueError, match="azure-code"):
        load_trace("azure-chat")
