"""Published rows found in issue 37's eighth round (item 5): Microsoft Azure's benchmarking guide.

Azure's HPC/AI team publishes, per VM, the results of its AI benchmarking guide
(Azure/AI-benchmarking-guide; the stored copy read here is the fork samuel-bohman/
AI-benchmarking-guide, which carries the same history): "End-to-End Inference Workloads" on
ND H100 v5 and ND H200 v5 (eight H100 SXM or H200 cards a VM). A publisher the sets did not
have. Its rows were taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for
this source as follows, written down before the engine level was evaluated on any of them:

- The engine is TensorRT-LLM v0.15.0: the results were committed on 2024-12-13 with
  ``requirements.txt`` pinning ``tensorrt_llm==0.15.0`` and ``Benchmarks/NVIDIA/LLMBenchmark.py``
  checking out v0.15.0, building with ``trtllm-bench build --quantization FP8`` and running
  ``trtllm-bench throughput`` on a ``token-norm-dist`` dataset with standard deviation 0 (fixed
  lengths) of 1,000 requests; ``config.json`` runs the 8B at TP1, 70B and 405B at TP8.
- The figure is trtllm-bench's "Token Throughput (tokens/sec)", total output tokens over the
  run's time (tensorrt_llm/bench reporting; the guide's later script reads that line), so
  output throughput of the node; every request is handed over at once, typed as the first
  set's trtllm-bench rows are (the max-load benchmark, T1-T11), FP8 weights and KV cache as
  there.
- Each table holds six rows at one load, so every row is taken: 36 (8B, 70B and 405B on each
  card). Llama 3.1 8B and 70B are typed as the catalog's Llama-3-8B and Llama-3-70B (the same
  shapes), Llama 3.1 405B as its pasted config.json.

Issue 37's ninth round read the guide's benchmark script, ``LLMBenchmark.py`` at both commits,
and types two facts of it, written down (and committed) before the engine level was evaluated
with them:

- ``prepare_datasets`` builds *one* engine per model, ``trtllm-bench build --dataset`` on the
  model's pair with the largest input plus output (2048/2048 of the six), and ``run_benchmark``
  runs every pair on that engine. trtllm-bench sizes an engine's batch limit from its build
  dataset's lengths (:mod:`core.engine_level.bench_sizing`), so each row runs under the limit
  for 4,096-token requests, not its own lengths' as NVIDIA's perf overview (one build per
  dataset) does: ``built_for=(2048, 2048)``.
- ``config.json`` sets ``num_requests: 1000`` for each model, and a run never holds more
  requests than it sends: ``requests=1000``.

Both are typed through :attr:`~core.evidence.cases.PublishedCase.saturated_users`: the rows
keep running the fewest of the 1,000 requests and that limit, as closed-loop users. A run of
1,000 that is not a multiple of the running batch ends in a partial wave; the ``run_requests``
knob, added after the two facts above were scored, prices it for every case that states its
requests (:func:`core.engine_level.load.finite_run`).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import LLAMA_31_405B_PASTED

_SOURCE = (
    "Azure/AI-benchmarking-guide Azure_Results/{file} @{commit} (stored copy: the fork "
    "samuel-bohman/AI-benchmarking-guide; TensorRT-LLM v0.15.0 per requirements.txt and "
    "Benchmarks/NVIDIA/LLMBenchmark.py: trtllm-bench throughput, FP8, 1,000 requests of fixed "
    "lengths, one engine per model built for its longest pair; 'throughput(tokens/sec)', "
    "trtllm-bench's output tokens per second)"
)
_CARDS = {
    "H100 SXM": _SOURCE.format(file="ND_H100_v5_results.md", commit="b24f9bb9"),
    "H200": _SOURCE.format(file="ND_H200_v5_results.md", commit="0de7d01d"),
}
_LENGTHS = ((128, 128), (128, 1024), (128, 2048), (500, 2000), (1024, 1024), (2048, 2048))
# card | model | cards (TP) | throughput for each of _LENGTHS, as the tables print them
_TABLE = """
H100 SXM|8B|1|15163 17075 15014 13047 11724 8026
H100 SXM|70B|8|10032 13345 12910 11594 9125 7908
H100 SXM|405B|8|2515 3417 3434 3143 2422 1973
H200|8B|1|17853 23880 21255 18357 15043 9736
H200|70B|8|11973 18369 18219 15911 11302 10371
H200|405B|8|3148 4981 5098 4447 3050 2859
"""
_MODELS = {
    "8B": ("Llama-3-8B", {}, "LLAMA 3.1 (8B)"),
    "70B": ("Llama-3-70B", {}, "LLAMA 3.1 (70B)"),
    "405B": ("custom", LLAMA_31_405B_PASTED, "LLAMA 3 (405B)"),
}
_ASSUMED = (
    "trtllm-bench's FP8 build typed with an FP8 KV cache, as the perf overview's (T1-T11); "
    "Llama 3.1 {size} typed as the catalog's model of the same shapes"
)
_BUILT_FOR = (2048, 2048)  # LLMBenchmark.py: the model's largest input + output of its pairs
_REQUESTS = 1000  # config.json: num_requests


def _cases(first_key: int) -> list[PublishedCase]:
    cases = []
    for line in _TABLE.strip().splitlines():
        gpu, size, cards, cells = line.split("|")
        model, pasted, heading = _MODELS[size]
        for (prompt, answer), cell in zip(_LENGTHS, cells.split(), strict=True):
            cases.append(
                PublishedCase(
                    f"D{first_key + len(cases)}", "throughput", model, gpu, int(cards), "fp8",
                    prompt, answer, "saturated", 0, float(cell), _CARDS[gpu],
                    f"{heading} | {cards} | {prompt} | {answer} | {cell} ({gpu})",
                    kv_dtype="fp8", engine="TensorRT-LLM", engine_version="0.15.0",
                    layout="TP", assumed=_ASSUMED.format(size=size), requests=_REQUESTS,
                    built_for=_BUILT_FOR, **pasted,
                )
            )  # fmt: skip
    return cases


AZURE: list[PublishedCase] = _cases(118)
"""Azure's 36 rows, D118-D153, appended to the second set."""
