"""Predict first: guesses read in any unit, compared with both levels and a published case."""

import math

import pytest

from core import Scenario, evaluate
from core.engine_level.terms import TERMS
from core.evaluate import evaluate_terms
from core.evidence.cases import PublishedCase
from core.evidence.fidelity import MOVED, predict
from core.practice.calibration import (
    GUESS_UNITS,
    Calibration,
    largest_effect,
    matching_case,
    miss,
    reveal,
)
from labs.frame.shell import LabShell
from labs.kv.lab import evaluate_kv
from labs.page.links import query_for, restore
from labs.pool.lab import PREDICTED


def test_a_guess_is_read_in_any_unit_the_practice_lab_accepts():
    """'27 ms', '0.027 s' and a bare '27' (read in ms) are one guess at the TTFT p95."""
    values = {
        text: reveal(Scenario(), "ttft_p95_s", text).reading.value
        for text in ("27 ms", "0.027 s", "27")
    }
    assert all(value == pytest.approx(0.027) for value in values.values())


def test_the_reveal_shows_both_levels_as_evaluate_gives_them():
    """The whiteboard's and the engine level's figures are evaluate's, and the card's is the whiteboard's."""
    scenario = Scenario()
    for field in GUESS_UNITS:
        found = reveal(scenario, field, "1")
        assert found.whiteboard == pytest.approx(float(getattr(evaluate(scenario), field)))
        assert found.engine == pytest.approx(
            float(getattr(evaluate(scenario, realism="engine"), field))
        )
        assert found.shown == found.whiteboard


def test_within_25_percent_and_the_miss():
    """A guess 20 % off is within; 30 % off is not; the miss is |guess - figure| / figure."""
    seats = float(evaluate(Scenario()).seats_granted)
    assert reveal(Scenario(), "seats_granted", str(seats * 1.2)).within
    outside = reveal(Scenario(), "seats_granted", str(seats * 1.3))
    assert not outside.within and outside.miss == pytest.approx(0.3)
    assert miss(0, 0) == 0 and miss(5, 0) == 1


def test_an_unreadable_guess_says_why_and_never_raises():
    """'27 ms' for a bill, or text with no number, gives a message, not an exception or a score."""
    calibration = Calibration()
    for text in ("27 ms", "lots", ""):
        found = reveal(Scenario(), "monthly_usd", text)
        assert not found.ok and found.reading.message and not found.within
        calibration.record(found)
    assert calibration.guesses == 0


def test_an_unknown_field_is_refused_by_name():
    """A field outside GUESS_UNITS raises a ValueError naming it and the allowed ones."""
    with pytest.raises(ValueError, match=r"field='nodes'.*seats_granted"):
        reveal(Scenario(), "nodes", "1")


def test_the_running_score_is_the_share_within_and_the_median_miss():
    """Three guesses off by 10 %, 20 % and 50 % score 2 in 3 within 25 %, median miss 20 %."""
    seats = float(evaluate(Scenario()).seats_granted)
    calibration = Calibration()
    for factor in (1.1, 0.8, 1.5):
        calibration.record(reveal(Scenario(), "seats_granted", str(seats * factor)))
    assert calibration.share_within == pytest.approx(2 / 3)
    assert calibration.median_miss == pytest.approx(0.2)


def test_a_published_case_on_the_same_node_is_shown_with_its_measurement():
    """Llama-3-8B in fp8 on one H100 at 128-token prompts meets T1's throughput measurement."""
    scenario = Scenario(model="Llama-3-8B", weight_dtype="fp8", kv_dtype="fp8", prompt_tokens=128)
    found = reveal(scenario, "decode_tokens_per_s", "20k")
    assert isinstance(found.case, PublishedCase) and found.case.key == "T1"
    assert found.measured == found.case.measured
    assert found.case_engine == pytest.approx(predict(found.case))
    assert matching_case(Scenario(), "decode_tokens_per_s", 1) is None  # a tier was never measured
    assert matching_case(scenario, "monthly_usd", 1) is None  # no benchmark measures a bill


def test_the_largest_gap_is_named_by_a_waterfall_term():
    """At the defaults prefill taking turns with decode moves the TTFT most; the bill moves not at all."""
    effect = largest_effect(Scenario(), "ttft_p95_s")
    assert effect is not None and effect.term in TERMS and effect.label == TERMS[effect.term]
    terms = list(TERMS)
    before = evaluate_terms(Scenario(), frozenset(terms[: terms.index(effect.term)]))
    after = evaluate_terms(Scenario(), frozenset(terms[: terms.index(effect.term) + 1]))
    assert effect.term == "prefill_time"
    assert (
        effect.factor == pytest.approx(after.ttft_p95_s / before.ttft_p95_s)
        and effect.factor > MOVED
    )
    assert largest_effect(Scenario(), "monthly_usd") is None


def test_predict_first_is_off_by_default_and_every_card_shows_its_figure():
    """The default shell covers nothing: the seed's cards read as they always have."""
    shell = LabShell()
    pool = shell.view("pool")
    assert not shell.predict and not pool.predict.enabled and pool.cards.hidden == frozenset()
    html = pool.cards._pane.object
    assert "?" not in html and "guess first" not in html and not pool.predict.guesses.visible


def test_the_link_turns_predict_first_on_and_a_change_covers_the_cards_again():
    """?predict=1 covers the pool's four cards; a guess uncovers one; a knob change covers it again."""
    shell = LabShell()
    restore(shell.page_bindings(), "?predict=1")
    pool = shell.view("pool")
    assert shell.predict and pool.cards.hidden == frozenset(PREDICTED)
    pool.predict.inputs["live seats"].value = "16"
    assert "live seats" not in pool.cards.hidden and shell.calibration.guesses == 1
    assert 'data-reveal="live seats"' in pool.predict.text.object
    shell.scenario.seats = 24
    assert pool.cards.hidden == frozenset(PREDICTED)
    assert "predict=1" in query_for(shell.page_bindings())


def test_one_score_per_session_across_the_labs():
    """A guess in the KV lab and one in the pool lab count in the same session's score."""
    shell = LabShell()
    shell.predict = True
    kv = shell.view("kv")
    pool = shell.view("pool")
    kv.predict.inputs["one cached token"].value = "128 KiB"
    pool.predict.inputs["monthly bill"].value = "$2,900"
    assert shell.calibration.guesses == 2 and kv.predict.calibration is pool.predict.calibration


def test_the_kv_and_prefix_labs_compare_at_their_own_knobs():
    """The KV lab's guess is judged at its sequence length; the prefix lab's at the state on screen."""
    shell = LabShell(predict=True)
    kv = shell.view("kv")
    kv.sequence_tokens = 8000
    found = reveal(shell.scenario, "seat_kv_bytes", "1 GB", **kv.kv_overrides())
    assert found.shown == pytest.approx(
        float(evaluate_kv(shell.scenario, 8000, kv.requests).seat_kv_bytes)
    )
    prefix = shell.view("prefix")
    prefix.state = "edited"
    edited = reveal(shell.scenario, "ttft_p95_s", "1 s", **prefix.predict_knobs())
    assert edited.shown == pytest.approx(float(prefix.results.ttft_p95_s[1]))
    assert math.isfinite(edited.engine)
