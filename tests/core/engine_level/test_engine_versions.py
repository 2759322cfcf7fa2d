"""The engine level runs the release a scenario names: its limits, and its host costs' physics."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from core import Scenario, evaluate
from core.catalog import HOST_STEP_S
from core.catalog.engine_versions import engine_version
from core.catalog.engines import ENGINES
from core.engine_level import kernels as engine_kernels
from core.evidence.cases import DEVELOPMENT
from core.evidence.cases_2026 import SECOND

SATURATED = dict(realism="engine", engine="vllm", model="Llama-3-8B", gpu="H100 SXM",
                 weight_dtype="fp8", kv_dtype="fp8", prompt_tokens=128, answer_tokens=256,
                 seats=16, concurrency=100_000)  # fmt: skip


def test_every_case_runs_the_release_its_source_names():
    """A published case's scenario carries the release its version text maps to."""
    for case in [*DEVELOPMENT, *SECOND]:
        scenario = case.scenario()
        assert scenario.engine == case.engine_knob
        assert scenario.engine_version == case.version_knob
        assert engine_version(case.engine_knob, case.version_knob).engine == case.engine_knob


def test_a_release_sets_how_many_requests_run():
    """A benchmark drives vLLM V0 at its 256 sequences on an H100, today's release at more."""
    old = evaluate(Scenario(**SATURATED, engine_version="0.6"))
    new = evaluate(Scenario(**SATURATED, engine_version="0.19"))
    assert float(old.running_requests) <= engine_version("vllm", "0.6").max_running
    assert float(new.running_requests) > engine_version("vllm", "0.6").max_running
    assert float(new.throughput_tokens_per_s) > float(old.throughput_tokens_per_s)


def test_unprofiled_overlap_schedulers_pay_the_host_step_unless_priced(monkeypatch):
    """vLLM's and TensorRT-LLM's overlapping releases pay the whole host step by default (no
    profile of theirs shows the GPU never idle between steps); priced, they save it."""
    base = dict(realism="engine", model="Llama-3-70B", cards=4, concurrency=1, seats=16)
    scenarios = [Scenario(**base, engine="vllm", engine_version="0.14"),
                 Scenario(**base, engine="tensorrt-llm", engine_version="1.0")]  # fmt: skip
    paid = [float(evaluate(scenario).itl_s) for scenario in scenarios]
    _priced(monkeypatch)
    hidden = [float(evaluate(scenario).itl_s) for scenario in scenarios]
    assert not ENGINES["vllm"].overlap_profiled and not ENGINES["tensorrt-llm"].overlap_profiled
    assert np.subtract(paid, hidden) == pytest.approx([HOST_STEP_S] * 2, rel=1e-6)


def test_sglangs_profiled_overlap_scheduler_hides_the_host_step_by_default():
    """SGLang's v0.4 Nsight profile shows no GPU idle time between decode steps, so its
    overlapping releases save the whole host step on a step longer than it, priced or not."""
    assert ENGINES["sglang"].overlap_profiled
    assert "Nsight" in ENGINES["sglang"].overlap_profiled_source
    base = dict(realism="engine", engine="sglang", model="Llama-3-70B", cards=4, concurrency=1,
                seats=16)  # fmt: skip
    overlapping = float(evaluate(Scenario(**base, engine_version="0.5")).itl_s)
    blocking = float(evaluate(Scenario(**base, engine_version="0.3")).itl_s)
    assert blocking - overlapping == pytest.approx(HOST_STEP_S, rel=1e-6)


def _priced(monkeypatch):
    monkeypatch.setattr(engine_kernels, "PRICE_RELEASE_HOST_COSTS", True)


def test_the_host_step_outlasting_the_gpu_costs_only_the_excess():
    """An overlapped host step longer than the GPU's work costs only what it outlasts."""
    node = _tiny_node()
    terms = {"fixed_overheads"}
    blocking = node.fixed_seconds(terms, busy=0.0)
    overlapped = dataclasses.replace(node, host_overlapped=True)
    floors = blocking - HOST_STEP_S
    for busy in (0.0, 0.2e-3, 2e-3):
        expected = floors + max(0.0, HOST_STEP_S - floors - busy)
        assert overlapped.fixed_seconds(terms, busy=busy) == pytest.approx(expected)
    assert np.all(overlapped.fixed_seconds(terms, np.array([0.0, 2e-3])) <= blocking)


def test_a_faster_all_reduce_kernel_shortens_a_tensor_parallel_step():
    """The all-reduce latency a node is given is what each of its all-reduces pays."""
    node = dataclasses.replace(_tiny_node(), cards=8.0)
    terms = {"tensor_parallel"}
    slow = node.step_s(1.0, 100.0, terms)
    fast = dataclasses.replace(node, allreduce_latency_s=node.allreduce_latency_s - 4e-6)
    layers = node.layers
    assert slow - fast.step_s(1.0, 100.0, terms) == pytest.approx(2 * layers * 4e-6)


def test_only_a_profiled_release_pays_host_work_per_request():
    """TensorRT-LLM's PyTorch backend and vLLM's V0 and V1 releases carry their profiled
    figures; TensorRT-LLM's C++ runtime and SGLang none."""
    profiled = engine_version("tensorrt-llm", "1.0")
    assert profiled.host_per_request_s == pytest.approx(45.11e-3 / 1536)
    assert "PR #10273" in profiled.host_per_request_source
    assert engine_version("tensorrt-llm", "0.14").host_per_request_s == 0.0
    for version in ("0.5", "0.6"):
        v0 = engine_version("vllm", version)
        assert v0.host_per_request_s == pytest.approx(20e-3 / 200)
        assert "#6801" in v0.host_per_request_source
    for version in ("0.8", "0.10", "0.14", None):
        v1 = engine_version("vllm", version)
        assert v1.host_per_request_s == pytest.approx(5.5e-3 / 256)
        assert "#10634" in v1.host_per_request_source
    assert engine_version("sglang", None).host_per_request_s == 0.0


def test_host_work_per_request_costs_what_outlasts_an_overlapped_step():
    """Overlapped, n requests' host work adds max(0, h n - step); blocking, all of h n."""
    host = 30e-6
    node = dataclasses.replace(_tiny_node(), host_request_s=host, schedules_ahead=True)
    busy = 10e-3
    requests = np.array([1.0, 100.0, 1000.0])
    np.testing.assert_allclose(
        node.host_requests_s(requests, busy), np.maximum(host * requests - busy, 0.0)
    )
    blocking = dataclasses.replace(node, schedules_ahead=False)
    np.testing.assert_allclose(blocking.host_requests_s(requests, busy), host * requests)


def test_data_parallel_ranks_each_handle_their_share_of_the_requests():
    """Under data-parallel attention each of c ranks' hosts handles n / c requests."""
    node = dataclasses.replace(
        _tiny_node(), cards=4.0, host_request_s=30e-6, data_parallel_attention=True
    )
    assert node.host_requests_s(4000.0, 0.0) == pytest.approx(1000 * 30e-6)


def test_a_pytorch_backend_step_of_thousands_waits_on_its_host():
    """Thousands of requests on TensorRT-LLM 1.0 make the step the host's; a few do not."""
    base = dict(realism="engine", engine="tensorrt-llm", model="Llama-3-8B", gpu="H100 SXM",
                weight_dtype="fp8", kv_dtype="fp8", prompt_tokens=128, answer_tokens=128,
                seats=16)  # fmt: skip
    version = engine_version("tensorrt-llm", "1.0")
    many = evaluate(Scenario(**base, concurrency=2048, engine_version="1.0"))
    running = float(many.running_requests)
    assert float(many.itl_s) >= running * version.host_per_request_s
    few = evaluate(Scenario(**base, concurrency=4, engine_version="1.0"))
    assert float(few.running_requests) * version.host_per_request_s < 0.1 * float(few.itl_s)
    assert float(few.itl_s) < 0.2 * float(many.itl_s)


def test_a_vllm_step_waits_on_its_host_unless_its_scheduler_runs_ahead():
    """vLLM's V0 and synchronous V1 steps of 256 requests pay the host's work for each; the
    release that schedules a step ahead (0.14 on) pays only what outlasts the GPU's step."""
    base = dict(realism="engine", engine="vllm", model="Llama-3-8B", gpu="H100 SXM",
                weight_dtype="fp8", kv_dtype="fp8", prompt_tokens=128, answer_tokens=128,
                seats=16, concurrency=256)  # fmt: skip
    itl = {}
    for version in ("0.6", "0.10", "0.14"):
        result = evaluate(Scenario(**base, engine_version=version))
        running = float(result.running_requests)
        itl[version] = float(result.itl_s)
        host = running * engine_version("vllm", version).host_per_request_s
        if version != "0.14":
            assert itl[version] >= host
    assert itl["0.6"] > itl["0.10"] > itl["0.14"]


def _tiny_node():
    from core.engine_level.node import Node

    return Node(
        layers=4.0, kv_heads=2.0, head_dim=64.0, query_heads=8.0, hidden=512.0,
        intermediate=2048.0, params=1e8, active_params=1e8, experts=1.0, experts_per_token=1.0,
        cards=1.0, card_memory_bytes=80e9, weight_bytes=2e8, kv_bytes_per_token=4096.0,
        peak_bandwidth=3e12, peak_flops=1e15, measured_bandwidth=2.5e12, measured_flops=6e14,
        measured_bf16_flops=6e14, link_bytes_per_s=450e9, host_step_s=HOST_STEP_S,
    )  # fmt: skip
