"""Published rows found in issue 37's fortieth round (item 5): AMD ATOM's benchmark dashboard.

ROCm/ATOM publishes its nightly benchmark runs on a dashboard (rocm.github.io/ATOM/
benchmark-dashboard), whose data the project's ``gh-pages`` branch keeps in
``benchmark-dashboard/data.js``: for each point of each run, its output throughput, total
throughput, mean first token and mean time between tokens, with the run's GitHub Actions id, the
card, ROCm and the image. One run of the vLLM plugin's workflow (run 24351796274, image
``rocm/atom-dev:vllm-v0.19.0-nightly_20260412``, eight MI355X under ROCm 7.2.1) holds the whole
grid of two models the catalog has, DeepSeek-R1-0528 in fp8 over eight cards and gpt-oss-120b on
one: 1k/1k, 1k/8k and 8k/1k at 4 to 64 users, 30 points (read at gh-pages cad2e831, the snapshot
of 2026-04-20; the dashboard files the run's points under three of the project's commits, with
the same figures).

Typed from the workflow's own files at the run's commits (649d712ce, 4dc185c84 and b9d5f8fa3
agree), written down before the engine level was evaluated on any of them:

- ``.github/benchmark/oot_benchmark_models.json``: DeepSeek-R1 (deepseek-ai/DeepSeek-R1-0528)
  ``--tensor-parallel-size 8``, gpt-oss-120b (openai/gpt-oss-120b) ``--tensor-parallel-size 1``,
  both ``--max-num-batched-tokens 16384 --max-model-len 16384`` and no ``--kv-cache-dtype``
  (vLLM's ``auto``: each checkpoint's bf16);
- ``.github/workflows/atom-vllm-benchmark.yaml``: ``benchmark_serving.py`` at
  ``--request-rate=inf --max-concurrency=$CONC --num-prompts=$((CONC * 10)) --ignore-eos`` with
  ``--random-range-ratio 0.8``, the lengths drawn between 0.8 and 1 times nominal and typed as
  their mean, 922 and 7,373 tokens, as ATOM's and InferenceX's rows are;
- ``.github/scripts/oot_benchmark_to_dashboard.py``: the dashboard's ``throughput`` is the
  client's ``output_throughput``, its ``TPOT`` the ``mean_tpot_ms``;
- the figure is InferenceX's rule (:mod:`core.evidence.cases_inferencex`): the mean time between
  tokens at 16 users or fewer, the output throughput at 32 or more; ten prompts a user;
- the release: the image's vLLM 0.19.0 with AMD's plugin, the newest plugin release the catalog
  knows at or below it (``0.17-atom``).

Scored. The same workflow's earlier run at vLLM 0.17.0 (ROCm/ATOM PR #409, D154-D176) was read
before, so the engine level was looked at against DeepSeek-R1's set-up under this plugin, not
at these rows; gpt-oss-120b under the plugin is new.

The same 30 points' mean time to first token (D413-D442) was typed in issue 37's fifty-ninth
round, after D412, by the rule ATOM's earlier run's first tokens (D166-D176) and InferenceX's
(D177-D185) follow: the set takes one figure of each printed point, so a first token, a second
figure of the same run, is shown and not scored. The engine level was evaluated on them before
they were typed. They are the first first tokens of gpt-oss on an AMD card: at 1k prompts the
engine level reads them x1.00-1.02 at four users and as low as x0.56 at 64, at 8k prompts
x0.52-0.69 at every load (DeepSeek-R1's, all 15, x0.64-1.12). AITER's own table for gpt-oss's unsplit expert shape
(``gptoss_fp4_tuned_fmoe.csv``, 3,072 x 3,072 on 256 CUs) times a step of 8,192 or 16,384
tokens at 1.96 and 2.68 ms, 1.9 and 1.6 times what the MI355X's MXFP4 row
(:data:`core.catalog.kernels.ENGINE_EXPERT_KERNELS`, fitted over every MXFP4 table together)
prices them at (``bench/aiter_moe_fit.py``, :func:`~bench.aiter_moe_fit.gpt_oss_long_steps`): a
long prompt's experts on one card cost more than the row says. Left unpriced: the
same runs' scored throughputs at 32-64 users already read low (x0.76-0.86).
"""

from __future__ import annotations

from dataclasses import replace

from core.evidence.cases import PublishedCase
from core.evidence.cases_inferencex import MEAN_LENGTHS_BY_TOKENS, inferencex_figure
from core.evidence.configs import DEEPSEEK_FP8, GPT_OSS_MIX

_SOURCE = (
    "ROCm/ATOM gh-pages benchmark-dashboard/data.js @cad2e831 (AMD ATOM's benchmark dashboard, "
    "rocm.github.io/ATOM/benchmark-dashboard: the vLLM plugin's nightly run 24351796274, image "
    "rocm/atom-dev:vllm-v0.19.0-nightly_20260412, AMD Instinct MI355X, ROCm 7.2.1; per point "
    "output throughput, mean TTFT and mean TPOT)"
)
_VERSION = "0.19.0 with ROCm/ATOM's plugin (atom)"
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal, typed as their mean; KV bf16 (the workflow "
    "sets no --kv-cache-dtype){model}"
)
FIRST_KEY = 339
# each model as the workflow runs it: (catalog model, cards, weights, weight formats, assumed)
_MODELS = {
    "DeepSeek-R1-0528": ("DeepSeek-R1", 8, "fp8", DEEPSEEK_FP8,
                         "; DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape"),
    "gpt-oss-120b": ("gpt-oss-120b", 1, "mxfp4", GPT_OSS_MIX, ""),
}  # fmt: skip
# model | ISL | OSL | users | mean TTFT ms | mean TPOT ms | output tok/s | total tok/s
_TABLE = """\
DeepSeek-R1-0528 | 1024 | 1024 | 4 | 113.56 | 11.84 | 324.06 | 651.3
DeepSeek-R1-0528 | 1024 | 1024 | 8 | 121.49 | 11.62 | 665.01 | 1325.1
DeepSeek-R1-0528 | 1024 | 1024 | 16 | 147.18 | 15.82 | 980.09 | 1970.62
DeepSeek-R1-0528 | 1024 | 1024 | 32 | 162.53 | 16.66 | 1849.55 | 3693.25
DeepSeek-R1-0528 | 1024 | 1024 | 64 | 211.46 | 22.2 | 2771.5 | 5544.24
DeepSeek-R1-0528 | 1024 | 8192 | 4 | 160.27 | 12.03 | 326.67 | 368.35
DeepSeek-R1-0528 | 1024 | 8192 | 8 | 119.75 | 11.65 | 665.76 | 749.2
DeepSeek-R1-0528 | 1024 | 8192 | 16 | 149.99 | 15.77 | 987.81 | 1111.74
DeepSeek-R1-0528 | 1024 | 8192 | 32 | 187.72 | 17.31 | 1799.98 | 2023.47
DeepSeek-R1-0528 | 1024 | 8192 | 64 | 281.7 | 21.33 | 2906.75 | 3269.68
DeepSeek-R1-0528 | 8192 | 1024 | 4 | 249.62 | 12.62 | 302.63 | 2720.48
DeepSeek-R1-0528 | 8192 | 1024 | 8 | 336.07 | 12.74 | 598.77 | 5326.34
DeepSeek-R1-0528 | 8192 | 1024 | 16 | 418.57 | 18.04 | 838.5 | 7567.26
DeepSeek-R1-0528 | 8192 | 1024 | 32 | 586.55 | 20.73 | 1454.6 | 13007.46
DeepSeek-R1-0528 | 8192 | 1024 | 64 | 994.38 | 31.14 | 1948.3 | 17561.57
gpt-oss-120b | 1024 | 1024 | 4 | 49.81 | 4.27 | 894.63 | 1798.01
gpt-oss-120b | 1024 | 1024 | 8 | 53.94 | 5.16 | 1499.67 | 2988.26
gpt-oss-120b | 1024 | 1024 | 16 | 71.83 | 6.41 | 2412.01 | 4849.7
gpt-oss-120b | 1024 | 1024 | 32 | 93.95 | 8.17 | 3782.6 | 7553.23
gpt-oss-120b | 1024 | 1024 | 64 | 137.35 | 10.14 | 6065.23 | 12133.19
gpt-oss-120b | 1024 | 8192 | 4 | 50.58 | 4.22 | 930.46 | 1049.2
gpt-oss-120b | 1024 | 8192 | 8 | 74.78 | 4.96 | 1567.86 | 1764.37
gpt-oss-120b | 1024 | 8192 | 16 | 61.34 | 6.19 | 2521.51 | 2837.87
gpt-oss-120b | 1024 | 8192 | 32 | 78.8 | 7.79 | 4002.89 | 4499.89
gpt-oss-120b | 1024 | 8192 | 64 | 134.15 | 10.08 | 6175.04 | 6946.05
gpt-oss-120b | 8192 | 1024 | 4 | 153.08 | 4.53 | 830.76 | 7468.03
gpt-oss-120b | 8192 | 1024 | 8 | 215.55 | 5.8 | 1306.92 | 11625.65
gpt-oss-120b | 8192 | 1024 | 16 | 276.71 | 7.64 | 1961.15 | 17698.86
gpt-oss-120b | 8192 | 1024 | 32 | 351.32 | 10.66 | 2828.34 | 25291.92
gpt-oss-120b | 8192 | 1024 | 64 | 536.11 | 15.3 | 3964.47 | 35734.86"""


def _case(key: str, row: str) -> PublishedCase:
    """One point: its mean TPOT at 16 users or fewer, its output throughput at 32 or more."""
    cells = [cell.strip() for cell in row.split("|")]
    model, cards, weights, formats, assumed = _MODELS[cells[0]]
    prompt, answer, users = (int(cell) for cell in cells[1:4])
    metric, measured = inferencex_figure(users, float(cells[5]) / 1000, float(cells[6]))
    return PublishedCase(
        key, metric, model, "MI355X", cards, weights, MEAN_LENGTHS_BY_TOKENS[prompt],
        MEAN_LENGTHS_BY_TOKENS[answer],
        "users", users, measured, _SOURCE, f"{cells[0]} TP{cards} | {' | '.join(cells[1:])}",
        kv_dtype="bf16", engine="vLLM", engine_version=_VERSION, layout=f"TP{cards}",
        weight_formats=formats, assumed=_ASSUMED.format(model=assumed), requests=10 * users,
    )  # fmt: skip


ATOM_DASHBOARD: list[PublishedCase] = [
    _case(f"D{FIRST_KEY + index}", row) for index, row in enumerate(_TABLE.splitlines())
]
"""The run's 30 points (D339-D368), DeepSeek-R1's then gpt-oss-120b's, in the table's order."""

FIRST_TTFT_KEY = 413  # the same points' first tokens, typed in the fifty-ninth round after D412
_FIRST_TOKENS_UNSCORED = (
    "a second figure of a printed point the set already takes one figure of (its TPOT or its "
    "output throughput), as ATOM's and InferenceX's first tokens are; the engine level was "
    "evaluated on these rows before they were typed"
)


def _first_token(key: str, point: PublishedCase) -> PublishedCase:
    """A point's mean time to first token: ``point``'s set-up, the row's fifth column."""
    ttft_ms = float(point.quoted.split("|")[4])
    return replace(
        point, key=key, metric="ttft", measured=ttft_ms / 1000, scored=False,
        unscored_why=_FIRST_TOKENS_UNSCORED,
    )  # fmt: skip


ATOM_DASHBOARD_FIRST_TOKENS: list[PublishedCase] = [
    _first_token(f"D{FIRST_TTFT_KEY + index}", point) for index, point in enumerate(ATOM_DASHBOARD)
]
"""The same 30 points' mean time to first token (D413-D442), shown and not scored, in order."""
