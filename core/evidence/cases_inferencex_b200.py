"""Published rows found in issue 37's sixtieth round (item 5): InferenceX's bot on eight B200.

The InferenceX thread the nineteenth round read (SemiAnalysisAI/InferenceX issue #870,
:mod:`core.evidence.cases_inferencex_sweep`) holds a third answer of the project's bot, posted
2026-03-06 (GitHub Actions run 22745657943): the ``dsr1-fp4-b200-sglang`` recipe, NVIDIA's
DeepSeek-R1-0528-FP4-V2 on eight B200 under SGLang v0.5.6 with the experts spread whole over
the eight cards (TP=8, EP=8), 1k/1k at 4, 8, 16, 32 and 64 users. The script that recipe ran
(``benchmarks/single_node/dsr1_fp4_b200.sh`` @962bd4c3, 2026-03-05) launches it with
``--kv-cache-dtype fp8_e4m3 --mem-fraction-static 0.85 --quantization modelopt_fp4
--chunked-prefill-size 16384 --max-running-requests 256 --stream-interval 10
--scheduler-recv-interval`` 10 (30 from 16 users) and sends ten prompts a user, their lengths
drawn as the nineteenth round's were. The sets' first rows of SGLang serving DeepSeek-R1 on
Blackwell, and first tokens at four to 32 users on B200, where the hidden sets read low.

The reading, written down before the engine level was evaluated on any of them, is the
nineteenth round's, with two exceptions the stored copy forces:

- the copy read here stops inside the table's "Mean TPOT" row, so no point's time between tokens
  is taken; each point is typed by the figure the copy prints for every point, its output
  throughput (output tokens per second per GPU times eight), scored at 4 to 32 users;
- the 64-user point is shown and not scored: the table itself flags it (a mean first token of
  5.7 s and a 99th percentile of 73 s, against 0.39 s and 0.94 s at 32 users), a run that
  stalled;
- each point's mean first token is typed too, shown and not scored, as D210-D213 are;
- the weights as NVIDIA's FP4 checkpoints are typed elsewhere (``nvfp4``, D06), the cache fp8
  as the script sets it, its memory share 0.85; v0.5.6 priced as the 0.5 line. The scheduler's
  receive interval had no knob and was not typed.

Since the sixty-first round each row carries the script's ``--scheduler-recv-interval`` (10
below 16 users, 30 from 16: the Scenario's ``recv_interval``), the one change to the typing.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_inferencex import MEAN_LENGTHS
from core.evidence.cases_inferencex_sweep import quoted_column

_SOURCE = (
    "https://github.com/SemiAnalysisAI/InferenceX/issues/870 (SemiAnalysis InferenceX, the "
    "project bot's concurrency sweep of the dsr1-fp4-b200-sglang recipe, 2026-03-06, GitHub "
    "Actions run 22745657943: DeepSeek-R1-0528-FP4-V2 | SGLang v0.5.6 | TP=8 EP=8 | 8x B200 | "
    "1k/1k ISL/OSL; columns conc=4 | conc=8 | conc=16 | conc=32 | conc=64)"
)
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal (the workflow's RANDOM_RANGE_RATIO), typed as "
    "their mean; DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape; KV fp8 and a memory share "
    "of 0.85 and --scheduler-recv-interval 10 (30 from 16 users), as SemiAnalysisAI/InferenceX "
    "benchmarks/single_node/dsr1_fp4_b200.sh @962bd4c3 sets them"
)
_FLAGGED = (
    "the table flags this point itself: a mean first token of 5.7 s and a 99th percentile of "
    "73 s (0.39 s and 0.94 s at 32 users), a run that stalled"
)
_SECOND_FIGURE = (
    "the set scores one figure of each printed point, its throughput here (D443-D446); the "
    "point's mean first token is a second figure of the same run, shown beside it"
)
FIRST_KEY = 443
USERS = (4, 8, 16, 32, 64)
# the script's SCHEDULER_RECV_INTERVAL: 10, relaxed to 30 from 16 users
RECV_INTERVAL, RELAXED_FROM, RELAXED_INTERVAL = 10, 16, 30
# the rows the stored copy prints in full, one figure a column
_ROWS = {
    "Output tput/GPU (tok/s)": (59.7, 104.8, 169.3, 282.4, 312.5),
    "Mean TTFT (ms)": (199.6, 197.2, 354.9, 394.4, 5719.0),
}


def _case(key: int, column: int, first_token: bool) -> PublishedCase:
    """The column's throughput (or, with ``first_token``, its mean first token) as a case."""
    users = USERS[column]
    if first_token:
        metric, measured = "ttft", _ROWS["Mean TTFT (ms)"][column] / 1000
    else:
        metric, measured = "throughput", 8 * _ROWS["Output tput/GPU (tok/s)"][column]
    flagged = users == USERS[-1]
    scored = not (first_token or flagged)
    why = "" if scored else (_FLAGGED if flagged else _SECOND_FIGURE)
    quoted = quoted_column(f"conc={users}", column, _ROWS)
    return PublishedCase(
        f"D{key}", metric, "DeepSeek-R1", "B200", 8, "nvfp4", MEAN_LENGTHS["1k"],
        MEAN_LENGTHS["1k"], "users", users, measured, _SOURCE, quoted, kv_dtype="fp8",
        engine="SGLang", engine_version="0.5.6", layout="TP8/EP8", assumed=_ASSUMED,
        scored=scored, unscored_why=why, requests=10 * users, memory_share=0.85,
        recv_interval=RELAXED_INTERVAL if users >= RELAXED_FROM else RECV_INTERVAL,
    )  # fmt: skip


INFERENCEX_B200: list[PublishedCase] = [
    _case(FIRST_KEY + offset, offset % len(USERS), first_token=offset >= len(USERS))
    for offset in range(2 * len(USERS))
]
"""The sweep's five points (D443-D447: D443-D446 scored, D447 flagged by its table and shown)
and their first tokens (D448-D452, shown)."""
