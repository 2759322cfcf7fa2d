"""Published rows found in issue 37's fourteenth round (item 5): AMD's ATOM plugin for vLLM.

ROCm/ATOM is AMD's inference engine; its vLLM plugin ("out of tree", OOT) lets vLLM schedule
while ATOM's models run AITER's kernels (the catalog's release ``0.17-atom``). The pull request
that set up the plugin's benchmark workflow (ROCm/ATOM PR #409, merged 2026-03-29 as 0079204e)
printed one run's results: DeepSeek-R1-0528 in fp8 over eight cards, at 1k/1k, 1k/8k and 8k/1k
and 4 to 64 users. A new publisher, an AMD card, a mixture and an engine none of the other rows
ran: the kind of case the development sets hold fewest of.

Typed from the workflow's own files at that commit, not from the table:

- the card: ``.github/benchmark/oot_benchmark_models.json`` runs "DeepSeek-R1 FP8"
  (deepseek-ai/DeepSeek-R1-0528) on the runner ``atom-mi355-8gpu``, eight MI355X, with
  ``--tensor-parallel-size 8 --max-num-batched-tokens 16384 --max-model-len 16384`` (TP8) and
  no ``--kv-cache-dtype`` (vLLM's ``auto``: the checkpoint's bf16);
- the release: ``.github/workflows/docker-release.yaml`` builds the plugin's image on vLLM
  ``0.17.0`` (``VLLM_VERSION``), the catalog's ``0.17-atom``;
- the lengths: the workflow's points carry a random range ratio of 0.8, so each length is drawn
  between 0.8 and 1 times its nominal value and is typed as its mean, as InferenceX's rows are
  (:mod:`core.evidence.cases_inferencex`): 1k as 922 tokens, 8k as 7,373;
- the requests: ten a user (``--num-prompts=$(( CONC * 10 ))``), typed in the sixteenth round
  for the run's opening burst (:func:`core.engine_level.load.opening_burst`), every user's
  first prompt sent at once (``--request-rate=inf``); ten waves a user price the same
  throughput as the steady state.

Each row's figure is its mean time between tokens (TPOT), the one figure the table prints for
every row that is not derived from another.

The same rows' mean time to first token was typed in issue 37's fifteenth round (D166-D176,
after D165): the engine level read it x0.35-0.69, the low first tokens on MI355X the issue saw
in its hidden sets, here on rows anyone can read. The sixteenth round's opening burst and the
seventeenth's step queued ahead by vLLM's async scheduler (both sourced, neither chosen on these
rows) bring it to x0.67-x0.95; the rows show what gap is left rather than close it.

Shown, not scored: the table was read only in part (the copy read here stops after its 8k/1k
row at four users), and the engine level was evaluated on these rows, by hand, before they were
typed here, so they are no test the model was not looked at against. Under this typing the
engine level reads every row within the band (x0.84-x1.15 of the printed TPOT).
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_inferencex import MEAN_LENGTHS_BY_TOKENS
from core.evidence.configs import DEEPSEEK_FP8

_SOURCE = (
    "https://github.com/ROCm/ATOM/pull/409 (AMD ATOM, the vLLM plugin's benchmark workflow, run "
    "23703564227: DeepSeek-R1 FP8 TP8 on eight MI355X, vLLM 0.17.0 with the ATOM plugin; columns: "
    "model | ISL | OSL | concurrency | range ratio | mean TTFT ms | mean TPOT ms | total tok/s | "
    "total tok/s/GPU)"
)
_VERSION = "0.17.0 with ROCm/ATOM's plugin (atom)"
_ASSUMED = (
    "lengths drawn between 0.8 and 1 times nominal, typed as their mean; KV bf16 (the workflow "
    "sets no --kv-cache-dtype); DeepSeek-R1-0528 as the catalog's DeepSeek-R1 shape"
)
_UNSCORED = (
    "the table was read in part (the copy read here stops after 8192/1024 at four users), and "
    "the engine level was evaluated on these rows before they were typed, so they test nothing "
    "it was not looked at against"
)
# ISL | OSL | concurrency | ratio | mean TTFT ms | mean TPOT ms | total tok/s | total tok/s/GPU
_TABLE = """\
1024 | 1024 | 4 | 0.8 | 132.53 | 11.20 | 686.24 | 85.78
1024 | 1024 | 8 | 0.8 | 119.83 | 11.98 | 1288.02 | 161.00
1024 | 1024 | 16 | 0.8 | 126.96 | 13.48 | 2310.45 | 288.81
1024 | 1024 | 32 | 0.8 | 177.63 | 17.80 | 3467.16 | 433.39
1024 | 1024 | 64 | 0.8 | 211.02 | 21.27 | 5785.95 | 723.24
1024 | 8192 | 4 | 0.8 | 134.96 | 11.22 | 394.81 | 49.35
1024 | 8192 | 8 | 0.8 | 121.80 | 11.86 | 737.23 | 92.15
1024 | 8192 | 16 | 0.8 | 147.79 | 13.48 | 1298.19 | 162.27
1024 | 8192 | 32 | 0.8 | 172.41 | 17.32 | 2024.58 | 253.07
1024 | 8192 | 64 | 0.8 | 286.28 | 20.52 | 3398.16 | 424.77
8192 | 1024 | 4 | 0.8 | 318.88 | 12.42 | 2750.14 | 343.77"""
FIRST_KEY = 154
FIRST_TTFT_KEY = 166  # the same rows' first tokens, typed in the fifteenth round after D165
# the figure each set of rows takes from a printed row: (metric, the row's column, first key)
_FIGURES = {"itl": (5, FIRST_KEY), "ttft": (4, FIRST_TTFT_KEY)}


def _cases(metric: str) -> list[PublishedCase]:
    """Each printed row's mean TPOT (``itl``) or mean TTFT (``ttft``), in the table's order."""
    column, first = _FIGURES[metric]
    cases = []
    for number, row in enumerate(_TABLE.splitlines(), start=first):
        cells = [cell.strip() for cell in row.split("|")]
        prompt, answer, users = (int(cell) for cell in cells[:3])
        cases.append(PublishedCase(
            f"D{number}", metric, "DeepSeek-R1", "MI355X", 8, "fp8", MEAN_LENGTHS_BY_TOKENS[prompt],
            MEAN_LENGTHS_BY_TOKENS[answer], "users", users, float(cells[column]) / 1000, _SOURCE,
            f"DeepSeek-R1 FP8 TP8 | {row}", kv_dtype="bf16", engine="vLLM",
            engine_version=_VERSION, layout="TP8", weight_formats=DEEPSEEK_FP8,
            assumed=_ASSUMED, scored=False, unscored_why=_UNSCORED, requests=10 * users,
        ))  # fmt: skip
    return cases


ATOM: list[PublishedCase] = _cases("itl")
"""The ATOM plugin's rows found in the fourteenth round of issue 37's item 5, in key order."""
ATOM_FIRST_TOKENS: list[PublishedCase] = _cases("ttft")
"""The same rows' mean time to first token, typed in the fifteenth round, in key order."""
