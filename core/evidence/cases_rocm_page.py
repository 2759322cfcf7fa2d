"""Published rows found in issue 37's twenty-second round (item 5): the rest of AMD's table.

D32 is one cell of AMD's performance-results page for its ``rocm/vllm`` image of 15 July 2025
(ROCm 6.4.1, vLLM 0.9.1, the V1 engine on by default): Llama 3.1 70B at batch 1. The image's
own page in the ROCm/vllm repository (``docs/dev-docker/README.md`` at 7545048, 18 July 2025,
whose latency cell at batch 1 is D32's 17.236 s) prints that cell's whole tables: offline
throughput (``benchmark_throughput.py``, every prompt queued at once, four lengths) and
end-to-end latency (``benchmark_latency.py``, a batch of 1 to 128 prompts, two lengths), for
Llama 3.1 70B and 405B in FP8 on eight MI300X, TP8. The same publisher as D32, on the V1
engine the earlier blog rows (D67-D74, multi-step scheduling) did not run.

Taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for these tables as
follows, written down before the engine level was evaluated on any of them:

- the throughput table's eight rows, all at one load (every prompt at once), so the cap keeps
  all: each the run's stated prompts (``requests``) and ``--max-num-seqs`` (``max_seqs``, equal
  to the prompts), KV fp8 (the command's ``--kv-cache-dtype fp8``). The figure is read as
  output tokens a second, as AMD's own blog printed the same table's January figures (D67-D74:
  'vLLM Throughput Benchmark Results', output throughput); the page does not say;
- the latency table's 32 rows, more than six: per model and length the rows at batch 1 and at
  batch 128 (D32 is one of them), typed as one request's time at that many users, as the blog's
  latency rows are; KV fp16, as D32 (the latency command sets no ``--kv-cache-dtype``); since
  issue 37's twenty-third round each batch is typed as the run it was (``requests``);
- what no knob says: the commands' ``--max-num-batched-tokens 131072`` (the release's own
  chunk is priced) and ``--max-model-len 8192``.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import LLAMA_31_405B_PASTED

_PAGE = (
    "https://github.com/ROCm/vllm docs/dev-docker/README.md @7545048 (the rocm/vllm-dev image's "
    "page, 2025-07-18: ROCm 6.4.1, vLLM 0.9.1, V1 on by default; 8 x MI300X, TP8; {table})"
)
_THROUGHPUT = _PAGE.format(table="'Throughput Measurements', benchmark_throughput.py")
_LATENCY = _PAGE.format(table="'Latency Measurements', benchmark_latency.py, seconds")
_VERSION = "0.9.1 (ROCm 6.4.1, rocm/vllm-dev image of 2025-07-15)"
_MODELS = {"70B": ("Llama-3-70B", {}), "405B": ("custom", LLAMA_31_405B_PASTED)}
_NAMES = {
    "70B": "Llama 3.1 70B (amd/Llama-3.1-70B-Instruct-FP8-KV)",
    "405B": "Llama 3.1 405B (amd/Llama-3.1-405B-Instruct-FP8-KV)",
}
_UNSTATED = "--max-num-batched-tokens 131072 and --max-model-len 8192 not priced (no knob)"
_THROUGHPUT_ASSUMED = (
    "the figure read as output tokens a second, as AMD's blog printed the same table's January "
    f"figures (D67-D74); KV fp8 as the command sets; {_UNSTATED}"
)
_LATENCY_ASSUMED = (
    "a batch of {batch} run once ({batch} users, a run of {batch} requests sent at once), its "
    "time to the last token as one request's; "
    "KV fp16 (2 bytes, as bf16): the latency command sets no --kv-cache-dtype, as D32; "
    f"{_UNSTATED}"
)
# (model, prompt, answer, prompts sent = --max-num-seqs, tokens a second): the throughput table
_THROUGHPUT_ROWS = (
    ("70B", 128, 2048, 3200, 12638.9), ("70B", 128, 4096, 1500, 10756.8),
    ("70B", 500, 2000, 2000, 10691.7), ("70B", 2048, 2048, 1500, 7354.9),
    ("405B", 128, 2048, 1500, 3912.8), ("405B", 128, 4096, 1500, 3084.7),
    ("405B", 500, 2000, 2000, 2935.9), ("405B", 2048, 2048, 500, 2191.5),
)  # fmt: skip
# (model, batch, prompt, answer, seconds): the latency table's rows at batch 1 and 128, less
# D32 (70B, batch 1, 128/2048), which cases_2026 holds
_LATENCY_ROWS = (
    ("70B", 128, 128, 2048, 46.484), ("70B", 1, 2048, 2048, 17.500),
    ("70B", 128, 2048, 2048, 52.394), ("405B", 1, 128, 2048, 48.453),
    ("405B", 128, 128, 2048, 117.027), ("405B", 1, 2048, 2048, 48.362),
    ("405B", 128, 2048, 2048, 125.471),
)  # fmt: skip
FIRST_KEY = 220


def _throughput(key, size, prompt, answer, prompts, measured) -> PublishedCase:
    """One row of the throughput table: every prompt queued at once, as many run at a time."""
    model, pasted = _MODELS[size]
    quoted = f"{_NAMES[size]} | FP8 | 8 | {prompt} | {answer} | {prompts} | {prompts} | {measured}"
    return PublishedCase(
        key, "throughput", model, "MI300X", 8, "fp8", prompt, answer, "saturated", 0, measured,
        _THROUGHPUT, quoted, kv_dtype="fp8", engine="vLLM", engine_version=_VERSION,
        layout="TP8", assumed=_THROUGHPUT_ASSUMED, requests=prompts, max_seqs=prompts, **pasted,
    )  # fmt: skip


def _latency(key, size, batch, prompt, answer, seconds) -> PublishedCase:
    """One row of the latency table: a batch's time to its last token, as ``batch`` users'."""
    model, pasted = _MODELS[size]
    quoted = f"{_NAMES[size]} | FP8 | 8 | {batch} | {prompt} | {answer} | {seconds:.3f}"
    return PublishedCase(
        key, "request", model, "MI300X", 8, "fp8", prompt, answer, "users", batch, seconds,
        _LATENCY, quoted, kv_dtype="bf16", engine="vLLM", engine_version=_VERSION,
        layout="TP8", assumed=_LATENCY_ASSUMED.format(batch=batch), requests=batch, **pasted,
    )  # fmt: skip


ROCM_PAGE: list[PublishedCase] = [
    _throughput(f"D{FIRST_KEY + index}", *row) for index, row in enumerate(_THROUGHPUT_ROWS)
] + [
    _latency(f"D{FIRST_KEY + len(_THROUGHPUT_ROWS) + index}", *row)
    for index, row in enumerate(_LATENCY_ROWS)
]
"""The image page's throughput rows (D220-D227) and latency rows at batch 1 and 128 (D228-D234)."""
