"""The KV cache calculator shows core's figures, the live derivation, and its failures."""

import pytest

from core import Scenario
from core.catalog import DEFAULT_GPU
from labs.kv.lab import KvLab, evaluate_kv, round_tokens
from labs.kv.presets import KV_PRESETS
from labs.page import format as fmt
from labs.prefix.lab import PrefixLab


@pytest.fixture
def lab():
    return KvLab(Scenario())


def shown(lab) -> dict:
    return {card.label: card for card in lab.cards.cards}


def test_defaults_show_the_walkthrough_figures(lab):
    """131,072 bytes; 0.52 GB (as the derivation writes it); 16 of 16 with room for 115; 52 %."""
    cards = shown(lab)
    assert (cards["one cached token"].value, cards["one cached token"].unit) == ("131,072", "bytes")
    seat = cards["one seat's cache at this length"]
    assert (seat.value, seat.unit) == ("0.52", "GB")
    assert cards["seats granted"].value == "16 of 16"
    assert cards["seats granted"].note == "room for 115"
    assert cards["cache share of the weights"].value == "52%"
    assert cards["largest sequence the room holds"].value == "464k"
    assert cards["one sequence outweighs the model"].value == "122k"


def test_derivation_plugs_in_the_model_numbers(lab):
    """The derivation writes 2 x 2 B x 32 layers x 8 KV heads x 128 = 131,072 B and the seats."""
    text = lab.derivation.object
    assert (
        "2 (key and value) \u00d7 2 B (bf16) \u00d7 32 layers \u00d7 8 KV heads \u00d7 128 head dim"
        in text
    )
    assert "<b>131,072 B</b>" in text
    assert "granted min(16, 115) = <b>16</b>" in text


def test_fp8_doubles_the_room_in_seats(lab):
    """Switching the cache to fp8 halves the token and doubles the seats the room holds."""
    before = lab.result
    lab.scenario.kv_dtype = "fp8"
    assert lab.result.kv_bytes_per_token * 2 == before.kv_bytes_per_token
    assert lab.result.seats_room in (2 * before.seats_room, 2 * before.seats_room + 1)
    assert shown(lab)["one cached token"].value == fmt.count(lab.result.kv_bytes_per_token)


def test_extremes_render_without_errors(lab):
    """A 1M-token sequence and 1,024 requests render: no seat granted, the sentence says why."""
    lab.param.update(sequence_tokens=1_000_000, requests=1024)
    assert shown(lab)["seats granted"].value == "0 of 1,024"
    assert "Memory grants no seat" in lab.binding.object
    squares = lab.ledger.seats
    assert 0 < len(squares["x"]) <= 256 and set(squares["state"]) == {"waiting"}


def test_exact_model_replaces_the_tier(lab):
    """Picking Llama-2-13B shows its MHA cache: 40 layers x 40 heads x 128 x 2 x 2 bytes."""
    lab.widgets["model"].value = "Llama-2-13B"
    expected = evaluate_kv(Scenario(model="Llama-2-13B"), 4000, 16)
    assert shown(lab)["one cached token"].value == fmt.count(expected.kv_bytes_per_token)
    assert "40 layers \u00d7 40 KV heads" in lab.derivation.object
    lab.widgets["model"].value = "use the tier"
    assert lab.scenario.model is None


def test_slider_positions_round_to_tokens_people_type():
    """The log slider lands on three significant digits within the allowed range."""
    assert round_tokens(10**3.6021) == 4000
    assert round_tokens(50.0) == 128
    assert round_tokens(2e6) == 1_048_576


@pytest.mark.parametrize("preset", KV_PRESETS, ids=lambda preset: preset.key)
def test_every_preset_fails_then_its_fix_passes(lab, preset):
    """A loaded failure leaves requests waiting; the documented fix grants them all."""
    lab.presets.load(preset.key)
    assert lab.result.seats_granted < lab.result.seats_requested
    assert 'data-fixed="false"' in lab.presets.story.object
    shared = {k: v for k, v in preset.fix.items() if k in ("tier", "model", "kv_dtype")}
    local = {k: v for k, v in preset.fix.items() if k in ("sequence_tokens", "requests")}
    lab.scenario.param.update(**shared)
    lab.param.update(**local)
    assert lab.result.seats_granted == lab.result.seats_requested
    assert 'data-fixed="true"' in lab.presets.story.object


def test_the_prefix_lab_sees_the_model_chosen_here():
    """One scenario per session: the 70B tier chosen in the KV lab changes the prefix lab's bills."""
    scenario = Scenario()
    kv, prefix = KvLab(scenario), PrefixLab(scenario)
    small_flops = prefix.results.prefill_flops[1]
    kv.widgets["tier"].value = "large"
    assert prefix.results.prefill_flops[1] == pytest.approx(small_flops * 70e9 / 8e9)


def test_the_card_picker_sets_the_shared_card_and_its_count(lab):
    """Picking H200 and 2 cards here moves the room to core's figure; other labs see the card."""
    prefix = PrefixLab(lab.scenario)
    lab.node.gpu.value = "H200"
    lab.node.cards.value = 2
    assert (lab.scenario.gpu, lab.scenario.cards) == ("H200", 2)
    expected = evaluate_kv(Scenario(gpu="H200", cards=2), 4000, 16)
    assert shown(lab)["seats granted"].note == f"room for {fmt.count(expected.seats_room)}"
    assert "(2 cards \u00d7" in lab.derivation.object
    assert prefix.scenario.gpu == "H200"
    lab.node.cards.value = None
    assert lab.scenario.cards is None
    assert lab.node.cards.placeholder == "usual: 1"


def test_a_preset_loads_the_card_it_tells_of(lab):
    """A preset puts the default card back; a bigger card passes its checks but is not the fix."""
    lab.scenario.param.update(gpu="B200", weight_dtype="fp8")
    lab.presets.load("bf16-cache")
    assert (lab.scenario.gpu, lab.scenario.weight_dtype) == (DEFAULT_GPU, "bf16")
    lab.scenario.gpu = "B200"
    assert lab.result.seats_granted == lab.result.seats_requested
    assert 'data-state="gave-up"' in lab.presets.story.object


def test_the_calculator_says_its_sequence_and_requests_are_its_own():
    """The KV lab names the pool's own seats and prompt, which its sliders leave alone."""
    kv = KvLab(Scenario(seats=64, prompt_tokens=8000))
    kv._refresh_details()
    assert "64 seats and 8,000-token" in kv.own_knobs.object
    kv.requests = 3
    assert kv.scenario.seats == 64


def test_mattered_at_the_defaults_is_one_line_and_a_moved_knob_brings_the_table(lab):
    """Every knob at its default: one line, no rows of zeros, no download; a moved knob: its row."""
    from labs.widgets.mattered import QUIET

    assert lab.mattered._pane.object == QUIET and not lab.mattered.download.visible
    lab.scenario.kv_dtype = "fp8"
    html = lab.mattered._pane.object
    assert 'data-knob="kv_dtype"' in html and "data-mattered-quiet" not in html
    assert lab.mattered.download.visible
