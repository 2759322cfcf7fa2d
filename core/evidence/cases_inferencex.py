"""Published rows found in issue 37's fifth round (item 5): SemiAnalysis InferenceX's dashboard.

InferenceX (SemiAnalysisAI/InferenceX) runs each model, card and engine recipe nightly and
publishes the figures on its dashboard. When a pull request updates a recipe's engine image, a
bot posts the dashboard's figures for the old image as the baseline to beat: a table of
(lengths, concurrency, tensor parallelism) points with total and output tokens per second per
GPU, mean time to first token and mean time between tokens. The set held one InferenceX row
(D33). Rows were taken by the rule of :mod:`core.evidence.cases_2026`'s docstring, read for
this source as follows, written down before the engine level was evaluated on any of them:

- Only tables read whole, of a catalog model on a catalog card with an engine the catalog
  knows, one node, no speculative decoding (MTP) and no disaggregated serving: DeepSeek-R1-0528
  in fp8 on eight H200 (SGLang 0.5.12, PR #3173: 1k/1k and 8k/1k at 4 to 64 users) and on eight
  MI325X (SGLang 0.5.19 for ROCm 7.0, PR #3318: 8k/1k at 4 to 64 users), both TP8 EP1. The
  B200 TensorRT-LLM table (PR #3317) and the MI355X vLLM tables (PRs #1527, #1531) were read only
  in part; the other tables are of models (DeepSeek-V4, Qwen3.5, GLM-5, Kimi-K2.5, MiniMax),
  cards (B300, GB300) or engines (ATOM, TileRT, disaggregated Dynamo) the catalog lacks.
- A table of more than six rows gives the rows at its smallest and largest load for each
  length (H200: 4 and 64 users, both lengths); the MI325X table's five rows are all taken.
- At 16 users or fewer the figure is the time between tokens (TPOT), at 32 or more the output
  throughput (output tokens per second per GPU times the eight GPUs).
- Lengths as D33 reads InferenceX's random data set: each drawn between 0.8 and 1 times its
  nominal length, so 1k is typed as 922 tokens and 8k as 7,373; KV in bf16 (the recipes set no
  KV format).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase

_PR = (
    "https://github.com/SemiAnalysisAI/InferenceX/pull/{number} (SemiAnalysis InferenceX "
    "dashboard, the baseline table of the {recipe} recipe, {image}, {date})"
)
_H200 = _PR.format(number=3173, recipe="dsr1-fp8-h200-sglang",
                   image="lmsysorg/sglang:v0.5.12-cu130", date="2026-05-17")  # fmt: skip
_MI325X = _PR.format(number=3318, recipe="dsr1-fp8-mi325x-sglang",
                     image="lmsysorg/sglang:v0.5.19-rocm700-mi30x", date="2026-09-10")  # fmt: skip
_DEEPSEEK_FP8 = (
    "fp8 e4m3 scaled per 128 x 128 block (deepseek-ai/DeepSeek-R1 config.json "
    "quantization_config.weight_block_size)"
)
_ASSUMED = (
    "KV bf16 (the recipe sets none); lengths drawn between 0.8 and 1 times nominal, typed as "
    "their mean; DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape"
)
_K1, _K8 = 922, 7373  # 1k and 8k at the mean of [0.8, 1] times nominal


def _row(key, gpu, version, source, prompt, users, figure, quoted) -> PublishedCase:
    """One point of a table: its time between tokens at 16 users or fewer, else throughput."""
    light = users <= 16
    metric, measured = ("itl", figure / 1000) if light else ("throughput", figure * 8)
    return PublishedCase(
        key, metric, "DeepSeek-R1", gpu, 8, "fp8", prompt, _K1, "users", users, measured,
        source, quoted, kv_dtype="bf16", engine="SGLang", engine_version=version,
        layout="TP8", weight_formats=_DEEPSEEK_FP8, assumed=_ASSUMED,
    )  # fmt: skip


_HEAD = "| Point | Total tok/s/GPU | Output tok/s/GPU | TTFT ms | TPOT ms |"
_MI_HEAD = (
    "8k/1k, TP8/EP1: | Concurrency | Total tok/s/GPU | Output tok/s/GPU | TTFT ms | TPOT ms |"
)
INFERENCEX: list[PublishedCase] = [
    _row("D109", "H200", "0.5.12", _H200, _K1, 4, 9.7,
         f"{_HEAD} 1k/1k c4 TP8 EP1 | 98.83 | 49.17 | 157.77 | 9.7 |"),
    _row("D110", "H200", "0.5.12", _H200, _K1, 64, 259.8,
         "| 1k/1k c64 TP8 EP1 | 519.71 | 259.8 | 359.75 | 29.77 | (x 8 GPUs)"),
    _row("D111", "H200", "0.5.12", _H200, _K8, 4, 10.94,
         "| 8k/1k c4 TP8 EP1 | 387.58 | 43.12 | 373.26 | 10.94 |"),
    _row("D112", "H200", "0.5.12", _H200, _K8, 64, 150.98,
         "| 8k/1k c64 TP8 EP1 | 1,360.88 | 150.98 | 2,245.58 | 49.33 | (x 8 GPUs)"),
    _row("D113", "MI325X", "0.5.19 (ROCm 7.0)", _MI325X, _K8, 4, 18.53,
         f"{_MI_HEAD} | 4 | 223.94 | 24.91 | 1,025.49 | 18.53 |"),
    _row("D114", "MI325X", "0.5.19 (ROCm 7.0)", _MI325X, _K8, 8, 21.56,
         "| 8 | 385.84 | 43.38 | 1,026.66 | 21.56 |"),
    _row("D115", "MI325X", "0.5.19 (ROCm 7.0)", _MI325X, _K8, 16, 26.75,
         "| 16 | 626.19 | 69.39 | 1,163.49 | 26.75 |"),
    _row("D116", "MI325X", "0.5.19 (ROCm 7.0)", _MI325X, _K8, 32, 95.57,
         "| 32 | 854.62 | 95.57 | 1,363.26 | 39.45 | (x 8 GPUs)"),
    _row("D117", "MI325X", "0.5.19 (ROCm 7.0)", _MI325X, _K8, 64, 114.89,
         "| 64 | 1,035.63 | 114.89 | 1,917.85 | 66.55 | (x 8 GPUs)"),
]  # fmt: skip
"""InferenceX's dashboard rows found in the fifth round of issue 37's item 5, in key order."""
