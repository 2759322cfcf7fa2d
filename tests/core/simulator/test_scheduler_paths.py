"""The scheduler's two paths, the step scheduler and the fast loop, under one set of rules."""

import dataclasses

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from core import Scenario
from core.simulator import Requests, draw_requests
from core.simulator.rules import NodeState
from core.simulator.scheduler import Scheduler
from core.simulator.steps import step_costs
from tests import strategies
from tests.engine_reference import REFERENCE_NODES

# A dense node and a mixture of experts (its step reads only the experts its tokens touch).
NODES = {"dense": step_costs(Scenario()), "moe": step_costs(Scenario(**REFERENCE_NODES[1]))}


def with_room(costs, requests, layout, spare_tokens):
    """``costs`` with KV room for the stream's largest request alone plus ``spare_tokens``."""
    if layout == "reserved":
        largest = int((requests.prompt_tokens + requests.max_answer_tokens).max())
    else:
        tokens = int((requests.prompt_tokens + requests.answer_tokens).max())
        largest = -(-tokens // costs.block_tokens) * costs.block_tokens
    room = largest + spare_tokens
    return dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * room)


def assert_same_trace(fast: Scheduler, stepped: Scheduler) -> None:
    """Both nodes served every request, with equal stalls and every trace array equal."""
    assert fast.done == stepped.done == fast.n
    assert fast.stalls == stepped.stalls
    fast_trace, stepped_trace = fast.trace(), stepped.trace()
    assert fast_trace.keys() == stepped_trace.keys()
    for key, value in fast_trace.items():
        np.testing.assert_array_equal(value, stepped_trace[key], err_msg=key)


@settings(max_examples=60, deadline=None)
@given(
    requests=strategies.request_streams(),
    node=st.sampled_from(sorted(NODES)),
    layout=st.sampled_from(["reserved", "paged"]),
    batch=st.integers(1, 48),
    spare_tokens=st.one_of(st.integers(0, 600), st.integers(0, 40_000)),
    prefilled=st.booleans(),
)
def test_the_fast_loop_and_the_step_scheduler_agree(
    requests, node, layout, batch, spare_tokens, prefilled
):
    """Continuous batching gives the same trace, bit for bit, through the fast loop and the steps."""
    costs = with_room(NODES[node], requests, layout, spare_tokens)
    setup = (costs, requests, "continuous", layout, batch, 0.0, 0, prefilled)
    assert_same_trace(Scheduler(*setup).serve(), Scheduler(*setup).step_through())


def test_the_paths_agree_through_preemption():
    """A paged node too small for its stream preempts, and both paths preempt alike."""
    costs = step_costs(Scenario(model="Llama-2-13B"))
    tight = dataclasses.replace(costs, kv_budget_bytes=costs.kv_bytes_per_token * 5000)
    stream = draw_requests(80, 5, arrival="offline", prompt_tokens=300, answer_mean=120)
    setup = (tight, stream, "continuous", "paged", 64, 0.0)
    fast = Scheduler(*setup).serve()
    assert fast.stays.columns()["preempted"].any()
    assert_same_trace(fast, Scheduler(*setup).step_through())


def test_admission_stops_at_the_first_request_memory_cannot_hold():
    """Plan takes requests in order while each fits; none overtakes one that does not fit."""
    answers = np.array([3, 3, 3])
    stream = Requests(np.zeros(3), np.array([15, 40, 1]), answers, answers)
    node = NodeState(stream, "continuous", "paged", batch=4, block=16, capacity=3)
    assert node.rules.plan(node.rules.room()) == ([0], True)
