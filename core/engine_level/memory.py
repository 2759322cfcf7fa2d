"""What a node's memory holds before its cache, and the room the engine gives the cache.

:class:`NodeMemory` is a part of :class:`core.engine_level.node.Node`: the weights each card
keeps (shared weights on every card under data-parallel attention) and the KV room each
engine's own rule leaves after them and after the activations of the largest step it profiles.
The functions are the terms it is built from; each takes scalars or numpy arrays and broadcasts.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from core.catalog import (
    ACTIVATION_BYTES,
    ENGINE_KV_FRACTION,
    ENGINE_MAX_NUM_TOKENS,
    GB,
    GIB,
    OUTSIDE_ALLOCATOR_BYTES_ONE_CARD,
    OUTSIDE_ALLOCATOR_BYTES_SHARDED,
)
from core.foundation.vector import any_true, ndim
from core.whiteboard.memory import kv_budget_bytes

MIB = 2**20


def engine_memory_bytes(cards, card_memory_bytes):
    """Memory of ``cards`` cards as CUDA reports it: each datasheet 'GB' is a GiB.

    Notes
    -----
    .. math:: M_{node} = c \\cdot M_{GB} \\cdot 2^{30} / 10^9

    An "80 GB" H100 holds about 85.9e9 bytes, 7 % more than 80e9.
    """
    return cards * card_memory_bytes / GB * GIB


def activation_workspace_bytes(hidden, intermediate, qkv_width, cards,
                               tokens=ENGINE_MAX_NUM_TOKENS):  # fmt: skip
    """Memory one card keeps for the activations of the largest step the engine may run.

    Notes
    -----
    A step of :math:`T_{max}` tokens (``tokens``: 8,192 by TensorRT-LLM's default, or what
    trtllm-bench sized, :func:`core.engine_level.bench_sizing.trtllm_bench_settings`) holds the
    residual stream and its normed copy, the query/key/value projections and the MLP's gate and
    up halves, in bf16, the last two split across the cards:

    .. math:: A = T_{max} \\cdot 2 \\cdot (2 d + (2 d_{ff} + d_{qkv}) / c)
    """
    per_token = 2 * hidden + (2 * intermediate + qkv_width) / cards
    return np.multiply(tokens, ACTIVATION_BYTES * per_token)


def expert_workspace_bytes(tokens, gathered_ranks, experts_per_token, hidden, slice_width,
                           gathered_bytes=ACTIVATION_BYTES):  # fmt: skip
    """Memory one card's fused expert layer takes for a step of ``tokens`` tokens per rank.

    Notes
    -----
    Under data-parallel attention each expert layer first gathers every rank's tokens,
    :math:`R = g\\,T` of them over :math:`g` ranks (TensorRT-LLM's fused MoE splits them into
    chunks only above ``moe_max_num_tokens``, whose default is ``max_num_tokens`` times the
    data-parallel ranks: ``fused_moe_cutlass.py``), and routes each to :math:`k` experts. Its
    CUTLASS kernel keeps, per routed row, the permuted input and the second GEMM's bf16 result
    in one shared region and the first GEMM's gated bf16 result (:math:`2 w` numbers for a
    slice :math:`w` of the expert's intermediate width) or the second's in another
    (``moe_kernels.cu`` ``getWorkspaceDeviceBufferSizes``: ``overlapped_gemm1_gemm2_inputs``
    and ``_outputs``); the layer holds the gathered input at :math:`g_b` bytes a number and its
    bf16 output besides:

    .. math:: W_E = k R \\cdot 2 \\left(d + \\max(2 w, d)\\right) + R\\,d\\,(g_b + 2)

    The routing indices and scales (a few bytes a row) are left out.
    """
    gathered = np.multiply(tokens, gathered_ranks)
    per_row = ACTIVATION_BYTES * (hidden + np.maximum(2.0 * np.asarray(slice_width), hidden))
    kernel = gathered * experts_per_token * per_row
    return kernel + gathered * hidden * (np.add(gathered_bytes, ACTIVATION_BYTES))


def outside_allocator_bytes(cards):
    r"""Memory one card's process holds outside PyTorch's allocator, as the engines profile it.

    Notes
    -----
    The CUDA context, the libraries' workspaces and, on a node of several cards, the
    collectives' buffers: measured by vLLM's memory profile on an H100 at 1.79 GiB on one card
    and 3.58 GiB on each of two (``OUTSIDE_ALLOCATOR_BYTES_*``); wider nodes take the two-card
    figure.

    .. math:: N = N_1 \text{ if } c = 1 \text{ else } N_2
    """
    return np.where(
        np.asarray(cards) > 1, OUTSIDE_ALLOCATOR_BYTES_SHARDED, OUTSIDE_ALLOCATOR_BYTES_ONE_CARD
    )


def engine_kv_budget_bytes(node_memory_bytes, weight_bytes, workspace_bytes,
                           fraction=ENGINE_KV_FRACTION):  # fmt: skip
    """KV room an engine allocates: its share (90 % unless set) of the memory left after weights
    and workspace (TensorRT-LLM's free_gpu_memory_fraction).

    Notes
    -----
    .. math:: R = f \\cdot \\max(0,\\ M_{node} - W - c A), \\quad f = 0.9

    ``workspace_bytes`` is the whole node's (every card's workspace).
    """
    return fraction * np.maximum(0.0, node_memory_bytes - weight_bytes - workspace_bytes)


def engine_kv_share_of_total(node_memory_bytes, weight_bytes, workspace_bytes,
                             fraction=ENGINE_KV_FRACTION):  # fmt: skip
    r"""KV room when the engine's share is of the whole memory, weights inside it (vLLM's
    gpu_memory_utilization).

    Notes
    -----
    .. math:: R = \max(0,\ f M_{node} - W - c A), \quad f = 0.9
    """
    return np.maximum(0.0, fraction * node_memory_bytes - weight_bytes - workspace_bytes)


class NodeMemory:
    """The memory of a :class:`~core.engine_level.node.Node` (it holds the fields)."""

    def engine_weight_bytes(self, terms):
        """Weight bytes the node holds: bf16 tensors at 2 bytes, shared weights on every DEP card."""
        terms = frozenset(terms)
        return self._remember(("weights", terms), lambda: self._weight_bytes(terms))

    def _weight_bytes(self, terms):
        weights = self.weight_bytes
        if "checkpoint_formats" in terms:
            weights = weights + self.bf16_extra_bytes
        if not self.any_data_parallel:
            return weights
        shared = weights - self._routed_bytes
        return weights + np.where(self.data_parallel_attention, (self.cards - 1.0) * shared, 0.0)

    def streamed_weight_bytes(self, terms):
        """:meth:`engine_weight_bytes` less what a step never streams: the input embedding
        table (every card's copy under DEP), where checkpoint formats are priced; remembered for
        each set of terms (every step asks)."""
        terms = frozenset(terms)
        return self._remember(("streamed", terms), lambda: self._streamed_bytes(terms))

    def _streamed_bytes(self, terms):
        weights = self.engine_weight_bytes(terms)
        if "checkpoint_formats" not in terms or not any_true(self.unstreamed_bytes):
            return weights
        copies = np.where(self.data_parallel_attention, self.cards, 1.0)
        return weights - np.multiply(self.unstreamed_bytes, copies)

    @cached_property
    def _routed_bytes(self):
        """Bytes of the routed experts (all of them), in the chosen format."""
        per_expert, _ = self.expert_geometry
        return np.multiply(self.experts, per_expert) * (self.weight_bytes / self.params)

    def kv_budget(self, terms):
        """(node memory, KV room) in bytes: the whiteboard's or the engine's accounting."""
        if "engine_memory" in terms:
            memory = engine_memory_bytes(self.cards, self.card_memory_bytes)
            weights = self.engine_weight_bytes(terms)
            # what the engine's profile counts before it sizes the cache: the activations of
            # its largest step and, where the release counts it, what each process holds
            # outside PyTorch's allocator (SGLang's static reserve, a share of the whole
            # memory, is left to hold the latter)
            outside = np.where(
                self.counts_outside_allocator, outside_allocator_bytes(self.cards), 0.0
            )
            workspace = self.cards * (self._workspace_bytes + outside)
            free = engine_kv_budget_bytes(memory, weights, workspace, self.kv_fraction)
            total = engine_kv_share_of_total(memory, weights, workspace, self.kv_fraction)
            static = np.maximum(0.0, memory - self.cards * self.kv_reserve_bytes - weights)
            rule = np.asarray(self.kv_rule)
            return memory, np.where(rule == 0, free, np.where(rule == 1, total, static))
        memory = self.cards * self.card_memory_bytes
        return memory, kv_budget_bytes(self.cards, self.card_memory_bytes, self.weight_bytes)

    @cached_property
    def _workspace_bytes(self):
        """One card's activations at the step the engine profiles before sizing its cache: the
        layers' own and, where the engine's profile holds it, the fused expert layer's."""
        qkv = (self.query_heads + 2 * self.kv_heads) * self.head_dim
        layers = activation_workspace_bytes(
            self.hidden, self.intermediate, qkv, self.cards, self.profile_tokens
        )
        if not self.has_experts or not any_true(self.expert_workspace):
            return layers
        slice_width = np.multiply(self.intermediate, self.expert_ranks) / self.cards
        experts = expert_workspace_bytes(
            self.profile_tokens, self._request_ranks, self.experts_per_token, self.hidden,
            slice_width, self.gathered_bytes,
        )  # fmt: skip
        return layers + np.where(
            np.asarray(self.expert_workspace) & (np.asarray(self.experts) > 1), experts, 0.0
        )


def sglang_reserve_bytes(card_memory_bytes, cards):
    """Memory per card SGLang keeps outside its static pool (weights and KV), by its own rule.

    Notes
    -----
    .. math:: R = 512 + 1.5 \\max(C, 2048) + 2 G + 1024 \\cdot TP / 8 \\ \\text{MiB}

    with the chunked-prefill size :math:`C` and the CUDA-graph batch :math:`G` that SGLang picks
    by the card's memory, and at least 10 GiB on cards over 60 GB.
    """
    if ndim(card_memory_bytes) == 0 and ndim(cards) == 0:
        return _sglang_reserve_one(float(card_memory_bytes) / GB, float(cards)) * MIB
    reserve = np.vectorize(_sglang_reserve_one, otypes=[float])(
        np.asarray(card_memory_bytes, dtype=float) / GB, np.asarray(cards, dtype=float)
    )
    return reserve * MIB


def _sglang_reserve_one(gigabytes: float, cards: float) -> float:
    """SGLang's reserve in MiB for one card size and tensor-parallel width."""
    small_tp = cards < 4
    if gigabytes < 35:
        chunk, graph = 2048, (8 if gigabytes < 20 else (24 if small_tp else 80))
    elif gigabytes < 60:
        chunk, graph = 4096, (32 if small_tp else 160)
    elif gigabytes < 160:
        chunk, graph = 8192, (256 if small_tp else 512)
    else:
        chunk, graph = 16384, 512
    reserve = 512 + 1.5 * max(chunk, 2048) + 2 * graph + 1024 * cards / 8
    return max(reserve, 10 * 1024) if gigabytes > 60 else reserve
