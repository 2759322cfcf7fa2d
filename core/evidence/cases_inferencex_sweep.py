"""Published rows found in issue 37's nineteenth round (item 5): InferenceX's bot runs in an issue.

SemiAnalysis InferenceX's bot answers a request in its issues by running the project's own
benchmark workflow and posting the figures. SemiAnalysisAI/InferenceX issue #870 (2026-03-05,
"deepseek sglang h200 experimental") holds two such answers, both of the ``dsr1-fp8-h200-sglang``
recipe (DeepSeek-R1-0528 in fp8 on eight H200, SGLang v0.5.7, TP8 EP1): a sweep of 1k/1k at 8,
16, 32 and 64 users (GitHub Actions run 22740679519) and, earlier in the thread, 4 users at
1k/1k, 1k/8k and 8k/1k, each length on another of the project's H200 runners (run 22737795957).
The recipe is the one D109-D112 ran later on v0.5.12 (:mod:`core.evidence.cases_inferencex`):
the project's master configuration named ``lmsysorg/sglang:v0.5.7-cu129-amd64`` for that key
from before the runs until PR #887 (2026-03-07) moved it to v0.5.9, and the script
(``benchmarks/single_node/dsr1_fp8_h200.sh`` at f65d6b4b, 2026-03-04) launches it with
``--mem-fraction-static 0.82 --attention-backend flashinfer --stream-interval 10`` and no KV
format; the workflow draws the lengths with ``RANDOM_RANGE_RATIO: 0.8`` and sends ten prompts a
user. (The stream interval explains the tables' mean ITL of about ten times their TPOT: ten
tokens a streamed chunk.)

The reading, written down before the engine level was evaluated on any of them, is InferenceX's
(:mod:`core.evidence.cases_inferencex`): each table is read whole and its points taken; at 16
users or fewer the figure is the mean time between tokens (TPOT), at 32 or more the output
throughput (output tokens per second per GPU times eight); lengths typed as their mean (922
tokens for 1k, 7,373 for 8k); the cache bf16, as the recipe sets none; the release is v0.5.7.
Scored, as the dashboard's rows are: the same recipe run by the same workflow. Each point's mean
first token is typed too, shown and not scored, as the dashboard rows' are (D177-D185).

The sweep (D206-D213) was typed first, and evaluated, before the thread's earlier table was
read; that table (D214-D219) was typed, by the same reading, before the engine level was
evaluated on it. Its 1k/1k point, 22.73 ms between tokens on runner ``h200-nv_0``, is almost
twice the 12.8 ms the sweep measured at 8 users on the same release: typed as printed.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_inferencex import KV_BY_CARD, MEAN_LENGTHS, inferencex_figure
from core.evidence.configs import DEEPSEEK_FP8

_THREAD = "https://github.com/SemiAnalysisAI/InferenceX/issues/870"
_SWEEP = (
    f"{_THREAD} (SemiAnalysis InferenceX, the project bot's concurrency sweep of the "
    "dsr1-fp8-h200-sglang recipe, 2026-03-05, GitHub Actions run 22740679519: DeepSeek-R1-0528 | "
    "SGLang v0.5.7 | FP8 | TP=8, EP=1 | H200 | ISL=1024, OSL=1024; columns conc=8 | conc=16 | "
    "conc=32 | conc=64)"
)
_LENGTHS_RUN = (
    f"{_THREAD} (SemiAnalysis InferenceX, the project bot's run of the dsr1-fp8-h200-sglang "
    "recipe at three lengths, 2026-03-05, workflow run 22737795957: DeepSeek-R1-0528 | SGLang "
    "v0.5.7 | FP8 | TP=8, EP=1 | Concurrency=4; columns 1k/1k (runner h200-nv_0) | 1k/8k "
    "(h200-cw_1) | 8k/1k (h200-dgxc-slurm_11))"
)
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal (the workflow's RANDOM_RANGE_RATIO), typed as "
    "their mean; DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape; KV bf16, as "
    "SemiAnalysisAI/InferenceX benchmarks/single_node/dsr1_fp8_h200.sh @f65d6b4b sets none, "
    "and its --mem-fraction-static 0.82"
)
_UNSCORED = (
    "the set scores one figure of each printed point, its TPOT or its throughput (D206-D209, "
    "D214-D216); the point's mean first token is a second figure of the same run, shown beside it"
)
FIRST_KEY = 206
# each table as printed: (source, its columns as (label, users, prompt, answer), its rows)
_TABLES = (
    (_SWEEP,
     tuple((f"conc={users}", users, "1k", "1k") for users in (8, 16, 32, 64)),
     {"Output tput/GPU (tok/s)": (74.6, 111.9, 151.1, 223.6),
      "Mean TTFT (ms)": (330.6, 356.0, 426.5, 423.1),
      "Mean TPOT (ms)": (12.8, 17.2, 25.6, 34.6)}),
    (_LENGTHS_RUN,
     (("1k/1k", 4, "1k", "1k"), ("1k/8k", 4, "1k", "8k"), ("8k/1k", 4, "8k", "1k")),
     {"Output tput/GPU (tok/s)": (21.2, 45.0, 38.9),
      "Mean TTFT (ms)": (267.3, 204.1, 474.3),
      "Mean TPOT (ms)": (22.73, 10.93, 12.05)}),
)  # fmt: skip


def quoted_column(label: str, column: int, rows: dict) -> str:
    """The printed figures of one column, as the table gives them."""
    return f"{label}: " + "; ".join(f"{row} {cells[column]}" for row, cells in rows.items())


def _table_cases(first: int, source, columns, rows, first_tokens) -> list[PublishedCase]:
    """One table's points: each its TPOT (16 users or fewer) or output throughput (32 or more);
    or, with ``first_tokens``, its mean time to first token, shown and not scored."""
    cases = []
    for column, (label, users, prompt, answer) in enumerate(columns):
        metric, measured = inferencex_figure(
            users,
            rows["Mean TPOT (ms)"][column] / 1000,
            8 * rows["Output tput/GPU (tok/s)"][column],
        )
        if first_tokens:
            metric, measured = "ttft", rows["Mean TTFT (ms)"][column] / 1000
        cases.append(PublishedCase(
            f"D{first + column}", metric, "DeepSeek-R1", "H200", 8, "fp8", MEAN_LENGTHS[prompt],
            MEAN_LENGTHS[answer], "users", users, measured, source, quoted_column(label, column, rows),
            kv_dtype=KV_BY_CARD["H200"], engine="SGLang", engine_version="0.5.7", layout="TP8",
            weight_formats=DEEPSEEK_FP8, assumed=_ASSUMED, scored=not first_tokens,
            unscored_why=_UNSCORED if first_tokens else "", requests=10 * users,
            memory_share=0.82,
        ))  # fmt: skip
    return cases


def _cases() -> list[PublishedCase]:
    """Each table's points, then their first tokens, the tables in the order they were typed."""
    cases: list[PublishedCase] = []
    for source, columns, rows in _TABLES:
        for first_tokens in (False, True):
            start = FIRST_KEY + len(cases)
            cases += _table_cases(start, source, columns, rows, first_tokens)
    return cases


INFERENCEX_SWEEP: list[PublishedCase] = _cases()
"""The sweep's four points (D206-D209, scored) and their first tokens (D210-D213, shown); the
three lengths at four users (D214-D216, scored) and their first tokens (D217-D219, shown)."""
