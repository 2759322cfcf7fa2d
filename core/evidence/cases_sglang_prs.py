"""Published rows found in issue 37's twenty-fourth round (item 5): SGLang contributors' runs.

Like vLLM's (:mod:`core.evidence.cases_vllm_prs`), a pull request that adds a tuned fused-MoE
configuration to SGLang prints the serving benchmark it ran without the configuration, that is
the release as it shipped for a shape nobody had tuned, with the server's and the client's
commands written out. Four such requests, by four contributors, on cards and models the
catalog has:

- sgl-project/sglang PR #6885 (2025-06-05, merged) and PR #7631 (2025-06-29, merged):
  DeepSeek-V3-0324 on eight H20, TP8, ``--disable-radix-cache``, ``bench_serving`` with 200
  random prompts of up to 1,024 / 512 tokens at 8 users; the second with
  ``--context-length 4096 --mem-fraction-static 0.9``, on the 0.4.8 line's Triton 3.3;
- PR #6939 (2025-06-07, merged): DeepSeek-V3-0324 on eight B200, TP8, ``--attention-backend
  triton`` with ``SGLANG_ENABLE_FLASHINFER_GEMM=1``, 128 prompts of 1,000 / 1,000 tokens at 16
  users ("Before tuning");
- PR #12343 (2025-10-29, merged): Qwen3-30B-A3B-FP8 on four H200, ``--tp-size 4 --ep 4``, 100
  prompts of 4,096 / 1,024 tokens at one user (its "main branch" run, which logs the missing
  configuration ``E=32,N=768,device_name=NVIDIA_H200``).

Typed by :mod:`core.evidence.cases_2026`'s rule and :mod:`core.evidence.cases_vllm_prs`'s
reading, written down before the engine level was evaluated on any of them:

- only the run without the configuration; the figure is output tokens a second;
- where the printed output throughput is cut from the text this project can read, it is the
  printed generated tokens over the printed duration (#6885), or the lengths the command fixes
  (``--random-range-ratio 1``, and ``bench_serving`` ignores EOS unless told not to) over the
  printed duration (#12343); #7631's run without the configuration prints the same input total
  as its run with it (103,005), so its generated total is typed as that run's (53,590: the same
  seed draws the same lengths);
- random lengths drawn below the command's (range ratio 0, SGLang's default then) are typed as
  the run's means, as the sets type random runs elsewhere; the run's prompts as ``requests``;
- the cache is the release's default (bf16); flags the engine level has no knob for are priced
  as the release's defaults, and each case says which.

Issue 37's twenty-seventh round typed one more such request by the same reading, before the
engine level was evaluated on it (D249-D250): sgl-project/sglang PR #10467 (Ximingwang-09,
2025-09-15, closed unmerged: its runs without the configuration are the main branch of that
day), Qwen/Qwen3-Next-80B-A3B-Instruct in bf16 (a hybrid: three Gated DeltaNet layers to each
attention layer; pasted as its config.json) on four and on eight H20, ``launch_server
--trust-remote-code --tp-size 4/8``, ``bench_serving`` with 100 prompts of 1,000 / 2,000 tokens
(range ratio 1) at 32 users after 5 warm-up requests; the figure the table's "Before Output
Token Throughput (tok/s)" column prints for each width. The request's note that two cards run
out of memory fits the H20's 96 GB.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8, QWEN3_NEXT_80B, QWEN_FP8

_PR = "https://github.com/sgl-project/sglang/pull/{number} ({who}, {day}: {what})"
_H20_DSV3 = (
    "DeepSeek-V3-0324 on eight H20, launch_server --tp 8 --disable-radix-cache{extra}; "
    "bench_serving --dataset-name random --random-input 1024 --random-output 512 "
    "--max-concurrency 8 --num-prompt 200; 'Result (without Moe config)'"
)
_MEANS = "random lengths typed as the run's means (103,005 and 53,590 tokens over 200 requests)"
FIRST_KEY = 241


def _contributor_run(key, number, who, day, what, model, gpu, cards, prompt, answer, users,
                     output_tokens_per_s, quoted, weight="fp8",
                     **typed) -> PublishedCase:  # fmt: skip
    """One SGLang pull request's run without its new configuration: output tokens a second."""
    source = _PR.format(number=number, who=who, day=day, what=what)
    return PublishedCase(
        key, "throughput", model, gpu, cards, weight, prompt, answer, "users", users,
        output_tokens_per_s, source, quoted, kv_dtype="bf16", engine="SGLang", **typed,
    )  # fmt: skip


_H20_NEXT = (
    "Qwen3-Next-80B-A3B-Instruct (bf16) on {cards} H20, launch_server --trust-remote-code "
    "--tp-size {cards}; bench_serving --backend sglang-oai --num-prompts 100 --max-concurrency 32 "
    "--dataset-name random --random-input-len 1000 --random-output-len 2000 "
    "--random-range-ratio 1 --warmup-requests 5; 'Before Output Token Throughput (tok/s)'"
)


def _qwen3_next_h20(key, cards, output_tokens_per_s) -> PublishedCase:
    """One width of PR #10467's table: Qwen3-Next-80B-A3B-Instruct on H20, before its config."""
    return _contributor_run(
        key, 10467, "Ximingwang-09", "2025-09-15", _H20_NEXT.format(cards=cards), "custom",
        "H20", cards, 1000, 2000, 32, output_tokens_per_s,
        f"TP Size | Input-Output Length | Before Output Token Throughput (tok/s): {cards} | "
        f"1000-2000 | {output_tokens_per_s}", weight="bf16", model_config=QWEN3_NEXT_80B,
        model_label="Qwen3-Next-80B-A3B-Instruct (config.json)",
        engine_version="0.5 (main, 2025-09-15)", layout=f"TP{cards}", requests=100,
        assumed="fixed lengths (range ratio 1; bench_serving ignores EOS by default); the "
        "warm-up requests not counted; the release's defaults for every flag not set",
    )  # fmt: skip


SGLANG_PRS: list[PublishedCase] = [
    _contributor_run(
        f"D{FIRST_KEY}", 6885, "Xu-Wenqing", "2025-06-05", _H20_DSV3.format(extra=""),
        "DeepSeek-V3", "H20", 8, 515, 268, 8, round(53590 / 202.64, 2),
        "Benchmark duration (s): 202.64 | Total input tokens: 103005 | Total generated tokens: "
        "53590 (without Moe config)", engine_version="0.4.6.post5 (main, 2025-06-05)",
        layout="TP8", weight_formats=DEEPSEEK_FP8, requests=200, assumed=_MEANS,
    ),
    _contributor_run(
        f"D{FIRST_KEY + 1}", 7631, "M0gician", "2025-06-29",
        _H20_DSV3.format(extra=" --context-length 4096 --mem-fraction-static 0.9"),
        "DeepSeek-V3", "H20", 8, 515, 268, 8, round(53590 / 171.49, 2),
        "Benchmark duration (s): 171.49 | Total input tokens: 103005 (without Moe config); "
        "Total generated tokens: 53590 (with Moe config)",
        engine_version="0.4.8 (main, 2025-06-29; Triton 3.3)", layout="TP8",
        weight_formats=DEEPSEEK_FP8, requests=200,
        assumed=_MEANS + "; the generated total the run with the configuration prints; "
        "--mem-fraction-static 0.9 as the command sets it", memory_share=0.9,
    ),
    _contributor_run(
        f"D{FIRST_KEY + 2}", 6939, "Fridge003", "2025-06-07",
        "DeepSeek-V3-0324 on eight B200, SGLANG_ENABLE_FLASHINFER_GEMM=1 launch_server --tp 8 "
        "--attention-backend triton; bench_serving --backend sglang-oai --dataset-name random "
        "--random-input-len 1000 --random-output-len 1000 --random-range-ratio 1 "
        "--num-prompts 128 --max-concurrency 16; 'Before tuning'",
        "DeepSeek-V3", "B200", 8, 1000, 1000, 16, 578.37,
        "Successful requests: 128 | Benchmark duration (s): 221.31 | Total generated tokens: "
        "128000 | Output token throughput (tok/s): 578.37 (Before tuning)",
        engine_version="0.4.6.post5 (main, 2025-06-07)", layout="TP8",
        weight_formats=DEEPSEEK_FP8, requests=128,
        assumed="the Triton attention backend and FlashInfer's block-fp8 GEMMs priced as the "
        "release's own kernels (no knob)",
    ),
    _contributor_run(
        f"D{FIRST_KEY + 3}", 12343, "BBuf", "2025-10-29",
        "Qwen3-30B-A3B-FP8 on four H200, launch_server --tp-size 4 --ep 4; bench_serving "
        "--backend sglang-oai --dataset-name random --random-input-len 4096 "
        "--random-output-len 1024 --random-range-ratio 1 --num-prompts 100 --max-concurrency 1 "
        "--warmup-requests 5; the 'main branch' run",
        "Qwen3-30B-A3B", "H200", 4, 4096, 1024, 1, round(100 * 1024 / 479.09, 2),
        "Max request concurrency: 1 | Successful requests: 100 | Benchmark duration (s): 479.09 "
        "| Total input tokens: 409600 (main branch)",
        engine_version="0.5.4 (main, 2025-10-29)", layout="TP4/EP4", weight_formats=QWEN_FP8,
        requests=100, assumed="1,024 generated tokens a request (range ratio 1, EOS ignored by "
        "default) over the printed duration",
    ),
]  # fmt: skip
"""PRs #6885 and #7631 on H20 (D241-D242), #6939 on B200 (D243), #12343 on H200 (D244)."""

HYBRID_FIRST_KEY = 249
SGLANG_HYBRID_PRS: list[PublishedCase] = [
    _qwen3_next_h20(f"D{HYBRID_FIRST_KEY}", 4, 1980.89),
    _qwen3_next_h20(f"D{HYBRID_FIRST_KEY + 1}", 8, 2378.39),
]
"""PR #10467 on four and eight H20 (D249-D250), typed in the twenty-seventh round."""
