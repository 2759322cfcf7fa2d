"""The fourth check set: TensorRT-LLM 1.0's own throughput table, read whole, kept out of the score.

TensorRT-LLM's v1.0 performance overview (``docs/source/performance/perf-overview.md`` at the
commit :data:`_SOURCE` names; the page announces its RTX 6000 Pro tables as new for v1.0) prints
the node's total output tokens per second at max load (``trtllm-bench throughput --backend
pytorch``, every request queued at once, fixed lengths) for seven models, ten pairs of lengths
and a column per card. The development set holds one row of the same kind of table (D08, the
v0.20 page) and seven cells of the newer per-GPU table (D01-D07); none of this page's cells.

The rule, written down before the engine level was evaluated on any cell:

- Every cell on a card the catalog knows is taken (B200, H200, H100 SXM; not GB200 or the RTX
  6000 Pro), and no other is dropped.
- Each cell is typed as D08 types its page's: the column's layout as its heading prints it (TP),
  its format (FP4 as nvfp4, FP8 as fp8, the ModelOpt checkpoints the page lists), KV fp8, the
  release the page is for ("1.0 (PyTorch backend)"), the requests the page sends for its lengths
  (:data:`TRT_10_REQUESTS`) and the release's own KV share (the page says it often raised it to
  0.95 and fell back to 0.90 or lower, without saying for which cells).
- Llama 3.3 70B is priced as the catalog's Llama-3-70B shape and Llama 3.1 8B as Llama-3-8B (the
  same shapes, as T1-T11 price them); Llama 3.1 405B from its config.json.

Retyped in issue 37's thirteenth round, from an audit of the page's own options, before the
cells were scored with it: a mixture of experts on more than one card runs attention data
parallel with its experts spread (DEP), not the heading's TP. The page runs MoE models with
``trtllm-bench --tp $tp_size --pp $pp_size --ep $ep_size`` and ``enable_attention_dp: true``
(printed at @00f37686 inside ``cuda_graph_config``, which that model rejects; NVIDIA/
TensorRT-LLM PR #7848's review moved it to the top level, as the page's later versions print
it); the EP size is not printed, and DEP spreads the experts over every card, as the second
set's TensorRT-LLM 1.x MoE columns are typed (:mod:`core.evidence.check_cases_2026`).
"""

from __future__ import annotations

from core.catalog import MODELS
from core.evidence.cases import PublishedCase
from core.evidence.check_cases_2026 import printed_cells
from core.evidence.configs import LLAMA_31_405B_PASTED

_SOURCE = (
    "NVIDIA/TensorRT-LLM docs/source/performance/perf-overview.md @00f37686 (the v1.0 page: "
    "trtllm-bench throughput --backend pytorch, every request queued at once, fixed lengths; "
    "'Total Output Throughput (tokens/sec)' of the node)"
)
_VERSION = "1.0 (PyTorch backend)"
_LENGTHS = (
    "128/128", "128/2048", "128/4096", "500/2000", "1000/1000", "1000/2000", "2048/128",
    "2048/2048", "5000/500", "20000/2000",
)  # fmt: skip
# The requests the page's dataset step sends for each pair of lengths ('$num_requests').
TRT_10_REQUESTS = {
    (128, 128): 30000, (128, 2048): 3000, (128, 4096): 1500, (1000, 2000): 1500,
    (2048, 128): 3000, (2048, 2048): 1500, (5000, 500): 1500, (1000, 1000): 3000,
    (500, 2000): 3000, (20000, 2000): 1000,
}  # fmt: skip
# model: its catalog columns (card, cards, weights) and one row per length ('-': no cell)
# fmt: off
_TABLE: dict[str, tuple[tuple[tuple[str, int, str], ...], str]] = {
    "Llama-4-Scout": (
        (("B200", 1, "nvfp4"), ("H200", 4, "fp8"), ("H100 SXM", 4, "fp8")),
        "25342 30354 -; 14699 34316 15130; 8932 21332 8603; 11977 24630 12399; "
        "10591 21636 12129; 9356 18499 9838; 3137 3699 3253; 7152 14949 7972; 2937 4605 3342; "
        "1644 2105 -",
    ),
    "Llama-3-70B": (
        (("B200", 1, "nvfp4"), ("H200", 1, "fp8"), ("H100 SXM", 2, "fp8")),
        "11147 3803 6378; 9922 4336 6651; 6831 2872 4199; 7762 3666 5222; 7007 2909 4205; "
        "6271 2994 4146; 1339 442 762; 4783 2003 3082; 1459 566 898; 665 283 437",
    ),
    "Qwen3-235B-A22B": (
        (("B200", 8, "nvfp4"), ("H200", 8, "fp8"), ("H100 SXM", 8, "fp8")),
        "63362 30429 -; 66057 42821 19658; 39496 26852 12447; 57117 28026 18351; "
        "42391 23789 14898; 34105 22061 15136; 7329 3331 -; 26854 16672 9924; 8190 3623 3225; "
        "4453 1876 -",
    ),
    "Qwen3-30B-A3B": (
        (("B200", 1, "nvfp4"),),
        "39827; 37844; 24953; 27817; 25828; 22051; 6251; 17554; 6142; 2944",
    ),
    "Llama-4-Maverick": (
        (("B200", 8, "nvfp4"), ("H200", 8, "fp8"), ("H100 SXM", 8, "fp8")),
        "124323 63994 -; 112676 40572 10829; 68170 24616 6744; - 37835 10108; 79617 31782 9677; "
        "63766 34734 9151; 18088 7307 -; 52195 20957 6916; - 8456 3457; 12678 4106 -",
    ),
    "Llama-3.1-405B": (
        (("B200", 4, "nvfp4"), ("H200", 8, "fp8"), ("H100 SXM", 8, "fp8")),
        "6281 3814 3627; 8020 5348 4340; 6345 4741 3116; 6244 4724 3994; 5209 3330 2919; "
        "4933 3722 2895; 749 456 453; 4212 2948 2296; 1048 650 610; 672 505 345",
    ),
    "Llama-3-8B": (
        (("H200", 1, "fp8"), ("H100 SXM", 1, "fp8")),
        "27911 28312; 26221 22714; 18027 14325; 20770 17660; 17744 15220; 16828 13899; "
        "3538 3450; 12194 9305; 3902 3459; 1804 1351",
    ),
}
# fmt: on
_ASSUMED = (
    "the column's heading's layout (TP; DEP for a mixture of experts on more than one card, as "
    "the page's MoE options run it); KV fp8; the release's own KV share; Llama 3.3 70B and "
    "Llama 3.1 8B priced as the catalog's Llama-3 shapes"
)


def _cells() -> list[PublishedCase]:
    cases = []
    for model, (gpu, cards, weights), lengths, prompt, answer, cell in printed_cells(
        _TABLE, _LENGTHS
    ):
        custom = model == "Llama-3.1-405B"
        spread = not custom and MODELS[model].is_moe and cards > 1
        cases.append(
            PublishedCase(
                f"v1.0 page, {model} {gpu} TP{cards} {lengths}", "throughput",
                "custom" if custom else model, gpu, cards, weights, prompt, answer,
                "saturated", 0, float(cell), _SOURCE,
                f"{model} | {lengths} | {cell} ({gpu} TP{cards})", kv_dtype="fp8",
                engine="TensorRT-LLM", engine_version=_VERSION,
                layout=f"DEP{cards}" if spread else "TP",
                requests=TRT_10_REQUESTS[(prompt, answer)], assumed=_ASSUMED,
                **(LLAMA_31_405B_PASTED if custom else {}),
            )
        )  # fmt: skip
    return cases


CHECK_TRT_10: list[PublishedCase] = _cells()
"""Every cell of the v1.0 page's table on a catalog card."""
