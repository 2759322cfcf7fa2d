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
  nominal length, so 1k is typed as 922 tokens and 8k as 7,373.

Retyped in the thirteenth round from the recipe scripts themselves, before the engine level was
evaluated with the new typing (:data:`KV_BY_CARD`): the MI325X recipe stores the cache in fp8
(``--kv-cache-dtype fp8_e4m3``, in its script since PR #545 of January 2026), the H200 recipe
sets no KV format (bf16). Until then every row was typed KV bf16. Each run sends ten prompts per
user (``--num-prompts $((CONC * 10))``, D33's recipe too), of lengths drawn between 0.8 and 1
times nominal. Typed briefly in the thirteenth round, where it moved no printed figure (ten
waves a user price the steady state's throughput), the run's requests are typed again from the
sixteenth round, for the run's opening burst: the client sends every user's first prompt at
once (:func:`core.engine_level.load.opening_burst`).

The same rows' mean time to first token was typed in the sixteenth round (D177-D185, after
D176), from the same tables and before the engine level was evaluated on any of them. They are
shown and not scored: the set takes one figure of each printed row (the rule above), and a
first token is a second figure of the same run. Beside ATOM's first tokens (D166-D176) they
show the engine level's first token on two more engines' runs of the same benchmark client.
"""

from __future__ import annotations

import re

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8

_PR = (
    "https://github.com/SemiAnalysisAI/InferenceX/pull/{number} (SemiAnalysis InferenceX "
    "dashboard, the baseline table of the {recipe} recipe, {image}, {date}; columns: point | "
    "total tok/s/GPU | output tok/s/GPU | TTFT ms | TPOT ms)"
)
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal, typed as their mean; DeepSeek-R1-0528 as the "
    "catalog's DeepSeek-R1 shape"
)
_RECIPES = "SemiAnalysisAI/InferenceX benchmarks/single_node/fixed_seq_len/dsr1_fp8_{}.sh"
# the cache's format each card's recipe sets (the MI325X's --kv-cache-dtype fp8_e4m3, PR #545;
# the H200's sets none, SGLang's auto: the checkpoint's bf16)
KV_BY_CARD = {"H200": "bf16", "MI325X": "fp8"}
MEAN_LENGTHS = {"1k": 922, "8k": 7373}  # nominal lengths at the mean of [0.8, 1] times nominal
# the same, by the nominal token count a workflow's parameters name (ATOM's: 1024, 8192)
MEAN_LENGTHS_BY_TOKENS = {1024: MEAN_LENGTHS["1k"], 8192: MEAN_LENGTHS["8k"]}
FIRST_TTFT_KEY = 177  # the same rows' first tokens, typed in the sixteenth round after D176
_UNSCORED = (
    "the set scores one figure of each printed row, its TPOT or its throughput (D109-D117); the "
    "row's mean first token is a second figure of the same run, shown beside it"
)
# (card, SGLang release, source, the taken rows as the table prints them); the MI325X table
# names its lengths (8k/1k) in its heading, its rows only the concurrency
_TABLES = (
    ("H200", "0.5.12", _PR.format(number=3173, recipe="dsr1-fp8-h200-sglang",
                                  image="lmsysorg/sglang:v0.5.12-cu130", date="2026-05-17"),
     """| 1k/1k c4 TP8 EP1 48133a | 98.83 | 49.17 | 157.77 | 9.7 |
        | 1k/1k c64 TP8 EP1 a70803 | 519.71 | 259.8 | 359.75 | 29.77 |
        | 8k/1k c4 TP8 EP1 4cf10c | 387.58 | 43.12 | 373.26 | 10.94 |
        | 8k/1k c64 TP8 EP1 c0064a | 1,360.88 | 150.98 | 2,245.58 | 49.33 |"""),
    ("MI325X", "0.5.19 (ROCm 7.0)",
     _PR.format(number=3318, recipe="dsr1-fp8-mi325x-sglang",
                image="lmsysorg/sglang:v0.5.19-rocm700-mi30x 8k/1k TP8/EP1", date="2026-09-10"),
     """| 4 | 223.94 | 24.91 | 1,025.49 | 18.53 |
        | 8 | 385.84 | 43.38 | 1,026.66 | 21.56 |
        | 16 | 626.19 | 69.39 | 1,163.49 | 26.75 |
        | 32 | 854.62 | 95.57 | 1,363.26 | 39.45 |
        | 64 | 1,035.63 | 114.89 | 1,917.85 | 66.55 |"""),
)  # fmt: skip


def inferencex_figure(users, tpot_s, output_tokens_per_s) -> tuple[str, float]:
    """The figure InferenceX's reading takes from a point, as ``(metric, value)``: its mean time
    between tokens at 16 users or fewer, its output throughput (whole node) at 32 or more."""
    return ("itl", tpot_s) if users <= 16 else ("throughput", output_tokens_per_s)


def _point(row: str) -> tuple[int, int, float, float, float]:
    """(prompt tokens, users, output tok/s/GPU, TTFT ms, TPOT ms) of one printed row."""
    point, _, output, ttft, tpot = (cell.strip() for cell in row.strip().strip("|").split("|"))
    found = re.match(r"(\d+k)/1k c(\d+)", point)
    prompt, users = (
        (MEAN_LENGTHS[found[1]], int(found[2])) if found else (MEAN_LENGTHS["8k"], int(point))
    )
    return prompt, users, float(output.replace(",", "")), float(ttft.replace(",", "")), float(tpot)


def _cases(first_tokens: bool = False) -> list[PublishedCase]:
    """Each taken row: its time between tokens at 16 users or fewer, else its throughput; or,
    with ``first_tokens``, its mean time to first token, shown and not scored."""
    rows = [(gpu, version, source, row.strip()) for gpu, version, source, table in _TABLES
            for row in table.splitlines()]  # fmt: skip
    cases = []
    first = FIRST_TTFT_KEY if first_tokens else 109
    for number, (gpu, version, source, row) in enumerate(rows, start=first):
        prompt, users, output_per_gpu, ttft_ms, tpot_ms = _point(row)
        metric, measured = inferencex_figure(users, tpot_ms / 1000, 8 * output_per_gpu)
        if first_tokens:
            metric, measured = "ttft", ttft_ms / 1000
        cases.append(PublishedCase(
            f"D{number}", metric, "DeepSeek-R1", gpu, 8, "fp8", prompt, MEAN_LENGTHS["1k"], "users",
            users, measured, source, row, kv_dtype=KV_BY_CARD[gpu], engine="SGLang",
            engine_version=version, layout="TP8", weight_formats=DEEPSEEK_FP8,
            assumed=f"{_ASSUMED}; KV {KV_BY_CARD[gpu]} as {_RECIPES.format(gpu.lower())} sets "
            "it", scored=not first_tokens, unscored_why=_UNSCORED if first_tokens else "",
            requests=10 * users,
        ))  # fmt: skip
    return cases


INFERENCEX: list[PublishedCase] = _cases()
"""InferenceX's dashboard rows found in the fifth round of issue 37's item 5, in key order."""
INFERENCEX_FIRST_TOKENS: list[PublishedCase] = _cases(first_tokens=True)
"""The same rows' mean time to first token, typed in the sixteenth round, in key order."""
