"""trtllm-bench sizes the TensorRT-LLM engine it drives from its own estimate of the KV room."""

from __future__ import annotations

import math

import numpy as np
from numpy.testing import assert_allclose

from core import Scenario, evaluate
from core.catalog import GB
from core.catalog.engine_versions import engine_version
from core.catalog.engines import TRTLLM_BENCH_BYTES_PER_PARAM, TRTLLM_BENCH_MAX_REQUESTS
from core.engine_level.bench_sizing import trtllm_bench_batch

# An 8B-parameter fp8 checkpoint on one 80 GB card, 32 layers of 8 heads of 128 at 1 byte.
SHAPE = dict(params=8e9, bytes_per_param=1.0, kv_bytes=1.0, attention_layers=32,
             cache_heads=8, head_size=128, cards=1, card_memory_bytes=80 * GB,
             kv_fraction=0.9, checkpoint_scale=1.0)  # fmt: skip


def batch(prompt, answer, ranks=1.0, **changes):
    return trtllm_bench_batch(**{**SHAPE, **changes}, prompt=prompt, answer=answer, ranks=ranks)


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
    """MXFP4 checkpoints keep BuildConfig's default: the tool adds no limit of its own."""
    assert "mxfp4" not in TRTLLM_BENCH_BYTES_PER_PARAM
    assert np.isinf(batch(1024, 1024, bytes_per_param=np.nan))


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
        limit = trtllm_bench_batch(**{**shape, "kv_fraction": build.bench_kv_fraction,
                                      "checkpoint_scale": build.bench_checkpoint_scale},
                                   prompt=prompt, answer=answer, ranks=1.0)  # fmt: skip
        expected = _tools_own_arithmetic(params / 1e9, layers, 8, 128, 8, prompt, answer)
        assert limit == expected
