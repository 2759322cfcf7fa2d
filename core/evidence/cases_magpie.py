"""Published rows found in issue 37's twenty-fifth round (item 5): Qwen3-Coder-480B's serving runs.

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

The same model's page in SGLang's cookbook (``docs_new/cookbook/autoregressive/Qwen/
Qwen3-Coder.mdx``, the NVIDIA section added by sgl-project/sglang PR #24435, 2026-05-05) runs
Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8 on eight B200 with ``--tp 8 --ep 2 --context-length 8192
--page-size 32`` and ``bench_serving`` random 1,000 / 1,000 (range ratio left at its default)
at 1, 16 and 64 users with 10, 80 and 320 prompts. Typed by the same rule, before the engine
level was evaluated on them (D246-D248):

- every row of the table (three, fewer than seven): the time between tokens (mean TPOT) at 1
  and 16 users, the output throughput at 64, as the set types the cookbook's other rows
  (D21-D28);
- lengths as the run's means (the printed input and generated totals over the requests);
- the B200 section names no release: typed as the 0.5 line (the page's MI300X runs state 0.5.7;
  the section was added in May 2026); the cache the release's default (bf16);
- ``--ep 2`` under ``--tp 8`` (experts in two groups, each split four ways) has no knob: typed
  as TP8, which reads the same expert bytes per card; ``--page-size 32`` as the default;
- the page's MI300X rows ran with ``SGLANG_USE_AITER=0``, a set-up no release in the catalog
  prices (SGLang's ROCm builds are priced with AITER's kernels): not typed.
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
_COOKBOOK_CODER = (
    "sgl-project/sglang docs_new/cookbook (docs.sglang.io/cookbook), bench_serving: "
    "autoregressive/Qwen/Qwen3-Coder.mdx @0aaca70e, '5.1.2 NVIDIA (B200/GB200) Standard Scenario "
    "Benchmark', 5.1.2.1 FP8 Model (launch_server --model Qwen/Qwen3-Coder-480B-A35B-Instruct-FP8 "
    "--tp 8 --ep 2 --context-length 8192 --page-size 32; bench_serving --dataset-name random "
    "--random-input-len 1000 --random-output-len 1000)"
)
_CODER_ASSUMED = (
    "random lengths typed as the run's means; the 0.5 line (the B200 section names no release); "
    "KV bf16 (the default); --ep 2 under --tp 8 typed as TP8 (no knob)"
)


def _cookbook_b200(key, metric, prompt, answer, users, measured, requests, quoted):
    """One row of the cookbook's B200 FP8 table for Qwen3-Coder-480B-A35B-Instruct-FP8."""
    return PublishedCase(
        key, metric, "custom", "B200", 8, "fp8", prompt, answer, "users", users, measured,
        _COOKBOOK_CODER, quoted, kv_dtype="bf16", model_config=QWEN3_CODER_480B_FP8,
        model_label="Qwen3-Coder-480B-A35B-Instruct-FP8 (config.json)", engine="SGLang",
        engine_version="0.5 (the cookbook's B200 section, PR #24435 of 2026-05-05; release "
        "unstated)", layout="TP8", weight_formats=QWEN_FP8, requests=requests,
        assumed=_CODER_ASSUMED,
    )  # fmt: skip


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
        "PR states; --page-size 32 priced as the release's default (no knob); "
        "--mem-fraction-static 0.8 as the harness sets it", memory_share=0.8,
    ),
    _cookbook_b200(
        f"D{FIRST_KEY + 1}", "itl", 610, 422, 1, 0.00987, 10,
        "Max request concurrency: 1 | Successful requests: 10 | Total input tokens: 6101 | Total "
        "generated tokens: 4220 | Mean TPOT (ms): 9.87",
    ),
    _cookbook_b200(
        f"D{FIRST_KEY + 2}", "itl", 496, 510, 16, 0.02077, 80,
        "Max request concurrency: 16 | Successful requests: 80 | Total input tokens: 39668 | "
        "Total generated tokens: 40805 | Mean TPOT (ms): 20.77",
    ),
    _cookbook_b200(
        f"D{FIRST_KEY + 3}", "throughput", 497, 532, 64, 1700.19, 320,
        "Max request concurrency: 64 | Successful requests: 320 | Total input tokens: 158939 | "
        "Total generated tokens: 170134 | Output token throughput (tok/s): 1700.19",
    ),
]  # fmt: skip
"""PR #88's FP8 row (D245) and the cookbook's B200 FP8 rows (D246-D248)."""
