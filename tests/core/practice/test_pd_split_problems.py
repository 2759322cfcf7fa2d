"""The prefill:decode split challenge: its answer is the closed form's, its working arrives there."""

import numpy as np
import pytest

from core import evaluate
from core.catalog.workloads import TTFT_SLO_S
from core.practice.pd_split_problems import pd_split as build


@pytest.mark.parametrize("seed", [None, 1, 2, 3, 7, 11, 42])
def test_answer_is_the_pools_prefill_nodes_and_the_working_ends_on_it(seed):
    """The last step is the closed form's prefill-node count; the one before meets the SLO."""
    drawn = build(None if seed is None else np.random.default_rng(seed))
    result = evaluate(**drawn["knobs"])
    steps = drawn["steps"]
    assert steps[-1].value == result.prefill_nodes > 1
    assert steps[-2].value < TTFT_SLO_S
    if len(steps) > 4:
        assert steps[-3].value >= TTFT_SLO_S
    assert all(trap.value != result.prefill_nodes for trap in drawn["traps"])


def test_classic_needs_one_node_more_than_keeps_up():
    """The classic problem: the load fits in 2 nodes, the p95 first token needs 3."""
    drawn = build(None)
    assert [step.value for step in drawn["steps"][:2]][1] == 2
    assert drawn["steps"][-1].value == 3
