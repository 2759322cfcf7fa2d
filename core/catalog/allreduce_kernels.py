"""All-reduce kernels each engine's releases run, as measured: one small all-reduce on 8 cards.

:mod:`core.catalog.engine_versions` gives each release one of these figures and its source.
"""

from __future__ import annotations

# -- All-reduce kernels: one small all-reduce (4,096 bf16 numbers, a token of a 4,096-wide
# hidden state) on 8 x H100, as a decode step runs it, replayed inside a CUDA graph: NVIDIA
# aiconfigurator 0.12's measured tables (systems/data/h100_sxm/comm/<engine>/<release>/
# custom_allreduce_perf.parquet). The same kernels run eagerly take 21-24 µs (vLLM 0.14-0.24,
# SGLang 0.5.9-0.5.10); NCCL 2.29 (nccl-tests, no graph) 16.0 µs; on 8 x B200 the graphed
# kernels take 5.6 µs (TensorRT-LLM), 7.9 (vLLM) and 7.5 (SGLang 0.5.9). A release older than
# the tables takes its line's earliest measured release. TensorRT-LLM 0.x captures no graphs
# by default (C++ engines; the 0.20 PyTorch backend's are opt-in): SGLang PR #2904's unit
# test of the same kernels without a graph (512 B on 8 cards: 5.9 µs) stands for them.
# AMD cards take the same figures: vLLM PR #39080 times vLLM's custom all-reduce on 8 x MI355X
# at 6.3 µs for 24 KB (4 tokens of a 3,072-wide hidden state), 1.4 µs above the H100's 4.9, so
# a DeepSeek-R1 step on eight MI355X (122 all-reduces) would pay 0.17 ms more: read in issue
# 37's forty-fifth round beside the SGLang runs on MI300X and MI325X that read too fast at one
# to four users (x0.55-0.72 of their time), too small to be what they miss, and left unpriced.
_AIC_AR = (
    "NVIDIA aiconfigurator 0.12 measured all-reduce tables, h100_sxm comm/{table}, 4,096 bf16 "
    "numbers on 8 cards inside a CUDA graph: {figure} µs"
)
VLLM_CUSTOM_ALLREDUCE_S = 4.9e-6
TRTLLM_ALLREDUCE_S = 3.9e-6
TRTLLM_NO_GRAPH_ALLREDUCE_S = 5.9e-6
SGLANG_ALLREDUCE_S = 5.2e-6
VLLM_ALLREDUCE_SOURCE = _AIC_AR.format(
    table="vllm 0.14.0 vLLM_custom_graph (0.19.0: 5.0)", figure="4.9"
)
TRTLLM_ALLREDUCE_SOURCE = _AIC_AR.format(
    table="trtllm 1.2.0rc5 TRTLLM (1.3.0rc20: 3.5)", figure="3.9"
)
TRTLLM_CPP_ALLREDUCE_SOURCE = (
    "sgl-project/sglang PR #2904 'optimize custom allreduce kernel', H100 unit test of the "
    "TensorRT-LLM all-reduce kernels without a CUDA graph, 512 B on 2/4/8 cards: 3.7/4.8/5.9 µs"
)
SGLANG_ALLREDUCE_SOURCE = _AIC_AR.format(
    table="sglang 0.5.9 SGLang_CustomAllReduce_graph (0.5.14, its own faster kernel: 3.6)",
    figure="5.2",
)
