"""Pins at the parameter level: the link form, what a bad link does, and the comparison's figures."""

from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog.config_json import compact_config, parse_config
from labs.frame.compare import FIGURES
from labs.frame.pins import MAX_PINS, decode, describe, encode
from labs.frame.shell import EmbeddedLab, LabShell
from labs.page import format as fmt
from labs.page.links import query_for, restore
from tests.paths import FIXTURES_DIR

CONFIGS = FIXTURES_DIR / "configs"


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


def test_a_pin_of_a_pasted_model_keeps_that_model():
    """A pinned pasted config.json is named in the pin, evaluated in its column and kept in the link."""
    text = compact_config((CONFIGS / "gpt-oss-120b.json").read_text())
    shell = LabShell()
    shell.scenario.param.update(model_config=text, model="custom", weight_dtype="mxfp4")
    shell.pin_board.pin(shell.scenario)
    (pin,) = shell.pin_board.configurations
    assert pin["model_config"] == text and pin["model"] == "custom"
    name = parse_config(text).shape.name
    assert name in describe(pin) and "{" not in describe(pin)
    assert name in shell.pin_bar.chips.object
    shell.scenario.param.update(model=None, model_config="")
    shell.comparison._refresh()
    expected = evaluate(Scenario(model_config=text, model="custom", weight_dtype="mxfp4"))
    pinned = shell.comparison.results[0]
    assert_allclose(
        [pinned.weight_bytes, pinned.monthly_usd], [expected.weight_bytes, expected.monthly_usd]
    )
    query = query_for(shell.page_bindings())
    fresh = LabShell()
    assert restore(fresh.page_bindings(), query) == []
    assert fresh.pin_board.configurations == [pin]


def test_a_pin_of_another_model_leaves_the_pasted_config_out():
    """A config.json pasted earlier but not running stays out of the pin."""
    text = compact_config((CONFIGS / "llama-3.1-8b.json").read_text())
    scenario = Scenario(model_config=text, model="DeepSeek-V3")
    assert "model_config" not in encode([scenario.knobs()])


def test_a_pasted_model_pin_without_its_config_says_it_shows_the_tier():
    """A pin naming a pasted model but holding no (or a broken) config runs the tier, with a notice."""
    configurations, notices = decode("model:custom,seats:32|model:custom,model_config:zzz")
    assert configurations == [{"seats": 32}, {}]
    assert len(notices) == 3
    assert "pin A named a pasted model without its config.json" in notices[0]
    assert "model_config ignored" in notices[1]
