"""bench/riding_prompts.py: the fifty-first and fifty-second rounds' rules switched off and on."""

from __future__ import annotations

from bench.riding_prompts import first_token_table
from bench.rounds import as_round
from core import Scenario
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node


def test_each_round_is_read_with_its_rule_and_without_the_later_one():
    """Round 51 without its rule prices no riding stream, with it a stream but still no riding
    collectives (the later round's); round 52 with its rule prices both."""
    node = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                                engine="vllm", realism="engine"))  # fmt: skip

    def priced():
        return (node.riding_stream_s(4.0, 1024.0, ALL_TERMS) > 0.0,
                node.riding_collectives_s(4.0, 1024.0, ALL_TERMS) > 0.0)  # fmt: skip

    with as_round(51, rule=False):
        assert priced() == (False, False)
    with as_round(51):
        assert priced() == (True, False)
    with as_round(52, rule=False):
        assert priced() == (True, False)
    with as_round(52):
        assert priced() == (True, True)
    assert priced() == (True, True)


def test_the_rules_keep_a_second_user_from_bringing_the_first_token_sooner():
    """Without the fifty-first round's rule gpt-oss-120b's first token on one H100 came sooner at
    two users than at one; with it, later, and the lone prompt's is the same either way."""
    one, two, one_after, two_after = first_token_table(51)[
        ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm")
    ]
    assert two < one == one_after < two_after
