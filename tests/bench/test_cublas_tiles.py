"""bench/cublas_tiles.py: the fifty-fifth to fifty-seventh rounds' rules, off and on."""

from __future__ import annotations

from bench.cublas_tiles import (
    BORROWED_H20_FP8_FLOPS,
    RULE_KEY,
    fp8_tile_ms,
    share_tile_ms,
    tile_and_stream_ms,
    without_bf16_tiles,
    without_h20_fp8,
    without_head_tiles,
    without_tile_share,
)
from bench.rounds import as_round
from core import Scenario
from core.catalog.cards import GPUS
from core.catalog.gemm_tiles import GEMM_TILE_ROWS, GEMM_TILE_SHARES, gemm_tile_rows
from core.catalog.h20_tables import H20_FP8_FLOPS
from core.evaluate import engine_node


def test_the_switch_takes_the_rule_out_and_puts_it_back():
    """Without the rule SGLang 0.4's bf16 GEMMs on an H20 tile no rows, with it 64; the other
    tiles stay as they are either way, and every round before the fifty-fifth reads it off."""
    others = {key: rows for key, rows in GEMM_TILE_ROWS.items() if key != RULE_KEY}
    with without_bf16_tiles():
        assert gemm_tile_rows("H20", "bf16", "sglang", "0.4") == 0.0
        assert others == GEMM_TILE_ROWS
    with as_round(54):
        assert gemm_tile_rows("H20", "bf16", "sglang", "0.4") == 0.0
    with as_round(55):
        assert gemm_tile_rows("H20", "bf16", "sglang", "0.4") == 64.0
    assert GEMM_TILE_ROWS[RULE_KEY] == 64.0
    assert {key: rows for key, rows in GEMM_TILE_ROWS.items() if key != RULE_KEY} == others


def test_the_share_switch_prices_the_tile_at_the_cards_achieved_rate():
    """Without the fifty-seventh round's rule (and as the fifty-sixth round left the engine level)
    SGLang 0.4's bf16 tile counts its 64 rows at the card's achieved rate; with it, over the
    measured few-token share, so Qwen3-32B's tile on an H20 takes longer by that share."""
    share = GEMM_TILE_SHARES[RULE_KEY]
    for switch in (without_tile_share, lambda: as_round(56)):
        with switch():
            assert gemm_tile_rows("H20", "bf16", "sglang", "0.4") == 64.0
    assert gemm_tile_rows("H20", "bf16", "sglang", "0.4") == 64.0 / share
    achieved, measured = share_tile_ms()
    assert measured == achieved / share > achieved


def test_on_an_h20_the_64_rows_outlast_the_dense_weights_stream():
    """Qwen3-32B on one H20: 64 rows' bf16 arithmetic takes longer than streaming the dense
    GEMMs' weights, which is why the tile binds there and nowhere else."""
    tiles, stream = tile_and_stream_ms()
    assert tiles > stream > 0.0


def test_the_head_switch_takes_only_the_heads_tile_out():
    """Without the fifty-sixth round's rule (and as the fifty-fifth round left the engine level)
    an H20's output head under SGLang 0.4 tiles no rows while its layers still tile 64; with it,
    both."""
    scenario = Scenario(realism="engine", model="Llama-3-8B", gpu="H20", engine="sglang",
                        engine_version="0.4", weight_dtype="bf16")  # fmt: skip
    for switch in (without_head_tiles, lambda: as_round(55)):
        with switch():
            node = engine_node(scenario)
            layers = gemm_tile_rows("H20", "bf16", "sglang", "0.4")
            assert (node.gemm_tile_rows, node.head_tile_rows) == (layers, 0.0) and layers >= 64.0
    with without_tile_share():
        node = engine_node(scenario)
    assert (node.gemm_tile_rows, node.head_tile_rows) == (64.0, 64.0)


def test_the_fp8_switch_gives_the_h20_back_its_borrowed_rate():
    """Without the fifty-eighth round's rule (and as the fifty-seventh round left the engine
    level) the H20 multiplies fp8 at the H100's share of its peak and SGLang's block-fp8 tile at
    that rate; with it, at its own measured rate and DeepGEMM's, so Qwen3-14B-FP8's 64 rows take
    less time; the bf16 share stays either way."""
    bf16 = GEMM_TILE_SHARES[RULE_KEY]
    for switch in (without_h20_fp8, lambda: as_round(57)):
        with switch():
            assert GPUS["H20"].achieved_fp8_flops == BORROWED_H20_FP8_FLOPS
            assert gemm_tile_rows("H20", "fp8_block", "sglang", "0.4") == 64.0
            assert GEMM_TILE_SHARES[RULE_KEY] == bf16
    assert GPUS["H20"].achieved_fp8_flops == H20_FP8_FLOPS
    assert gemm_tile_rows("H20", "fp8_block", "sglang", "0.4") > 64.0
    before, after = fp8_tile_ms()
    assert after < before
