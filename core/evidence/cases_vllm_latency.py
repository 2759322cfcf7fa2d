"""Published rows found in issue 37's sixty-sixth round (item 5): a vLLM contributor's baseline.

vllm-project/vllm PR #21865 (sakogan, 2025-07-29, closed; the same tables posted again in PR
#23197, 2025-08-19) adds Marlin kernels for vLLM's calibration-free RTN quantisation and times
them against the main branch's bf16 model with ``benchmark_latency.py --n 1
--num-iters-warmup 3 --num-iters 10 --input-len 256 --output-len 32 -tp <GPUs> --batch-size
<batch>`` "on a machine equipped with H100 GPUs", each figure the seconds of one batch's
generation averaged over five runs: Llama 3.1 8B on one card and Llama 3.3 70B on four, at
batches of 1, 4, 8 and 16. Dense models at batch 1 to 16 from a publisher the sets lack, which
item 5 asks for.

Taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for these tables as
follows, written down and committed before the engine level was evaluated on any of them:

- only the "Baseline (BF16)" rows: the RTN rows run weights quantised by an opt-in method the
  catalog prices no kernel for (its old kernels and the request's new ones alike);
- each table's four rows (fewer than seven, so all), typed as the ROCm page's latency rows are
  (:mod:`core.evidence.cases_rocm_page`): a batch's time to its last token as one request's at
  that many users, a run of that many requests sent at once (``requests``);
- Llama 3.1 8B as the catalog's Llama-3-8B and Llama 3.3 70B as its Llama-3-70B (the same
  shapes), bf16 with the cache the engine's auto (bf16), TP1 and TP4 as ``-tp`` sets them;
- "H100" typed as the H100 SXM (as PR #23151's row, D238); the release vLLM's main branch of
  2025-07-29, after v0.10.0 (2025-07-24): the 0.10 line, V1 only; the latency script runs the
  ``LLM`` class, whose batch limits are priced as the release's own (no knob).

Eight rows: D480-D487.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase

_SOURCE = (
    "https://github.com/vllm-project/vllm/pull/21865 (sakogan, 2025-07-29; the same tables in "
    "PR #23197, 2025-08-19: benchmark_latency.py --n 1 --num-iters-warmup 3 --num-iters 10 "
    "--input-len 256 --output-len 32 -tp <#GPUs> --batch-size <batch>, 'a machine equipped with "
    "H100 GPUs', the average of 5 runs in seconds; the 'Baseline (BF16)' row)"
)
_VERSION = "0.10.0 (main, 2025-07-29)"
_ASSUMED = (
    "a batch of {batch} run once ({batch} users, a run of {batch} requests sent at once), its "
    "time to the last token as one request's; 'H100' typed as the H100 SXM; KV bf16 (the "
    "engine's auto); the LLM class's batch limits priced as the release's own (no knob)"
)
# (model as the table names it, the catalog's, cards): the two tables
_TABLES = {
    "Llama3.1-8B": ("Llama-3-8B", 1),
    "Llama3.3-70B": ("Llama-3-70B", 4),
}
BATCHES = (1, 4, 8, 16)
# the "Baseline (BF16)" row of each table, seconds at the batches above
_BASELINE = {
    "Llama3.1-8B": (0.236, 0.260, 0.284, 0.336),
    "Llama3.3-70B": (0.558, 0.629, 0.700, 0.855),
}
FIRST_KEY = 480


def _row(key: str, name: str, batch: int, seconds: float) -> PublishedCase:
    """One cell of a table's baseline row: a batch's generation latency, as ``batch`` users'."""
    model, cards = _TABLES[name]
    quoted = f"{name} ({cards} GPU) | Baseline (BF16) | batch {batch} | {seconds:.3f}"
    return PublishedCase(
        key, "request", model, "H100 SXM", cards, "bf16", 256, 32, "users", batch, seconds,
        _SOURCE, quoted, kv_dtype="bf16", engine="vLLM", engine_version=_VERSION,
        layout=f"TP{cards}" if cards > 1 else "TP", assumed=_ASSUMED.format(batch=batch),
        requests=batch,
    )  # fmt: skip


VLLM_LATENCY: list[PublishedCase] = [
    _row(f"D{FIRST_KEY + index}", name, batch, seconds)
    for index, (name, batch, seconds) in enumerate(
        (name, batch, seconds)
        for name, row in _BASELINE.items()
        for batch, seconds in zip(BATCHES, row, strict=True)
    )
]
"""PR #21865's bf16 baselines: Llama 3.1 8B on one H100 (D480-D483), Llama 3.3 70B on four
(D484-D487), at batches of 1, 4, 8 and 16."""
