"""Every rule of issue 37's rounds since the fifty-first, each with the switch that takes it out,
so a round's figures can read the engine level as that round left it.

A round commits its rule, then scores it and quotes its figures in the README; a later round's
rule moves figures an earlier one quoted. :func:`as_round` switches off every rule after a round
(and, asked, the round's own), so each round's README figures stay what that round measured.
The switches live beside the rounds that wrote them: the fifty-first to fifty-fourth (a prompt's
steps priced at what they carry) in :mod:`bench.riding_prompts`, the fifty-fifth to fifty-eighth
(the tiles of few-token GEMMs, the H20's measured rates) in :mod:`bench.cublas_tiles`, the
sixty-first (SGLang's scheduler polls every few steps) in :mod:`bench.scheduler_polls`, the
sixty-fourth (SGLang's Triton GEMMs on CDNA3) in :mod:`bench.triton_gemm_tiles`, the
sixty-fifth (AITER's tuned shapes, aiconfigurator's corrected Blackwell table) in
:mod:`bench.corrected_tables`.
"""

from __future__ import annotations

from collections.abc import Callable
from contextlib import AbstractContextManager, ExitStack, contextmanager


def rules() -> dict[int, Callable[[], AbstractContextManager]]:
    """{round: the switch that takes its rule out}, in the order the rounds landed.

    The switches' modules read this module's :func:`as_round` themselves, so they are imported
    when asked for, not when this module loads."""
    from bench.corrected_tables import without_corrected_tables
    from bench.cublas_tiles import (
        without_bf16_tiles,
        without_h20_fp8,
        without_head_tiles,
        without_tile_share,
    )
    from bench.riding_prompts import (
        without_pass_experts,
        without_riding_collectives,
        without_riding_passes,
        without_riding_streams,
    )
    from bench.scheduler_polls import without_scheduler_polls
    from bench.triton_gemm_tiles import without_triton_tiles

    return {
        51: without_riding_streams, 52: without_riding_collectives, 53: without_riding_passes,
        54: without_pass_experts, 55: without_bf16_tiles, 56: without_head_tiles,
        57: without_tile_share, 58: without_h20_fp8, 61: without_scheduler_polls,
        64: without_triton_tiles, 65: without_corrected_tables,
    }  # fmt: skip


@contextmanager
def as_round(number: int, rule: bool = True):
    """The engine level as round ``number`` left it (every later round's rule off), its own
    rule on or (``rule`` False) off."""
    with ExitStack() as stack:
        for later, switched_off in rules().items():
            if later > number or (later == number and not rule):
                stack.enter_context(switched_off())
        yield


def before_riding_prompts():
    """The engine level before the fifty-first round: every round's rule since off."""
    return as_round(51, rule=False)
