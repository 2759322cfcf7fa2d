"""Practice on today's models: the MLA cache and the weights a mixture of experts reads, as core counts them."""

import numpy as np
import pytest
from numpy.testing import assert_allclose

from core import evaluate
from core.catalog import BYTES_PER_NUMBER
from core.foundation.units import express
from core.practice import check_answer, make_problem
from core.practice.model_problems import MLA_MODELS, MOE_MODELS
from core.whiteboard import attention
from core.whiteboard.experts import read_curve

SEEDS = (0, 1, 3, 17, 1234, 98765, 424242, 999_999)


@pytest.mark.parametrize("seed", SEEDS)
def test_mla_answer_is_cores_latent_cache(seed):
    """The MLA answer is finite, positive, and core's kv_bytes_per_token for an MLA model."""
    problem = make_problem("mla_kv_bytes", seed)
    shape = MLA_MODELS[problem.knobs["model"]]
    size = BYTES_PER_NUMBER[problem.knobs["kv_dtype"]]
    assert np.isfinite(problem.answer) and problem.answer > 0
    assert_allclose(problem.answer, evaluate(**problem.knobs).kv_bytes_per_token, rtol=0)
    assert_allclose(problem.answer, attention.shape_kv_bytes_per_token(shape, size, 1), rtol=1e-12)


@pytest.mark.parametrize("seed", SEEDS)
def test_mla_steps_multiply_out(seed):
    """Latent + rotary numbers, times bytes per number, times layers, gives the answer."""
    problem = make_problem("mla_kv_bytes", seed)
    shape = MLA_MODELS[problem.knobs["model"]]
    size = BYTES_PER_NUMBER[problem.knobs["kv_dtype"]]
    numbers, per_layer, total = (step.value for step in problem.steps)
    assert numbers == shape.kv_lora_rank + shape.qk_rope_head_dim
    assert_allclose(per_layer, numbers * size, rtol=1e-12)
    assert_allclose(total, per_layer * shape.layers, rtol=1e-12)
    assert_allclose(total, problem.answer, rtol=0)


@pytest.mark.parametrize("seed", SEEDS)
def test_moe_answer_is_what_the_pool_chart_shows(seed):
    """The MoE answer is finite, positive, core's weight_bytes_read and the MoE read curve's point."""
    problem = make_problem("moe_weight_read", seed)
    knobs = problem.knobs
    shape = MOE_MODELS[knobs["model"]]
    result = evaluate(**knobs)
    assert np.isfinite(problem.answer) and problem.answer > 0
    assert result.seats_granted == knobs["seats"]
    assert_allclose(problem.answer, result.weight_bytes_read, rtol=0)
    curve = read_curve(shape, BYTES_PER_NUMBER[knobs["weight_dtype"]], [knobs["seats"]])
    assert_allclose(problem.answer, curve.moe_bytes[0], rtol=1e-12)
    assert curve.active_bytes < problem.answer < curve.dense_bytes[0]


@pytest.mark.parametrize("seed", SEEDS)
def test_moe_steps_multiply_out(seed):
    """One expert, shared part, distinct experts, parameters read and bytes chain to the answer."""
    problem = make_problem("moe_weight_read", seed)
    knobs = problem.knobs
    shape = MOE_MODELS[knobs["model"]]
    experts, k, batch = shape.experts, shape.experts_per_token, knobs["seats"]
    per_expert, shared, touched, read, answer = (step.value for step in problem.steps)
    assert_allclose(per_expert * (experts - k), shape.params - shape.active_params, rtol=1e-12)
    assert_allclose(shared + k * per_expert, shape.active_params, rtol=1e-12)
    assert_allclose(touched, experts * (1 - (1 - k / experts) ** batch), rtol=1e-12)
    assert_allclose(read, shared + touched * per_expert, rtol=1e-12)
    assert_allclose(answer, read * BYTES_PER_NUMBER[knobs["weight_dtype"]], rtol=1e-12)
    assert_allclose(answer, problem.answer, rtol=0)


@pytest.mark.parametrize("key", ["mla_kv_bytes", "moe_weight_read"])
@pytest.mark.parametrize("seed", SEEDS)
def test_grading_accepts_the_answer_and_names_each_trap(key, seed):
    """The exact answer is right; each trap differs from it and is judged wrong with its message."""
    problem = make_problem(key, seed)
    assert check_answer(problem, problem.exact).right
    assert len(problem.traps) >= 2
    for trap in problem.traps:
        assert abs(trap.value - problem.answer) > 0.04 * problem.answer
        verdict = check_answer(problem, express(trap.value, problem.unit, problem.kind, 8))
        assert verdict.status == "wrong" and trap.message in verdict.message


def test_dense_thinking_and_batch_one_thinking_are_traps():
    """At seed 0 (DeepSeek-V3, fp8, 16 requests) reading every weight or one token's share is a trap."""
    problem = make_problem("moe_weight_read", 0)
    curve = read_curve(MOE_MODELS["DeepSeek-V3"], 1, [16])
    values = [trap.value for trap in problem.traps]
    assert_allclose(values[:2], [curve.dense_bytes[0], curve.active_bytes], rtol=1e-12)


def test_mla_trap_is_the_per_head_formula():
    """At seed 0 the first trap is what keys and values per head would cost: 2 x 128 x 128 x 61 x 2 B."""
    problem = make_problem("mla_kv_bytes", 0)
    shape = MLA_MODELS["DeepSeek-V3"]
    per_head = 2 * shape.query_heads * shape.head_dim * shape.layers * 2
    assert_allclose(problem.traps[0].value, per_head, rtol=0)
