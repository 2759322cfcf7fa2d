"""Contexts to a million tokens: attention's share, the node one sequence outgrows, the ring."""

from __future__ import annotations

import dataclasses
import math

import pytest
from hypothesis import given, settings

from core import RESULT_FIELDS, Scenario, evaluate
from core.whiteboard.long_context import scenario_long_context
from labs.kv.lab import SEQUENCE_BOUNDS
from labs.widgets.knobs import UI_RANGES
from tests import strategies
from tests.paths import FIXTURES_DIR

MILLION = 1_048_576
CONFIGS = FIXTURES_DIR / "configs"


def test_the_knobs_reach_a_million_tokens():
    """The prompt knob's and the KV lab's sequence slider both end at 1,048,576 tokens."""
    assert UI_RANGES["prompt_tokens"][1] == MILLION
    assert SEQUENCE_BOUNDS[1] == MILLION


@settings(max_examples=60, deadline=None)
@given(strategies.every_knob())
def test_a_million_token_prompt_evaluates_anywhere(knobs):
    """A 1,048,576-token prompt evaluates on any model and card, every figure finite and >= 0."""
    scenario = Scenario(**{**knobs, "prompt_tokens": MILLION})
    result = evaluate(scenario)
    for name in RESULT_FIELDS:
        value = getattr(result, name)
        if not isinstance(value, bool):
            assert math.isfinite(value) and value >= 0, name
    figures = dataclasses.asdict(scenario_long_context(scenario, result, MILLION))
    for name, value in figures.items():
        assert math.isfinite(value) and value >= 0, name


def test_an_8b_million_token_sequence_needs_three_h100_nodes():
    """8B class, bf16: 131,072 B a token x 2^20 = 137 GB against 60.8 GB of room: 3 nodes."""
    scenario = Scenario(prompt_tokens=MILLION)
    lc = scenario_long_context(scenario, evaluate(scenario), MILLION)
    assert lc.seat_bytes == 131_072 * MILLION
    assert (lc.fits, lc.nodes_needed) == (False, 3)
    assert lc.most_tokens == 60.8e9 // 131_072
    assert lc.ring_bytes_per_node == pytest.approx(131_072 * MILLION * 2 / 3)
    assert lc.ring_s == pytest.approx(131_072 * MILLION * 2 / 3 / (1 * 50e9))
    # 2 L H_q d_h T^2 against 2 P T
    assert lc.attention_flops == 2 * 32 * 32 * 128 * MILLION**2
    assert lc.attention_share == pytest.approx(
        lc.attention_flops / (lc.attention_flops + 2 * 8e9 * MILLION)
    )


def test_short_prompts_are_the_weights_arithmetic():
    """At the default 1,200 tokens attention is about 2 % of prefill and one node holds it."""
    scenario = Scenario()
    lc = scenario_long_context(scenario, evaluate(scenario), 1200)
    assert lc.fits and lc.nodes_needed == 1 and lc.ring_s == 0
    assert lc.attention_share == pytest.approx(0.0193, abs=5e-4)


def test_a_hybrid_holds_far_longer_sequences_on_one_node():
    """Qwen3-Next on 2 H200: 12 attention layers of 2,048 B a token after its fixed 39.5 MB state."""
    config = (CONFIGS / "qwen3-next-80b-a3b.json").read_text()
    scenario = Scenario(
        model="custom", model_config=config, gpu="H200", cards=2, prompt_tokens=MILLION
    )
    result = evaluate(scenario)
    lc = scenario_long_context(scenario, result, MILLION)
    state = 36 * 548_864 * 2
    assert lc.most_tokens == (float(result.kv_budget_bytes) - state) // (12 * 2048)
    assert lc.fits and lc.seat_bytes == 12 * 2048 * MILLION + state


def test_a_typed_or_linked_length_stays_exact_when_the_slider_follows():
    """262,144 typed into the box stays 262,144 (the slider follows without rounding it)."""
    from labs.kv.lab import KvLab

    lab = KvLab()
    lab.sequence_tokens = 262_144
    assert lab.sequence_tokens == 262_144
    assert lab.length.box.value == 262_144
    lab.length.slider.value = math.log10(2_000)  # a drag still lands on a rounded figure
    assert lab.sequence_tokens == 2_000
