"""trtllm-bench sizes the TensorRT-LLM engine it drives from its own estimate of the KV room."""

from __future__ import annotations

import math

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog import ENGINE_MAX_NUM_TOKENS, GB
from core.catalog.engine_versions import engine_version
from core.catalog.engines import TRTLLM_BENCH_BYTES_PER_PARAM, TRTLLM_BENCH_MAX_REQUESTS
from core.engine_level.bench_sizing import trtllm_bench_settings

# An 8B-parameter fp8 checkpoint on one 80 GB card, 32 layers of 8 heads of 128 at 1 byte.
SHAPE = dict(params=8e9, bytes_per_param=1.0, kv_bytes=1.0, attention_layers=32,
             cache_heads=8, head_size=128, cards=1, card_memory_bytes=80 * GB,
             kv_fraction=0.9, checkpoint_scale=1.0)  # fmt: skip


def batch(prompt, answer, ranks=1.0, default_batch=np.inf, **changes):
    return trtllm_bench_settings(
        **{**SHAPE, **changes},
        prompt=prompt,
        answer=answer,
        ranks=ranks,
        default_batch=default_batch,
    ).batch


def test_the_limit_rounds_up_the_requests_memory_holds():
    """Below 256 requests the limit is the next multiple of 32 (at least 64); then of 128, 256."""
    lengths = np.geomspace(200, 200_000, 40)
    limits = batch(lengths / 2, lengths / 2)
    assert np.all(limits >= 64)
    small, middle, large = limits < 256, (limits >= 256) & (limits < 1024), limits >= 1024
    assert np.all(limits[small] % 32 == 0)
    assert np.all(limits[middle] % 128 == 0) and np.all(limits[large] % 256 == 0)
    assert np.all(np.diff(limits) <= 0), "longer requests never raise the limit"
    assert np.all(limits <= TRTLLM_BENCH_MAX_REQUESTS)


def test_each_data_parallel_rank_runs_its_own_limit():
    """Under attention data parallelism the tool's limit is each rank's."""
    assert_allclose(batch(1024, 1024, ranks=4.0), 4 * batch(1024, 1024))


def test_a_format_the_tool_does_not_tune_keeps_the_engine_default():
    """A format the tool does not size (MXFP4) keeps the engine's default batch, each
    attention-DP rank's; with no default given (another engine) the tool adds no limit."""
    assert "mxfp4" not in TRTLLM_BENCH_BYTES_PER_PARAM
    assert np.isinf(batch(1024, 1024, bytes_per_param=np.nan))
    assert_allclose(batch(1024, 1024, ranks=2.0, bytes_per_param=np.nan, default_batch=2048),
                    2 * 2048)  # fmt: skip


def test_an_mxfp4_max_load_run_holds_the_releases_default_batch():
    """gpt-oss-20b (MXFP4) on one B200 at max load: trtllm-bench keeps the release's
    max_batch_size, though the cache seats more (build.py get_benchmark_engine_settings)."""
    release = engine_version("tensorrt-llm", "1.0")
    result = evaluate(Scenario(
        model="gpt-oss-20b", gpu="B200", cards=1, weight_dtype="mxfp4", kv_dtype="fp8",
        prompt_tokens=1024, answer_tokens=1024, seats=TRTLLM_BENCH_MAX_REQUESTS,
        concurrency=100_000, prefix_hit_rate=0.0, realism="engine", engine_version="1.0",
    ))  # fmt: skip
    assert float(result.seats_room) > release.max_running
    assert_allclose(float(result.running_requests), release.max_running)


def test_a_max_load_run_keeps_the_tools_batch_running():
    """DeepSeek-R1 on 4 B200s (DEP4) runs the tool's batch, well under what its cache holds."""
    knobs = dict(model="DeepSeek-R1", gpu="B200", cards=4, weight_dtype="nvfp4", kv_dtype="fp8",
                 prompt_tokens=8192, answer_tokens=1024, seats=4096, concurrency=100_000,
                 prefix_hit_rate=0.0, realism="engine", layout="dep")  # fmt: skip
    result = evaluate(Scenario(**knobs))
    vllm = evaluate(Scenario(**knobs, engine="vllm"))
    assert float(result.running_requests) < float(result.seats_room)
    assert float(result.running_requests) % (4 * 32) == 0
    assert float(vllm.running_requests) > float(result.running_requests)


def test_a_commands_batch_limit_replaces_the_tools_sizing():
    """With --max_batch_size (and --max_num_tokens) trtllm-bench sizes nothing: a stated limit
    above the tool's own runs that many at once, one below it caps the batch there."""
    knobs = dict(model="DeepSeek-R1", gpu="H200", cards=8, weight_dtype="fp8",
                 prompt_tokens=1024, answer_tokens=2048, seats=4096, concurrency=1024,
                 prefix_hit_rate=0.0, realism="engine", layout="dep", engine_version="0.20")  # fmt: skip
    sized = evaluate(Scenario(**knobs))
    stated = evaluate(Scenario(**knobs, batch_limit=1024))
    fewer = evaluate(Scenario(**knobs, batch_limit=256))
    assert float(sized.running_requests) < 1024 <= float(sized.seats_room)
    assert_allclose(float(stated.running_requests), 1024, rtol=1e-9)
    assert float(fewer.running_requests) <= 256
    assert float(stated.throughput_tokens_per_s) > float(sized.throughput_tokens_per_s)


def test_a_stated_batch_limit_holds_for_every_engine_within_memory():
    """vLLM below its default, or any engine above what its memory holds: the limit the
    command sets, never more than the cache seats."""
    knobs = dict(model="Llama-3-70B", gpu="H100 SXM", cards=4, weight_dtype="fp8",
                 kv_dtype="fp8", prompt_tokens=1024, answer_tokens=1024, concurrency=2048,
                 realism="engine")  # fmt: skip
    for engine in ("vllm", "sglang", "tensorrt-llm"):
        capped = evaluate(Scenario(**knobs, engine=engine, batch_limit=64))
        assert float(capped.running_requests) <= 64, engine
        huge = evaluate(Scenario(**knobs, engine=engine, batch_limit=1_000_000))
        assert float(huge.running_requests) <= float(huge.seats_room) + 1e-9, engine


def test_an_open_loop_ignores_the_batch_limit():
    """Open-loop arrivals are the pool's seats, not a benchmark's command: no figure moves."""
    knobs = dict(model="Llama-3-70B", gpu="H100 SXM", cards=4, realism="engine")
    assert evaluate(Scenario(**knobs)) == evaluate(Scenario(**knobs, batch_limit=8))


def _tools_own_arithmetic(params_billions, layers, heads, head_size, cards, prompt, answer):
    """calc_engine_setting of a 0.1x build, in the tool's own units: GiB of memory, the
    checkpoint in param_count / 1000**3 "GB", 0.95 of the room, then finetune_setting."""
    available = 80.0 * cards - params_billions * 1.0
    per_token = 2 * layers * max(cards, heads) * head_size * 1.0 / 1024**3
    raw = min(0.95 * available / (per_token * (prompt + answer)), 4096)
    if raw < 256:
        return max(64, 32 * math.ceil(raw / 32))
    return 128 * math.ceil(raw / 128) if raw < 1024 else 256 * math.ceil(raw / 256)


def test_a_01x_build_sizes_as_its_tuning_code_counts():
    """A 0.1x build's limit is calc_engine_setting's with no fraction passed: 0.95 of the
    room, the checkpoint counted in decimal GB against GiB (Llama-3.1-405B and 70B, fp8, 8
    cards), read from the release's own fields."""
    for params, layers, prompt, answer in ((405.85e9, 126, 128, 4096), (70.55e9, 80, 128, 2048)):
        shape = dict(SHAPE, params=params, attention_layers=layers, cards=8)
        build = engine_version("tensorrt-llm", "0.17")
        limit = trtllm_bench_settings(**{**shape, "kv_fraction": build.bench_kv_fraction,
                                         "checkpoint_scale": build.bench_checkpoint_scale},
                                      prompt=prompt, answer=answer, ranks=1.0).batch  # fmt: skip
        expected = _tools_own_arithmetic(params / 1e9, layers, 8, 128, 8, prompt, answer)
        assert limit == expected


def _tools_own_tokens(requests, prompt, answer, chunked):
    """finetune_setting's max_num_tokens from the unrounded requests, then get_settings' floor
    of a whole prompt beside the batch when chunked prefill is off."""
    raw = min(min(requests, 4096) * (1 + prompt / answer), 32768)
    if raw < 4096:
        tokens = max(2048, 256 * math.ceil(raw / 256))
    elif raw < 8192:
        tokens = 512 * math.ceil(raw / 512)
    else:
        tokens = 1024 * math.ceil(raw / 1024)
    batch = min(requests, 4096)
    batch = (
        max(64, 32 * math.ceil(batch / 32))
        if batch < 256
        else 128 * math.ceil(batch / 128)
        if batch < 1024
        else 256 * math.ceil(batch / 256)
    )
    return tokens if chunked else max(tokens, prompt + batch)


def test_the_tools_step_tokens_follow_its_own_arithmetic():
    """max_num_tokens for many lengths, with chunked prefill on and off, as the tool counts it."""
    for prompt, answer in ((128, 128), (1000, 1000), (5000, 500), (20000, 2000), (128, 4096)):
        for chunked in (False, True):
            found = trtllm_bench_settings(**SHAPE, prompt=prompt, answer=answer,
                                          chunked_prefill=chunked).tokens  # fmt: skip
            # the shape's 80 GB card as CUDA reports it (GiB), less its 8 GB of weights
            memory = 80 * 2**30 - 8e9
            per_token = 2 * 32 * 8 * 128 * 1.0
            requests = 0.9 * memory / (per_token * (prompt + answer))
            assert found == _tools_own_tokens(requests, prompt, answer, chunked)


def test_a_format_the_tool_does_not_tune_keeps_the_default_step():
    """Where the tool leaves the engine alone its step keeps the engine's default tokens."""
    found = trtllm_bench_settings(
        **{**SHAPE, "bytes_per_param": np.nan}, prompt=1024, answer=1024
    ).tokens
    assert found == ENGINE_MAX_NUM_TOKENS
