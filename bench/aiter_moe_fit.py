"""Fit AMD cards' expert-layer kernel figures (core/catalog/kernels.py) to AITER's tuned tables.

AITER (ROCm/aiter, MIT) is AMD's kernel library; SGLang's ROCm images run their mixtures'
experts through its fused-MoE kernels (SGLANG_USE_AITER=1). When AITER tunes a fused-MoE
shape on a card it keeps, per token count, the fastest kernel pair and the time it measured
for it (the ``us`` column, stage one plus stage two, microseconds). Those tables are read here
as a cited source of AMD's kernel efficiencies, the way bench/moe_kernel_fit.py reads NVIDIA
aiconfigurator's; the lab never imports AITER. To rerun, with the repository's CSVs at hand
(``git clone https://github.com/ROCm/aiter``; the catalog's figures are from @e4048607):

    python -m bench.aiter_moe_fit aiter/aiter/configs   # from this repository's root

The model and the fit are bench/moe_kernel_fit.py's (its :func:`modelled` equation, floor and
bandwidth share on 1-256 tokens, with a cost per input kept where a family's shapes left out in
turn read closer with it, compute share and padding rows on every row), with the card's
rates from core/catalog/cards.py. Token counts the tuner did not time carry a
neighbour's time copied (one figure repeated exactly across a run of counts); those rows are
left out. AITER's shapes are already one card's: the width is the
tensor-parallel slice and the experts are those on the card, a fused shared expert among them
(DeepSeek's 257 experts, 9 a token). A card is named by its compute units: 304 for MI300X and
MI325X (gfx942), 256 for MI355X (gfx950).
"""

from __future__ import annotations

import sys
from functools import partial
from pathlib import Path

import numpy as np

from bench.moe_kernel_fit import BANDS, fit_with_inputs, latency_of, shape_columns
from core.catalog.cards import GPUS
from core.catalog.kernels import ENGINE_EXPERT_KERNELS

# AITER's names of the quantisations read here: 128 x 128 block scales, none (bf16), and MXFP4's
# 32-wide blocks (fp4 weights; fp4 activations, or bf16 ones at few tokens in gpt-oss's tables).
BLOCK, NONE, MX = "QuantType.per_1x128", "QuantType.No", "QuantType.per_1x32"
# The activations AITER's tables hold (gpt-oss's clamped SwiGLU costs its GEMMs what SiLU's do).
ACTIVATIONS = ("ActivationType.Silu", "ActivationType.Swiglu")

# (card family, compute units, the catalog's card whose rates the shares are of, table file
# under configs/, weight format in the catalog, AITER's quantisation, the weights' bytes, the
# rate it multiplies at). A 304-CU table does not say whether an MI300X or an MI325X ran it
# (the same compute dies; the MI325X's HBM3E is faster): its shares are of the MI325X's rates.
KERNELS = [
    ("cdna3", 304, "MI325X", "a8w8_blockscale_tuned_fmoe_ds_v3", "fp8_block", BLOCK, 1, "fp8"),
    ("cdna3", 304, "MI325X", "a8w8_blockscale_tuned_fmoe_glm5_1", "fp8_block", BLOCK, 1, "fp8"),
    ("cdna4", 256, "MI355X", "a8w8_blockscale_tuned_fmoe_ds_v3", "fp8_block", BLOCK, 1, "fp8"),
    ("cdna4", 256, "MI355X", "a8w8_blockscale_tuned_fmoe_qwen3_235b", "fp8_block", BLOCK, 1, "fp8"),
    ("cdna3", 304, "MI325X", "qwen3_235b_bf16_tuned_fmoe", "bf16", NONE, 2, "bf16"),
    ("cdna4", 256, "MI355X", "qwen3_235b_bf16_tuned_fmoe", "bf16", NONE, 2, "bf16"),
    ("cdna4", 256, "MI355X", "dsv3_fp4_tuned_fmoe", "mxfp4", MX, 4.25 / 8, "fp4"),
    ("cdna4", 256, "MI355X", "gptoss_fp4_tuned_fmoe", "mxfp4", MX, 4.25 / 8, "fp4"),
    ("cdna4", 256, "MI355X", "gptoss_a16w4_tuned_fmoe", "mxfp4", MX, 4.25 / 8, "fp4"),
]  # fmt: skip


def rows(configs: Path, cu_num: int, files: list[str], quantisation: str):
    """One family's rows in one quantisation: the fastest measured kernel pair per shape and
    token count. A family's figures are fitted over all of its tables together."""
    import pandas as pd

    tables = [pd.read_csv(configs / "model_configs" / f"{name}.csv") for name in files]
    table = pd.concat(tables)
    keep = (
        (table.cu_num == cu_num)
        & (table.q_type == quantisation)
        & table.act_type.isin(ACTIVATIONS)
        & np.isfinite(table.us)
        & (table.us > 0)
    )
    key = ["model_dim", "inter_dim", "expert", "topk", "token"]
    table = table[keep].groupby(key, as_index=False).us.min()
    # The tuner fills token counts it did not time with a neighbour's kernel and its time: a
    # time repeated exactly within a shape is a copy, and every row carrying it is left out.
    repeated = table.groupby(key[:-1]).us.transform(lambda us: us.duplicated(keep=False))
    return table[~repeated.astype(bool)]


def columns(table, card, bytes_per_weight):
    """bench/moe_kernel_fit.py's columns for AITER's rows (already one card's shapes)."""
    return shape_columns(
        table.token.to_numpy(float),
        table.expert.to_numpy(float),
        table.topk.to_numpy(float),
        table.model_dim.to_numpy(float),
        table.inter_dim.to_numpy(float),
        1.0,
        bytes_per_weight,
        card.achieved_hbm_bytes_per_s,
        table.us.to_numpy(float) * 1e-6,
        # AITER's tuner routes at random: csrc/ck_gemm_moe_2stages_codegen/gemm_moe_tune.py
        # generate_data scores every expert with torch.randn and takes the top k (fused_topk)
        routing="random",
    )


def modelled(cols, card, compute, floor, bandwidth_share, compute_share, pad):
    """bench/moe_kernel_fit.py's equation with the catalog card's rates."""
    rate = {"fp8": card.achieved_fp8_flops, "bf16": card.achieved_bf16_flops,
            "fp4": card.achieved_fp4_flops}[compute]  # fmt: skip
    return latency_of(cols, card.achieved_hbm_bytes_per_s, rate, floor, bandwidth_share,
                      compute_share, pad)  # fmt: skip


# gpt-oss's unsplit expert shape on one MI355X (3,072 x 3,072 as AITER pads it, 128 experts, 4 a
# token) in gptoss_fp4_tuned_fmoe.csv @e4048607, the longest steps it times (the ``us`` column):
# issue 37's fifty-ninth round reads the ATOM dashboard's first tokens on 8k prompts against them.
GPT_OSS_SHAPE = (3072, 3072, 128, 4)
GPT_OSS_LONG_STEPS_US = {4096: 614.8168, 8192: 1956.7077, 16384: 2680.5154}


def gpt_oss_long_steps() -> list[tuple[int, float, float]]:
    """(tokens, AITER's time, the price of the catalog's MI355X MXFP4 row) in seconds for each of
    :data:`GPT_OSS_LONG_STEPS_US`' steps, the row (``ENGINE_EXPERT_KERNELS``) priced as
    :func:`modelled` prices a table's."""
    row = ENGINE_EXPERT_KERNELS[("cdna4", "mxfp4", "aiter")]
    card = GPUS["MI355X"]
    hidden, width, experts, top = GPT_OSS_SHAPE
    tokens = np.array(sorted(GPT_OSS_LONG_STEPS_US), dtype=float)
    measured = np.array([GPT_OSS_LONG_STEPS_US[int(count)] for count in tokens]) * 1e-6
    cols = shape_columns(tokens, experts, top, hidden, width, 1.0, 4.25 / 8,
                         card.achieved_hbm_bytes_per_s, measured, routing="random")  # fmt: skip
    floors = row.fixed_s + row.per_input_s * (hidden + width)
    priced = modelled(cols, card, "fp4", floors, row.bandwidth_share, row.compute_share,
                      row.padding_rows)  # fmt: skip
    return [
        (int(count), float(m), float(p))
        for count, m, p in zip(tokens, measured, priced, strict=True)
    ]


def main() -> None:
    if len(sys.argv) != 2:
        raise SystemExit(__doc__)
    configs = Path(sys.argv[1])
    families: dict[tuple, list[str]] = {}
    for family, cu_num, gpu, name, weight, quantisation, size, compute in KERNELS:
        key = (family, cu_num, gpu, weight, quantisation, size, compute)
        families.setdefault(key, []).append(name)
    print(f"{'family':<6} {'CUs':>3} {'format':<9} rows shapes floor  s_B   s_F   pad  decode  all"
          "   bias by tokens per expert " + " ".join(f"{lo:g}+" for lo, _ in BANDS))  # fmt: skip
    for (family, cu_num, gpu, weight, quantisation, size, compute), files in families.items():
        table = rows(configs, cu_num, files, quantisation)
        card = GPUS[gpu]
        cols = columns(table, card, size)
        predict = partial(modelled, cols, card, compute)
        inputs = (table.model_dim + table.inter_dim).to_numpy(float)  # already one card's slice
        shapes = table[["model_dim", "inter_dim", "expert", "topk"]].to_numpy(float)
        floor, sb, sf, pad, per_input, decode, every, alone, walked = fit_with_inputs(
            cols, card.achieved_hbm_bytes_per_s, inputs, shapes, predict
        )
        floors = floor + per_input * inputs
        ratio = np.log(modelled(cols, card, compute, floors, sb, sf, pad) / cols[-1])
        per_expert = cols[0] * cols[1] / table.expert.to_numpy(float)
        bias = [ratio[(per_expert >= lo) & (per_expert < hi)] for lo, hi in BANDS]
        count = len(np.unique(shapes, axis=0))
        print(f"{family:<6} {cu_num:>3} {weight:<9} {len(table):>4} {count:>6} "
              f"{floor * 1e6:4.0f}us {sb:.2f} {sf:.3f} {pad:4d}  {decode:5.0%} {every:5.0%}   "
              + " ".join(f"{b.mean():+.2f}" if b.size else "  -  " for b in bias)
              + f"   c {per_input * 1e9:.2f}ns, left out {alone:.0%} / {walked:.0%}")  # fmt: skip
    print(
        "gpt-oss's unsplit shape on one MI355X, AITER's longest steps against the cdna4 MXFP4 row:"
    )
    for tokens, measured, priced in gpt_oss_long_steps():
        print(f"  {tokens:>6} tokens: {measured * 1e3:.2f} ms measured, {priced * 1e3:.2f} ms "
              f"priced (x{measured / priced:.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
