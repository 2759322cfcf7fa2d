"""bench/rounds.py: every round's switch, and the engine level as each round left it."""

from __future__ import annotations

from bench.rounds import as_round, before_riding_prompts, rules
from core.catalog.cards import GPUS
from core.catalog.gemm_tiles import gemm_tile_rows
from core.catalog.h20_tables import H20_FP8_FLOPS


def _tile() -> float:
    """SGLang 0.4's bf16 tile rows on an H20, as the engine level stands."""
    return gemm_tile_rows("H20", "bf16", "sglang", "0.4")


def test_every_rounds_rule_since_the_fifty_first_has_a_switch_in_order():
    """The registry holds one switch a round with a rule, the fifty-first to the fifty-eighth,
    the sixty-first, the sixty-fourth and the sixty-fifth (the fifty-ninth, sixtieth,
    sixty-second and sixty-third typed rows, no rule), in order."""
    assert list(rules()) == [*range(51, 59), 61, 64, 65]


def test_as_round_switches_off_every_later_rule_and_asked_its_own():
    """SGLang 0.4's bf16 tile on an H20 reads as each round left it: none before the fifty-fifth,
    64 rows after it, 64 over the measured share after the fifty-seventh; the H20's own fp8 rate
    only from the fifty-eighth; and the rules come back outside."""
    with before_riding_prompts():
        assert _tile() == 0.0
    with as_round(55, rule=False):
        assert _tile() == 0.0
    with as_round(56):
        assert _tile() == 64.0
    with as_round(57):
        assert _tile() > 64.0 and GPUS["H20"].achieved_fp8_flops < H20_FP8_FLOPS
    with as_round(58):
        assert GPUS["H20"].achieved_fp8_flops == H20_FP8_FLOPS
    assert _tile() > 64.0 and GPUS["H20"].achieved_fp8_flops == H20_FP8_FLOPS
