"""Write core/catalog/collective_tables/nccl_gathers.csv from measured NCCL collective times:
how long one all-gather and one reduce-scatter of a given size take on 2, 4 and 8 cards of one
NVLink node.

The tables are NVIDIA aiconfigurator 0.12's (Apache-2.0): nccl-tests' ``all_gather_perf`` and
``reduce_scatter_perf`` run under NCCL 2.29.2 on 8 x H100 SXM, 8 x H200 SXM and 8 x B200
(``systems/data/<card>/comm/nccl/2.29.2/nccl_perf.parquet``), read here as a cited source; the
lab never imports aiconfigurator. To rerun:

    python3 -m venv /tmp/aic && /tmp/aic/bin/pip install aiconfigurator pandas pyarrow
    /tmp/aic/bin/python -m bench.nccl_table \\
        /tmp/aic/lib/python3.11/site-packages/aiconfigurator_core/systems/data

Each row is one collective's out-of-place time at one size, in bf16 (the tables' ``half``).
nccl-tests' size is the whole buffer, every card's share together (aiconfigurator divides it by
the element size into ``message_size``), so a row's bytes are the step's bytes: a step of T
tokens of d numbers at g bytes each gathers T d g of them. Prints each table's time at the sizes
a DEP step moves and the bus bandwidth its largest message reaches.
"""

from __future__ import annotations

import sys
from pathlib import Path

# (the tables' card name, the catalog's card)
CARDS = (("h100_sxm", "H100 SXM"), ("h200_sxm", "H200"), ("b200_sxm", "B200"))
RELEASE = "2.29.2"
OPERATIONS = ("all_gather", "reduce_scatter")
BYTES_PER_HALF = 2
OUT = Path(__file__).resolve().parents[1] / "core/catalog/collective_tables/nccl_gathers.csv"
HEADER = "card,cards,operation,bytes,seconds"


def rows(data: Path) -> list[str]:
    """The CSV lines of every card's all-gather and reduce-scatter times, by cards and size."""
    import pandas as pd  # the fit's own dependency; the lab reads the CSV without it

    lines = []
    for table_card, card in CARDS:
        frame = pd.read_parquet(data / table_card / "comm/nccl" / RELEASE / "nccl_perf.parquet")
        frame = frame[frame.nccl_dtype == "half"]
        for cards in sorted(frame.num_gpus.unique()):
            for operation in OPERATIONS:
                picked = frame[(frame.num_gpus == cards) & (frame.op_name == operation)]
                times = picked.groupby("message_size").latency.median().sort_index()
                for size, milliseconds in times.items():
                    nbytes = int(size) * BYTES_PER_HALF
                    lines.append(f"{card},{cards},{operation},{nbytes},{milliseconds * 1e-3:.4e}")
                summary(card, cards, operation, times)
    return lines


def summary(card: str, cards: int, operation: str, times) -> None:
    """One table's times at 2, 8 and 32 MB (a DEP step of 128 to 2,048 tokens of 8,192 numbers)
    and the bus bandwidth of its largest message, (c - 1) / c of the buffer over its time."""
    at = {f"{mb} MB": times.get(mb * 2**20 // BYTES_PER_HALF, float("nan")) * 1e3 for mb in
          (2, 8, 32)}  # fmt: skip
    size, largest = times.index[-1], times.iloc[-1]
    bus = (cards - 1) / cards * size * BYTES_PER_HALF / (largest * 1e-3) / 1e9
    cells = ", ".join(f"{label} {micro:.0f} µs" for label, micro in at.items())
    print(f"{card:<9} {cards} cards {operation:<15} {cells}; bus {bus:.0f} GB/s")


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    lines = rows(Path(sys.argv[1]))
    OUT.write_text("\n".join([HEADER, *lines]) + "\n")
    print(f"wrote {OUT} ({len(lines)} rows)")


if __name__ == "__main__":
    main()
