"""Prefix caching at block granularity, and the prefix lab built on it."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import MODELS, Scenario, evaluate
from core.cache.prefix import block_states, cached_prefix_tokens, prefill_card_hours_per_hour
from labs.page import format as fmt
from labs.prefix.lab import PrefixLab, block_squares


def test_unchanged_preamble_keeps_its_full_blocks():
    """1,200 tokens are 75 whole blocks: all of them hit; 1,210 keeps 75 and drops the partial one."""
    assert cached_prefix_tokens(1200) == 1200
    assert cached_prefix_tokens(1210) == 1200


def test_edit_voids_its_block_and_everything_after():
    """An edit at token 0 voids all; at 1,199 only the last block; arrays evaluate at once."""
    assert_allclose(
        cached_prefix_tokens(1200, np.array([0, 15, 16, 600, 1199])), [0, 0, 16, 592, 1184]
    )


def test_block_states_mark_edit_and_invalidated_blocks():
    """States: cached before the edit, the edit's block, invalidated after, partial last block."""
    states = block_states(40, 20)
    assert states.tolist() == [0, 1, 2]
    assert block_states(40, None).tolist() == [0, 0, 3]


def test_prefill_spend_scales_with_arrivals_and_time():
    """240 arrivals a minute x 42 ms on one card is 0.168 card-hours per hour."""
    assert_allclose(prefill_card_hours_per_hour(240, 0.042, 1), 240 * 60 * 0.042 / 3600)


@pytest.fixture
def lab():
    return PrefixLab(Scenario())


def test_cached_and_edited_differ_as_core_predicts(lab):
    """The edited preamble prefills every token; the cached one only the question."""
    result = lab.results
    prompt = lab.preamble_tokens + lab.question_tokens
    cached = evaluate(Scenario(), prompt_tokens=prompt, prefix_hit_rate=1200 / prompt)
    edited = evaluate(Scenario(), prompt_tokens=prompt, prefix_hit_rate=0.0)
    assert_allclose(result.ttft_p95_s, [cached.ttft_p95_s, edited.ttft_p95_s])
    assert result.ttft_p95_s[1] > result.ttft_p95_s[0]
    assert "1.6 TFLOP" in lab.compare.object and "20.8 TFLOP" in lab.compare.object


def test_edit_at_the_last_block_costs_almost_nothing(lab):
    """Moving the edit to the last block keeps 74 of 75 blocks cached."""
    lab.param.update(edit_position=1199, state="edited")
    assert lab.results.hit_tokens[1] == 1184
    states = lab.blocks.data["state"]
    assert states.count("cached") == 74 and states.count("edit lands here") == 1


def test_tapping_a_block_moves_the_edit(lab):
    """Selecting block 10 in the picture puts the edit at token 160 and shows the edited state."""
    lab._tapped("indices", [], [10])
    assert (lab.edit_position, lab.state) == (160, "edited")


def test_long_preambles_group_blocks_into_squares():
    """A 200k-token preamble draws at most 400 squares, each standing for several blocks."""
    data, per_square = block_squares(200_000, 100, 0)
    assert len(data["x"]) <= 400 and per_square > 1


def test_shrinking_the_preamble_clamps_the_edit(lab):
    """An edit beyond a shortened preamble moves to its end; the slider's range follows."""
    lab.edit_position = 1100
    lab.preamble_tokens = 800
    assert lab.edit_position == 800 and lab.edit_slider.end == 800


def test_a_mixture_prefills_on_its_active_parameters():
    """On DeepSeek-V3 (8 x H200, fp8) the lab names the node and writes 2 x active x tokens."""
    scenario = Scenario(model="DeepSeek-V3", gpu="H200", cards=8, weight_dtype="fp8")
    lab = PrefixLab(scenario)
    assert "8 \u00d7 H200" in lab.context.object and "fp8</b> weights" in lab.context.object
    shape = MODELS["DeepSeek-V3"]
    active, total = fmt.billions(shape.active_params), fmt.billions(shape.params)
    edited = fmt.flops(lab.results.prefill_flops[1])
    html = lab.compare.object
    assert f"2 \u00d7 {active} \u00d7 {fmt.count(lab.results.miss_tokens[1])} = {edited}" in html
    assert f"{active} of its {total}" in html
