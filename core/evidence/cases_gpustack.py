"""Published rows found in issue 37's fifth round (item 5): GPUStack's performance lab.

GPUStack (gpustack/gpustack, ``docs/performance-lab/``) publishes, per model and card, the
serving benchmarks it ran to tune vLLM, SGLang and TensorRT-LLM: each engine first at its
default serving command, then tuned. A publisher the sets did not have. Its rows were taken by
the rule of :mod:`core.evidence.cases_2026`'s docstring, read for this source as follows,
written down before the engine level was evaluated on any of them:

- Only default serving commands (the model, its parallelism, at most a context cap) and the
  same command with the model's own FP8 checkpoint; tuned runs (speculative decoding, other
  batch or graph limits, other kernels, async scheduling) are not the engines' defaults.
- Only runs at a fixed number of users (``--max-concurrency N``, 100 ShareGPT requests): the
  pages' throughput runs send 500-1,000 requests at once, one burst of ShareGPT's spread of
  lengths, which the sets do not score (Lambda's rows, :mod:`core.evidence.cases_found`), so
  they are left out, as are runs on models without a config.json here (GLM-4.x, GLM-5.2,
  Qwen3.5) and the guidellm rate sweeps (their concurrency is an outcome, not a setting).
- That leaves ten rows, none more than six to a table: Qwen3-8B on one H100 SXM (vLLM 0.11.0 at
  1, 2, 4 and 8 users; SGLang 0.5.3.post3 and TensorRT-LLM 1.2.0rc1 at 4; SGLang with
  Qwen3-8B-FP8 at 4), gpt-oss-120b at 4 users on one A100 SXM 80GB (vLLM 0.11.0) and one H100
  (vLLM 0.10.2), and DeepSeek-R1-0528 at 4 users on eight H200 (vLLM 0.11.0, TP8).
- At one to eight users the figure is the time between tokens (mean TPOT), the run's own
  figure at light load; the lengths are the run's means (total input and generated tokens over
  its 100 requests), as the sets type ShareGPT runs elsewhere; KV in bf16 (the engines' auto).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8, GPT_OSS_MIX, QWEN3_8B, QWEN3_8B_FP8, QWEN_FP8

_PAGE = "gpustack/gpustack docs/performance-lab/{page} @{commit} (vllm bench serve, ShareGPT, 100 requests)"
_QWEN8B_PAGE = _PAGE.format(page="qwen3-8b/h100-latency.md", commit="1dbc3b81")
_OSS_A100_PAGE = _PAGE.format(page="gpt-oss-120b/a100.md", commit="1f37f1b8")
_OSS_H100_PAGE = _PAGE.format(page="gpt-oss-120b/h100.md", commit="72aee9dd")
_R1_PAGE = _PAGE.format(page="deepseek-r1/h200.md", commit="a5c9fafc")
_QWEN8B = {"model_config": QWEN3_8B, "model_label": "Qwen3-8B (config.json)"}
_LENGTHS = "KV bf16 (the engine's auto); ShareGPT lengths typed as the run's means"


def _row(key, model, gpu, cards, weights, prompt, answer, users, tpot_ms, engine, version,
         source, quoted, assumed, **extra) -> PublishedCase:  # fmt: skip
    """One run at ``users`` concurrent users, its mean time between tokens."""
    return PublishedCase(
        key, "itl", model, gpu, cards, weights, prompt, answer, "users", users, tpot_ms / 1000,
        source, quoted, kv_dtype="bf16", engine=engine, engine_version=version,
        layout=f"TP{cards}" if cards > 1 else "TP", assumed=f"{_LENGTHS}; {assumed}", **extra,
    )  # fmt: skip


_H100 = "one H100 SXM ('A single NVIDIA H100 SXM GPU')"
# Qwen3-8B: 23,260 input and 22,061 generated tokens over 100 requests (232.6 and 220.6)
_Q8 = ("custom", "H100 SXM", 1, "bf16", 233, 221)

GPUSTACK: list[PublishedCase] = [
    _row("D99", *_Q8, 1, 7.28, "vLLM", "0.11.0", _QWEN8B_PAGE,
         "Other Benchmark Cases, ShareGPT BS=1 (vllm serve Qwen/Qwen3-8B): Mean TPOT (ms): 7.28",
         _H100, **_QWEN8B),
    _row("D100", *_Q8, 2, 7.37, "vLLM", "0.11.0", _QWEN8B_PAGE,
         "ShareGPT BS=2: Mean TPOT (ms): 7.37", _H100, **_QWEN8B),
    _row("D101", *_Q8, 4, 7.38, "vLLM", "0.11.0", _QWEN8B_PAGE,
         "1. Choosing the Inference Engine, vLLM (max concurrency 4): Mean TPOT (ms): 7.38",
         _H100, **_QWEN8B),
    _row("D102", *_Q8, 8, 7.71, "vLLM", "0.11.0", _QWEN8B_PAGE,
         "ShareGPT BS=8: Mean TPOT (ms): 7.71", _H100, **_QWEN8B),
    _row("D103", *_Q8, 4, 7.19, "SGLang", "0.5.3.post3", _QWEN8B_PAGE,
         "SGLang (python3 -m sglang.launch_server --model-path Qwen/Qwen3-8B): Mean TPOT (ms): "
         "7.19", _H100, **_QWEN8B),
    _row("D104", *_Q8, 4, 7.67, "TensorRT-LLM", "1.2.0rc1", _QWEN8B_PAGE,
         "TensorRT-LLM (trtllm-serve Qwen/Qwen3-8B): Mean TPOT (ms): 7.67", _H100, **_QWEN8B),
    _row("D105", "custom", "H100 SXM", 1, "fp8", 233, 221, 4, 5.65, "SGLang", "0.5.3.post3",
         _QWEN8B_PAGE, "3. Quantization (--model-path Qwen/Qwen3-8B-FP8): Mean TPOT (ms): 5.65",
         _H100, weight_formats=QWEN_FP8, model_config=QWEN3_8B_FP8,
         model_label="Qwen3-8B-FP8 (config.json)"),
    # gpt-oss-120b: 22,946 and 21,691 tokens over 100 requests
    _row("D106", "gpt-oss-120b", "A100 80GB SXM", 1, "mxfp4", 229, 217, 4, 11.67, "vLLM",
         "0.11.0", _OSS_A100_PAGE, "ShareGPT batch size 4 (vllm serve openai/gpt-oss-120b "
         "--max-model-len 32768): Mean TPOT (ms): 11.67",
         "one card: '2 x NVIDIA A100 SXM 80GB' listed, the baseline command sets no -tp",
         weight_formats=GPT_OSS_MIX),
    _row("D107", "gpt-oss-120b", "H100 SXM", 1, "mxfp4", 229, 217, 4, 8.31, "vLLM", "0.10.2",
         _OSS_H100_PAGE, "ShareGPT batch size 4 (vllm serve openai/gpt-oss-120b --max-model-len "
         "32768): Mean TPOT (ms): 8.31",
         "one H100 SXM: the page names 'NVIDIA H100 GPUs', the baseline command sets no -tp",
         weight_formats=GPT_OSS_MIX),
    # DeepSeek-R1-0528 (the catalog's DeepSeek-R1 shape): 22,836 and 21,338 tokens
    _row("D108", "DeepSeek-R1", "H200", 8, "fp8", 228, 213, 4, 19.36, "vLLM", "0.11.0", _R1_PAGE,
         "ShareGPT batch size 4 (vllm serve deepseek-ai/DeepSeek-R1-0528 -tp 8): Mean TPOT "
         "(ms): 19.36", "eight H200 SXM: the page names 'NVIDIA H200 GPUs' and -tp 8",
         weight_formats=DEEPSEEK_FP8),
]  # fmt: skip
"""The rows found in the fifth round of issue 37's item 5, in key order."""
