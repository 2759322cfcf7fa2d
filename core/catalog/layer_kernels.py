"""How many kernels each kind of layer launches in a decode step, counted from the engines' code.

Each launch costs at least the kernel floor (:data:`core.catalog.KERNEL_FLOOR_S`); the counts are
read from each layer's forward pass as vLLM and SGLang implement it. Split from
:mod:`core.catalog.kernels`, whose tables price what the kernels reach.
"""

from __future__ import annotations

DENSE_LAYER_KERNELS = 9  # 2 norms, QKV, rotary + cache write, attention, out, gate-up, act, down
# A mixture's layer drops the dense MLP's 3 for a router GEMM and a top-k; the grouped GEMMs'
# own launches are in ExpertKernel.fixed_s.
MOE_LAYER_KERNELS = DENSE_LAYER_KERNELS - 3 + 2
# Latent attention replaces QKV, rotary, attention and out (4) by the fused q_a/kv_a GEMM, the
# q_a norm, q_b, the kv_a norm, rotary + cache write, the k absorb bmm, attention and its
# split-KV combine, the v absorb bmm and o_proj (10). Every engine priced here runs q_a and
# kv_a as one GEMM on their shared input: vLLM models/deepseek_v2.py fused_qkv_a_proj ('reduces
# one GEMM call'), SGLang fused_qkv_a_proj_with_mqa, TensorRT-LLM's MLA kv_a_proj_with_mqa
# widened by q_lora_rank (counted as 11 until issue 37's sixth round; the rule set before
# scoring; releases older than each fusion launch one kernel more a layer than counted).
LATENT_ATTENTION_KERNELS = 10
LATENT_ATTENTION_EXTRA_KERNELS = LATENT_ATTENTION_KERNELS - 4
LATENT_ATTENTION_GEMMS = 3  # the fused q_a/kv_a, q_b and o_proj
# q_b's inputs, the query's low rank: DeepSeek-V3's and Kimi K2's q_lora_rank (their config.json),
# read where a GEMM's cost grows with its inputs (core.engine_level.gemm_shapes.gemm_inputs)
LATENT_QUERY_RANK = 1536
# A shared expert (DeepSeek, Llama 4) runs its own gate-up, act and down.
SHARED_EXPERT_KERNELS = 3
# Block-scaled fp8 quantises each GEMM's input per group of 128 first, one quantise kernel per
# GEMM input: attention's QKV and out (2; latent attention's fused q_a/kv_a, q_b and o_proj, 3),
# the MLP's gate-up and down (2; a mixture's routed experts: their input and their activation,
# 2) and a shared expert's own gate-up and down (2): DeepSeek's expert layer 7, Qwen3's 4.
BLOCK_FP8_ATTENTION_INPUTS = 2
BLOCK_FP8_LATENT_ATTENTION_INPUTS = 3
BLOCK_FP8_MLP_INPUTS = 2
