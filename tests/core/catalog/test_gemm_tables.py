"""The measured GEMM shares: read back at their shapes, held at the grid's edges, per engine."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
from numpy.testing import assert_allclose

from core.catalog.gemm_tables import gemm_share, gemm_table_index

CSV = Path(__file__).resolve().parents[3] / "core" / "catalog" / "gemm_tables" / "gemm_shares.csv"


def test_every_measured_shape_reads_back_its_share():
    """At a measured (tokens, outputs, inputs) the interpolation gives the file's share."""
    with CSV.open() as handle:
        rows = list(csv.DictReader(handle))
    assert rows and all(0 < float(row["share"]) <= 1 for row in rows)
    for row in rows[::37]:
        table = gemm_table_index(row["family"], row["format"], row["engine"])
        shape = (float(row["tokens"]), float(row["outputs"]), float(row["inputs"]))
        assert_allclose(gemm_share(table, *shape), float(row["share"]), rtol=1e-12)


def test_shapes_outside_the_grid_hold_its_edge():
    """Fewer than 1,024 tokens read 1,024's share; wider matrices read the widest measured."""
    table = gemm_table_index("hopper", "fp8")
    assert gemm_share(table, 16, 8192, 1024) == gemm_share(table, 1024, 8192, 1024)
    assert gemm_share(table, 4096, 65536, 8192) == gemm_share(table, 4096, 16384, 8192)


def test_a_card_or_format_no_table_measures_reads_one():
    """AMD's cards outside AITER and int4 have no table: their GEMMs keep the card's own rate."""
    assert gemm_table_index("cdna3", "fp8") == -1 and gemm_table_index("hopper", "int4") == -1
    assert gemm_table_index("cdna3", "fp8_block", "vllm") == -1
    assert gemm_share(-1, 2048, 1024, 8192) == 1.0
    mixed = gemm_share(np.array([gemm_table_index("hopper", "fp8"), -1]), 2048, 1024, 8192)
    assert mixed[0] < 1.0 and mixed[1] == 1.0


def test_an_fp8_matrix_split_eight_ways_multiplies_slower_on_an_h100():
    """Llama-3-70B's output projection at 2,048 tokens: its eighth reaches a smaller share of
    the card's best rate than the whole matrix (the measured effect the term prices)."""
    table = gemm_table_index("hopper", "fp8")
    assert gemm_share(table, 2048, 8192, 8192 // 8) < gemm_share(table, 2048, 8192, 8192)


def test_an_engine_without_its_own_table_reads_tensorrt_llms():
    """vLLM's fp8 kernel on an H100 and its bf16 one on an A100 have their own tables; an engine
    aiconfigurator never measured reads TensorRT-LLM's PyTorch flow, as its dense GEMM floors do
    (core.catalog.dense_gemms)."""
    every = gemm_table_index("hopper", "fp8")
    assert gemm_table_index("hopper", "fp8", "tensorrt-llm") == every
    assert gemm_table_index("hopper", "fp8", "vllm") not in (every, -1)
    ampere = gemm_table_index("ampere", "bf16")
    assert gemm_table_index("ampere", "bf16", "vllm") not in (ampere, -1)
    assert gemm_table_index("ampere", "bf16", "custom-engine") == ampere


def test_a_kernel_slower_than_the_cards_best_is_priced_so():
    """A share is of the rate the engine level multiplies at on the card, not of the table's own
    best: TensorRT-LLM's NVFP4 GEMM on a B200 reaches about 4,100 TFLOP/s at large shapes, well
    under the catalog's fp4 rate (borrowed from the H100's share of peak), and SGLang's fp8 GEMM
    on an H100 at 8,192 tokens of a 16,384-square matrix stays below TensorRT-LLM's there."""
    assert gemm_share(gemm_table_index("blackwell", "nvfp4"), 8192, 16384, 16384) < 0.8
    shape = (8192, 16384, 16384)
    sglang = gemm_share(gemm_table_index("hopper", "fp8", "sglang"), *shape)
    assert sglang < gemm_share(gemm_table_index("hopper", "fp8"), *shape) <= 1.0


def test_aiters_block_fp8_gemms_on_amd_cards_reach_well_below_the_cards_fp8_rate():
    """AITER's tuned block-fp8 GEMM times on 304-CU cards: DeepSeek's shared-expert slices
    over eight cards at 8,192 tokens (gate and up 512 x 7,168, down 7,168 x 256) multiply at
    under 0.6 of the MI325X's measured fp8 rate, and a wide square matrix faster than a thin one."""
    table = gemm_table_index("cdna3", "fp8_block", "aiter")
    assert table >= 0 and gemm_table_index("cdna4", "fp8_block", "aiter") >= 0
    assert gemm_share(table, 8192, 512, 7168) < 0.6 and gemm_share(table, 8192, 7168, 256) < 0.6
    assert gemm_share(table, 8192, 7168, 256) < gemm_share(table, 8192, 4096, 4096)


def test_marlins_int4_prompt_gemms_on_an_a100_reach_its_measured_share_of_bf16s():
    """vLLM's and SGLang's int4 GEMMs on an A100 (Marlin) multiply a prompt at the measured
    share of their own bf16 rate at each token count (the largest measured holding beyond);
    TensorRT-LLM's int4 on an A100, and int4 on Hopper, have no table and read the card's rate."""
    from core.catalog.gemm_tables import MARLIN_ENGINES, MARLIN_PROMPT_SHARE

    shape = (8192, 8192)
    for engine in MARLIN_ENGINES:
        bf16 = gemm_table_index("ampere", "bf16", engine)
        int4 = gemm_table_index("ampere", "int4", engine)
        assert int4 not in (bf16, -1)
        held = MARLIN_PROMPT_SHARE[4000]  # the largest measured, 4,000 tokens
        expected = ((1024, MARLIN_PROMPT_SHARE[1024]), (2048, MARLIN_PROMPT_SHARE[2048]),
                    (4096, held), (16384, held))  # fmt: skip
        for tokens, measured in expected:
            assert_allclose(
                gemm_share(int4, tokens, *shape),
                measured * gemm_share(bf16, tokens, *shape),
                atol=1e-3,
            )
    assert gemm_table_index("ampere", "int4") == -1 == gemm_table_index("hopper", "int4", "vllm")
