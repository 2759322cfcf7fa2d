"""gpt-oss's prompt attention under vLLM below Hopper, with and without the Triton kernel it runs.

Issue 37's forty-ninth round priced attention with sinks as vLLM runs it on an SM8x card: its
FlashAttention 2 build takes no sinks, so it runs the Triton unified attention
(``core.catalog.attention_kernels.SINK_PREFILL``, fitted by ``bench/prefill_attention_fit.py``).
This prints each development row the rule moves (gpt-oss on an A100 under vLLM), before and
after, and both development sets and the publisher-held-out figure before and after. The
"before" is the engine level with the rule switched off (:func:`without_sink_triton`), which the
README's earlier round paragraphs quote. To rerun, from this repository's root (a few seconds):

    python -m bench.sink_attention
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from functools import cache
from pathlib import Path
from unittest.mock import patch

if __package__ in (None, ""):
    # Run as a file, this folder would shadow the `core` package it reads the rows from.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

from core.evidence.crossval import cross_validated, held_out_ratios
from core.evidence.fidelity import both_set_cases, score


@contextmanager
def without_sink_triton():
    """The engine level as it stood before the forty-ninth round: every engine prefills attention
    with sinks in its card's own prompt kernel."""
    with patch("core.engine_level.attention_fields.sink_prefill_in_triton", lambda *_: False):
        yield


@cache
def figures(rule: bool = True) -> dict:
    """Both sets (error, within, cases), the publisher-held-out (error, share within) and each
    case's ratio by key, with the rule in force or (``rule`` False) switched off."""
    cases = both_set_cases()
    if rule:
        both = score(cases)
    else:
        with without_sink_triton():
            both = score(cases)
    publishers = [case.publisher for case in cases]
    held = cross_validated(held_out_ratios(publishers, both.ratios), publishers)
    return {
        "both": (both.geometric_mean_error, both.within_band, both.cases),
        "held_out": (held.geometric_mean_error, held.within_share),
        "ratios": {case.key: float(ratio) for case, ratio in zip(cases, both.ratios, strict=True)},
    }


def moved(before: dict, after: dict, by: float = 1e-9) -> list[str]:
    """The keys whose ratio the rule moved."""
    return [key for key, ratio in before["ratios"].items()
            if abs(after["ratios"][key] / ratio - 1.0) > by]  # fmt: skip


def main() -> None:
    before, after = figures(rule=False), figures()
    print("the rows the rule moves (predicted / measured), before -> after")
    for key in moved(before, after):
        print(f"  {key:5s} x{before['ratios'][key]:.2f} -> x{after['ratios'][key]:.2f}")
    for name, found in (("before", before), ("after", after)):
        error, within, cases = found["both"]
        held, share = found["held_out"]
        print(f"{name:6s} both sets {error:.1%} ({within} of {cases}), held out {held:.0%} "
              f"({share:.0%} within)")  # fmt: skip


if __name__ == "__main__":
    main()
