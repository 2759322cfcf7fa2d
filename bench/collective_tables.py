"""Write core/catalog/collective_tables/ from measured collective times: NCCL's all-gather and
reduce-scatter (a DEP step's gathers, nccl_gathers.csv) and each engine's own all-reduce (a
tensor-parallel layer's, allreduce.csv), by card, card count and size, on one NVLink node.

The tables are NVIDIA aiconfigurator 0.12's (Apache-2.0), read here as a cited source; the lab
never imports aiconfigurator:

- ``systems/data/<card>/comm/nccl/2.29.2/nccl_perf.parquet``: nccl-tests' ``all_gather_perf``
  and ``reduce_scatter_perf`` under NCCL 2.29.2 on 8 x H100 SXM, H200 and B200;
- ``systems/data/<card>/comm/<engine>/<release>/custom_allreduce_perf.parquet``: each
  engine's all-reduce as a decode step runs it (replayed in a CUDA graph where the engine
  captures one), on H100 SXM, H200, B200 and A100 SXM, the earliest release measured on each
  card: TensorRT-LLM 1.2.0rc5 (A100: 1.0.0), vLLM 0.14.0 (B200: 0.19.0) and SGLang 0.5.9.

To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator pandas pyarrow
    /tmp/aic/bin/python -m bench.collective_tables \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

Each row is one collective's time at one size in bf16 (the tables' ``half`` and ``bfloat16``),
the median of aiconfigurator's rows. A size is the whole buffer in bytes: nccl-tests' size
(every card's share together, as a DEP step gathers its tokens) and the all-reduce's tensor
(each card's whole copy, as a layer reduces its tokens' hidden states); aiconfigurator writes
both as numbers (``message_size``), two bytes each here. Prints each table's time at the sizes
a decode step moves.
"""

from __future__ import annotations

import sys
from pathlib import Path

# (the tables' card name, the catalog's card)
NCCL_CARDS = (("h100_sxm", "H100 SXM"), ("h200_sxm", "H200"), ("b200_sxm", "B200"))
NCCL_RELEASE = "2.29.2"
NCCL_OPERATIONS = ("all_gather", "reduce_scatter")
ALLREDUCE_CARDS = (*NCCL_CARDS, ("a100_sxm", "A100 80GB SXM"))
# each engine's table on each card: (engine, its release's folder, the kernel it names; None: one)
ALLREDUCE_TABLES = {
    "tensorrt-llm": (("trtllm/1.2.0rc5", None), {"a100_sxm": ("trtllm/1.0.0", None)}),
    "vllm": (
        ("vllm/0.14.0", "vLLM_custom_graph"),
        {"b200_sxm": ("vllm/0.19.0", "vLLM_custom_graph")},
    ),
    "sglang": (("sglang/0.5.9", "SGLang_CustomAllReduce_graph"), {}),
}
BYTES_PER_NUMBER = 2
FOLDER = Path(__file__).resolve().parents[1] / "core/catalog/collective_tables"


def nccl_rows(data: Path) -> list[str]:
    """The CSV lines of every card's all-gather and reduce-scatter times, by cards and size."""
    import pandas as pd  # the fit's own dependency; the lab reads the CSV without it

    lines = []
    for table_card, card in NCCL_CARDS:
        path = data / table_card / "comm/nccl" / NCCL_RELEASE / "nccl_perf.parquet"
        frame = pd.read_parquet(path)
        frame = frame[frame.nccl_dtype == "half"]
        for cards in sorted(frame.num_gpus.unique()):
            for operation in NCCL_OPERATIONS:
                picked = frame[(frame.num_gpus == cards) & (frame.op_name == operation)]
                times = picked.groupby("message_size").latency.median().sort_index()
                lines += [f"{card},{cards},{operation},{int(size) * BYTES_PER_NUMBER},"
                          f"{ms * 1e-3:.4e}" for size, ms in times.items()]  # fmt: skip
                summary(f"{card} NCCL {operation}", cards, times)
    return lines


def allreduce_rows(data: Path) -> list[str]:
    """The CSV lines of every engine's all-reduce times on every card, by cards and size."""
    import pandas as pd

    lines = []
    for engine, (default, per_card) in ALLREDUCE_TABLES.items():
        for table_card, card in ALLREDUCE_CARDS:
            release, kernel = per_card.get(table_card, default)
            path = data / table_card / "comm" / release / "custom_allreduce_perf.parquet"
            frame = pd.read_parquet(path)
            if kernel is not None:
                frame = frame[frame.kernel_source == kernel]
            for cards in sorted(frame.num_gpus.unique()):
                times = frame[frame.num_gpus == cards].groupby("message_size").latency.median()
                lines += [f"{card},{engine},{cards},{int(size) * BYTES_PER_NUMBER},"
                          f"{ms * 1e-3:.4e}" for size, ms in times.sort_index().items()]  # fmt: skip
                summary(f"{card} {engine} {release}", cards, times.sort_index())
    return lines


def summary(label: str, cards: int, times) -> None:
    """One table's times at 2, 8 and 32 MiB (a decode step of 128 to 2,048 tokens of 8,192
    numbers)."""
    at = [times.get(mb * 2**20 // BYTES_PER_NUMBER, float("nan")) * 1e3 for mb in (2, 8, 32)]
    cells = ", ".join(f"{mb} MiB {micro:.0f} µs" for mb, micro in zip((2, 8, 32), at, strict=True))
    print(f"{label:<36} {cards} cards: {cells}")


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    data = Path(sys.argv[1])
    for name, header, lines in (
        ("nccl_gathers.csv", "card,cards,operation,bytes,seconds", nccl_rows(data)),
        ("allreduce.csv", "card,engine,cards,bytes,seconds", allreduce_rows(data)),
    ):
        (FOLDER / name).write_text("\n".join([header, *lines]) + "\n")
        print(f"wrote {FOLDER / name} ({len(lines)} rows)")


if __name__ == "__main__":
    main()
