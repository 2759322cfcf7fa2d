"""Attention data-parallel ranks: a prompt prefilled alone runs on the one card that holds it."""

from __future__ import annotations

from core import Scenario
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

_QWEN = dict(model="Qwen3-235B-A22B", gpu="H200", cards=4, weight_dtype="fp8", kv_dtype="fp8",
             prompt_tokens=1024, answer_tokens=1024, realism="engine")  # fmt: skip


def test_a_dep_prompt_alone_takes_its_one_cards_time_for_its_attention_side():
    """Alone under DEP, a prompt's attention side costs the node four times its even share on
    four cards (part of the prefill_shape term); beside other prompts, its even share."""
    node = engine_node(Scenario(**_QWEN, layout="dep"))
    assert node.prefill_waits(ALL_TERMS, alone=True) == 4.0
    assert node.prefill_waits(ALL_TERMS - {"prefill_shape"}, alone=True) == 1.0
    assert node.prefill_waits(ALL_TERMS, alone=False) == 1.0


def test_tensor_parallel_never_waits_and_a_lone_dep_prompt_outlasts_a_spread_one():
    """Under tensor parallelism nothing waits; a lone DEP prompt takes longer than the same
    prompt over tensor-parallel attention with its experts spread (EP)."""
    tp = engine_node(Scenario(**_QWEN, layout="tp"))
    assert tp.prefill_waits(ALL_TERMS, alone=True) == 1.0
    dep = engine_node(Scenario(**_QWEN, layout="dep")).prefill_s(1024.0, 0.0, ALL_TERMS, True)
    ep = engine_node(Scenario(**_QWEN, layout="ep")).prefill_s(1024.0, 0.0, ALL_TERMS, True)
    assert dep > ep
