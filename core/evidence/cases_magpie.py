"""Published rows found in issue 37's twenty-fifth round (item 5): AMD-AGI's Magpie harness.

Magpie (AMD-AGI/Magpie) is AMD's benchmarking harness for serving engines on its cards; a pull
request that adds a benchmark configuration prints the run that validated it. One such request
runs a catalog card and engine on a model the catalog lacks, pasted as its config.json:

- AMD-AGI/Magpie PR #88 (2026-09-01, merged): Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8 on four
  MI355X, TP4, SGLang with AITER (``SGLANG_USE_AITER=1``), ``--kv-cache-dtype fp8_e4m3
  --page-size 32``, the harness's defaults ``--mem-fraction-static 0.8 --disable-radix-cache``
  (``Magpie/scripts/benchmark/sglang_mi355x.sh``), image ``lmsysorg/sglang:v0.5.14-rocm720-
  mi35x`` (the configuration's ``docker_image``); the client is the harness's
  ``benchmark_serving`` with random prompts of 1,024 / 1,024 tokens, range ratio 0.8, 32
  users and ten prompts a user (320 requests, all completed).

Typed by :mod:`core.evidence.cases_2026`'s rule, read for this source as InferenceX's rows are
(:mod:`core.evidence.cases_inferencex`: the same client and lengths), written down before the
engine level was evaluated on it:

- the figure is the printed output throughput (32 users: InferenceX's rule takes throughput at
  32 users or more); the same row's TPOT and first token are further figures of the same run;
- lengths drawn between 0.8 and 1 times nominal typed as their mean, 922 tokens each way;
- the PR's text states TP4 on four cards; the configuration file read later (commit 7c025167)
  says ``TP: 8``, and the separate ``..._tp4_mi355x.yaml`` says 4: typed as the PR states;
- the PR's MXFP4 row (amd/Qwen3-Coder-480B-A35B-Instruct-MXFP4, 1,783.72 tok/s) is not typed:
  which layers the checkpoint keeps in which format is not stated where this project can read
  it.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import QWEN3_CODER_480B_FP8, QWEN_FP8

_PR_88 = (
    "https://github.com/AMD-AGI/Magpie/pull/88 (AMD-AGI Magpie, 2026-09-01: Qwen3-Coder-480B-"
    "A35B-Instruct-FP8 on four MI355X, TP4, SGLang lmsysorg/sglang:v0.5.14-rocm720-mi35x with "
    "AITER, --kv-cache-dtype fp8_e4m3 --page-size 32 --mem-fraction-static 0.8 "
    "--disable-radix-cache; benchmark_serving random 1024/1024, --random-range-ratio 0.8, "
    "--max-concurrency 32, 320 prompts)"
)
FIRST_KEY = 245

MAGPIE: list[PublishedCase] = [
    PublishedCase(
        f"D{FIRST_KEY}", "throughput", "custom", "MI355X", 4, "fp8", 922, 922, "users", 32,
        1363.58, _PR_88,
        "| FP8 | 1.48 req/s | 1,363.58 tok/s | 229.74 ms | 22.69 ms | 21.18 s | (Request "
        "throughput | Output throughput | Mean TTFT | Mean TPOT | Mean E2E)",
        kv_dtype="fp8", model_config=QWEN3_CODER_480B_FP8,
        model_label="Qwen3-Coder-480B-A35B-Instruct-FP8 (config.json)", engine="SGLang",
        engine_version="0.5.14 (ROCm 7.2, lmsysorg/sglang:v0.5.14-rocm720-mi35x)", layout="TP4",
        weight_formats=QWEN_FP8, requests=320,
        assumed="lengths drawn between 0.8 and 1 times nominal, typed as their mean; TP4 as the "
        "PR states; --page-size 32 and --mem-fraction-static 0.8 priced as the release's "
        "defaults (no knob)",
    ),
]  # fmt: skip
"""PR #88's FP8 row (D245)."""
