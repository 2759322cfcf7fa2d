"""Published rows found in issue 37's eighteenth round (item 5): a TensorRT-LLM user's report.

NVIDIA/TensorRT-LLM issue #5929 (2025-07-10, "DS-R1 FP4 on B200 vs DS-R1 FP8 on H200 ---
slow-down in TTFT") prints a user's runs of DeepSeek-R1 on eight cards: the FP8 checkpoint on
eight H200 and NVIDIA's FP4 checkpoint on eight B200, TensorRT-LLM built from source at
v0.21.0rc2, served by ``trtllm-serve`` and measured with LLMPerf. One table gives, for batch 1
at 1600/600 and 8192/600 and batch 8 at 1600/600, the median time between tokens (ITL p50) and
the median time to first token (TTFT p50) under tensor parallelism over the eight cards with
the experts unsplit by EP (``EP=None``), over four groups (``EP=4``) and over eight (``EP=8``).
A publisher the sets do not have, B200 and H200 at one and eight users, and the first token at
low load on B200: the hidden sets' fourth miss, on rows anyone can read.

The reading, written down before the engine level was evaluated on any of them:

- every printed cell the Scenario can express is taken: ``EP=None`` as TP8 (the Scenario's
  ``tp``: experts sliced over every card) and ``EP=8`` as TP8 with the experts spread whole
  (``ep``); ``EP=4`` (four groups of experts, each sliced over two cards) is a layout the
  Scenario lacks and is left out. Both figures of a row are taken, the ITL and the TTFT;
- the batch size is LLMPerf's concurrent requests, typed as that many closed-loop users; the
  lengths as printed (LLMPerf draws them around those means with a spread the issue does not
  state); the FP8 checkpoint's weights block-scaled as the catalog's other FP8 DeepSeek rows,
  the FP4 checkpoint as ``nvfp4`` as D06 is; no KV format is printed, so the cache is each
  checkpoint's: bf16 for DeepSeek's FP8 one, which names none, and fp8 for NVIDIA's FP4 one
  (corrected after the first evaluation, from the recipe that made it: NVIDIA/
  TensorRT-Model-Optimizer examples/deepseek/ptq.py exports an fp8 cache, its
  ``--enable_fp8_kvcache`` on by default; TensorRT-LLM's ``auto`` cache takes the checkpoint's);
- the release: v0.21.0rc2 is priced as the newest the catalog knows at or below it, 0.20, with
  that release's PyTorch-backend defaults (the issue prints no extra options);
- the batch-8 FP4 row is left out: the stored copy of the thread read here stops inside it.

Shown, not scored: the table was read only in part (the copy stops inside its fifth row, and no
later comment was read), and a bug report prints the rows its author found unexpected, a sample
chosen for its surprise.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.configs import DEEPSEEK_FP8

_SOURCE = (
    "https://github.com/NVIDIA/TensorRT-LLM/issues/5929 (a TensorRT-LLM user's report, "
    "2025-07-10: DeepSeek-R1 FP8 on eight H200 and FP4 on eight B200, TensorRT-LLM v0.21.0rc2 "
    "built from source, trtllm-serve, LLMPerf; columns: model | batch size | input | output | "
    "ITL p50 TP=8 EP=None, EP=4, EP=8 | TTFT p50 TP=8 EP=None, EP=4, EP=8, seconds)"
)
_VERSION = "0.21.0rc2 (PyTorch backend, trtllm-serve)"
_ASSUMED = (
    "batch size typed as closed-loop users; lengths the printed means (LLMPerf's spread "
    "unstated); the checkpoint's own KV (none printed); the release's defaults (no extra "
    "options printed)"
)
_UNSCORED = (
    "the table was read in part (the copy read here stops inside its batch-8 FP4 row), and a "
    "bug report prints the rows its author found unexpected"
)
FIRST_KEY = 186
# the checkpoint as printed: (card, weights, weight formats, its own cache format)
_CHECKPOINTS = {"FP8": ("H200", "fp8", DEEPSEEK_FP8, "bf16"), "FP4": ("B200", "nvfp4", "", "fp8")}
# model | batch | input | output | ITL p50 EP=None, EP=4, EP=8 | TTFT p50 EP=None, EP=4, EP=8
_TABLE = """\
DeepSeek-R1 FP8 | 1 | 1600 | 600 | 0.01378 | 0.01081 | 0.011 | 0.16463 | 0.13436 | 0.12411
DeepSeek-R1 FP4 | 1 | 1600 | 600 | 0.00678 | 0.00661 | 0.00681 | 0.16104 | 0.16018 | 0.17265
DeepSeek-R1 FP8 | 1 | 8192 | 600 | 0.01453 | 0.01159 | 0.01178 | 0.51583 | 0.37007 | 0.35281
DeepSeek-R1 FP4 | 1 | 8192 | 600 | 0.00714 | 0.00697 | 0.00717 | 0.39411 | 0.39012 | 0.44809
DeepSeek-R1 FP8 | 8 | 1600 | 600 | 0.01818 | 0.01566 | 0.01642 | 0.69481 | 0.49538 | 0.47733"""
# the figures each printed row gives: (metric, the column, the layout as the table heads it)
_CELLS = (
    ("itl", 4, "TP8, EP=None"), ("itl", 6, "TP8, EP=8"),
    ("ttft", 7, "TP8, EP=None"), ("ttft", 9, "TP8, EP=8"),
)  # fmt: skip


def _cases() -> list[PublishedCase]:
    """Each printed row's ITL and TTFT under EP=None and EP=8, in the table's order."""
    cases = []
    rows = [[cell.strip() for cell in row.split("|")] for row in _TABLE.splitlines()]
    for row in rows:
        card, weights, formats, cache = _CHECKPOINTS[row[0].split()[-1]]
        users, prompt, answer = (int(cell) for cell in row[1:4])
        for metric, column, layout in _CELLS:
            cases.append(PublishedCase(
                f"D{FIRST_KEY + len(cases)}", metric, "DeepSeek-R1", card, 8, weights, prompt,
                answer, "users", users, float(row[column]), _SOURCE,
                f"{' | '.join(row)} ({metric.upper()} p50, {layout})", kv_dtype=cache,
                engine="TensorRT-LLM", engine_version=_VERSION,
                layout=layout.replace(", EP=None", "").replace(", EP=", "/EP"),
                weight_formats=formats, assumed=_ASSUMED, scored=False, unscored_why=_UNSCORED,
            ))  # fmt: skip
    return cases


TRTLLM_ISSUE: list[PublishedCase] = _cases()
"""The report's expressible cells found in the eighteenth round of issue 37's item 5, in key
order: D186-D205, shown, not scored."""
