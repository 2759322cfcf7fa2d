"""The serving-modes card: three designs on one stream, its charts' data, its refusals."""

import numpy as np
import param
import pytest

from core import Scenario
from core.simulator.batching import CHANGE_WORK, work
from labs.batching import modes_charts as charts
from labs.batching.modes import STALL_PRESET, ServingModesCard


@pytest.fixture(scope="module")
def card():
    """A card on the default node, with the stall preset loaded."""
    card = ServingModesCard(Scenario())
    card.load_preset()
    return card


def test_the_preset_stalls_without_chunking_and_not_with_either_fix(card):
    """One 16k prompt: a long gap unchunked; chunked and disaggregated keep every gap short."""
    r = card.results
    longest = {mode: result.itl_s().max() for mode, result in r.items()}
    assert longest["aggregated"] > 10 * longest["chunked"]
    assert longest["aggregated"] > 10 * longest["disaggregated"]
    assert len(r["aggregated"].stalls()["request"]) > 0
    assert "; 0 stream(s) stalled" in card.captions["chunked"].object
    assert "; 0 stream(s) stalled" not in card.captions["aggregated"].object


def test_every_design_serves_the_same_stream_on_the_same_cards(card):
    """Same arrivals in each design; x + y nodes aggregated, x prefill and y decode apart."""
    r = card.results
    for result in r.values():
        np.testing.assert_array_equal(result.arrival_s, r["aggregated"].arrival_s)
    assert len(r["aggregated"].node_roles) == card.prefill_cards + card.decode_cards
    assert r["disaggregated"].node_roles.count("prefill") == card.prefill_cards
    assert r["chunked"].chunk_tokens == card.chunk_tokens


def test_percentile_bars_are_the_results_in_ms(card):
    """The TTFT and ITL bars are each design's p50/p95/p99, in milliseconds."""
    data = card.itl_source.data
    assert len(data["ms"]) == 9
    expected = [
        getattr(card.results[mode], f"itl_{q}_s") * 1e3
        for mode in card.results
        for q in charts.PERCENTILES
    ]
    np.testing.assert_allclose(data["ms"], expected)


def test_kv_transfer_is_its_own_bar(card):
    """The path chart has a KV-transfer bar per design: zero unless disaggregated."""
    data = card.path_source.data
    transfer = {
        x[0]: ms for x, ms in zip(data["x"], data["ms"], strict=True) if x[1] == "KV transfer"
    }
    assert transfer["no chunking"] == transfer["chunked prefill"] == 0
    expected = card.results["disaggregated"].transfer_s.mean() * 1e3
    assert transfer["disaggregated"] == pytest.approx(expected)
    assert transfer["disaggregated"] > 0


def test_timeline_data_draws_each_stay_twice(card):
    """Each stay gives a prefill bar and a writing bar; no bar ends before it starts."""
    result = card.results["chunked"]
    data = charts.timeline_data(result, card.long_prompt_tokens)
    assert len(data["stays"]["row"]) == 2 * result.segments["request"].size
    assert np.all(np.asarray(data["stays"]["right"]) >= np.asarray(data["stays"]["left"]))


def test_a_stream_the_node_cannot_hold_is_refused_with_a_notice():
    """A long prompt past the node's KV room: a visible notice, the last charts kept."""
    card = ServingModesCard(Scenario(model="Llama-2-13B", gpu="L40S"))
    before = card.results
    card.long_prompt_tokens = 32_768
    assert card.error and "prompt_tokens" in card.error
    assert card.notice.visible
    assert card.results is before
    card.long_prompt_tokens = STALL_PRESET["long_prompt_tokens"]
    assert not card.notice.visible or card.error


def test_more_prefill_nodes_cut_disaggregated_ttft_only(card):
    """Adding a prefill node lowers disaggregated TTFT p95 and leaves its ITL p50 alone."""
    before = card.results["disaggregated"]
    card.prefill_cards = 2
    after = card.results["disaggregated"]
    card.prefill_cards = 1
    assert after.ttft_p95_s < before.ttft_p95_s
    assert after.itl_p50_s == pytest.approx(before.itl_p50_s, rel=0.05)


def test_the_cards_knobs_travel_in_the_batching_labs_link():
    """The card's knobs go in the link as pd_* keys and a link restores them."""
    from labs.batching import BatchingLab
    from labs.frame.shell import lab_bindings
    from labs.page.links import query_for, restore

    scenario = Scenario()
    lab = BatchingLab(scenario)
    lab.modes.param.update(prefill_cards=2, chunk_tokens=1024, link="infiniband")
    query = query_for(lab_bindings(lab, scenario))
    assert "pd_prefill_cards=2" in query and "pd_link=infiniband" in query
    other_scenario = Scenario()
    other = BatchingLab(other_scenario)
    restore(lab_bindings(other, other_scenario), "?" + query.lstrip("?"))
    assert other.modes.prefill_cards == 2 and other.modes.chunk_tokens == 1024
    assert other.modes.link == "infiniband"


def test_the_pool_lab_prices_a_disaggregated_pool():
    """At the engine level the pool lab's bill and verdicts follow the serving mode."""
    from core import evaluate
    from labs.pool.lab import PoolLab

    scenario = Scenario(realism="engine")
    lab = PoolLab(scenario)
    whole = lab.result
    scenario.serving_mode = "disaggregated"
    apart = lab.result
    assert apart.monthly_usd == evaluate(scenario).monthly_usd > whole.monthly_usd
    assert apart.prefill_nodes >= 1 and whole.prefill_nodes == 0


def test_dragging_a_slider_reruns_the_designs_only_on_release():
    """A drag moves a slider's value without rerunning the designs; the release sets the knob."""
    card = ServingModesCard(Scenario())
    widget, results = card.widgets["batch_size"], card.results
    widget.value = widget.start  # what each step of a drag sends
    assert card.batch_size == ServingModesCard.param.batch_size.default
    assert card.results is results
    with param.edit_constant(widget):
        widget.value_throttled = widget.start  # the handle released
    assert card.batch_size == widget.start
    assert card.results is not results


def test_the_heaviest_designs_stay_within_the_change_budget():
    """Every request, the longest answers, one seat, the finest chunks: within CHANGE_WORK."""
    knobs = ServingModesCard.param
    card = ServingModesCard(Scenario())
    card.param.update(
        requests=knobs.requests.bounds[1],
        answer_mean=knobs.answer_mean.bounds[1],
        arrival_rate=knobs.arrival_rate.bounds[1],
        batch_size=knobs.batch_size.bounds[0],
        chunk_tokens=knobs.chunk_tokens.bounds[0],
        long_every=1,
        long_prompt_tokens=knobs.long_prompt_tokens.bounds[1],
        prefill_cards=knobs.prefill_cards.bounds[1],
        decode_cards=knobs.decode_cards.bounds[1],
    )
    assert card.error == ""
    assert work(card.results.values()) <= CHANGE_WORK
    served = card.results["chunked"].requests
    assert served < knobs.requests.bounds[1]
    assert (
        card.notice.visible
        and f"first {served:,} of the {knobs.requests.bounds[1]:,}" in card.notice.object
    )
