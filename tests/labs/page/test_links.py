"""Links: knob values are parsed by hand, clamped or ignored with a notice, and round-trip."""

import param
import pytest

from core import Scenario
from labs.frame.shell import lab_bindings
from labs.kv.lab import KvLab
from labs.page.links import Binding, query_for, restore
from labs.pool.lab import PoolLab


def pool_bindings():
    scenario = Scenario()
    return scenario, PoolLab(scenario), lambda view: lab_bindings(view, scenario)


def test_bad_values_are_clamped_or_ignored_with_notices():
    """seats=-3 clamps to 1; tier=huge, prompt_tokens=abc and a 10,000-character value are ignored."""
    scenario, view, bindings = pool_bindings()
    long_value = "x" * 10_000
    notices = restore(
        bindings(view), f"?seats=-3&tier=huge&prompt_tokens=abc&model={long_value}&warp=9"
    )
    assert scenario.seats == 1 and scenario.tier == "small" and scenario.prompt_tokens == 1200
    text = " | ".join(notices)
    for word in (
        "seats='-3'",
        "using 1",
        "tier='huge'",
        "prompt_tokens='abc'",
        "10,000-character",
        "warp",
    ):
        assert word in text


def test_values_beyond_the_widget_range_clamp_to_it():
    """A link cannot push the pool's batch size past its slider's 256."""
    scenario, view, bindings = pool_bindings()
    notices = restore(bindings(view), "?seats=100000&prefix_hit_rate=7")
    assert scenario.seats == 256 and scenario.prefix_hit_rate == 1.0
    assert len(notices) == 2


def test_non_finite_and_non_numeric_numbers_are_ignored():
    """nan, inf and words never reach a knob."""
    scenario, view, bindings = pool_bindings()
    notices = restore(bindings(view), "?prefix_hit_rate=nan&seats=inf&prompt_tokens=1e400")
    assert scenario.knobs() == Scenario().knobs()
    assert len(notices) == 3


def test_a_link_round_trips_the_state():
    """The query written for a moved page restores the same knobs and preset in a fresh session."""
    scenario, view, bindings = pool_bindings()
    view.presets.load("timestamp")
    scenario.param.update(prefix_hit_rate=0.45, seats=24)
    query = query_for(bindings(view))
    assert query.startswith("?preset=timestamp")
    fresh, fresh_view, fresh_bindings = pool_bindings()
    assert restore(fresh_bindings(fresh_view), query) == []
    assert fresh.knobs() == scenario.knobs()
    assert fresh_view.presets.preset == "timestamp"
    assert fresh_view.presets.story.visible


def test_lab_knobs_travel_in_the_link():
    """The KV lab's sequence length and requests are link keys too."""
    scenario = Scenario()
    view = KvLab(scenario)
    view.param.update(sequence_tokens=32000, requests=64)
    fresh = KvLab(Scenario())
    restore(lab_bindings(fresh, fresh.scenario), query_for(lab_bindings(view, scenario)))
    assert (fresh.sequence_tokens, fresh.requests) == (32000, 64)


def test_defaults_write_an_empty_query():
    """A page at its defaults has a clean link."""
    _scenario, view, bindings = pool_bindings()
    assert query_for(bindings(view)) == ""


def test_booleans_read_common_spellings():
    """presenter=1, true, on all switch a boolean on; a word is refused."""

    class Page(param.Parameterized):
        presenter = param.Boolean(default=False)

    page = Page()
    for text in ("1", "true", "on"):
        page.presenter = False
        assert restore([Binding("presenter", page, "presenter")], f"?presenter={text}") == []
        assert page.presenter
    assert restore([Binding("presenter", page, "presenter")], "?presenter=maybe")


@pytest.mark.parametrize(
    ("query", "knob", "value"),
    [("engine=vLLM", "engine", "vllm"), ("engine=TRT-LLM", "engine", "tensorrt-llm"),
     ("layout=TP%2BEP", "layout", "ep"), ("layout=DEP", "layout", "dep")],
)  # fmt: skip
def test_a_link_names_a_choice_as_people_write_it(query, knob, value):
    """engine=vLLM, TRT-LLM or layout=TP+EP open that choice, as the knob's NamedChoice reads them."""
    from labs.frame.shell import LabShell

    shell = LabShell()
    notices = restore(lab_bindings(shell.view("pool"), shell.scenario), query)
    assert getattr(shell.scenario, knob) == value and notices == []


@pytest.mark.parametrize("query", ["?replicas=1.5", "?session_turns=2.5", "?seats=16.25"])
def test_a_fraction_of_a_whole_number_knob_says_so(query):
    """A fractional value of a whole-number knob is rounded with a notice, never silently."""
    scenario, view, bindings = pool_bindings()
    notices = restore(bindings(view), query)
    knob = query[1:].split("=")[0]
    assert float(getattr(scenario, knob)).is_integer()
    assert any("not a whole number" in notice and knob in notice for notice in notices)


def test_core_refuses_a_fraction_of_a_whole_number_knob_on_every_path():
    """evaluate() refuses session_turns=1.5 as Scenario() does, naming the knob and range."""
    from core import evaluate

    for knob in ("session_turns", "turn_growth_tokens", "replicas", "seats"):
        with pytest.raises(ValueError, match=f"{knob}=1.5 .*whole number"):
            evaluate(Scenario(), **{knob: 1.5})
        with pytest.raises(ValueError, match=f"{knob}=1.5 .*whole number"):
            Scenario(**{knob: 1.5})


@pytest.mark.parametrize("query", ["?realism=engine&engine_version=0.17-atom",
                                   "?engine=sglang&engine_version=0.19"])  # fmt: skip
def test_a_release_of_another_engine_is_ignored_with_a_notice(query):
    """A hand-made link naming one engine's release with another engine opens the page at that
    engine's newest release and says the release was not used, instead of failing the page."""
    scenario, view, bindings = pool_bindings()
    notices = restore(bindings(view), query)
    assert scenario.engine_version is None
    assert any("engine_version=" in notice and "ignored" in notice for notice in notices)
    assert view.__panel__() is not None  # the page builds


def test_a_release_with_its_own_engine_is_taken_in_either_order():
    """engine_version before engine in the link still names vLLM's release."""
    scenario, view, bindings = pool_bindings()
    assert restore(bindings(view), "?engine_version=0.17-atom&engine=vllm&realism=engine") == []
    assert scenario.engine == "vllm" and scenario.engine_version == "0.17-atom"


def test_the_memory_share_travels_in_the_link_and_out_of_range_clamps():
    """memory_share=0.95 round-trips; 7 clamps to the knob's 1 with a notice."""
    scenario, view, bindings = pool_bindings()
    assert restore(bindings(view), "?realism=engine&memory_share=0.95") == []
    assert scenario.memory_share == 0.95
    fresh, fresh_view, fresh_bindings = pool_bindings()
    assert restore(fresh_bindings(fresh_view), query_for(bindings(view))) == []
    assert fresh.memory_share == 0.95
    notices = restore(bindings(view), "?memory_share=7")
    assert scenario.memory_share == 1.0 and len(notices) == 1
