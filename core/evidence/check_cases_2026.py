"""The second check set: the rest of TensorRT-LLM 1.x's throughput table, kept out of the score.

D01-D07 are seven cells of TensorRT-LLM's performance overview for its PyTorch backend
(``trtllm-bench throughput``, every request queued at once, fixed lengths, output tokens per
second per GPU). The table's other cells on cards the catalog knows (B200, H200, H100; not
GB200 or the RTX 6000 Pro) are typed here by the same rules as those seven: the column's layout
and format, gpt-oss as its published MXFP4 checkpoint, DeepSeek-R1's fp8 as its 128 x 128
blocks, KV fp8 except gpt-oss on Hopper ("Hopper: use auto", bf16). Each is the published
figure per GPU times the node's GPUs.

The cells differ from the development rows in how many requests run at once: the 1k/1k and
32k-token rows run far more or far fewer than the 1k/8k and 8k/1k rows the development set
holds. The table was read whole and taken whole (every cell the Scenario can express); no
constant of the engine level was chosen by looking at it.
"""

from __future__ import annotations

from core.evidence.cases import PublishedCase
from core.evidence.cases_2026 import SECOND, TRT_1X_REQUESTS
from core.evidence.configs import DEEPSEEK_FP8 as _DEEPSEEK_FP8
from core.evidence.configs import GPT_OSS_MIX as _GPT_OSS_MIX

_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/developer-guide/perf-overview.md @03e27c7d (trtllm-bench "
    "throughput --backend pytorch, every request queued at once, fixed lengths; 'Output "
    "Throughput per GPU', here times the node's GPUs; the development rows' cells as @585c7565)"
)
_LENGTHS = ("1000/1000", "1024/1024", "1024/8192", "1024/32768", "8192/1024", "32768/1024")
# model: its columns (card, layout, cards, weights, KV) and one row per length ('-': no cell)
# fmt: off
_TABLE: dict[str, tuple[tuple[tuple[str, str, int, str, str], ...], str]] = {
    "DeepSeek-R1": (
        (("B200", "DEP4", 4, "nvfp4", "fp8"), ("H200", "DEP8", 8, "fp8", "fp8")),
        "6463 1627; 6430 1620; 3862 1218; 1451 438; 1168 -; - -",
    ),
    "gpt-oss-120b": (
        (("B200", "DEP2", 2, "mxfp4", "fp8"), ("H200", "TP", 1, "mxfp4", "bf16"),
         ("H100 SXM", "DEP4", 4, "mxfp4", "bf16")),
        "25943 6868 4685; 25870 6798 4715; 17289 3543 -; 6279 - 1177; 6111 1828 1169; "
        "1392 519 333",
    ),
    "gpt-oss-20b": (
        (("B200", "TP", 1, "mxfp4", "fp8"), ("H200", "TP", 1, "mxfp4", "bf16"),
         ("H100 SXM", "TP", 1, "mxfp4", "bf16")),
        "53812 13858 11557; 53491 13890 11403; 34702 12743 8617; 14589 - -; 11904 4015 3366; "
        "2645 915 785",
    ),
    "Llama-3-70B": (
        (("B200", "TP", 1, "nvfp4", "fp8"), ("H200", "TP", 2, "fp8", "fp8"),
         ("H100 SXM", "TP", 2, "fp8", "fp8")),
        "6920 2587 2209; 6842 2582 -; 3242 2009 -; - - -; 1362 537 398; 274 120 -",
    ),
    "Llama-4-Maverick": (
        (("B200", "DEP4", 4, "nvfp4", "fp8"), ("H200", "DEP8", 8, "fp8", "fp8")),
        "11337 4146; 11227 4180; 5174 1157; 2204 679; 3279 1276; 859 -",
    ),
    "Qwen3-235B-A22B": (
        (("B200", "DEP4", 4, "nvfp4", "fp8"), ("H200", "DEP4", 4, "fp8", "fp8"),
         ("H100 SXM", "DEP8", 8, "fp8", "fp8")),
        "5764 3288 1932; 5756 3268 1935; 3389 1417 873; 1255 - -; 1410 627 -; 319 134 -",
    ),
    "Qwen3-30B-A3B": (
        (("B200", "TP", 1, "nvfp4", "fp8"),),
        "26971; 26611; 13497; 4494; 5735; 1265",
    ),
}
# fmt: on


def _formats(model: str, gpu: str) -> str:
    """The checkpoint's per-tensor storage where it mixes formats (as D01-D07 type it)."""
    if model.startswith("gpt-oss"):
        return _GPT_OSS_MIX
    if model == "DeepSeek-R1" and gpu == "H200":
        return _DEEPSEEK_FP8
    return ""


def printed_cells(table: dict, lengths: tuple[str, ...]):
    """Each cell a performance-overview table prints, as (model, its column, "prompt/answer",
    prompt, answer, the figure's text); the table holds a row of cells per length, ";" between
    rows, and "-" where the page prints none (left out)."""
    for model, (columns, rows) in table.items():
        for pair, row in zip(lengths, rows.split(";"), strict=True):
            prompt, answer = (int(n) for n in pair.split("/"))
            for column, cell in zip(columns, row.split(), strict=True):
                if cell != "-":
                    yield model, column, pair, prompt, answer, cell


def _cells() -> list[PublishedCase]:
    cases = []
    for model, column, lengths, prompt, answer, cell in printed_cells(_TABLE, _LENGTHS):
        gpu, layout, cards, weights, kv = column
        shown = f"TP{cards}" if layout == "TP" else layout
        cases.append(
            PublishedCase(
                f"{model} {gpu} {shown} {lengths}", "throughput", model, gpu, cards,
                weights, prompt, answer, "saturated", 0, float(cell) * cards, _SOURCE,
                f"{model} | {lengths} | {cell} ({gpu} {shown})", kv_dtype=kv,
                engine="TensorRT-LLM", engine_version="1.x (PyTorch backend)",
                layout=layout, weight_formats=_formats(model, gpu),
                requests=TRT_1X_REQUESTS.get((prompt, answer), 0),
            )
        )  # fmt: skip
    return cases


def _in_development(case: PublishedCase) -> bool:
    # the same publisher's row of the same set-up (core.evidence.cases.PublishedCase.set_up)
    key = (case.publisher, case.set_up)
    return any((d.publisher, d.set_up) == key for d in SECOND)


CHECK_TRT_1X: list[PublishedCase] = [case for case in _cells() if not _in_development(case)]
"""Every cell of the table on a catalog card that the development set does not hold."""
