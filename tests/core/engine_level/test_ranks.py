"""Attention data-parallel ranks: a step waits for the card with the most prompts to prefill."""

from __future__ import annotations

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.engine_level.ranks import busiest_rank_share
from core.engine_level.terms import ALL_TERMS
from core.evaluate import engine_node

_QWEN = dict(model="Qwen3-235B-A22B", gpu="H200", cards=4, weight_dtype="fp8", kv_dtype="fp8",
             prompt_tokens=1024, answer_tokens=1024, realism="engine")  # fmt: skip


def _poisson_max(mean, ranks, draws=400_000, seed=7):
    """E[max of ``ranks`` Poisson(mean) counts], drawn."""
    counts = np.random.default_rng(seed).poisson(mean, size=(draws, int(ranks)))
    return counts.max(axis=1).mean()


def test_a_lone_prompt_holds_every_other_card_and_one_card_waits_for_none():
    """With no other prompt in the step the busiest card holds R times its share; on one card
    the share is the whole."""
    assert_allclose(busiest_rank_share(0.0, np.array([2.0, 4.0, 8.0])), [2.0, 4.0, 8.0])
    assert_allclose(busiest_rank_share(np.array([0.0, 0.5, 3.0, 40.0]), 1.0), 1.0)


def test_the_wait_is_the_expected_busiest_poisson_count_over_its_mean():
    """R E[max of R Poisson(p / R)] / p, checked against drawn counts."""
    for prompts, ranks in ((1.5, 4.0), (6.0, 8.0), (40.0, 2.0)):
        drawn = _poisson_max(prompts / ranks, ranks) / (prompts / ranks)
        assert_allclose(busiest_rank_share(prompts, ranks), drawn, rtol=0.01)


def test_the_wait_falls_towards_an_even_share_as_the_steps_prompts_grow():
    """More prompts a step leave every card with some: the share falls from R towards 1."""
    shares = busiest_rank_share(np.array([0.01, 0.3, 1.0, 4.0, 16.0, 64.0]), 8.0)
    assert np.all(np.diff(shares) < 0)
    assert 1.0 < shares[-1] < 1.6 and 7.5 < shares[0] <= 8.0


def test_a_dep_prompt_alone_prices_its_attention_side_on_one_card():
    """A lone prompt under DEP multiplies its shared GEMMs and attention on its one card: R
    times the spread figure without the term; balanced or not, a lone prompt has no company."""
    for layout in ("dep", "dep-balanced"):
        node = engine_node(Scenario(**_QWEN, layout=layout))
        off = ALL_TERMS - {"rank_waits"}
        assert node.prefill_waits(0.0, ALL_TERMS, alone=True) == 4.0
        assert node.prefill_s(1024.0, 0.0, ALL_TERMS, True) > node.prefill_s(1024.0, 0.0, off, True)


def test_balanced_ranks_pay_their_even_share_and_tensor_parallel_never_waits():
    """A riding prompt waits for the busiest card under DEP, not under a balancer or TP."""
    dep = engine_node(Scenario(**_QWEN, layout="dep"))
    balanced = engine_node(Scenario(**_QWEN, layout="dep-balanced"))
    tp = engine_node(Scenario(**_QWEN, layout="tp"))
    assert_allclose(dep.prefill_waits(1.5, ALL_TERMS, alone=False), busiest_rank_share(1.5, 4))
    assert balanced.prefill_waits(1.5, ALL_TERMS, alone=False) == 1.0
    assert tp.prefill_waits(1.5, ALL_TERMS, alone=False) == 1.0
    assert dep.prefill_s(1024.0, 0.0, ALL_TERMS, False, 1.5) > balanced.prefill_s(
        1024.0, 0.0, ALL_TERMS, False, 1.5
    )


def test_a_balancer_raises_a_dep_nodes_throughput_at_max_load():
    """The same DEP node at max load serves more with its cards prefilling together."""
    figures = {
        layout: evaluate(Scenario(**_QWEN, layout=layout, concurrency=2000, seats=4096))
        for layout in ("dep", "dep-balanced")
    }
    unbalanced, balanced = (float(figures[k].throughput_tokens_per_s) for k in figures)
    assert balanced > unbalanced
    assert Scenario(layout="DEP, balanced").layout == "dep-balanced"
