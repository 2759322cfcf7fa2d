"""SGLang's first-token path, measured: its server's share and what its eager prefill launches.

SGLang runs a prompt's forward pass eagerly in Python (its CUDA graphs capture decode steps
only, until the opt-in piecewise graphs of late 2025), so every kernel the pass launches costs
the host a Python dispatch; at a short prompt the GPU waits for them. Its server's own work
(the HTTP request, tokenising, handing the request to the scheduler, detokenising and streaming
the first token) runs beside the scheduler that drives the cards: ``_launch_subprocesses``
(``sglang/srt/entrypoints/engine.py``) launches "the TokenizerManager in the main process, the
Scheduler in a subprocess, and the DetokenizerManager in another subprocess", so that work delays
a first token without holding the cards (the scheduler's own per-request work is not measured
apart from it, and is priced with it).

Both parts come from one measured pair, SGLang PR #13094 (2025-11-11, "[Piecewise CUDA Graph]
Support ModelOpt FP8"): nvidia/Llama-3.1-8B-Instruct-FP8 on TP8 with the FlashAttention 3 backend
(Hopper), ``sglang.bench_serving`` at one user, 1,024-token prompts, mean time to first token
29.97 ms with the prefill eager and 19.66 ms with the piecewise CUDA graph, which replays every
launch of the pass but attention's (one a layer, still eager). So

- each launch the graph took over costs :data:`SGLANG_EAGER_LAUNCH_S`, the 10.31 ms saved over
  the 32 layers' 9 kernels less their 32 attention launches (256), 40.3 µs;
- the server path, :data:`SGLANG_SERVER_PATH_S`, is what the graphed first token keeps beyond
  the prefill the engine level prices for that set-up (8.58 ms on an H100 SXM, the piecewise
  pass's fixed costs and weight read among them) and the 32 attention launches still eager:
  19.66 - 8.58 - 1.29 = 9.79 ms (``tests/core/catalog/test_eager_dispatch.py`` derives it
  again from the engine level as it stands).

A second measurement checks the per-launch figure without setting it: SGLang PR #12160
(2025-10-26) logs one DeepSeek-V3 prefill of a single new token at 82.64 ms eager and 23.10 ms
as a whole CUDA graph, 59.54 ms saved over 61 layers. The engine level counts 1,162 kernels in
that pass (:func:`core.engine_level.terms.layer_kernels`, block fp8, the shared expert fused) and
5 more in each of its 58 expert layers, SGLang's fused experts' own launches (alignment, the two
grouped GEMMs, the activation and the sum over the top-k: ``fused_moe_triton/fused_moe.py``
``fused_experts_impl``): 1,452 launches, 41.0 µs each, within 2 % of the 40.3 the first pair
gives.

Where SGLang's figure was borrowed before (issue 37's eleventh to fortieth rounds), it paid
vLLM's 0.8 ms a layer, the whole of it holding the cards.
"""

from __future__ import annotations

from core.catalog.layer_kernels import DENSE_LAYER_KERNELS

# SGLang PR #13094's pair: Llama-3.1-8B (32 layers), one user, 1,024-token prompts
PIECEWISE_PAIR_EAGER_TTFT_S = 29.97e-3
PIECEWISE_PAIR_GRAPHED_TTFT_S = 19.66e-3
PIECEWISE_PAIR_LAYERS = 32
# the launches the piecewise graph replays: every kernel of a dense layer but attention's
PIECEWISE_PAIR_GRAPHED_LAUNCHES = PIECEWISE_PAIR_LAYERS * (DENSE_LAYER_KERNELS - 1)
# the prefill the engine level prices for the pair's set-up (an H100 SXM: the FlashAttention 3
# backend runs on Hopper; on an H200 it prices 8.03 ms), server path and dispatch left out
PIECEWISE_PAIR_PRICED_PREFILL_S = 8.58e-3

SGLANG_EAGER_LAUNCH_S = (
    PIECEWISE_PAIR_EAGER_TTFT_S - PIECEWISE_PAIR_GRAPHED_TTFT_S
) / PIECEWISE_PAIR_GRAPHED_LAUNCHES
SGLANG_SERVER_PATH_S = (
    PIECEWISE_PAIR_GRAPHED_TTFT_S
    - PIECEWISE_PAIR_PRICED_PREFILL_S
    - PIECEWISE_PAIR_LAYERS * SGLANG_EAGER_LAUNCH_S
)
# Each expert layer's fused experts launch 5 kernels of their own in an eager pass; in a CUDA
# graph their floors are in ExpertKernel.fixed_s (core.catalog.kernels)
ROUTED_EXPERT_EAGER_LAUNCHES = 5
ROUTED_EXPERT_LAUNCHES_SOURCE = (
    "sgl-project/sglang python/sglang/srt/layers/moe/fused_moe_triton/fused_moe.py "
    "fused_experts_impl: moe_align_block_size, invoke_fused_moe_kernel (w1), silu_and_mul, "
    "invoke_fused_moe_kernel (w2), the sum over the top-k"
)
SGLANG_DISPATCH_SOURCE = (
    "sgl-project/sglang PR #13094 (2025-11-11, piecewise CUDA graph for ModelOpt FP8): "
    "Llama-3.1-8B-Instruct-FP8, TP8, FlashAttention 3, one user, 1,024-token prompts, mean "
    "TTFT 29.97 ms eager and 19.66 ms with the piecewise graph: 10.31 ms over 256 graphed "
    "launches, 40.3 µs each (PR #12160's DeepSeek-V3 single-token prefill, 82.64 ms eager and "
    "23.10 ms graphed over 1,452 launches, gives 41.0); an expert layer launches 5 more, "
    + ROUTED_EXPERT_LAUNCHES_SOURCE
)
SGLANG_SERVER_PATH_SOURCE = (
    "sgl-project/sglang PR #13094: the graphed first token's 19.66 ms less the 8.58 ms prefill "
    "the engine level prices for it and its 32 attention launches still eager (1.29 ms); "
    "priced beside the cards: sglang/srt/entrypoints/engine.py _launch_subprocesses runs the "
    "TokenizerManager in the main process and the Scheduler and the DetokenizerManager in "
    "subprocesses of their own"
)
