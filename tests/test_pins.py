"""Pins at the parameter level: the link form, what a bad link does, and the comparison's figures."""

from numpy.testing import assert_allclose

from core import Scenario, evaluate
from labs import format as fmt
from labs.compare import FIGURES
from labs.pins import MAX_PINS, decode, encode
from labs.shell import EmbeddedLab, LabShell
from labs.url import query_for, restore


def test_encode_decode_round_trip():
    """Pins written to the link read back as the same knobs, the defaults pin included."""
    pins = [
        {},
        {"tier": "large", "seats": 64},
        {"prefix_hit_rate": 0.55, "workload": "document analysis"},
    ]
    configurations, notices = decode(encode(pins))
    assert configurations == pins and notices == []


def test_bad_pin_entries_are_dropped_with_a_notice():
    """Unknown knobs and choices are ignored, numbers clamped, and a fourth pin refused; all reported."""
    configurations, notices = decode("seats:99999,tier:huge,bogus:1|defaults|seats:3|seats:4")
    assert configurations == [{"seats": 256}, {}, {"seats": 3}]
    assert len(notices) == 4 and any("bogus" in text for text in notices)


def test_pins_survive_a_link_in_every_page():
    """Pin, change knobs, write the link: a fresh shell (or embedded lab) restores the same pins."""
    shell = LabShell()
    shell.pin_board.pin(shell.scenario)
    shell.scenario.param.update(tier="large", kv_dtype="fp8")
    shell.pin_board.pin(shell.scenario)
    query = query_for(shell.page_bindings())
    for fresh in (LabShell(), EmbeddedLab("kv")):
        assert restore(fresh.page_bindings(), query) == []
        assert fresh.pin_board.configurations == [{}, {"tier": "large", "kv_dtype": "fp8"}]


def test_at_most_three_pins():
    """A fourth pin is refused and the pin button says why."""
    shell = LabShell()
    for seats in range(1, MAX_PINS + 2):
        shell.scenario.seats = seats
        shell.pin_board.pin(shell.scenario)
    assert len(shell.pin_board.configurations) == MAX_PINS
    assert shell.pin_bar.pin_button.disabled


def test_comparison_shows_core_figures_and_differences_from_a():
    """Each column is core's result for its knobs; the table gives each figure's change from A."""
    shell = LabShell()
    shell.pin_board.pin(shell.scenario)
    shell.scenario.param.update(seats=64, tier="large")
    comparison = shell.comparison
    assert comparison.names == ["pin A", "now"]
    a, now = evaluate(Scenario()), evaluate(Scenario(seats=64, tier="large"))
    assert_allclose(comparison.results[1].monthly_usd, now.monthly_usd)
    html = comparison.table.object
    for figure in FIGURES:
        assert figure.text(now) in html
        change = getattr(now, figure.field) - getattr(a, figure.field)
        assert f"{figure.change(change)} vs A" in html
    assert fmt.dollars(a.monthly_usd) in comparison.heads[0].object
    frame = comparison.frame()
    assert list(frame["configuration"]) == ["pin A", "now"]
    assert_allclose(frame["ttft_p95_s"], [a.ttft_p95_s, now.ttft_p95_s])


def test_unpinning_everything_hides_the_comparison():
    """With no pins left, the comparison is hidden."""
    shell = LabShell()
    shell.pin_board.pin(shell.scenario)
    assert shell.comparison._layout.visible
    shell.pin_board.unpin(0)
    assert not shell.comparison._layout.visible
