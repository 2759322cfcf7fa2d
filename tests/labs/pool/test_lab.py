"""The pool lab shows what core computes, and its famous failures fail until fixed."""

import pytest

from core import Scenario, evaluate
from core.studies.sensitivity import knob_effects
from labs.page import format as fmt
from labs.pool.details import HEADLINES, SWEPT_KNOBS
from labs.pool.lab import PoolLab, other_workload, pool_defaults
from labs.pool.presets import POOL_PRESETS


@pytest.fixture
def lab():
    return PoolLab(Scenario())


def card(lab, label):
    return next(card for card in lab.cards.cards if card.label == label)


def test_defaults_show_the_walkthrough_figures(lab):
    """At the defaults the cards read 16 seats, 27 ms, 1,698 tok/s and $2,913 with zero deltas."""
    assert card(lab, "live seats").value == "16"
    assert (card(lab, "TTFT p95").value, card(lab, "TTFT p95").unit) == ("27", "ms")
    assert card(lab, "aggregate decode rate").value == "1,698"
    assert card(lab, "monthly bill").value == "$2,913"
    notes = [card.note for card in lab.cards.cards]
    assert notes == [
        "vs defaults: +0 seats",
        "vs defaults: +0 ms",
        "vs defaults: +0 tok/s",
        f"vs defaults: $0 \u00b7 {fmt.token_price(evaluate(Scenario()).usd_per_million_output_tokens)} per M output "
        "at the peak-minute rate",
    ]


def test_seats_knob_moves_the_cards_as_core_predicts(lab):
    """Raising the batch to 64 seats shows core's seats, decode rate and the difference."""
    lab.scenario.seats = 64
    expected = evaluate(Scenario(seats=64))
    base = evaluate(Scenario())
    assert card(lab, "live seats").value == fmt.count(expected.seats_granted)
    assert (
        card(lab, "aggregate decode rate").value
        == fmt.rate(expected.decode_tokens_per_s).split()[0]
    )
    delta = expected.decode_tokens_per_s - base.decode_tokens_per_s
    assert card(lab, "aggregate decode rate").note == f"vs defaults: {fmt.signed(delta, 'tok/s')}"
    assert card(lab, "aggregate decode rate").tone == "better"


def test_badges_follow_core_verdicts(lab):
    """Switching to the 70B tier shows core's latency, capacity and cost verdicts."""
    lab.scenario.tier = "large"
    expected = evaluate(Scenario(tier="large"))
    states = {item.name: item.ok for item in lab.badges.items}
    assert states == {
        "latency": expected.latency_ok,
        "capacity": expected.capacity_ok,
        "cost": expected.cost_ok,
    }
    assert 'data-state="fail"' in lab.badges._pane.object


def test_on_a_replayed_hour_the_latency_badge_judges_the_replay(lab):
    """The code hour sized for its mean: core's check on the replay fails the badge, saying so."""
    from core.traffic.replay import latency_check, replay

    lab.scenario.param.update(traffic="azure-code", arrivals_per_min=154.0)
    expected = latency_check(
        lab.result, replay(Scenario(traffic="azure-code", arrivals_per_min=154.0))
    )
    latency = next(item for item in lab.badges.items if item.name == "latency")
    assert lab.result.latency_ok and not expected.ok
    assert latency.ok == expected.ok and latency.reason.startswith("the replayed hour:")
    assert fmt.duration(expected.ttft_p95_s) in latency.reason
    lab.scenario.traffic = "poisson"
    latency = next(item for item in lab.badges.items if item.name == "latency")
    assert latency.ok and not latency.reason.startswith(("the replayed hour", "closed form"))


def test_ledger_chart_data_follow_the_result(lab):
    """The ledger's bars hold the per-card weights and KV in use, in GB, and the seats grid the ask."""
    lab.scenario.param.update(tier="large", seats=40)
    result = lab.result
    bars = lab.ledger.bars.data
    rows = list(zip(bars["card"], bars["segment"], bars["gb"], strict=True))
    assert sorted(set(bars["card"])) == ["card 1", "card 2"]
    weights = [gb for card, segment, gb in rows if segment == "weights"]
    in_use = [gb for card, segment, gb in rows if segment == "kv_in_use"]
    assert weights[0] == pytest.approx(result.weight_bytes / 2 / 1e9)
    assert in_use[0] == pytest.approx(result.kv_bytes_in_use / 2 / 1e9)
    assert bars["left"][:2] == [0.0, pytest.approx(weights[0])]  # weights first, KV after
    granted = lab.ledger.seats["state"].count("granted")
    assert granted == result.seats_granted


def test_other_workload_reads_its_own_verdicts(lab):
    """The other-workload panel shows core's verdicts for the same knobs on the other traffic."""
    lab.scenario.param.update(seats=4, prompt_tokens=6000)
    other = evaluate(lab.scenario, workload=other_workload(lab.scenario.workload))
    for name, ok in (
        ("latency", other.latency_ok),
        ("capacity", other.capacity_ok),
        ("cost", other.cost_ok),
    ):
        assert f"{name}: {'pass' if ok else 'fail'}" in lab.other.object


def test_mattered_table_matches_core_sensitivity(lab):
    """Each knob's label is core's verdict on resetting that knob alone."""
    lab.scenario.param.update(seats=64, kv_dtype="fp8", prompt_tokens=3000)
    defaults = pool_defaults()
    effects = knob_effects(lab.scenario, {k: defaults[k] for k in SWEPT_KNOBS}, HEADLINES)
    shown = {effect.knob: effect.mattered for effect in lab.mattered.effects}
    assert shown == {effect.knob: effect.mattered for effect in effects}


@pytest.mark.parametrize("preset", POOL_PRESETS, ids=lambda preset: preset.key)
def test_every_preset_fails_when_loaded(lab, preset):
    """Loading a famous failure fails at least one check and shows its story, not yet fixed."""
    lab.presets.load(preset.key)
    assert not lab.passes
    assert lab.presets.story.visible
    assert 'data-fixed="false"' in lab.presets.story.object
    assert "Still failing" in lab.presets.story.object


@pytest.mark.parametrize("preset", POOL_PRESETS, ids=lambda preset: preset.key)
def test_documented_fix_passes_and_is_recognised(lab, preset):
    """Applying the preset's documented fix passes every check and the lab says so."""
    lab.presets.load(preset.key)
    lab.scenario.param.update(**preset.fix)
    assert lab.passes
    assert lab.presets.fixed
    assert 'data-fixed="true"' in lab.presets.story.object
    assert f"You moved {len(preset.fix)} knob" in lab.presets.story.object


def test_memory_wall_makes_the_seats_dial_noise(lab):
    """In the memory wall, resetting the seats changes nothing: the dial is noise."""
    lab.presets.load("memory-wall")
    seats = next(effect for effect in lab.mattered.effects if effect.knob == "seats")
    assert not seats.mattered
    assert "Memory binds" in lab.binding.object


def test_reset_returns_every_knob_to_its_default(lab):
    """The reset button restores the default scenario and clears the story."""
    lab.presets.load("70b-upgrade")
    lab.presets._reset_clicked(None)
    assert lab.scenario.knobs() == Scenario().knobs()
    assert not lab.presets.story.visible
    assert card(lab, "monthly bill").value == "$2,913"


def test_explanations_quote_the_result(lab):
    """The generated sentences carry core's cards, KV room, tokens per seat and node count."""
    text = lab.facts.object
    result = lab.result
    assert f"{fmt.gigabytes(result.kv_budget_bytes)} of KV room" in text
    assert f"holds {fmt.tokens(result.seat_tokens)} KV tokens" in text
    assert f"other {fmt.tokens(result.miss_tokens)}" in text
    assert f"needs {result.nodes} node" in text


def test_bill_card_quotes_core_price_per_million_output_tokens():
    """Beside the monthly bill: core's dollars per million output tokens; the story adds input."""
    lab = PoolLab()
    result = evaluate(lab.scenario)
    assert fmt.token_price(result.usd_per_million_output_tokens) in card(lab, "monthly bill").note
    assert fmt.token_price(result.usd_per_million_input_tokens) in lab.facts.object


def test_a_preset_loads_the_default_node_so_its_story_quotes_the_screen(lab):
    """After a card change, a famous failure puts the card back: its story's figures are on screen."""
    lab.scenario.param.update(gpu="B200", cards=2, weight_dtype="fp8")
    lab.presets.load("memory-wall")
    defaults = pool_defaults()
    assert (lab.scenario.gpu, lab.scenario.cards, lab.scenario.weight_dtype) == (
        defaults["gpu"], defaults["cards"], defaults["weight_dtype"],
    )  # fmt: skip
    weights = fmt.gigabytes(lab.result.weight_bytes)
    assert weights in lab.presets.story.object


def test_moving_the_card_after_a_preset_counts_as_a_moved_knob(lab):
    """The preset's story lists a card change among the knobs moved from it."""
    lab.presets.load("memory-wall")
    lab.scenario.gpu = "B200"
    assert "card" in lab.presets.story.object.split("You moved")[1]


def test_after_a_workload_switch_the_cards_say_which_defaults_they_compare_with(lab):
    """On document analysis the deltas are against that workload's defaults, and the note says so."""
    lab.scenario.prompt_tokens = 3000
    lab.scenario.workload = "document analysis"
    base = evaluate(Scenario(workload="document analysis"))
    ttft = card(lab, "TTFT p95").note
    assert ttft.startswith("vs document analysis defaults: ")
    assert fmt.signed_duration(lab.result.change_from(base, "ttft_p95_s")) in ttft
    lab.scenario.workload = "chat"
    assert card(lab, "TTFT p95").note.startswith("vs defaults: ")


def test_mattered_names_every_knob_moved_off_its_default(lab):
    """With three replicas, affinity routing and a derived hit rate, the table names all three."""
    lab.scenario.param.update(replicas=3, router="prefix-affinity", prefix_source="derived")
    lab._refresh_details()
    rows = {effect.knob: effect for effect in lab.mattered.effects}
    assert {"replicas", "router", "prefix_source"} <= set(rows)
    assert rows["replicas"].mattered and 'data-knob="replicas"' in lab.mattered._pane.object


def test_a_closed_session_whose_fold_was_opened_and_closed_is_freed():
    """Beyond the walkthrough opened and closed again: released, the page, lab and scenario go."""
    import gc
    import weakref

    from labs.frame.shell import EmbeddedLab

    page = EmbeddedLab("pool")
    lab = page.view("pool")
    lab.beyond.toggle.value = True
    lab.beyond.toggle.value = False
    refs = [weakref.ref(page), weakref.ref(page.scenario), weakref.ref(lab)]
    page.release()
    del page, lab
    gc.collect()
    assert [ref() for ref in refs] == [None] * len(refs)


def test_a_closed_loops_first_token_names_its_users_on_both_pages_that_show_it():
    """Where 93 closed-loop users drive the engine, the pool's and the prefix lab's TTFT cards
    say so beside the cached share (their first token queues behind the users' prompts, not the
    peak's arrivals), and the pool's decode rate says it is every seat's, at full load."""
    from labs.prefix.lab import PrefixLab

    scenario = Scenario(
        model="Mistral-7B", gpu="H20", cards=3, weight_dtype="int4", prompt_tokens=1650,
        answer_tokens=1, realism="engine", concurrency=93,
    )  # fmt: skip
    pool, prefix = PoolLab(scenario), PrefixLab(scenario)
    assert card(pool, "TTFT p95").qualifier.endswith(", 93 closed-loop users")
    assert card(prefix, "TTFT p95").qualifier.endswith(", 93 closed-loop users")
    assert card(pool, "aggregate decode rate").qualifier == "at full load"
    scenario.realism = "whiteboard"  # the whiteboard has no closed loop
    assert "closed-loop" not in card(pool, "TTFT p95").qualifier
