"""bench/riding_experts.py: the fifty-first round's rule switched off and on."""

from __future__ import annotations

from bench.riding_experts import first_token_table, without_riding_streams
from core import Scenario
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node


def test_switching_the_rule_off_leaves_a_riding_prompt_its_arithmetic():
    """Inside the context a riding prompt streams nothing more; outside it does."""
    node = engine_node(Scenario(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                                engine="vllm", realism="engine"))  # fmt: skip
    with without_riding_streams():
        assert node.riding_stream_s(4.0, 1024.0, ALL_TERMS) == 0.0
    assert node.riding_stream_s(4.0, 1024.0, ALL_TERMS) > 0.0


def test_the_rule_keeps_a_second_user_from_bringing_the_first_token_sooner():
    """Without the rule gpt-oss-120b's first token on one H100 came sooner at two users than at
    one; with it, later, and the lone prompt's is the same either way."""
    one, two, one_after, two_after = first_token_table()[
        ("gpt-oss-120b", "H100 SXM", 1, "mxfp4", "vllm")
    ]
    assert two < one == one_after < two_after
