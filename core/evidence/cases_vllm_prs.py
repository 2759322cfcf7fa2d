"""Published rows found in issue 37's twenty-second round (item 5): vLLM contributors' runs.

A pull request that adds a tuned fused-MoE kernel configuration to vLLM prints the benchmark it
ran before and after. The run before is the release's own behaviour (the kernel's default
configuration for a shape nobody had tuned), measured by someone outside the publishers the
sets have, with the whole command written out. Two such requests give a mixture of experts on
an AMD card and on an NVIDIA card:

- vllm-project/vllm PR #17530 (tjtanaa, EmbeddedLLM, 2025-05-01, merged): Qwen/Qwen3-30B-A3B-FP8
  (block-scaled fp8) on one MI300X, TP1, offline ``benchmark_throughput.py`` with 200 prompts
  at three lengths, ``--kv-cache-dtype fp8``, AITER off (``VLLM_ROCM_USE_AITER=0``); vLLM's
  main branch of that day, just after v0.8.5, which runs such a command on its V0 engine
  (typing fix, found after the first evaluation: vllm/engine/arg_utils.py
  ``_is_v1_supported_oracle`` at v0.8.5 falls back to V0 for an fp8 cache on ROCm; V1 took
  one there from vllm-project/vllm PR #17870, 2025-05-11);
- vllm-project/vllm PR #23151 (wenchen76, 2025-08-19, closed): Qwen/Qwen3-30B-A3B in bf16 on
  one H100, ``vllm serve`` at its defaults and ``benchmark_serving.py`` with 100 random
  requests of 2,048/1,024 tokens at 10 concurrent users; vLLM's main branch of that day, the
  v0.10.1 line.

Taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for these requests as
follows, written down before the engine level was evaluated on any of them:

- only the run before the change ("Before Tuning", "WO tuned configs"): the run after is a
  kernel configuration no release had then;
- the figure is the printed output tokens a second (the load is heavy: every prompt at once, or
  ten users); for #17530 the lengths as the command sets them (the printed total tokens a
  request run 2-5 % above them, which no knob can say), for #23151 the run's means (total input
  and generated tokens over its 100 requests: no ``--ignore-eos``), as the sets type random
  runs elsewhere;
- #23151's card is typed an H100 SXM (the request says "H100"), its run of 100 requests at 10
  users as a closed loop's run that ends; #17530's 200 prompts, likewise, as a run.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import QWEN3_235B_A22B_FP8, QWEN_FP8

_PR_17530 = (
    "https://github.com/vllm-project/vllm/pull/17530 (EmbeddedLLM, 2025-05-01: Qwen3-30B-A3B-FP8 "
    "on one MI300X, TP1, benchmark_throughput.py, 200 prompts, --quantization fp8 "
    "--kv-cache-dtype fp8, VLLM_ROCM_USE_AITER=0; the 'Before Tuning' column)"
)
# the same author's request for the 235B model, the same day and command at TP4 (its third
# length is cut from the text this project can read: the two lengths shown are typed)
_PR_17535 = (
    "https://github.com/vllm-project/vllm/pull/17535 (EmbeddedLLM, 2025-05-01: "
    "Qwen3-235B-A22B-FP8 on four MI300X, TP4, benchmark_throughput.py, 200 prompts, "
    "--quantization fp8 --kv-cache-dtype fp8, VLLM_ROCM_USE_AITER=0; the 'Before Tuning' column)"
)
_PR_23151 = (
    "https://github.com/vllm-project/vllm/pull/23151 (2025-08-19: Qwen3-30B-A3B bf16 on one "
    "H100, TP1, vllm serve at its defaults, benchmark_serving.py --dataset-name random "
    "--random-input 2048 --random-output 1024 --max-concurrency 10 --num-prompt 100; 'WO tuned "
    "configs')"
)
# V1 took an fp8 cache on ROCm only from PR #17870 (2025-05-11): before it, arg_utils.py's
# _is_v1_supported_oracle sent '--kv-cache-dtype fp8' on ROCm back to the V0 engine
_MAIN_0_8_5 = "0.8.5 (main after v0.8.5, 2025-05-01; V0: no fp8 cache on ROCm's V1 yet)"
_MAIN_0_10_1 = "0.10.1 (main, 2025-08-19)"
_AMD_ASSUMED = (
    "the command's lengths (the printed totals run 2-5 % above them); --max-model-len 32768 "
    "priced as the release's own (no knob); --gpu-memory-utilization 0.95 as the command sets "
    "it; the release's default max_num_seqs"
)
FIRST_KEY = 235


def _before_tuning(source, key, prompt, answer, output_tokens_per_s, requests_per_s, total,
                   **typed) -> PublishedCase:  # fmt: skip
    """One length of an EmbeddedLLM request's table on MI300X, before tuning: output tokens a
    second; ``typed`` the model, its cards and layout."""
    quoted = (
        f"| {prompt} | {answer} | Requests/s | {requests_per_s} | Total Tokens/s | {total} | "
        f"Output Tokens/s | {output_tokens_per_s} (Before Tuning)"
    )
    model, cards = typed.pop("model"), typed.pop("cards")
    return PublishedCase(
        key, "throughput", model, "MI300X", cards, "fp8", prompt, answer, "saturated", 0,
        output_tokens_per_s, source, quoted, kv_dtype="fp8", engine="vLLM",
        engine_version=_MAIN_0_8_5, weight_formats=QWEN_FP8, assumed=_AMD_ASSUMED, requests=200,
        memory_share=0.95,
        **typed,
    )  # fmt: skip


def _amd(*row) -> PublishedCase:
    """One length of #17530's table: Qwen3-30B-A3B-FP8 on one MI300X."""
    return _before_tuning(_PR_17530, *row, model="Qwen3-30B-A3B", cards=1, layout="TP")


def _amd_235b(*row) -> PublishedCase:
    """One length of #17535's table: Qwen3-235B-A22B-FP8 on four MI300X."""
    return _before_tuning(
        _PR_17535, *row, model="custom", cards=4, layout="TP4",
        model_config=QWEN3_235B_A22B_FP8, model_label="Qwen3-235B-A22B-FP8 (config.json)",
    )  # fmt: skip


VLLM_PRS: list[PublishedCase] = [
    _amd(f"D{FIRST_KEY}", 5000, 1000, 1769.80, 1.77, 11137.12),
    _amd(f"D{FIRST_KEY + 1}", 1000, 2000, 3762.75, 1.88, 5758.92),
    _amd(f"D{FIRST_KEY + 2}", 10000, 500, 642.43, 1.28, 14318.03),
    PublishedCase(
        f"D{FIRST_KEY + 3}", "throughput", "Qwen3-30B-A3B", "H100 SXM", 1, "bf16", 2042, 1016,
        "users", 10, 739.79, _PR_23151, "Successful requests: 100 | Maximum request "
        "concurrency: 10 | Total input tokens: 204169 | Total generated tokens: 101576 | "
        "Output token throughput (tok/s): 739.79", kv_dtype="bf16", engine="vLLM",
        engine_version=_MAIN_0_10_1, layout="TP", requests=100,
        assumed="KV bf16 (the engine's auto); random lengths typed as the run's means "
        "(204,169 and 101,576 tokens over 100 requests); 'H100' typed as the H100 SXM",
    ),
    # issue 37's twenty-third round, typed before the engine level was evaluated on them
    _amd_235b(f"D{FIRST_KEY + 4}", 5000, 1000, 956.43, 0.96, 6014.29),
    _amd_235b(f"D{FIRST_KEY + 5}", 1000, 2000, 2020.06, 1.01, 3094.05),
]  # fmt: skip
"""PR #17530's three lengths before tuning (D235-D237), PR #23151's run before (D238) and PR
#17535's two readable lengths before tuning (D239-D240)."""
