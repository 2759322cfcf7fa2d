"""Published rows found in issue 37's fortieth round (item 5): NVIDIA's DeepSeek-R1 recipe page.

NVIDIA/TensorRT-LLM ``docs/source/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.md``
(read at 01c4ece9) gives the commands that reproduce NVIDIA's DeepSeek-R1 figures with
``trtllm-bench throughput`` and the tool's printout of each run. Its three max-throughput runs
hold 1,024 to 7,168 requests in flight on eight cards under attention data parallelism with the
experts spread (``--tp 8 --ep 8``, ``enable_attention_dp: true``): the load where the hidden sets
miss mixtures most (issue 37: x1.5-2.1 where 640-3,800 requests run), on rows anyone can read.

The reading, written down before the engine level was evaluated on any of them:

- the three max-throughput sections are taken; the two min-latency ones are not (they run
  multi-token prediction, ``decoding_type: MTP``, which the Scenario has no knob for);
- the figure is the printout's ``Total Output Throughput (tokens/sec)``; the load is the
  command's ``--concurrency`` as that many closed-loop users, the run its ``--num_requests``;
- ``--tp 8 --ep 8`` with ``enable_attention_dp`` is DEP8;
- the lengths: the B200 bf16-cache and H200 sections generate 1,024 / 2,048 tokens exactly
  (``prepare_dataset.py token-norm-dist ... --input-stdev 0 --output-stdev 0``); the B200 fp8-cache
  section names its dataset only as a path, so its lengths are the printout's own: output
  tokens over requests (43,146.2 / 21.0675 = 2,048) and the rest of the token throughput over
  requests ((65,100.6 - 43,146.2) / 21.0675 = 1,042);
- the checkpoints: nvidia/DeepSeek-R1-0528-FP4 with the fp8 cache its section sets
  (``kv_cache_dtype: fp8``); nvidia/DeepSeek-R1-FP4 with the "FP16 KV cache" its heading names,
  typed bf16 (the same bytes); deepseek-ai/DeepSeek-R1 in its block-scaled fp8 with the bf16
  cache the checkpoint implies (it names none), as the catalog's other fp8 DeepSeek rows;
- the release: both B200 sections say they were reproduced at commit b6261862, which NVIDIA's
  own CI log pasted into ``jenkins/BuildDockerImage.groovy`` places on the release-0.20 branch
  (``artifactPath: .../LLM/release-0.20/L0_PostMerge/35``): 0.20. The H200 section names no
  commit. The page's first version (NVIDIA/TensorRT-LLM PR #3232, April 2025, before 0.20)
  printed 10,637.7 tokens/s for the same run with ``--max_num_tokens 1127`` and ``--backend
  pytorch``; the refreshed section (11,489.3) writes its options as the B200 sections do: 0.20;
- each command sets ``--max_batch_size`` (per rank) and ``--max_num_tokens``, and trtllm-bench
  then takes both as given instead of sizing the engine itself (``tensorrt_llm/bench/benchmark/
  utils/general.py`` ``get_settings``: "Use user-provided max batch size and max num tokens"):
  the eight ranks' batch limits are 896, 384 and 128 each, the concurrency over eight; the step
  size (1,151 to 2,048 tokens a rank) has no Scenario knob and is priced as the release's
  default; the cache's share (``--kv_cache_free_gpu_mem_fraction`` 0.93, 0.85 and 0.80), priced
  as the release's 0.9 until the forty-third round gave the Scenario a knob for it, is typed as
  each command sets it since.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8

_PAGE = (
    "NVIDIA/TensorRT-LLM docs/source/blogs/Best_perf_practice_on_DeepSeek-R1_in_TensorRT-LLM.md "
    "@01c4ece9 (NVIDIA, 'How to get best performance on DeepSeek-R1 in TensorRT LLM': "
    "trtllm-bench throughput --tp 8 --ep 8 with enable_attention_dp; section '{section}')"
)
_ASSUMED = "--max_num_tokens priced as the release's default (no knob); {lengths}"
FIRST_KEY = 336
_VERSION = "0.20 (release-0.20 commit b6261862; PyTorch backend, trtllm-bench)"
# section | card | weights | formats | cache | prompt | answer | concurrency | requests |
# per-rank batch | the cache's share | total output tokens/s | the printout's lines the row reads
_RUNS = (
    ("B200 max-throughput for R1-0528 with FP8 KV cache", "B200", "nvfp4", "", "fp8", 1042,
     2048, 7168, 114688, 896, 0.93, 43146.2042,
     "Request Throughput (req/sec): 21.0675 | Total Output Throughput (tokens/sec): 43146.2042 "
     "| Total Token Throughput (tokens/sec): 65100.6376",
     "lengths the printout's own (output and other tokens over requests)"),
    ("B200 max-throughput for R1 with FP16 KV cache", "B200", "nvfp4", "", "bf16", 1024, 2048,
     3072, 49152, 384, 0.85, 36384.0838,
     "Request Throughput (req/sec): 17.7657 | Total Output Throughput (tokens/sec): 36384.0838",
     "the FP16 cache typed bf16 (the same bytes)"),
    ("H200 max-throughput", "H200", "fp8", DEEPSEEK_FP8, "bf16", 1024, 2048, 1024, 5120, 128,
     0.80, 11489.2671,
     "Request Throughput (req/sec): 5.6100 | Total Output Throughput (tokens/sec): 11489.2671",
     "the cache bf16 (the checkpoint names none); the release the B200 sections' (no commit "
     "named)"),
)  # fmt: skip


def _case(index, section, gpu, weights, formats, cache, prompt, answer, users, requests,
          per_rank, share, measured, quoted, assumed) -> PublishedCase:  # fmt: skip
    """One max-throughput section's run: its total output tokens a second."""
    return PublishedCase(
        f"D{FIRST_KEY + index}", "throughput", "DeepSeek-R1", gpu, 8, weights, prompt, answer,
        "users", users, measured, _PAGE.format(section=section), quoted, kv_dtype=cache,
        engine="TensorRT-LLM", engine_version=_VERSION, layout="DEP8", weight_formats=formats,
        assumed=_ASSUMED.format(lengths=assumed), requests=requests, max_seqs=8 * per_rank,
        memory_share=share,
    )  # fmt: skip


TRTLLM_BLOG: list[PublishedCase] = [_case(index, *run) for index, run in enumerate(_RUNS)]
"""The page's three max-throughput runs (D336-D338), scored."""
