"""Published rows found in issue 37's sixty-third round (item 5): SGLang's cookbook on eight MI300X.

Two more of SGLang's cookbook pages (:mod:`core.evidence.cases_sglang_cookbook` says how the
cookbook prints its runs) serve DeepSeek's V3 architecture on eight MI300X under SGLang 0.5.7,
the release's ROCm build; item 5 asks for more AMD rows:

- ``autoregressive/DeepSeek/DeepSeek-V3_1.mdx`` @23b0c3db: DeepSeek-V3.1 (the page's environment
  names DeepSeek-V3.1-Terminus, its commands deepseek-ai/DeepSeek-V3.1: one architecture, "the
  same model architecture as DeepSeek-V3", fp8 in 128 x 128 blocks), ``launch_server --tp 8``
  and nothing else; three lengths (1k/1k, 1k/8k, 8k/1k) at 1, 16 and 64 or 100 users, nine runs.
- ``autoregressive/DeepSeek/DeepSeek-V3.mdx`` @1c3b3b1f: DeepSeek-V3, two runs. The first
  ("latency-sensitive") decodes speculatively (``--speculative-algorithm EAGLE``), which the
  set's rule leaves out. The second ("throughput-sensitive") runs ``--tp 8 --ep 8 --dp 8
  --enable-dp-attention``, attention data parallel and the experts spread whole over the eight
  cards (DEP8), at 100 users and 1,000 prompts. Its ``bench_serving`` command names no
  dataset, so the client's default ran (ShareGPT, as the page's text says and its totals show:
  302 and 188 tokens a request, where its random-length flags asked 1,024 each way).

Typed by the sixty-second round's reading of the cookbook, written down and committed before
the engine level was evaluated on any of them:

- the V3.1 page's nine runs give, for each length, those at 1 user (mean TPOT, scored; mean
  first token, shown) and at 100 or 64 (output throughput, scored); the V3 page's one run the
  rule takes gives its output throughput at 100 users (scored);
- lengths the run's means; the cache the release's default (bf16); SGLang 0.5.7's ROCm build
  priced as the 0.5 line's (AITER's kernels, as the catalog prices SGLang's ROCm images: neither
  page states an environment); DeepSeek-V3.1 as the catalog's DeepSeek-V3 shape.

Ten rows: D470-D479, seven scored, three first tokens shown. Priced from the sixty-fourth round
as the 0.5 line's patch release 0.5.6, whose block-fp8 GEMMs run AITER's Triton kernel on its
default tile (:data:`core.catalog.release_kernels.SGLANG_TRITON_GEMM_SOURCE`).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_sglang_cookbook import COOKBOOK_PAGE, cookbook_case, cookbook_cases
from core.evidence.configs import DEEPSEEK_FP8

_V31_PAGE = COOKBOOK_PAGE.format(
    "autoregressive/DeepSeek/DeepSeek-V3_1.mdx @23b0c3db, '5.1 Speed Benchmark' (AMD MI300X GPU "
    "(8x), DeepSeek-V3.1-Terminus, TP 8, sglang 0.5.7; launch_server --model-path "
    "deepseek-ai/DeepSeek-V3.1 --tp 8; bench_serving --dataset-name random)"
)
_V3_PAGE = COOKBOOK_PAGE.format(
    "autoregressive/DeepSeek/DeepSeek-V3.mdx @1c3b3b1f, '5.1.2 Throughput-Sensitive Benchmark' "
    "(AMD MI300X GPU (8x), DeepSeek-V3, TP 8, sglang 0.5.7; launch_server --model-path "
    "deepseek-ai/DeepSeek-V3 --tp 8 --ep 8 --dp 8 --enable-dp-attention; bench_serving "
    "--num-prompts 1000 --max-concurrency 100, no --dataset-name: ShareGPT)"
)
_ASSUMED = (
    "lengths typed as the run's means; KV bf16 (the release's default: the command sets none); "
    "SGLang 0.5.7's ROCm build as the 0.5 line's (AITER's kernels; no environment stated); "
    "DeepSeek-V3.1 as the catalog's DeepSeek-V3 shape"
)
FIRST_KEY = 470

# Each printed run of the V3.1 page: (nominal lengths, users, successful requests, total input
# tokens, total generated tokens, output tok/s, mean TTFT ms, mean TPOT ms), as printed.
V31_RUNS = (
    ("1k/1k", 1, 10, 6101, 4220, 39.72, 557.85, 23.84),
    ("1k/1k", 16, 80, 39668, 40805, 378.84, 607.91, 35.50),
    ("1k/1k", 100, 500, 249831, 252662, 1216.79, 835.15, 73.33),
    ("1k/8k", 1, 10, 6101, 44462, 40.52, 156.67, 24.41),
    ("1k/8k", 16, 80, 39668, 318306, 410.70, 214.35, 33.72),
    ("1k/8k", 64, 320, 158939, 1301025, 1056.05, 317.68, 53.30),
    ("8k/1k", 1, 10, 41941, 4220, 36.87, 883.78, 24.93),
    ("8k/1k", 16, 80, 300020, 41669, 256.70, 1784.30, 53.65),
    ("8k/1k", 64, 320, 1273893, 170000, 601.67, 786.69, 97.93),
)  # fmt: skip
# the V3 page's run the rule takes (its other decodes speculatively)
V3_DEP_RUN = ("sharegpt", 100, 1000, 301701, 188375, 463.80, 1521.51, 214.73)

_V31 = {"runs": V31_RUNS, "model": "DeepSeek-V3", "gpu": "MI300X", "dtype": "fp8",
        "formats": DEEPSEEK_FP8, "version": "0.5.7 (ROCm)", "source": _V31_PAGE,
        "assumed": _ASSUMED}  # fmt: skip
_V3 = {**_V31, "source": _V3_PAGE, "layout": "DEP8",
       "assumed": f"{_ASSUMED}; ShareGPT lengths typed as the run's means"}  # fmt: skip

_V31_CASES = cookbook_cases((_V31,), FIRST_KEY)
SGLANG_COOKBOOK_MI300X: list[PublishedCase] = [
    *_V31_CASES,
    cookbook_case(FIRST_KEY + len(_V31_CASES), V3_DEP_RUN, False, _V3),
]
"""The DeepSeek-V3.1 page's rows (D470-D478) and the DeepSeek-V3 page's (D479), in key order."""
