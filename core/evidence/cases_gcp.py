"""A published row found in issue 37's fifteenth round (item 5): Google Cloud's serving recipe.

Google Cloud's AI Hypercomputer recipes (AI-Hypercomputer/gpu-recipes) deploy models on its GKE
node pools and print a run's output in each recipe's README. The TensorRT-LLM recipe for one
A3 Ultra node (``a3-ultragpu-8g``: eight H200) prints one whole ``trtllm-bench`` run: Llama 3.1
405B (meta-llama/Llama-3.1-405B) quantised to FP8 with an FP8 cache, TP8, TensorRT-LLM
0.17.0.post1, 30,000 requests of 128 prompt and 128 answer tokens, every request sent at once.
A publisher none of the other rows has, on a card and release the first set's perf-overview
rows ran; the only run the repository's history prints a figure for (every other recipe's
README shows placeholders).

Typed from the run's own log, before the engine level was evaluated on it:

- the engine: built by ``trtllm-bench`` ("Max batch size and max num tokens are not provided,
  use tuning heuristics": max batch 4,096, max tokens 8,192 for its 128/128 dataset), so sized
  for its own lengths, on the C++ runtime of the 0.17 line ("TensorRT-LLM Version:
  0.17.0.post1", an engine directory);
- the figure: "Token Throughput (tokens/sec): 3914.4509", the output tokens a second (its
  request throughput, 30.5816 a second, times 128 answer tokens);
- the run: 30,000 equal requests (its dataset details: 128/128, no spread);
- the cache's share: the log's "KV Memory Percentage: 95.00%"; the engine level gives every
  TensorRT-LLM run the engine's default 90 % of what is left (the first set's perf-overview rows
  ran 0.95 too, by the v0.17 page's note), so the row is typed as those are.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import LLAMA_31_405B_PASTED

_SOURCE = (
    "https://github.com/AI-Hypercomputer/gpu-recipes inference/a3ultra/single-host-serving/"
    "trtllm/README.md @d77b3d4 (Google Cloud AI Hypercomputer recipe: Llama 3.1 405B FP8 on one "
    "A3 Ultra node, eight H200, TensorRT-LLM 0.17.0.post1, trtllm-bench throughput, 30,000 "
    "requests of 128/128 sent at once; 'Token Throughput (tokens/sec)')"
)
_ASSUMED = (
    "the run's 95 % KV share typed as the engine level's 90 % for every TensorRT-LLM run, as the "
    "first set's perf-overview rows; meta-llama/Llama-3.1-405B as Llama-3.1-405B's config.json"
)

GCP: list[PublishedCase] = [
    PublishedCase(
        "D165", "throughput", "custom", "H200", 8, "fp8", 128, 128, "saturated", 0, 3914.4509,
        _SOURCE, "Number of requests: 30000 | Average Input Length (tokens): 128.0000 | Average "
        "Output Length (tokens): 128.0000 | Token Throughput (tokens/sec): 3914.4509 | Request "
        "Throughput (req/sec): 30.5816", kv_dtype="fp8", engine="TensorRT-LLM",
        engine_version="0.17.0.post1 (trtllm-bench)", layout="TP8", assumed=_ASSUMED,
        requests=30000, **LLAMA_31_405B_PASTED,
    ),
]  # fmt: skip
"""The Google Cloud recipe's row found in the fifteenth round of issue 37's item 5."""
