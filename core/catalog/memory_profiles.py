"""How each engine's release counts memory before it sizes its cache: the sources of the rule.

TensorRT-LLM and vLLM to 0.6 take what each card's process holds outside PyTorch's allocator
(``core.catalog.OUTSIDE_ALLOCATOR_BYTES_*``) out of the cache's room; vLLM from 0.7 counts only
what grows after its snapshot. :class:`core.catalog.engine_versions.EngineVersion` carries the
rule per release (``counts_outside_allocator``).
"""

from __future__ import annotations

# Releases whose memory profile takes each card's memory outside PyTorch's allocator out of the
# cache's room (core.catalog.OUTSIDE_ALLOCATOR_BYTES_*, from vLLM's own profile).
OUTSIDE_ALLOCATOR_SOURCE = (
    "vllm-project/vllm PR #10511 (2024-12-14): vLLM's profile printed non_torch_memory 1.79 GiB "
    "on one H100 and 3.58 GiB on each of two; TensorRT-LLM's PyTorch backend sizes its cache "
    "after a peak it logs as 'torch + non-torch' (_torch/pyexecutor/_util.py) and its C++ "
    "runtime from the memory free once the engine is loaded; vLLM to 0.6 from what "
    "torch.cuda.mem_get_info leaves after its profile"
)

# From v0.7 (vllm-project/vllm PR #12126, "further polish memory profiling") vLLM's profile
# counts only what grows outside the allocator after a snapshot taken once CUDA and NCCL are up
# (0.16 GiB on one H100 in that request's own log), and sizes its share of the whole card
# (total x gpu_memory_utilization) with the context and the buffers inside the share's headroom.
VLLM_SNAPSHOT_SOURCE = (
    "vllm-project/vllm PR #12126 (v0.7): the profile counts the non-torch memory that grows "
    "after the worker's snapshot (taken after CUDA and NCCL start; 0.16 GiB on one H100 in its "
    "log), not the context and buffers already held, which stay in the share's headroom"
)
# a release's fields (EngineVersion) under that rule
VLLM_SNAPSHOT = {
    "counts_outside_allocator": False,
    "outside_allocator_source": VLLM_SNAPSHOT_SOURCE,
}
