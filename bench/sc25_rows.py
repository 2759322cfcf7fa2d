"""Print the fifth check set's table (core/evidence/check_cases_sc25.py) from the SC '25 artifact.

Hanindhito and Patel's artifact (github.com/hibagus/SC25_AMD_CDNA3_Artifact) keeps every
DeepSeek-R1 serving run of their paper as SGLang's bench_serving output, one file a run:
``data/7_3_Large_Language_Model_LLM_Inference/<card>_<power>/exec/run_<in>-<out>-<users>.out``.
This reads each card's runs at its default power limit and prints, for each pair of lengths,
the output throughput (tok/s) at 1 to 256 users, the rows the check set embeds. To rerun:

    git clone https://github.com/hibagus/SC25_AMD_CDNA3_Artifact
    python -m bench.sc25_rows SC25_AMD_CDNA3_Artifact   # from this repository's root
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the loads from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.evidence.check_cases_sc25 import SC25_USERS as USERS

RUNS = "data/7_3_Large_Language_Model_LLM_Inference"
CARDS = {"MI300X": "MI300X_750W", "MI325X": "MI325X_1000W"}  # each card's default power


def run(text: str) -> tuple[int, float]:
    """(requests that succeeded, output tok/s) of one bench_serving output."""
    done = re.search(r"Successful requests:\s+(\d+)", text)
    rate = re.search(r"Output token throughput \(tok/s\):\s+([\d.]+)", text)
    return int(done[1]), float(rate[1])


def table(root: Path, folder: str) -> dict[tuple[int, int], list[float]]:
    """{(input, output): output tok/s at each of USERS} of one card's runs."""
    found: dict[tuple[int, int], dict[int, float]] = {}
    for path in (root / RUNS / folder / "exec").glob("run_*.out"):
        prompt, answer, users = map(int, re.match(r"run_(\d+)-(\d+)-(\d+)", path.name).groups())
        done, rate = run(path.read_text(errors="replace"))
        assert done == 4 * users, path  # every run sent and finished 4 prompts a user
        found.setdefault((prompt, answer), {})[users] = rate
    return {key: [row[users] for users in USERS] for key, row in sorted(found.items())}


def main(root: Path) -> None:
    for card, folder in CARDS.items():
        print(card)
        for (prompt, answer), rates in table(root, folder).items():
            print(f"{prompt}/{answer}: " + " ".join(f"{rate:g}" for rate in rates) + ";")


if __name__ == "__main__":
    main(Path(sys.argv[1]))
