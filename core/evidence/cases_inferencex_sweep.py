"""Published rows found in issue 37's nineteenth round (item 5): an InferenceX concurrency sweep.

SemiAnalysis InferenceX's bot answers a request in its issues by running the project's own
benchmark workflow and posting the figures. SemiAnalysisAI/InferenceX issue #870 (2026-03-05,
"deepseek sglang h200 experimental") holds one such answer: the ``dsr1-fp8-h200-sglang`` recipe
(DeepSeek-R1-0528 in fp8 on eight H200, SGLang v0.5.7, TP8 EP1, 1k/1k) at 8, 16, 32 and 64
users, from GitHub Actions run 22740679519, one table of mean and p99 figures per concurrency.
The recipe is the one D109-D112 ran later on v0.5.12 (:mod:`core.evidence.cases_inferencex`):
the project's master configuration named ``lmsysorg/sglang:v0.5.7-cu129-amd64`` for that key
from before the run until PR #887 (2026-03-07) moved it to v0.5.9, and the script
(``benchmarks/single_node/dsr1_fp8_h200.sh`` at f65d6b4b, 2026-03-04) launches 1k/1k with
``--max-running-requests 512 --cuda-graph-max-bs 512 --mem-fraction-static 0.82
--attention-backend flashinfer --stream-interval 10`` and no KV format; the workflow draws the
lengths with ``RANDOM_RANGE_RATIO: 0.8`` and sends ten prompts a user. (The stream interval
explains the table's mean ITL of about ten times its TPOT: ten tokens a streamed chunk.)

The reading, written down before the engine level was evaluated on any of them, is InferenceX's
(:mod:`core.evidence.cases_inferencex`): the table is read whole and its four points taken; at
16 users or fewer the figure is the mean time between tokens (TPOT), at 32 or more the output
throughput (output tokens per second per GPU times eight); lengths typed as their mean, 922
tokens each way; the cache bf16, as the recipe sets none; the release is v0.5.7. Scored, as the
dashboard's rows are: the same recipe run by the same workflow. Each row's mean first token is
typed too, shown and not scored, as the dashboard rows' are (D177-D185).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_inferencex import KV_BY_CARD
from core.evidence.configs import DEEPSEEK_FP8

_SOURCE = (
    "https://github.com/SemiAnalysisAI/InferenceX/issues/870 (SemiAnalysis InferenceX, the "
    "project bot's concurrency sweep of the dsr1-fp8-h200-sglang recipe, 2026-03-05, GitHub "
    "Actions run 22740679519: DeepSeek-R1-0528 | SGLang v0.5.7 | FP8 | TP=8, EP=1 | H200 | "
    "ISL=1024, OSL=1024; columns conc=8 | conc=16 | conc=32 | conc=64)"
)
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal (the workflow's RANDOM_RANGE_RATIO), typed as "
    "their mean; DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape; KV bf16, as "
    "SemiAnalysisAI/InferenceX benchmarks/single_node/dsr1_fp8_h200.sh @f65d6b4b sets none"
)
_UNSCORED = (
    "the set scores one figure of each printed point, its TPOT or its throughput (D206-D209); "
    "the point's mean first token is a second figure of the same run, shown beside it"
)
FIRST_KEY = 206
_MEAN_LENGTH = 922  # 1,024 drawn between 0.8 and 1 times, at its mean
# the table's rows as printed, its columns at 8, 16, 32 and 64 users
_USERS = (8, 16, 32, 64)
_TABLE = {
    "Output tput/GPU (tok/s)": (74.6, 111.9, 151.1, 223.6),
    "Mean TTFT (ms)": (330.6, 356.0, 426.5, 423.1),
    "Mean TPOT (ms)": (12.8, 17.2, 25.6, 34.6),
}


def _quoted(users: int) -> str:
    """The printed figures of one concurrency's column, as the table gives them."""
    column = _USERS.index(users)
    return f"conc={users}: " + "; ".join(f"{row} {cells[column]}" for row, cells in _TABLE.items())


def _cases(first_tokens: bool = False) -> list[PublishedCase]:
    """Each point's TPOT (16 users or fewer) or output throughput (32 or more); or, with
    ``first_tokens``, its mean time to first token, shown and not scored."""
    cases = []
    first = FIRST_KEY + (len(_USERS) if first_tokens else 0)
    for number, users in enumerate(_USERS, start=first):
        column = _USERS.index(users)
        if first_tokens:
            metric, measured = "ttft", _TABLE["Mean TTFT (ms)"][column] / 1000
        elif users <= 16:
            metric, measured = "itl", _TABLE["Mean TPOT (ms)"][column] / 1000
        else:
            metric, measured = "throughput", 8 * _TABLE["Output tput/GPU (tok/s)"][column]
        cases.append(PublishedCase(
            f"D{number}", metric, "DeepSeek-R1", "H200", 8, "fp8", _MEAN_LENGTH, _MEAN_LENGTH,
            "users", users, measured, _SOURCE, _quoted(users), kv_dtype=KV_BY_CARD["H200"],
            engine="SGLang", engine_version="0.5.7", layout="TP8", weight_formats=DEEPSEEK_FP8,
            assumed=_ASSUMED, scored=not first_tokens, unscored_why=_UNSCORED if first_tokens
            else "", requests=10 * users,
        ))  # fmt: skip
    return cases


INFERENCEX_SWEEP: list[PublishedCase] = _cases() + _cases(first_tokens=True)
"""The sweep's four points (D206-D209, scored) and their first tokens (D210-D213, shown)."""
