"""The engine level's physical terms: what a real serving engine pays that the whiteboard skips.

The whiteboard prices a decode step as one read of the weights and the cache at 60 % of the
datasheet bandwidth, and a prefill as 2 FLOPs per parameter per token at 50 % of the datasheet
peak, and lets prefill cost the running streams nothing. Real engines measure differently, and
each difference is one term here, switched on by name (:data:`TERMS`), so a lab can show what
each one costs. Every function takes scalars or numpy arrays and broadcasts.

The constants come from :mod:`core.catalog`, each with a source; none is fitted to a benchmark.
"""

from __future__ import annotations

from bisect import bisect_left

import numpy as np

from core.catalog import (
    ACTIVATION_BYTES,
    ALLREDUCE_LATENCY_S,
    HOST_STEP_S,
    KERNEL_FLOOR_S,
    KERNELS_PER_LAYER,
    NVLINK_PROTOCOL_EFFICIENCY,
    PCIE_ALLREDUCE_SHARE_FEW,
    PCIE_ALLREDUCE_SHARE_MANY,
)
from core.catalog.engines import TRTLLM_BENCH_GRAPH_SIZES
from core.catalog.layer_kernels import (
    BLOCK_FP8_ATTENTION_INPUTS,
    BLOCK_FP8_LATENT_ATTENTION_INPUTS,
    BLOCK_FP8_MLP_INPUTS,
    DENSE_LAYER_KERNELS,
    LATENT_ATTENTION_EXTRA_KERNELS,
    LATENT_ATTENTION_GEMMS,
    MOE_LAYER_KERNELS,
    SHARED_EXPERT_KERNELS,
)
from core.catalog.routing_imbalance import ROUTING_IMBALANCE_FLOOR, ROUTING_IMBALANCE_SPREAD
from core.foundation.vector import ndim

# A layer's attention is counted at two kernel floors (rotary + cache write, then attention)
# until a measured kernel (core.catalog.attention_kernels) replaces them.
ATTENTION_KERNEL_FLOORS_S = 2 * KERNEL_FLOOR_S

# The terms in the order the waterfall adds them, each with the sentence a lab shows for it.
TERMS: dict[str, str] = {
    "engine_memory": "cards hold GiB, engines keep an activation workspace and give the cache "
    "90 % of what is left (TensorRT-LLM's workspace is the step trtllm-bench sized, a "
    "mixture's expert layer with every rank's tokens in it; TensorRT-LLM and vLLM to 0.6 also "
    "count what each card holds outside PyTorch's allocator: its CUDA context, libraries and "
    "collectives' buffers)",
    "measured_rates": "kernels run at the bandwidth and matmul rates measured on the card (the "
    "H100's measured shares of its peaks where none is published, and on a Hopper card with "
    "fewer SMs no more bandwidth per SM than the H200's), not 60 % and 50 % of its datasheet",
    "gemm_shapes": "a GEMM multiplies at the rate the engine's own kernel was measured at for "
    "its shape: a matrix split over eight cards, or fed fewer tokens, runs below the card's best "
    "rate, and some kernels never reach it (Marlin, vLLM's and SGLang's int4 kernel on an A100, "
    "multiplies a prompt well below a bf16 GEMM's rate; under trtllm-bench TensorRT-LLM's "
    "decode steps multiply the next CUDA-graph size up, padded with dummy requests); some "
    "multiply whole tiles of rows however few tokens a step has (SGLang's block-fp8 kernels 64 "
    "rows, Marlin 16 in an instruction that reaches two thirds of Hopper's rate), arithmetic "
    "an H20's weights stream cannot hide",
    "live_context": "a step reads the context its requests hold now (prompt + half the answer on "
    "average), not the longest they may reach",
    "stream_then_math": "a layer streams its weights and then multiplies: the two add up instead "
    "of hiding behind each other",
    "prefill_time": "new prompts take turns with decode steps, so prefill slows every running "
    "stream and caps throughput",
    "prefill_shape": "attention FLOPs grow with the prompt squared (a window layer's with the "
    "prompt times its window), at the rate the engine's "
    "prompt-attention kernel reaches (short prompts' below its best; a decode step's with its "
    "context, latent attention's past its cache read), and a prefill alone reads every weight "
    "once (under attention data parallelism on the one card holding it), once a pass where the "
    "release splits a long prompt into passes (vLLM V0 past 32K tokens: 512 tokens a pass, each "
    "a step with its fixed costs and, run eagerly, its dispatch)",
    "activation_traffic": "hidden states are written and read again between kernels",
    "tensor_parallel": "every layer pays two all-reduces across the node's cards (under DEP, "
    "every expert layer gathers all the cards' tokens and scatters the results back); on NVLink "
    "cards each takes what the engine's own collective was measured to take at its size",
    "fixed_overheads": "every kernel costs a few microseconds (an fp8 matmul more: it quantises "
    "its input first; an int4 one more still, unpacking its weights as it goes; an A100's "
    "matmuls and attention more than an H100's, as measured on each, and each engine's matmuls "
    "what its release was measured at, a little more for every input they walk; a shared "
    "expert's pass "
    "beside the routed experts where a second stream runs it), attention a little more for every request it holds (DeepSeek's latent "
    "attention what its engine's whole block was measured at, where it was), and every step some "
    "host time (hidden behind the GPU's where SGLang's overlap scheduler runs it; on vLLM and "
    "TensorRT-LLM's PyTorch backend more for every running request, which a step of hundreds "
    "waits on unless the scheduler runs a step ahead)",
    "expert_reads": "a mixture-of-experts step reads only the experts its batch touches, in "
    "grouped-GEMM kernels at their measured rates with a floor per layer (on AMD cards "
    "SGLang's are AMD's AITER kernels, timed on them, and vLLM's where ATOM or its AITER switch "
    "is on), and each kind of "
    "layer launches its own kernels (SGLang runs DeepSeek's shared expert inside the routed "
    "experts' kernel; vLLM's Marlin MoE before 0.8.3, which SGLang's 0.4 line ran for int4 "
    "experts, launches each GEMM once per expert on the card)",
    "routing_imbalance": "a router favours some experts, so the card holding the busiest ones "
    "multiplies more than its share of tokens and sets the step's pace",
    "checkpoint_formats": "a checkpoint keeps some tensors in bf16 whatever its other weights' "
    "format (its embeddings and output head, gpt-oss its attention too), and a step streams the "
    "output head but only looks up the embedding table",
    "server_overheads": "an engine's API server, eager prefill and a step queued ahead delay "
    "every first token",
    "finite_run": "a benchmark that sends a set number of requests never runs more at once, "
    "equal requests end in waves whose last runs only what is left, and its first prompts all "
    "arrive at once",
}
ALL_TERMS = frozenset(TERMS)
NO_TERMS = frozenset()


def activation_bytes_per_token(layers, hidden, query_heads, kv_heads, head_dim, intermediate,
                               experts_per_token, cards):  # fmt: skip
    """Bytes of hidden state one token writes and reads back between kernels, on each card.

    Notes
    -----
    Per layer: the residual stream through two norms and four projection inputs (about
    :math:`10 d`, whole on every card), the query/key/value and attention outputs written and
    read once each, and the MLP's gate, up and activated halves (:math:`6 d_{ff}` per expert
    used), those split across the cards:

    .. math:: a = 2 L (10 d + (2 d_{qkv} + 2 d_q + 6 k\\,d_{ff}) / c)
    """
    qkv = (query_heads + 2 * kv_heads) * head_dim
    split = 2 * qkv + 2 * query_heads * head_dim + 6 * intermediate * experts_per_token
    return ACTIVATION_BYTES * layers * (10 * hidden + split / cards)


def link_share(cards, over_pcie, fabric_share=NVLINK_PROTOCOL_EFFICIENCY):
    """Share of the link's line rate a collective reaches: the card's fabric's measured share
    (NVLink's, or Infinity Fabric's under RCCL), or PCIe's for its width.

    Notes
    -----
    :math:`\\eta = 370/450` over NVLink, RCCL's over Infinity Fabric (:math:`315.7/448` on the
    MI300X and MI325X, :math:`396.3/537.6` on the MI355X; :class:`core.catalog.cards.Gpu`'s
    ``link_collective_share``); over PCIe :math:`35/64` up to 4 cards, :math:`28/64` above.
    """
    pcie = np.where(np.asarray(cards) > 4, PCIE_ALLREDUCE_SHARE_MANY, PCIE_ALLREDUCE_SHARE_FEW)
    return np.where(over_pcie, pcie, fabric_share)


def allreduce_seconds(tokens, hidden, layers, cards, link_bytes_per_s,
                      share=NVLINK_PROTOCOL_EFFICIENCY, latency=ALLREDUCE_LATENCY_S):  # fmt: skip
    """Seconds a step of ``tokens`` tokens spends in tensor-parallel all-reduces.

    Notes
    -----
    Each layer all-reduces its attention output and its MLP output, :math:`2 T d` bytes each
    in bf16. A ring moves :math:`2 (c - 1) / c` of that over every link, at the share
    :math:`\\eta` of its line rate NCCL reaches (:func:`link_share`), after the engine's
    all-reduce kernel's fixed latency :math:`\\alpha`
    (:attr:`core.catalog.engine_versions.EngineVersion.allreduce_latency_s`):

    .. math:: t_{AR} = 2 L \\left(\\alpha + \\frac{2 (c-1)}{c} \\cdot \\frac{2 T d}{\\eta\\,\\beta}\\right)

    One card (c = 1) pays nothing. Where the engine's all-reduce was measured on the node's
    cards, the engine level reads that table instead (:mod:`core.engine_level.collectives`).
    """
    tokens = np.asarray(tokens, dtype=float)
    ring = 2.0 * (cards - 1) / cards
    bytes_each = ACTIVATION_BYTES * tokens * hidden
    one = latency + ring * bytes_each / (share * link_bytes_per_s)
    return np.where(np.asarray(cards) > 1, 2.0 * layers * one, 0.0)


def gather_scatter_seconds(tokens, hidden, expert_layers, cards, link_bytes_per_s,
                           gathered_bytes=ACTIVATION_BYTES, share=NVLINK_PROTOCOL_EFFICIENCY,
                           latency=ALLREDUCE_LATENCY_S):  # fmt: skip
    """Seconds a step of ``tokens`` tokens spends gathering them for the experts and back (DEP).

    Notes
    -----
    On one node, under attention data parallelism, each expert layer all-gathers every card's
    tokens (each card's experts see the whole step's batch) and reduce-scatters the results
    back to the cards that own the tokens: TensorRT-LLM's fused MoE does so unless multi-node
    NVLink or DeepEP gives it an all-to-all (``enable_alltoall``), as SGLang's DP attention
    and vLLM's default all2all backend do. Each card receives
    :math:`(c-1)/c` of the step's :math:`T` hidden states of :math:`d` numbers, gathered at
    :math:`g` bytes each (an NVFP4 MoE's input, quantised first on TensorRT-LLM; else bf16)
    and scattered back in bf16, after a fixed latency each way:

    .. math:: t_{AG+RS} = L_E \\left(2 \\alpha + \\frac{c - 1}{c} \\cdot
              \\frac{T d (g + 2)}{\\eta\\,\\beta}\\right)

    The latency is the engine's small all-reduce's (:data:`core.catalog.ALLREDUCE_LATENCY_S`
    unless given). Where NCCL's gathers were measured on the node's cards and the engine gathers
    with them, the engine level reads those tables instead (:mod:`core.engine_level.collectives`).
    """
    tokens = np.asarray(tokens, dtype=float)
    arriving = (cards - 1.0) / cards
    moved = tokens * hidden * (gathered_bytes + ACTIVATION_BYTES)
    seconds = 2.0 * latency + arriving * moved / (share * link_bytes_per_s)
    return np.where(np.asarray(cards) > 1, expert_layers * seconds, 0.0)


def graph_padded_batch(batch, limit, sizes=TRTLLM_BENCH_GRAPH_SIZES):
    r"""The batch a decode-only step multiplies when the engine replays CUDA graphs with padding.

    Notes
    -----
    The engine captures the sizes :math:`s_i` at most its limit :math:`L` (its batch limit and
    its step's tokens, whichever is smaller), and :math:`L` itself in place of the first size
    above it. A step of :math:`b \le L` requests runs the smallest captured size that holds it,
    the gap filled with a one-token dummy request; a larger step runs eagerly, unpadded:

    .. math:: \tilde b = \begin{cases} \min(\{s_i \ge b\} \cup \{L\}) & b \le L \\
              b & b > L \end{cases}

    (:data:`core.catalog.engines.TRTLLM_BENCH_GRAPH_SIZES`, the sizes NVIDIA's pages
    capture.) The dummy requests read one token of cache each, so only the step's matmuls and
    the tokens it moves grow.
    """
    if ndim(batch) == 0 and ndim(limit) == 0:  # one node's step: no arrays to build
        return graph_padded_scalar(float(batch), float(limit), sizes)
    sizes = np.asarray(sizes, dtype=float)
    batch = np.asarray(batch, dtype=float)
    above = sizes[np.minimum(np.searchsorted(sizes, batch), sizes.size - 1)]
    above = np.where(batch > sizes[-1], batch, above)
    padded = np.maximum(np.minimum(above, limit), batch)
    return np.where((batch > 0) & (batch <= limit), padded, batch)


def graph_padded_scalar(batch: float, limit: float, sizes=TRTLLM_BENCH_GRAPH_SIZES) -> float:
    """:func:`graph_padded_batch` of one batch and one limit, in plain floats (a step's hot path)."""
    if batch <= 0 or batch > limit:
        return batch
    index = bisect_left(sizes, batch)
    return max(min(sizes[index] if index < len(sizes) else batch, limit), batch)


def routing_imbalance(experts, expert_ranks):
    """How much longer the busiest card's expert matmuls take than an even split's.

    Notes
    -----
    With :math:`E` experts over :math:`R` expert-parallel cards (:math:`n = E / R` each), the
    busiest card's share of the routed tokens grows with the number of cards it is the
    maximum of and shrinks as more experts average out on one card:

    .. math:: m = 1 + m_0 + \\kappa \\sqrt{2 \\ln R \\,/\\, n}

    :math:`m_0` is the skew a grouped GEMM pays even on one card (a few hot experts' tiles);
    both constants are fitted to measured kernel tables
    (:data:`core.catalog.routing_imbalance.ROUTING_IMBALANCE_FLOOR`). A dense model
    (``E`` <= 1) pays nothing.
    """
    ranks = np.maximum(np.asarray(expert_ranks, dtype=float), 1.0)
    per_card = np.maximum(np.divide(experts, ranks), 1.0)
    skew = ROUTING_IMBALANCE_FLOOR + ROUTING_IMBALANCE_SPREAD * np.sqrt(
        2.0 * np.log(ranks) / per_card
    )
    return np.where(np.asarray(experts) > 1, 1.0 + skew, 1.0)


def kv_replication(kv_heads, cards, latent_attention):
    """How many copies of each cached token a tensor-parallel node keeps.

    Notes
    -----
    Tensor parallelism splits the KV heads over the cards; with fewer KV heads than cards each
    head is copied onto :math:`c / H_{kv}` cards, and latent attention's one latent per token
    is kept whole on every card:

    .. math:: r = \\max(1, c / H_{kv}) \text{ (GQA)}, \\quad r = c \text{ (MLA)}
    """
    grouped = np.maximum(1.0, np.divide(cards, np.maximum(kv_heads, 1)))
    return np.where(np.asarray(latent_attention, dtype=bool), cards, grouped)


def chunk_local_mean(prompt, answer, chunk):
    """Mean tokens a chunked-attention layer attends to while a request writes its answer.

    Notes
    -----
    Position :math:`p` sees the :math:`p \bmod w` tokens before it in its chunk. With
    :math:`F(x) = \\lfloor x/w \rfloor w^2/2 + (x \bmod w)^2/2` the integral of that sawtooth,
    the mean over the answer is :math:`(F(P + A) - F(P)) / A`.
    """
    chunk = np.maximum(np.asarray(chunk, dtype=float), 1.0)

    def integral(x):
        return np.floor(x / chunk) * np.square(chunk) / 2 + np.square(np.mod(x, chunk)) / 2

    answer = np.maximum(np.asarray(answer, dtype=float), 1.0)
    return (integral(prompt + answer) - integral(prompt)) / answer


def chunked_read_share(layers, window_layers, chunk, prompt, answer, chunked):
    """Share of the averaged cache a decode step of a chunked-attention model really reads.

    Notes
    -----
    The cache per token is averaged over a seat's length :math:`S = P + A` as memory holds it;
    a step reads :math:`\bar c = P + A/2` tokens in each full layer and :math:`\bar\\ell`
    (:func:`chunk_local_mean`) in each chunked one:

    .. math:: s = \frac{(L - L_w) \bar c + L_w \bar\\ell}
              {\\left((L - L_w) + L_w \\min(S, w)/S\right) \bar c}

    Models without chunked layers read what they hold (:math:`s = 1`).
    """
    seat = np.maximum(np.add(prompt, answer), 1.0)
    context = np.add(prompt, np.divide(answer, 2.0))
    full = np.subtract(layers, window_layers)
    held = (full + window_layers * np.minimum(seat, np.maximum(chunk, 1.0)) / seat) * context
    read = full * context + window_layers * chunk_local_mean(prompt, answer, chunk)
    share = read / np.maximum(held, 1e-30)
    return np.where(np.asarray(chunked, dtype=bool) & (np.asarray(window_layers) > 0), share, 1.0)


def layer_kernels(layers, expert_layers, latent_attention, shared_experts, block_fp8=False):
    r"""Kernels one forward pass launches, counted by the kind of each layer.

    ``shared_experts`` counts the shared experts that run as their own MLP (none where the
    engine fuses them into the routed experts' kernel).

    Notes
    -----
    .. math:: n = 9 L - (3 - 2) L_E + 6 L\,[MLA] + 3 L_E\,s + [fp8_{block}]\,q

    A dense layer launches 9; an expert layer swaps its MLP's 3 for a router and a top-k (its
    grouped GEMMs' launches are in the expert kernel's floor); latent attention adds 6; a
    shared expert adds its own 3; block-scaled fp8 adds one quantise kernel per GEMM input,
    :func:`block_fp8_quantise_kernels` (:mod:`core.catalog.kernels`).
    """
    latent = np.asarray(latent_attention, dtype=float)
    quantise = block_fp8_quantise_kernels(layers, expert_layers, latent, shared_experts)
    return (
        layers * DENSE_LAYER_KERNELS
        - np.multiply(expert_layers, DENSE_LAYER_KERNELS - MOE_LAYER_KERNELS)
        + np.multiply(layers, latent) * LATENT_ATTENTION_EXTRA_KERNELS
        + np.multiply(expert_layers, shared_experts) * SHARED_EXPERT_KERNELS
        + np.asarray(block_fp8, dtype=float) * quantise
    )


def block_fp8_quantise_kernels(layers, expert_layers, latent_attention, shared_experts):
    r"""Quantise kernels block-scaled fp8 adds to a forward pass: one per GEMM input.

    Notes
    -----
    .. math:: q = L\,(a + 2) + 2 L_E\,s, \quad a = 3\ [MLA],\ 2 \text{ otherwise}

    Attention quantises its GEMMs' inputs (QKV and out; latent attention's fused q_a/kv_a, q_b
    and o_proj), the MLP its two (gate-up and down, or the routed experts' input and
    activation), and a shared expert that runs on its own its two.
    """
    attention = np.where(
        latent_attention, BLOCK_FP8_LATENT_ATTENTION_INPUTS, BLOCK_FP8_ATTENTION_INPUTS
    )
    return np.multiply(layers, attention + BLOCK_FP8_MLP_INPUTS) + np.multiply(
        expert_layers, shared_experts
    ) * float(BLOCK_FP8_MLP_INPUTS)


def attention_gemms(layers, latent_attention):
    r"""The attention projections among :func:`dense_gemms`: QKV and out in every layer, latent
    attention's three instead (q_a with kv_a, q_b, o_proj: ``LATENT_ATTENTION_GEMMS``).

    Notes
    -----
    .. math:: g_{attn} = 2 L + L\,[MLA]
    """
    per_layer = np.where(np.asarray(latent_attention, dtype=bool), LATENT_ATTENTION_GEMMS, 2.0)
    return per_layer * np.asarray(layers, dtype=float)


def mlp_gemms(layers, expert_layers, shared_experts):
    r"""The MLP GEMMs among :func:`dense_gemms`, gate-up and down of a dense layer and of a shared
    expert (the routed experts run their own kernels): :math:`2 (L - L_E) + 2 L_E\,s`."""
    return 2.0 * np.subtract(layers, expert_layers) + 2.0 * np.multiply(
        expert_layers, shared_experts
    )


def dense_gemms(layers, expert_layers, latent_attention, shared_experts):
    r"""GEMMs in the weights' format a forward pass runs outside the routed experts,
    :func:`attention_gemms` and :func:`mlp_gemms` (a router is a small bf16 GEMM, among the
    kernels): :math:`4 L - 2 L_E + L\,[MLA] + 2 L_E\,s`."""
    mlps = mlp_gemms(layers, expert_layers, shared_experts)
    return attention_gemms(layers, latent_attention) + mlps


def fixed_step_seconds(layers, host_step_s=HOST_STEP_S):
    """Seconds every step pays whatever its size: kernel floors per layer plus host time.

    Notes
    -----
    .. math:: t_{fixed} = L \\cdot k \\cdot t_{kernel} + t_{host}

    with 9 kernels a layer at 3 µs each and 0.86 ms of host time a step: about 1.7 ms for
    a 32-layer model, 3 ms for 80 layers.
    """
    return layers * KERNELS_PER_LAYER * KERNEL_FLOOR_S + host_step_s
