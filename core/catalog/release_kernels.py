"""Kernels a release runs beyond its engine's own: shared experts fused or streamed, AITER, the
expert kernels an older release ran before its engine changed its default, and the fp8 input
quantisers a compiled release fuses into the kernel before them.

:mod:`core.catalog.engine_versions` marks each release with these rules and their sources;
:func:`core.catalog.kernels.kernels_engine` turns a release's ``amd_kernels`` into the rows
that price it on AMD cards; :func:`core.catalog.kernels.expert_kernel` reads
:data:`RELEASE_EXPERT_KERNELS` for the expert rows that price a release on NVIDIA cards.
"""

from __future__ import annotations

from core.catalog.release_lines import release_line

# -- Shared-expert fusion (issue 37, sixth round; the rule set before any case was scored with
# it). SGLang's DeepSeek model (models/deepseek_v2.py determine_num_fused_shared_experts, on
# unless --disable-shared-experts-fusion) loads a DeepSeek-V3/R1 layer's one shared expert as a
# 257th routed expert that every token picks, so the fused MoE kernel runs it with the routed
# ones: the shared expert's own gate-up, activation and down kernels, the quantise kernels of
# its two GEMMs under block-scaled fp8 and its two GEMMs' floors are not launched; its weights
# are read as before. The code's conditions: 256 routed experts and one shared; NVIDIA cards of
# compute capability 8.0 or more without expert parallelism, AMD MI300-class cards (gfx942 and
# newer) with or without it (sgl-project/sglang PR #12201, merged 2025-11). In the 0.4 line it
# came and went (PR #4918 on by default, 2025-04; PR #5504 off by default, 2025-04-17), so the
# catalog prices it from the 0.5 line only. vLLM fuses it only on ROCm behind an opt-in flag
# (vllm-project/vllm PR #24097, VLLM_ROCM_USE_AITER_FUSION_SHARED_EXPERTS), TensorRT-LLM not.
# Priced as the code reads, on both vendors: both development sets 18.20 % -> 18.26 % (77 of
# 114 either way). InferenceX's H200 rows move toward their measurements (D109 x1.48 -> x1.32,
# D111 x1.41 -> x1.27, D110 x0.79 -> x0.83, D112 x0.88 -> x0.91), its MI325X rows away from
# theirs (D113 x0.75 -> x0.67, D117 x1.46 -> x1.51): the same step measures 1.7 times longer on
# MI325X than on H200, where the engine level, with Hopper's kernel floors and tables borrowed
# for MI300-class cards, prices it shorter; what those cards lack is not this.
SHARED_EXPERT_FUSION_ROUTED = 256
SHARED_EXPERT_FUSION_RULE = (
    "SGLang models/deepseek_v2.py determine_num_fused_shared_experts: a DeepSeek-V3/R1 layer's "
    "shared expert runs as a 257th routed expert in the fused MoE kernel (256 routed experts, "
    "one shared; NVIDIA compute capability 8.0+ without expert parallelism, AMD gfx942+ with or "
    "without it: PR #12201); disable_shared_experts_fusion = False by default"
)

# -- A shared expert on a second CUDA stream (issue 37, eighteenth round; the rule set before any
# case was scored with it). Where a DeepSeek-V3-shaped layer's shared expert runs as its own MLP
# (not fused, above), three engines launch it on a second stream beside the router and the routed
# experts in a decode step replayed from its CUDA graph, so its kernels' launch floors pass while
# the routed experts run; its weights still stream. Only on NVIDIA cards (each path asks for CUDA)
# and up to each release's tokens a step; a step larger than its CUDA graph runs one stream.
SHARED_EXPERT_STREAMS: dict[tuple[str, str], tuple[int, str]] = {
    ("tensorrt-llm", "0.20"): (8192, "no limit of its own (8,192: a step's most tokens); "
        "NVIDIA/TensorRT-LLM tensorrt_llm/_torch/models/"
        "modeling_deepseekv3.py DeepseekV3MoE.forward: maybe_execute_in_parallel(routed, "
        "shared, ..., aux_stream); _torch/modules/multi_stream_utils.py: 'Multi-stream is only "
        "enabled when cuda graph is turned on'; docs/source/blogs/tech_blog/blog1 (DeepSeek-R1 "
        "on 8 B200, one user): 'Multi Stream to overlap shared expert with sparse experts', 67 "
        "-> 73 tokens/s a user"),
    ("vllm", "0.14"): (256, "vllm-project/vllm PR #26440 (merged 2025-10, after v0.11.0): "
        "'Dual stream execution of shared_experts and selected_experts inside FusedMoE' on "
        "CUDA, up to VLLM_SHARED_EXPERTS_STREAM_TOKEN_THRESHOLD = 256 tokens (DeepSeek-R1 fp8, "
        "8 B200, batch 32: TPOT 23.35 -> 22.09 ms)"),
    ("sglang", "0.5"): (1024, "sgl-project/sglang models/deepseek_v2.py DeepseekV2MoE: "
        "forward_normal_dual_stream where alt_stream (CUDA) and no fused shared expert, up to "
        "DUAL_STREAM_TOKEN_THRESHOLD = 1024 tokens (PR #9405, 2025-08: whenever a CUDA graph "
        "runs)"),
}  # fmt: skip
SHARED_EXPERT_STREAMS[("tensorrt-llm", "1.0")] = SHARED_EXPERT_STREAMS[("tensorrt-llm", "0.20")]
SHARED_EXPERT_STREAMS[("vllm", "0.19")] = SHARED_EXPERT_STREAMS[("vllm", "0.14")]

# -- vLLM with AMD's ATOM plugin (issue 37, eighth round; set before any case was scored with it).
# vLLM schedules, keeps the cache and samples; ATOM's own model code runs each step's kernels
# from AITER (fused MoE, attention, quantised GEMMs), so on AMD cards the release prices AITER's
# rows measured on them, as SGLang's ROCm builds do. Its DeepSeek layers fuse the shared expert
# into AITER's fused MoE unless attention runs data parallel (atom/model_ops/topK.py).
ATOM_PLUGIN_RELEASE = "0.17-atom"
ATOM_PLUGIN_SOURCE = (
    "ROCm/ATOM docs/blogs/blog-atom-vllm-plugin.md @ecae63cc (AMD ROCm blog 2026-05-07 'vLLM-ATOM'):"
    " vLLM keeps scheduling, the KV cache and batching; ATOM's models run AITER's kernels, 'fused "
    "MoE, flash attention, quantized GEMM'; 'tested against vLLM v0.17.x'"
)
ATOM_FUSION_RULE = (
    "ROCm/ATOM atom/model_ops/topK.py is_rocm_aiter_fusion_shared_expert_enabled: a DeepSeek "
    "layer's shared expert runs inside AITER's fused MoE where its format is the routed experts', "
    "except under data-parallel attention (DP x EP)"
)

# -- vLLM on ROCm with AITER switched on (issue 37, thirteenth round; set before any case was
# scored with it). vLLM runs AITER's kernels on ROCm only where VLLM_ROCM_USE_AITER is set (off by
# default, vllm/envs.py); a benchmark whose recipe sets it runs AITER's fused MoE and GEMMs, so
# its release prices AITER's rows measured on the card, as ATOM's and SGLang's ROCm builds do.
VLLM_AITER_RELEASE = "0.19-aiter"
VLLM_AITER_SOURCE = (
    "vllm/envs.py VLLM_ROCM_USE_AITER (default False) and VLLM_ROCM_USE_AITER_MOE: set to 1 by "
    "the recipe, e.g. SemiAnalysisAI/InferenceX PR #1531 (benchmarks/single_node/"
    "gptoss_fp4_mi355x.sh @b278bc2d: VLLM_ROCM_USE_AITER=1, VLLM_ROCM_USE_AITER_MOE=1, "
    "VLLM_ROCM_USE_AITER_FUSED_MOE_A16W4=1 on vllm/vllm-openai-rocm:v0.19.0)"
)

# -- SGLang on AMD cards.
SGLANG_AITER_SOURCE = (
    "sgl-project/sglang docker/rocm.Dockerfile: SGLANG_USE_AITER=1, so experts run AITER's fused "
    "MoE and block-fp8 linear layers its gemm_a8w8_blockscale (core.catalog.kernels)"
)
SGLANG_BEFORE_AITER_SOURCE = (
    "no AITER yet: ROCm/aiter's first commit is of 2024-11-11, after SGLang v0.3 (2024-09); its "
    "ROCm builds ran its Triton kernels (experts: SGLang's Triton fused MoE, core.catalog.kernels)"
)
# Issue 37, thirty-ninth round (the rule read from the engine's history, and the rows that price
# it chosen, before any case was scored with them): SGLang's ROCm image first sets
# SGLANG_USE_AITER=1 in sgl-project/sglang PR #7902 (2025-07-14, in v0.4.9.post3). Before it the
# 0.4 line called AITER only where a run set an environment variable by hand: CK_MOE up to 0.4.6
# (fp8.py and fp8_utils.py call asm_moe and gemm_a8w8_blockscale only under it), SGLANG_AITER_MOE
# in 0.4.6.post1-post5, SGLANG_USE_AITER from 0.4.7; the image set none of them (MOE_PADDING=1
# only) and the line's AMD guide (docs/references/amd.md) launches DeepSeek without them. So the
# line is priced as its releases before 0.4.9.post3 ran by default, its experts in SGLang's
# Triton fused MoE.
SGLANG_AITER_RELEASE = "0.4-aiter"
SGLANG_04_AITER_SOURCE = (
    "sgl-project/sglang 0.4 line run with its AITER switch set by hand: CK_MOE up to 0.4.6 "
    "(fp8.py asm_moe, fp8_utils.py gemm_a8w8_blockscale), SGLANG_AITER_MOE in 0.4.6.post1-post5, "
    "SGLANG_USE_AITER from 0.4.7; or 0.4.9.post3 on, whose image sets it (PR #7902)"
)
SGLANG_04_ROCM_SOURCE = (
    "sgl-project/sglang: docker/Dockerfile.rocm sets SGLANG_USE_AITER=1 from v0.4.9.post3 (PR "
    "#7902, 2025-07-14); the 0.4 line's earlier releases run AITER only under CK_MOE, "
    "SGLANG_AITER_MOE or SGLANG_USE_AITER set by hand (none in the image or in "
    "docs/references/amd.md), else SGLang's Triton fused MoE (core.catalog.kernels); priced as "
    "those releases, 0.4.9.post3-0.4.10.post2 as the rest"
)

# -- SGLang's block-fp8 linear layers on CDNA3 in Triton (issue 37, sixty-fourth round).
# sgl-project/sglang PR #13617 (merged 2025-11-20) sends a block-fp8 linear layer on ROCm with AITER
# through AITER's Triton gemm_a8w8_blockscale (fp8_utils.py aiter_w8a8_block_fp8_linear: use_triton
# on every card but gfx95's tuned shapes; PR #14043, keeping MI300X on CK, closed unmerged). Its
# images pinned AITER v0.1.9.post1 (PR #18076) to v0.1.11.post1, whose only gfx942 config for that
# kernel is the default 128 x 128 tile without split-K (aiter/ops/triton/configs/gemm/gfx942-
# GEMM-A8W8_BLOCKSCALE.json): at decode size a GEMM then runs a workgroup per 128 outputs, each
# walking every input (core.catalog.dense_gemms.TRITON_DEFAULT_TILE_INPUT_S). AITER PR #2024
# (2026-02-12, in v0.1.12) added gfx942 tiles for DeepSeek's three attention GEMMs; SGLang pinned
# v0.1.12.post1 in PR #22264 (2026-04-07), and InferenceX PR #811 names 0.5.10's ROCm image as the
# first with them. Catalog releases: 0.5.6 (PR #13617 is in it: aiconfigurator timed 0.5.6.post2 by
# 2025-12-23; a 0.5.5 patch cut after 2025-11-20 would carry it too, and none is typed) and 0.5.10,
# which still runs Triton but holds those three tiles (AMD_TUNED_GEMM_SHAPES, issue 37's
# sixty-fifth round): a GEMM of those shapes on one card is priced with AITER's tuned rows, every
# other (DeepSeek's dense layers' MLPs, its projections unsplit under attention data parallelism or
# split four ways, other models' shapes) walks the default tile as 0.5.6-0.5.9's do.
SGLANG_TRITON_GEMM_SOURCE = (
    "sgl-project/sglang PR #13617 (2025-11-20): fp8_utils.py aiter_w8a8_block_fp8_linear runs "
    "AITER's Triton gemm_a8w8_blockscale on gfx942 (use_triton = True off gfx95); the images' "
    "AITER v0.1.9.post1-v0.1.11.post1 hold only the default gfx942 tile for it "
    "(gfx942-GEMM-A8W8_BLOCKSCALE.json: 128 x 128, NUM_KSPLIT 1)"
)
SGLANG_TUNED_GEMM_SOURCE = (
    "ROCm/aiter PR #2024 (2026-02-12, v0.1.12): gfx942 tiles for DeepSeek's attention GEMMs "
    "(N=2112 K=7168, 3072 x 1536, 7168 x 2048; v0.1.12.post1's aiter/ops/triton/configs/gemm/ "
    "holds no other gfx942-GEMM-A8W8_BLOCKSCALE-N=...-K=... file); sgl-project/sglang PR #22264 "
    "pins v0.1.12.post1 (2026-04-07); SemiAnalysisAI/InferenceX PR #811: the 0.5.10 ROCm image "
    "has them, 0.5.9's not; every other shape walks the default tile"
)
AMD_TUNED_GEMM_SHAPES: dict[tuple[str, str], frozenset[tuple[int, int]]] = {
    ("sglang", "0.5.10"): frozenset({(2112, 7168), (3072, 1536), (7168, 2048)}),
}
"""{(engine, catalog release): the (outputs, inputs) of the GEMMs on one card its AMD dense
kernels hold tuned tiles for}: AITER v0.1.12.post1's gfx942 configs, SGLang 0.5.10's pin."""
SGLANG_TRITON_GEMM = {
    "version": "0.5.6", "runtime": "to 0.5.9: Triton GEMMs on MI300",
    "source": "SGLang 0.5.6-0.5.9: " + SGLANG_TRITON_GEMM_SOURCE,
    "amd_dense_kernels": "aiter-triton", "amd_dense_kernels_source": SGLANG_TRITON_GEMM_SOURCE,
}  # fmt: skip
SGLANG_TUNED_GEMM = {
    "version": "0.5.10", "runtime": "overlap scheduler, the current release line",
    "source": "SGLang 0.5.10 on: " + SGLANG_TUNED_GEMM_SOURCE,
    "amd_dense_kernels": "aiter-triton", "amd_dense_kernels_source": SGLANG_TUNED_GEMM_SOURCE,
}  # fmt: skip


def amd_tuned_gemm_shapes(engine: str, version: str) -> frozenset[tuple[int, int]]:
    """The (outputs, inputs) on one card whose tiles ``engine``'s catalog release ``version``
    holds for its AMD dense kernels (:data:`AMD_TUNED_GEMM_SHAPES`; none where it lists none)."""
    return AMD_TUNED_GEMM_SHAPES.get((engine, version), frozenset())


def tuned_shares(shapes: frozenset[tuple[int, int]], gemms) -> tuple[float, float]:
    """(the share of ``gemms``, the share of the inputs they walk) whose (outputs, inputs) on one
    card are among the tuned ``shapes``."""
    tuned = [(round(outputs), round(inputs)) in shapes for outputs, inputs in gemms]
    inputs = [inputs for _, inputs in gemms]
    walked = sum(k for k, hit in zip(inputs, tuned, strict=True) if hit) / max(sum(inputs), 1.0)
    return sum(tuned) / max(len(tuned), 1), walked


# -- SGLang's expert kernel on Blackwell before flashinfer_trtllm (issue 37, twenty-fifth round;
# set before any case was scored with it). On SM100, SGLang ran its own Triton fused MoE for
# block-fp8 experts until sgl-project/sglang PR #11816 (merged 2025-10-19) made FlashInfer's
# TRT-LLM-gen MoE the default for DeepSeek's fp8 checkpoints ("replacing triton (current
# default)"; Qwen3's followed in PR #13489). Its 0.3 and 0.4 lines are priced with the Triton
# kernel as aiconfigurator measured it on a B200 (core.catalog.kernels, "sglang-triton"); the
# 0.5 line, which crossed the change at 0.5.4, keeps the engine-neutral row it had.
_SGLANG_TRITON_EXPERTS_SOURCE = (
    "sgl-project/sglang PR #11816 (merged 2025-10-19): 'If on SM100 + FP8 for dpsk, use "
    "flashinfer_trtllm as default moe runner backend, replacing triton (current default)'; "
    "before it, block-fp8 experts ran SGLang's Triton fused MoE on Blackwell"
)
# (engine, release line) -> the key of its expert rows on NVIDIA cards, and why
RELEASE_EXPERT_KERNELS: dict[tuple[str, str], tuple[str, str]] = {
    ("sglang", "0.3"): ("sglang-triton", _SGLANG_TRITON_EXPERTS_SOURCE),
    ("sglang", "0.4"): ("sglang-triton", _SGLANG_TRITON_EXPERTS_SOURCE),
}

# -- Marlin's expert loop (issue 37, thirty-second round; the rule set from the engines' code
# before any case was scored with it). vLLM's fused_marlin_moe from 0.6.0 to 0.8.2 runs each of
# an expert layer's two GEMMs through torch.ops._moe_C.marlin_gemm_moe, whose host code
# (csrc/moe/marlin_moe_ops.cu marlin_mm_moe) launches the kernel once per expert on the card and
# per 4 x max_m_blocks (4) m-blocks of 16 rows of the step's tokens: 256 tokens a launch. A
# launch for an expert no token picked returns at once (marlin_moe_kernel.h: tot_its == 0), so
# it costs the kernel floor. vLLM 0.8.3 replaced the loop with one fused kernel (PR #14447, "moe
# wna16 marlin kernel"). SGLang's 0.4 line ran its GPTQ and AWQ experts through vLLM's op
# (layers/quantization/__init__.py takes GPTQMarlinMoEMethod and AWQMoEMethod from vLLM): 0.4.0
# to 0.4.3 pin vLLM 0.6.3-0.7.2 in pyproject.toml and 0.4.4 to 0.4.6.post1 name 0.7.2 in their
# error messages (the loop), 0.4.6.post2 to 0.4.9 name 0.8.4 and 0.9.0.1 (fused), and 0.4.10
# runs sgl-kernel's own fused_marlin_moe. The catalog keeps one release per line, so a line is
# priced as its earliest release that runs int4 experts (as the collective tables take the
# earliest release measured): vLLM 0.6 and 0.8, SGLang 0.4 loop; vLLM 0.10 on and SGLang 0.5 do
# not. Only int4 experts on NVIDIA cards (Marlin is CUDA's). Scored
# after the rule was committed: Qwen's four GPTQ mixtures on H20 (SGLang 0.4.6.post1, vLLM 0.7.2)
# x0.11-0.59 -> x1.09-1.35, both development sets 21.3 % -> 18.9 % (171 -> 173 of 222); no check
# set holds such a release.
MARLIN_LOOP_TOKENS = 256.0
_MARLIN_LOOP = (
    "vllm-project/vllm v0.6.0-v0.8.2 csrc/moe/marlin_moe_ops.cu marlin_mm_moe: a kernel launch "
    "per expert and per 256 tokens (4 x max_m_blocks 4 m-blocks of 16) for each of the layer's "
    "two GEMMs, returning at once for an expert without tokens (marlin_moe_kernel.h); one fused "
    "kernel from v0.8.3 (PR #14447); each line priced as its earliest release"
)
_SGLANG_MARLIN_LOOP = (
    "sgl-project/sglang v0.4.0-v0.4.6.post1 python/sglang/srt/layers/quantization/__init__.py: "
    "GPTQMarlinMoEMethod and AWQMoEMethod from vLLM 0.6.3-0.7.2 (pyproject.toml; 'pip install "
    "vllm==0.7.2'), so " + _MARLIN_LOOP
)
EXPERT_LAUNCH_LOOPS: dict[tuple[str, str], str] = {
    ("vllm", "0.6"): _MARLIN_LOOP,
    ("vllm", "0.8"): _MARLIN_LOOP,
    ("sglang", "0.4"): _SGLANG_MARLIN_LOOP,
}


def expert_launch_tokens(engine: str, line: str, weight: str, amd: bool) -> float:
    """Tokens one launch of a release's expert kernel covers for one expert
    (:data:`MARLIN_LOOP_TOKENS` where the kernel loops over the card's experts:
    :data:`EXPERT_LAUNCH_LOOPS`), 0 where one launch covers every expert."""
    loops = weight == "int4" and not amd and (engine, release_line(line)) in EXPERT_LAUNCH_LOOPS
    return MARLIN_LOOP_TOKENS if loops else 0.0


# -- Fused input quantisers (issue 37's forty-sixth round). vLLM's V1 compiles its forward pass
# with torch.compile and Inductor by default, its custom ops off, so the static quantisation of a
# per-tensor fp8 GEMM's input runs as torch operations Inductor fuses into the RMSNorm or SiLU-
# and-mul kernel before it (the QKV, gate-up and down projections; the output projection follows
# attention, a custom op, and keeps its own). With AMD's AITER on, vLLM's own RMSNorm-quant
# fusion pass does it (PR #26575). Its fields for an EngineVersion (core.catalog.engine_versions:
# 0.8 on, not the ATOM plugin, whose models are its own).
VLLM_V1_QUANT_FUSION = dict(
    fuses_input_quant=True,
    fuses_input_quant_source=(
        "vLLM CompilationConfig.custom_ops: 'all custom ops are enabled when running without "
        "Inductor and disabled when running with Inductor' (V1's default, mode VLLM_COMPILE); "
        "vllm/config/vllm.py enable_norm_fusion / enable_act_fusion: with those custom ops off "
        "'Inductor handles fusion'; sgl-project/sglang issue #31504: vLLM runs static FP8 "
        "quantisation 'as an epilogue of the kernel that produces the activation' where SGLang "
        "launches a standalone kernel before every FP8 GEMM"
    ),
)
