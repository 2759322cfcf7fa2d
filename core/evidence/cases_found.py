"""Published rows found in issue 37's second round (item 5), appended to the second set.

Each case names the public page or repository file it came from, quotes its figures and says
what it assumes; :data:`FOUND` is appended to :data:`core.evidence.cases_2026.SECOND` (keys
D44 onward) and typed as its cases are. The rows were taken by the rule of
:mod:`core.evidence.cases_2026`'s docstring, written down before the engine level was evaluated
on any of them, read for these sources as follows (also written before any evaluation):

- Lambda's vLLM benchmark (LambdaLabsML/vllm-benchmark, its report ``benchmark_v0.md``): the
  table "Tensor Parallel v.s. Data Parallel" gives, for eight models on 1, 2, 4 and 8 A100 or
  H100 cards, output throughput / median time between tokens of one run each, every run the
  same load (320 ShareGPT requests sent at once, vLLM 0.5.4). Its prompt and answer lengths are
  each run's own means (``total_input_tokens`` and ``total_output_tokens`` over ``completed``
  in the run's JSON, ``results_v0/prompt_320/<cards>x<card>/<model>_tp<n>_len2000.json``: the
  files ``compile_sweetspot.py`` compiles the table from, moved to ``results_v0/`` when the
  0.6.0 runs came; each quoted figure is checked against its file). Every request at once is heavy load: output throughput is taken,
  not the time between tokens.
- A row needs its lengths, so its run file: of the table's 48 runs (the eight models in the
  catalog or pasted as their config.json, every run that did not fail), the stored snapshot
  of the repository holds the file of 32; the other 16 state no lengths here and are not
  expressible. The table has more than six such rows, so the cap applies. Its nominal load is
  one for every row, and what varies is how many cards share it: the load a card carries is
  320 requests over the cards. So, per (model, card, engine), the expressible runs on the fewest
  cards (the largest load per card) and on the most cards (the smallest) are taken, 23 rows;
  a model with one expressible run on a card gives that one.
- Lambda's rows are shown but not scored (``scored=False``), decided after they were first
  scored (issue 37's closing note gives both figures): 320 requests of ShareGPT's spread of
  lengths, every one sent at once, over an engine that runs at most 256 is one burst and its
  tail, never a steady state; its throughput is set by when the longest answers end, a load
  no Scenario knob expresses (a saturated load is the steady state of a queue that never
  empties; ``run_requests``, added in issue 37's ninth round, ends a run of equal requests,
  whose waves end together, not one of ShareGPT's spread). Scored, they took the
  engine level's error over both sets from 16.8 % to 47.9 % (Lambda's own 191 %).
- The report's three tables of vLLM 0.5.4 against 0.6.0 are left out: they name neither the
  card nor the lengths (ShareGPT, 5,000 requests, no run file named), and 0.6.0 with ten
  scheduler steps is multi-step scheduling, which the rule excludes.
- AMD's ROCm blog 'Best practices for competitive inference optimization on AMD Instinct
  MI300X GPUs' (rocm.blogs.amd.com, a publisher of its own, apart from AMD's performance-results
  page): three tables, each with an MI300X column (vLLM, rocm/vllm-dev:20250112) and an H100
  column (TensorRT-LLM 0.16.0), Llama 3.1 70B and 405B in FP8 on eight cards. The vLLM
  throughput table (requests at an infinite rate, output throughput, four lengths per model):
  16 rows, all at the one load, so the cap keeps every one (the smallest and the largest load of
  each model, card and engine are that load). The two end-to-end latency tables (a batch of
  1 to 128 requests, two lengths, milliseconds to the last token): 32 rows each; per model, card
  and engine the rows at batch 1 and at batch 128 are taken, both lengths, typed as one
  request's time at that many users, the figure the table gives; since issue 37's
  twenty-third round each such batch is typed as the run it was (``requests`` = the batch: its
  prompts all sent at once and run to their end), no longer as a steady state of that many
  users. Its MLPerf table is left out
  (the lengths of MLPerf's data sets and the server scenario's request rate are not stated),
  and its latency-throughput curves are figures, not tables.
"""

from __future__ import annotations

from core.evidence.cases import PERF_OVERVIEW_REQUESTS, PublishedCase
from core.evidence.configs import (
    LLAMA_31_405B,
    LLAMA_31_405B_PASTED,
    MISTRAL_7B_V03,
    MISTRAL_LARGE_2407,
    MISTRAL_NEMO,
    MIXTRAL_8X22B,
)

_BURST = (
    "320 requests of ShareGPT's spread of lengths sent at once to an engine that runs at most "
    "256, one burst whose throughput is set by when its longest answers end, not a steady load "
    "(run_requests prices a run of equal requests, whose waves end together)"
)
_LAMBDA_REPO = "LambdaLabsML/vllm-benchmark"
_LAMBDA_TABLE = (
    f"{_LAMBDA_REPO} benchmark_v0.md @0e8fc5d0 (Lambda, 'LLMs inference benchmarks, using vLLM, "
    "on Lambda Cloud', table 'Tensor Parallel v.s. Data Parallel': output tok/s / median ITL "
    "ms; vllm/vllm-openai:v0.5.4, benchmark_serving.py on ShareGPT, 320 requests at rate inf, "
    "--max-model-len 2000, TP = the cards)"
)
_LAMBDA_REQUESTS = 320
_LAMBDA_ASSUMED = (
    "lengths the run's means over its 320 requests (total tokens / completed; about a quarter "
    "of the answers are empty, counted as 0 tokens); every request at once typed as the "
    "saturated load (the engine's own limit of 256 running); KV bf16 (vLLM's auto)"
)
_FP8_CHECKPOINT = (
    "; weights the published FP8 checkpoint (static per-tensor scales), run as weight-only fp8 "
    "on A100, which has no fp8 tensor cores"
)

# The table's models: (catalog name or "custom", weights, what a custom one pastes).
_LAMBDA_MODELS = {
    "Meta-Llama-3.1-8B-FP8": ("Llama-3-8B", "fp8", {}),
    "Meta-Llama-3.1-70B-Instruct-FP8": ("Llama-3-70B", "fp8", {}),
    "Hermes-3-Llama-3.1-405B-FP8": ("custom", "fp8", {
        "model_config": LLAMA_31_405B, "model_label": "Hermes-3-Llama-3.1-405B (config.json)"}),
    "Mistral-7B-Instruct-v0.3": ("custom", "bf16", {
        "model_config": MISTRAL_7B_V03, "model_label": "Mistral-7B-v0.3 (config.json)"}),
    "Mixtral-8x7B-Instruct-v0.1": ("Mixtral-8x7B", "bf16", {}),
    "Mixtral-8x22B-Instruct-v0.1": ("custom", "bf16", {
        "model_config": MIXTRAL_8X22B, "model_label": "Mixtral-8x22B (config.json)"}),
    "Mistral-Nemo-Instruct-2407": ("custom", "bf16", {
        "model_config": MISTRAL_NEMO, "model_label": "Mistral-Nemo-12B (config.json)"}),
    "Mistral-Large-Instruct-2407": ("custom", "bf16", {
        "model_config": MISTRAL_LARGE_2407, "model_label": "Mistral-Large-2407 (config.json)"}),
}  # fmt: skip
_LAMBDA_CARDS = {"A100": ("A100 80GB SXM", "A100-80GB-SXM"), "H100": ("H100 SXM", "H100-80GB-SXM")}


def _lambda(key, card, cards, name, cell, tokens_in, tokens_out, output_tps, commit):  # fmt: skip
    """One cell of Lambda's table, its lengths the means of its run file's totals."""
    model, weights, pasted = _LAMBDA_MODELS[name]
    gpu, folder = _LAMBDA_CARDS[card]
    path = f"results_v0/prompt_320/{cards}x{folder}/{name}_tp{cards}_len2000.json"
    quoted = (
        f"{cards}x{folder} | {name} | {cell} (output tok/s / median ITL ms); {path}: completed "
        f"320, total_input_tokens {tokens_in}, total_output_tokens {tokens_out}, "
        f"output_throughput {output_tps}"
    )
    assumed = _LAMBDA_ASSUMED + (_FP8_CHECKPOINT if weights == "fp8" else "")
    return PublishedCase(
        key, "throughput", model, gpu, cards, weights,
        round(tokens_in / _LAMBDA_REQUESTS), round(tokens_out / _LAMBDA_REQUESTS), "saturated", 0,
        float(cell.split("/")[0]), f"{_LAMBDA_TABLE}; run file {path} @{commit}", quoted,
        kv_dtype="bf16", engine="vLLM", engine_version="0.5.4 (V0)", layout=f"TP{cards}",
        assumed=assumed, scored=False, unscored_why=_BURST, **pasted,
    )  # fmt: skip


_L8B, _L70B, _405B = "Meta-Llama-3.1-8B-FP8", "Meta-Llama-3.1-70B-Instruct-FP8", "Hermes-3-Llama-3.1-405B-FP8"  # fmt: skip
_M7B, _MIX7, _MIX22 = "Mistral-7B-Instruct-v0.3", "Mixtral-8x7B-Instruct-v0.1", "Mixtral-8x22B-Instruct-v0.1"  # fmt: skip
_NEMO, _LARGE = "Mistral-Nemo-Instruct-2407", "Mistral-Large-Instruct-2407"
_C1, _C6 = "39c0c3fe", "680cc0a3"

FOUND: list[PublishedCase] = [
    # Lambda, A100 80GB SXM: per model, the runs on the fewest and the most cards
    _lambda("D44", "A100", 1, _L8B, "1517.54/42.85", 65578, 44214, 1517.5423545526373, _C1),
    _lambda("D45", "A100", 8, _L8B, "1972.26/40.47", 65578, 44074, 1972.25876571645, _C6),
    _lambda("D46", "A100", 1, _L70B, "208.79/58.26", 65814, 60364, 208.7882238746973, _C6),
    _lambda("D47", "A100", 8, _L70B, "1162.78/74.12", 65814, 60311, 1162.7788820040719, _C6),
    _lambda("D48", "A100", 8, _405B, "467.85/180.74", 65578, 67793, 467.8450512539908, _C1),
    _lambda("D49", "A100", 1, _M7B, "1591.4/56.51", 73671, 71545, 1591.3955006773415, _C1),
    _lambda("D50", "A100", 4, _M7B, "2228.35/44.66", 73671, 71271, 2228.3519052748816, _C6),
    _lambda("D51", "A100", 2, _MIX7, "1017.34/67.24", 73671, 69460, 1017.3364837820002, _C6),
    _lambda("D52", "A100", 8, _MIX7, "1289.26/49.91", 73671, 70502, 1289.2593598881015, _C6),
    _lambda("D53", "A100", 4, _MIX22, "715.37/95.54", 73671, 71486, 715.3700268492702, _C6),
    _lambda("D54", "A100", 4, _NEMO, "1919.13/44.7", 69196, 52454, 1919.1287745735294, _C1),
    _lambda("D55", "A100", 8, _NEMO, "2035.34/40.7", 69196, 52716, 2035.3359402510052, _C1),
    # Lambda, H100 SXM
    _lambda("D56", "H100", 1, _L8B, "3400.4/19.75", 65578, 44463, 3400.3950590123045, _C1),
    _lambda("D57", "H100", 8, _L8B, "3931.83/17.61", 65578, 43459, 3931.8258655062637, _C1),
    _lambda("D58", "H100", 1, _L70B, "418.92/35.84", 65814, 59613, 418.91589733530685, _C6),
    _lambda("D59", "H100", 8, _L70B, "2572.8/33.71", 65814, 60543, 2572.8026734949035, _C6),
    _lambda("D60", "H100", 2, _M7B, "3758.54/24.26", 73671, 71203, 3758.53629068894, _C6),
    _lambda("D61", "H100", 8, _M7B, "4397.11/21.56", 73671, 71403, 4397.110389816076, _C1),
    _lambda("D62", "H100", 2, _MIX7, "1430.42/38.08", 73671, 69677, 1430.4234625140425, _C6),
    _lambda("D63", "H100", 8, _MIX22, "1558.66/39.25", 73671, 71260, 1558.6595490498028, _C6),
    _lambda("D64", "H100", 1, _NEMO, "2414.81/31.16", 69196, 53229, 2414.80577661579, _C6),
    _lambda("D65", "H100", 8, _NEMO, "3686.29/22.85", 69196, 53226, 3686.287643300574, _C1),
    _lambda("D66", "H100", 4, _LARGE, "1301.24/56.42", 73708, 72406, 1301.2389432972025, _C1),
]

_ROCM_BLOG = (
    "https://rocm.blogs.amd.com/artificial-intelligence/LLM_Inference/README.html (AMD ROCm "
    "blog, 29 January 2025, 'Best practices for competitive inference optimization on AMD "
    "Instinct MI300X GPUs'; ROCm/rocm-blogs blogs/artificial-intelligence/LLM_Inference/"
    "README.md @11235ac2)"
)
_ROCM_THROUGHPUT = f"{_ROCM_BLOG}, table 'vLLM Throughput Benchmark Results'"
_ROCM_LATENCY = f"{_ROCM_BLOG}, the end-to-end latency (TTLT) tables"
_ROCM_VLLM = "0.6.7.dev (ROCm, rocm/vllm-dev:20250112)"
_ROCM_TRT = "0.16.0"
_ROCM_ASSUMED = {
    "MI300X": "TP8 as the table states; KV fp8 (the image's own page runs float8 as '--quantization "
    "fp8 --kv-cache-dtype fp8'); the 20250112 image's vLLM taken as the 20250117 image's "
    "0.6.7.dev the post lists; fixed lengths",
    "H100 SXM": "TP8 as the table states; KV fp8 (NVIDIA's FP8 recipe: trtllm-bench's FP8 build "
    "sets an FP8 cache); fixed lengths",
}
# How the MI300X throughput rows ran (issue 37, thirteenth round, an audit of the source's own
# commands): the image's page, ROCm/vllm docs/dev-docker/README.md of January 2025, prints the
# blog's figures with the prompts and max-num-seqs of each row and the command that made them,
# benchmark_throughput.py with '--num-scheduler-steps 10 --enable-chunked-prefill False
# --max-num-seqs $MAX_NUM_SEQS'. Multi-step scheduling is one of the set-ups the selection rule
# leaves out (core.evidence.cases_2026), so these eight rows are shown, unscored; until then
# they were typed from ROCm/MAD's script (3,000 and 1,500 requests, one scheduler step), which
# the page shows did not make them. Prompts sent (= max-num-seqs), by model and lengths:
README_THROUGHPUT_REQUESTS = {
    ("70B", 128, 2048): 3200, ("70B", 128, 4096): 1500, ("70B", 500, 2000): 2000,
    ("70B", 2048, 2048): 1500, ("405B", 128, 2048): 1500, ("405B", 128, 4096): 1500,
    ("405B", 500, 2000): 2000, ("405B", 2048, 2048): 500,
}  # fmt: skip
_MULTI_STEP = (
    "run with multi-step scheduling ('--num-scheduler-steps 10') and max-num-seqs equal to its "
    "prompts (ROCm/vllm docs/dev-docker/README.md, the image's page, which prints these "
    "figures), a set-up the selection rule leaves out"
)
_ROCM_MODELS = {
    "70B": ("Llama-3-70B", {}),
    "405B": ("custom", LLAMA_31_405B_PASTED),
}  # fmt: skip


def _rocm(key, size, gpu, prompt, answer, batch, measured, quoted):  # fmt: skip
    """One cell of the ROCm blog's tables: output tok/s at max load (batch None), else the
    batch's milliseconds to its last token as one request's time at that many users."""
    model, pasted = _ROCM_MODELS[size]
    mi300x = gpu == "MI300X"
    engine, version = ("vLLM", _ROCM_VLLM) if mi300x else ("TensorRT-LLM", _ROCM_TRT)
    if batch is None:
        metric, load, value, figure, source = (
            "throughput",
            "saturated",
            0,
            measured,
            _ROCM_THROUGHPUT,
        )
        how = "; requests at an infinite rate typed as the saturated load"
    else:
        metric, load, value, figure, source = (
            "request",
            "users",
            batch,
            measured / 1000,
            _ROCM_LATENCY,
        )
        how = (
            f"; a batch of {batch} run once: {batch} users and a run of {batch} requests "
            "(run_requests, all sent at once), its time to the last token as one request's"
        )
    bench = "" if mi300x else " (trtllm-bench, or its emulated static batching for latency)"
    multi_step = mi300x and batch is None
    if batch is not None:  # one batch, sent at once and run to its end (retyped: see below)
        sent = batch
    elif mi300x:
        sent = README_THROUGHPUT_REQUESTS[size, prompt, answer]
    else:
        sent = PERF_OVERVIEW_REQUESTS.get((prompt, answer), 0)
    unscored = {"scored": False, "unscored_why": _MULTI_STEP} if multi_step else {}
    return PublishedCase(
        key, metric, model, gpu, 8, "fp8", prompt, answer, load, value, figure,
        f"{source}; {engine} {version}{bench}", quoted, kv_dtype="fp8", engine=engine,
        engine_version=version, layout="TP8", assumed=_ROCM_ASSUMED[gpu] + how, requests=sent,
        **pasted, **unscored,
    )  # fmt: skip


_MI, _H = "MI300X", "H100 SXM"
_T70, _T405 = "Llama 3.1 70B | FP8 | 8", "Llama 3.1 405B | FP8 | 8"

FOUND += [
    # ROCm blog, vLLM throughput table: every row (one load)
    _rocm("D67", "70B", _MI, 128, 2048, None, 15105, f"{_T70} | 128 | 2048 | 15105 (MI300X)"),
    _rocm("D68", "70B", _MI, 128, 4096, None, 10505, "| 128 | 4096 | 10505 (MI300X, 70B)"),
    _rocm("D69", "70B", _MI, 500, 2000, None, 12664, "| 500 | 2000 | 12664 (MI300X, 70B)"),
    _rocm("D70", "70B", _MI, 2048, 2048, None, 8239, "| 2048 | 2048 | 8239 (MI300X, 70B)"),
    _rocm("D71", "405B", _MI, 128, 2048, None, 4065, f"{_T405} | 128 | 2048 | 4065 (MI300X)"),
    _rocm("D72", "405B", _MI, 128, 4096, None, 3171, "| 128 | 4096 | 3171 (MI300X, 405B)"),
    _rocm("D73", "405B", _MI, 500, 2000, None, 2985, "| 500 | 2000 | 2985 (MI300X, 405B)"),
    _rocm("D74", "405B", _MI, 2048, 2048, None, 1999, "| 2048 | 2048 | 1999 (MI300X, 405B)"),
    _rocm("D75", "70B", _H, 128, 2048, None, 15810, f"{_T70} | 128 | 2048 | 15105 | 15810 (H100)"),
    _rocm("D76", "70B", _H, 128, 4096, None, 11435, "| 128 | 4096 | 10505 | 11435 (H100, 70B)"),
    _rocm("D77", "70B", _H, 500, 2000, None, 14481, "| 500 | 2000 | 12664 | 14481 (H100, 70B)"),
    _rocm("D78", "70B", _H, 2048, 2048, None, 8245, "| 2048 | 2048 | 8239 | 8245 (H100, 70B)"),
    _rocm("D79", "405B", _H, 128, 2048, None, 3265, f"{_T405} | 128 | 2048 | 4065 | 3265 (H100)"),
    _rocm("D80", "405B", _H, 128, 4096, None, 1957, "| 128 | 4096 | 3171 | 1957 (H100, 405B)"),
    _rocm("D81", "405B", _H, 500, 2000, None, 2639, "| 500 | 2000 | 2985 | 2639 (H100, 405B)"),
    _rocm("D82", "405B", _H, 2048, 2048, None, 1563, "| 2048 | 2048 | 1999 | 1563 (H100, 405B)"),
    # ROCm blog, latency tables: batch 1 and batch 128 of each model, card and engine
    _rocm("D83", "70B", _MI, 128, 2048, 1, 19089, f"{_T70} | 1 | 128 | 2048 | 19089 | 20923"),
    _rocm("D84", "70B", _MI, 2048, 2048, 1, 19154, "| 1 | 2048 | 2048 | 19154 | 21105 (70B)"),
    _rocm("D85", "70B", _MI, 128, 2048, 128, 45216, "| 128 | 128 | 2048 | 45216 | 42398 (70B)"),
    _rocm("D86", "70B", _MI, 2048, 2048, 128, 59514, "| 128 | 2048 | 2048 | 59514 | 54202 (70B)"),
    _rocm("D87", "405B", _MI, 128, 2048, 1, 51740, f"{_T405} | 1 | 128 | 2048 | 51740 | 58916"),
    _rocm("D88", "405B", _MI, 2048, 2048, 1, 52218, "| 1 | 2048 | 2048 | 52218 | 59511 (405B)"),
    _rocm("D89", "405B", _MI, 128, 2048, 128, 116139, "| 128 | 128 | 2048 | 116139 | 99911 (405B)"),
    _rocm("D90", "405B", _MI, 2048, 2048, 128, 168846, "| 128 | 2048 | 2048 | 168846 | 195622"),
    _rocm("D91", "70B", _H, 128, 2048, 1, 20923, f"{_T70} | 1 | 128 | 2048 | 19089 | 20923 (H100)"),
    _rocm("D92", "70B", _H, 2048, 2048, 1, 21105, "| 1 | 2048 | 2048 | 19154 | 21105 (H100, 70B)"),
    _rocm("D93", "70B", _H, 128, 2048, 128, 42398, "| 128 | 128 | 2048 | 45216 | 42398 (H100)"),
    _rocm("D94", "70B", _H, 2048, 2048, 128, 54202, "| 128 | 2048 | 2048 | 59514 | 54202 (H100)"),
    _rocm("D95", "405B", _H, 128, 2048, 1, 58916, f"{_T405} | 1 | 128 | 2048 | 51740 | 58916"),
    _rocm("D96", "405B", _H, 2048, 2048, 1, 59511, "| 1 | 2048 | 2048 | 52218 | 59511 (H100)"),
    _rocm("D97", "405B", _H, 128, 2048, 128, 99911, "| 128 | 128 | 2048 | 116139 | 99911 (H100)"),
    _rocm("D98", "405B", _H, 2048, 2048, 128, 195622, "| 128 | 2048 | 2048 | 168846 | 195622"),
]
"""The cases found in the second round of issue 37's item 5, in key order."""
