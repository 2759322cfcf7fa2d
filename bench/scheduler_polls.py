"""SGLang's scheduler polls for new requests every few decode steps (issue 37's sixty-first round).

A command may tell SGLang's scheduler to take in new requests only every ``k`` decode steps
(``--scheduler-recv-interval k``; a prefill step polls at once, SGLang
``scheduler_recv_skipper.py``), to spare the host a poll a step. A new prompt then waits for the
next poll before it can be prefilled (:func:`core.engine_level.joining.polled_steps`: about
``(k - 1) / 2`` decode steps more where prefills are rare). InferenceX's B200 recipes set it (10
below 16 users, 30 from 16). This prints, for InferenceX's bot on eight B200
(:mod:`core.evidence.cases_inferencex_b200`), each row's ratio without the rule and with it, and
both development sets before and after.

To rerun, from this repository's root (a few seconds): ``python -m bench.scheduler_polls``
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it measures.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from bench.fused_quant import both_and_held_out, scored_without
from core.evidence.cases_inferencex_b200 import INFERENCEX_B200
from core.evidence.fidelity import predictions


def _no_wait(*_):
    """A poll every step: no wait beyond the step's own."""
    return 0.0


@contextmanager
def without_scheduler_polls():
    """The engine level before the sixty-first round: every scheduler polls each step."""
    with patch("core.engine_level.load.polled_steps", _no_wait):
        yield


def row_ratios() -> tuple[dict, dict]:
    """(before, after): the B200 rows' ratios by key, as typed, without the rule and with it,
    each as ``{"ratios": {key: ratio}}`` (:func:`bench.fused_quant.scored_figures`' shape)."""
    measured = [case.measured for case in INFERENCEX_B200]
    with without_scheduler_polls():
        before = predictions(INFERENCEX_B200) / measured
    after = predictions(INFERENCEX_B200) / measured
    keys = [case.key for case in INFERENCEX_B200]
    return tuple({"ratios": dict(zip(keys, ratios.tolist(), strict=True))}
                 for ratios in (before, after))  # fmt: skip


def figures(leaving=frozenset()) -> tuple[dict, dict]:
    """(before, after): :func:`bench.fused_quant.scored_figures` without the rule and with it."""
    return scored_without(without_scheduler_polls, leaving)


def main() -> None:
    by_key = {case.key: case for case in INFERENCEX_B200}
    print("InferenceX's bot on eight B200: ratio without the rule -> with it")
    before, after = row_ratios()
    for key, case in by_key.items():
        was, now = before["ratios"][key], after["ratios"][key]
        print(f"  {key} {case.metric:10s} {int(case.load_value):3d} users "
              f"(interval {case.recv_interval or 1:2d})  x{was:.2f} -> x{now:.2f}")  # fmt: skip
    before, after = figures()
    print(f"before: {both_and_held_out(before)}")
    print(f"after:  {both_and_held_out(after)}")


if __name__ == "__main__":
    main()
