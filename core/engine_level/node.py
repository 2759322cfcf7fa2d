"""The engine level of the capacity model: one node priced the way real engines measure it.

:class:`Node` prices a decode step and a prefill on one node (model, cards, storage, layout,
engine), with each physical term of :mod:`core.engine_level.terms` switched on or off by name;
:mod:`core.engine_level.load` turns those prices and a load into throughput, time between
tokens, time to first token and request time. With no term on the prices are the
whiteboard's; with every term on they are ``realism="engine"`` (:mod:`core.engine_level.pool`
builds the pool's figures). Everything broadcasts over numpy arrays, so a sweep is one call.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from math import ceil

import numpy as np

from core.catalog import (
    BANDWIDTH_EFFICIENCY,
    ENGINE_KV_FRACTION,
    ENGINE_MAX_NUM_TOKENS,
    NVLINK_PROTOCOL_EFFICIENCY,
    PREFILL_EFFICIENCY,
)
from core.engine_level import terms as physical
from core.engine_level.collectives import Collectives
from core.engine_level.expert_layers import ExpertLayers
from core.engine_level.fixed_costs import FixedCosts
from core.engine_level.gemm_shapes import GemmShapes
from core.engine_level.memory import NodeMemory
from core.engine_level.prompt_attention import PromptAttention
from core.engine_level.ranks import RankWaits
from core.foundation.vector import any_true, ndim


@dataclass(frozen=True)
class Node(
    Collectives, ExpertLayers, FixedCosts, GemmShapes, NodeMemory, PromptAttention, RankWaits
):
    """What prices one step on one tensor-parallel node (scalars or broadcastable arrays)."""

    layers: object
    kv_heads: object
    head_dim: object
    query_heads: object
    hidden: object
    intermediate: object
    params: object
    active_params: object
    experts: object
    experts_per_token: object
    cards: object
    card_memory_bytes: object
    weight_bytes: object
    kv_bytes_per_token: object
    peak_bandwidth: object
    peak_flops: object
    measured_bandwidth: object
    measured_flops: object
    measured_bf16_flops: object
    link_bytes_per_s: object
    # expert layers priced from kernel tables (core.catalog.kernels.ExpertKernel)
    expert_fixed_s: object = 0.0
    expert_bandwidth_share: object = 1.0
    expert_compute_share: object = 1.0
    expert_padding_rows: object = 0.0
    # tokens one launch of a looping expert kernel covers per expert (0: one launch for all)
    expert_launch_tokens: object = 0.0
    # layer types that launch more kernels than a dense layer: latent attention, shared experts
    latent_attention: object = False
    shared_experts: object = 0
    # the engine runs the shared expert inside the routed experts' fused kernel (its own
    # kernels and GEMM floors are not launched; its weights are still read)
    shared_expert_fused: object = False
    # the most tokens a decode step runs that shared expert on a second stream (0: never)
    shared_stream_tokens: object = 0.0
    block_fp8: object = False
    # each dense GEMM's measured floor (core.catalog.dense_gemms), in place of the kernel floor;
    # decode attention's floor per layer and cost per request, and latent attention's whole
    # block's where its engine's module was measured (core.catalog.attention_kernels; NaN: none)
    gemm_floor_s: object = physical.KERNEL_FLOOR_S
    attention_gemm_floor_s: object = None  # the attention projections' (None: gemm_floor_s)
    # and what each GEMM pays for every input (its inner dimension) its kernel walks
    gemm_input_cost_s: object = 0.0
    attention_gemm_input_cost_s: object = None  # the projections' (None: gemm_input_cost_s)
    # what of a per-tensor fp8 GEMM's floor its input's quantiser takes where the release fuses
    # it into the kernel before (core.catalog.dense_gemms.static_quant_s; 0: not fused)
    fused_quant_s: object = 0.0
    attention_fused_quant_s: object = 0.0  # the attention projections' (their QKV GEMM's)
    attention_floor_s: object = physical.ATTENTION_KERNEL_FLOORS_S
    attention_per_request_s: object = 0.0
    latent_block_floor_s: object = float("nan")
    latent_block_per_request_s: object = 0.0
    attention_flops_per_token: object = 0.0  # decode attention's FLOPs a context token, a layer
    prefill_head_width: object = None  # a prompt's attention width per head (None: head_dim)
    # the prompt-attention kernel's share of the bf16 rate, and keys' work a token beyond its own
    prefill_attention_share: object = 1.0
    prefill_attention_keys: object = 0.0
    bf16_extra_bytes: object = 0.0  # bytes the checkpoint keeps in bf16 beyond its format's
    unstreamed_bytes: object = 0.0  # held but never streamed by a step: the embedding table
    # the engine's host time per step and per request (server, eager prefill), and whether its
    # scheduler prepares step n+1 during step n (core.catalog.engine_versions)
    host_step_s: object = None
    host_overlapped: object = False
    request_overhead_s: object = 0.0
    # where measured apart (SGLang's): each kernel an eager prompt pass launches, and the
    # server's own path a first token takes beside the cards (core.catalog.eager_dispatch)
    eager_launch_s: object = 0.0
    server_path_s: object = 0.0
    # the tokens one forward pass of a lone prompt carries (0: the whole prompt in one pass), and
    # whether the release runs those passes eagerly (core.catalog.prefill_chunking)
    prefill_chunk_tokens: object = 0.0
    eager_prompt_steps: object = False
    # a new prompt's prefill runs in a step of its own, the decodes waiting (core.catalog.engines)
    separate_prefill: object = False
    # the scheduler queues step n+1 during step n (the release's overlap scheduler): a new prompt
    # joins the step after that, and the host's work per request runs beside the GPU's step
    schedules_ahead: object = False
    # decode steps between the scheduler's polls for new requests (SGLang's recv interval)
    poll_interval: object = 1.0
    # host work each running request adds to its rank's step
    host_request_s: object = 0.0
    # the latency of one small all-reduce with the engine's kernel
    allreduce_latency_s: object = physical.ALLREDUCE_LATENCY_S
    # the engine's KV sizing rule (engine_level.kernels.KV_RULES), SGLang's reserve, its batch cap
    kv_rule: object = 0.0
    kv_reserve_bytes: object = 0.0
    # the share of memory the engine gives weights and cache (vLLM, SGLang) or the cache of what
    # is left (TensorRT-LLM): its command's, or the release's own
    kv_fraction: object = ENGINE_KV_FRACTION
    # whether the release's memory profile counts what each card holds outside PyTorch's
    # allocator before it sizes the cache (memory.outside_allocator_bytes)
    counts_outside_allocator: object = True
    max_running: object = 2048.0
    # cache stored per token over the windows' need (TensorRT-LLM keeps window layers whole)
    kv_stored_share: object = 1.0
    # the batch trtllm-bench sizes a TensorRT-LLM engine for (inf: the tool leaves it alone)
    bench_batch: object = float("inf")
    # tokens one rank's step may carry, which the engine profiles before sizing its cache, and
    # whether that profile holds the fused expert layer's workspace (core.engine_level.memory)
    profile_tokens: object = float(ENGINE_MAX_NUM_TOKENS)
    expert_workspace: object = False
    # a benchmark's decode-only steps run padded to the captured CUDA-graph sizes (TensorRT-LLM's
    # PyTorch backend under trtllm-bench: core.catalog.engines.TRTLLM_BENCH_GRAPH_SIZES)
    graph_padding: object = False
    # share of the averaged cache a decode step reads (chunked attention reads its chunk only)
    read_share: object = 1.0
    # DEP: attention data-parallel (shared weights whole, own cache per card), each expert
    # layer gathering every card's tokens at gathered_bytes a number and scattering them back
    data_parallel_attention: object = False
    gathered_bytes: object = 2.0
    # cards the routed experts are spread over (1 under plain tensor parallelism)
    expert_ranks: object = 1.0
    # KV offload: the reused prefix's share copied back to HBM first, that copy's bytes/s a card
    prefix_offloaded_share: object = 0.0
    prefix_tier_bytes_per_s: object = float("nan")
    # cards linked over PCIe through the host (their collectives reach PCIe's measured share)
    link_over_pcie: object = False
    # the share of the line rate an all-reduce reaches over the card's own fabric
    link_fabric_share: object = NVLINK_PROTOCOL_EFFICIENCY
    # hybrid models: layers whose attention grows with the context (None: every layer's does);
    # of them, those that attend a sliding window (or, chunked, a chunk) of attention_window
    attention_layers: object = None
    window_layers: object = 0.0
    attention_window: object = 0.0
    window_chunked: object = False
    # the measured GEMM table of the card's family and format (core.catalog.gemm_tables; -1 none)
    gemm_table: object = -1
    gemm_tile_rows: object = 0.0  # rows each dense GEMM multiplies at least (gemm_tiles; 0 none)
    # the output head's bf16 GEMM on one card: its parameters and the rows it multiplies at least
    head_params: object = 0.0
    head_tile_rows: object = 0.0
    # collectives timed from measured tables (core.catalog.collective_tables; -1: the line):
    # DEP's gathers from NCCL's, TP's all-reduces from the engine's own
    gather_table: object = -1
    allreduce_table: object = -1

    # Fixed for the node, asked for at every step of the fixed-point loops below.
    @cached_property
    def has_experts(self) -> bool:
        """Whether any of these nodes serves a mixture of experts."""
        return bool(any_true(np.asarray(self.experts) > 1))

    @cached_property
    def spans_cards(self) -> bool:
        """Whether any of these nodes splits its model over several cards (so all-reduces)."""
        return bool(any_true(np.asarray(self.cards) > 1))

    def _remember(self, key, compute):
        """A figure computed once per node under ``key`` (one that depends on the terms but not
        on the batch, or one step's or prefill's of plain numbers: :meth:`_priced_once`)."""
        memo = self.__dict__.setdefault("_memo", {})
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    @cached_property
    def _link_share(self):
        """:func:`core.engine_level.terms.link_share` of this node's cards and link."""
        return physical.link_share(self.cards, self.link_over_pcie, self.link_fabric_share)

    @cached_property
    def activation_bytes_per_token(self):
        """:func:`core.engine_level.terms.activation_bytes_per_token` of this node."""
        return physical.activation_bytes_per_token(
            self.layers, self.hidden, self.query_heads, self.kv_heads, self.head_dim,
            self.intermediate, self.experts_per_token, self.cards,
        )  # fmt: skip

    def rates(self, terms):
        """(bytes/s, FLOP/s, attention FLOP/s) one card reaches under ``terms``."""
        if "measured_rates" in terms:
            return self.measured_bandwidth, self.measured_flops, self.measured_bf16_flops
        flops = self.peak_flops * PREFILL_EFFICIENCY
        return self.peak_bandwidth * BANDWIDTH_EFFICIENCY, flops, flops

    def _per_token(self, tokens, terms, latency=True):
        """Seconds that grow with tokens run through the layers: activations and all-reduces.

        Each part of the line is a fixed latency plus a time per token, so the line is computed
        once per node and terms; tokens riding in a step (``latency`` False) add only the time
        per token. Collectives timed from measured tables are read at the step's size instead
        (:class:`~core.engine_level.collectives.Collectives`).
        """
        terms = frozenset(terms)

        def line():
            bandwidth = self.rates(terms)[0]
            base = self._per_token_seconds(0.0, terms, bandwidth)
            return base, self._per_token_seconds(1.0, terms, bandwidth) - base

        base, slope = self._remember(("per token", terms), line)
        seconds = (base if latency else 0.0) + tokens * slope  # np.multiply's bits, faster
        return seconds + self.tabled_collectives(tokens, terms, latency)

    def _per_token_seconds(self, tokens, terms, bandwidth):
        extra = 0.0
        if "activation_traffic" in terms:
            extra = extra + np.multiply(tokens, self.activation_bytes_per_token) / bandwidth
        return extra + self.collective_line(tokens, terms)

    def _priced_once(self, price, *arguments):
        """``price(*arguments)`` remembered per node where every argument but the terms (the
        third) is a plain number or None: a load's loops ask for the full node's step and a
        prompt's prefill more than once, and hand them on through no common caller."""
        numbers = arguments[:2] + arguments[3:]
        for value in numbers:  # a loop, not all(): the load's loops ask this at every step
            if value is not None and not isinstance(value, (float, int)):
                return price(*arguments)
        key = (price.__name__, *numbers, frozenset(arguments[2]))
        return self._remember(key, lambda: price(*arguments))

    def step_s(self, batch, context_tokens, terms, requests=None):
        """:meth:`_step_s`, priced once per node for plain numbers (:meth:`_priced_once`)."""
        return self._priced_once(self._step_s, batch, context_tokens, terms, requests)

    def prefill_s(self, miss_tokens, hit_tokens, terms, alone):
        """:meth:`_prefill_s`, priced once per node for plain numbers (:meth:`_priced_once`)."""
        return self._priced_once(self._prefill_s, miss_tokens, hit_tokens, terms, alone)

    def _step_s(self, batch, context_tokens, terms, requests=None):
        r"""Seconds of one decode step writing a token for each of ``batch`` requests.

        Notes
        -----
        Whiteboard: :math:`\max((W + K)/(c B \eta_B), 2 P s / (c F \eta_F))`. With
        ``stream_then_math`` the weight stream, the arithmetic and the cache read add; with
        ``expert_reads`` a mixture's routed experts take :meth:`expert_seconds`; with
        ``prefill_shape`` the attention's math over the cache, :math:`2 h (d_{qk} + d_v)` FLOPs
        a layer for every context token, adds what its cache read does not hide (latent
        attention's absorbed heads: :math:`h = 128`, :math:`d_{qk} = 576`, :math:`d_v = 512`);
        with ``gemm_shapes``, where a benchmark's engine pads its CUDA graphs
        (:meth:`_graph_batch`), a decode-only step multiplies and moves the padded batch's
        tokens while its cache and attention read the requests' own; the other terms add their
        own seconds (a decode-only step's shared experts hide their floors beside the routed
        ones where the release streams them: :meth:`shared_stream_s`).
        """
        rates = self.rates(terms)
        bandwidth, flops, attention_flops = rates
        weights, active = self.streamed_weight_bytes(terms), self.active_params
        kernels = "expert_reads" in terms and self.has_experts  # a dense model reads all of W
        if kernels:
            weights, active = self._shared_part(terms)
        cache = np.multiply(batch, context_tokens) * self.kv_bytes_per_token
        if "live_context" in terms:
            cache = cache * self.read_share
        tokens, routed = batch, 0.0  # the step's own tokens: its cache and attention read theirs
        decode_only = requests is None
        if decode_only:
            requests = batch
            # a decode-only step's matmuls and moved tokens run its CUDA graph's batch (a step
            # given its requests apart carries a prompt's chunk and runs eagerly, unpadded)
            if "gemm_shapes" in terms and self._graph_plan[2]:
                batch = self._graph_batch(batch)
        math = 2.0 * active * batch / (self.cards * flops) * self._gemm_penalty(batch, terms)
        if "stream_then_math" in terms:
            # the sum: the GEMM tables read a little closer at a 1.25-norm below 1,024 tokens, but
            # priced so both sets read worse (issue 37's 47th round, bench/gemm_overlap_fit.py)
            step = (weights + cache) / (self.cards * bandwidth) + math
        else:
            step = np.maximum((weights + cache) / (self.cards * bandwidth), math)
        step = step + self._tile_shortfall(batch, weights, math, rates, terms)  # whole tiles
        if "prefill_shape" in terms:  # attention's own math, where its cache read cannot hide it
            per_token = self.attention_flops_per_token * self._attention_layers
            reads = np.multiply(tokens, context_tokens) * per_token
            reads = reads * (self.read_share if "live_context" in terms else 1.0)
            stream = cache / (self.cards * bandwidth)
            step = step + np.maximum(reads / (self.cards * attention_flops) - stream, 0.0)
        if kernels:
            # the padding is one dummy request repeated: its copies all route to the same few
            # experts, adding their rows' arithmetic but streaming no expert the batch does not
            routed = self.expert_seconds(tokens, terms)
            step = step + routed
            if batch is not tokens:  # the dummies' arithmetic, as tokens riding in the step
                step = step + np.subtract(batch, tokens) * self._riding_expert_s(terms)
        step = step + self._per_token(batch, terms)
        if "fixed_overheads" in terms:
            step = step + self.fixed_seconds(terms, step) + self._attention_requests_s(requests)
            step = step - (self.shared_stream_s(batch, routed) if decode_only else 0.0)
            step = step + self.host_requests_s(requests, step)
        return step

    def _prefill_s(self, miss_tokens, hit_tokens, terms, alone):
        """Seconds to prefill ``miss_tokens`` after ``hit_tokens`` found in the prefix cache.

        ``alone``: the prefill runs by itself and pays its own weight read, fixed costs and
        collectives' latency (under attention data parallelism its attention side on one card,
        :meth:`prefill_waits`); otherwise it rides in a step whose decodes pay those.
        """
        bandwidth, flops, attention_flops = self.rates(terms)
        kernels = "expert_reads" in terms and self.has_experts
        weights, active = self._shared_part(terms) if kernels else (
            self.streamed_weight_bytes(terms), self.active_params)  # fmt: skip
        waits = self.prefill_waits(terms, alone) if kernels else 1.0  # the experts stay spread
        passes = self.prompt_passes(miss_tokens) if alone else 1.0
        math = 2.0 * active * miss_tokens / (self.cards * flops) * waits
        math = math * self._gemm_penalty(miss_tokens, terms)
        if kernels:
            math = math + self.pass_expert_seconds(miss_tokens, passes, terms, alone)
        if "prefill_shape" in terms:
            attention = self.prompt_attention_s(miss_tokens, hit_tokens, attention_flops)
            math = math + attention * waits
            if alone:  # each forward pass of the prompt reads every weight once
                stream = weights / (self.cards * bandwidth)
                combine = np.add if "stream_then_math" in terms else np.maximum
                math = passes * combine(stream, math / passes)
        seconds = math + self._per_token(miss_tokens, terms, latency=alone)
        share = self.prefix_offloaded_share
        offloaded = np.asarray(share) > 0
        if any_true(offloaded):  # that share of the prefix first comes back from host or NVMe
            rate = self.cards * np.where(offloaded, self.prefix_tier_bytes_per_s, 1.0)
            copy = np.multiply(hit_tokens, self.kv_bytes_per_token) / rate
            seconds = seconds + np.where(offloaded, share * copy, 0.0)
        if alone and "fixed_overheads" in terms:  # each pass a step, each eager pass dispatched
            seconds = seconds + passes * self.fixed_seconds(terms, seconds / passes)
            further = passes - 1.0
            if ndim(further) or further:  # a lone prompt of one pass pays no more dispatch
                seconds = seconds + further * self.eager_pass_s(terms)
        return seconds

    def prompt_passes(self, miss_tokens):
        r"""Forward passes a lone prompt of ``miss_tokens`` takes: one per chunk where the release
        chunks it (:attr:`prefill_chunk_tokens`), else one.

        Notes
        -----
        .. math:: n = \max(1, \lceil T / c \rceil) \text{ where } c > 0, \text{ else } 1
        """
        chunk = self._plain_chunk
        if chunk is not None and isinstance(miss_tokens, float | int):  # one node, one prompt
            return max(float(ceil(miss_tokens / chunk)), 1.0) if chunk > 0 else 1.0
        chunk = np.asarray(self.prefill_chunk_tokens, dtype=float)
        safe = np.where(chunk > 0, chunk, 1.0)
        return np.where(chunk > 0, np.maximum(np.ceil(np.divide(miss_tokens, safe)), 1.0), 1.0)

    @cached_property
    def _plain_chunk(self):
        """:attr:`prefill_chunk_tokens` as a float where the node is one scenario's, else None."""
        chunk = self.prefill_chunk_tokens
        return float(chunk) if ndim(chunk) == 0 else None

    def eager_pass_s(self, terms):
        """The engine's eager dispatch a prompt's forward pass pays where its release runs them
        eagerly (:meth:`request_overhead` covers the first), else nothing."""
        return np.where(self.eager_prompt_steps, self.request_overhead(terms), 0.0)

    def request_overhead(self, terms):
        """Seconds the engine's eager prefill (and, where not measured apart, its server) add to
        every request's first token, holding the cards."""
        if "server_overheads" not in terms:
            return 0.0
        return self.request_overhead_s + self.eager_dispatch_s

    def server_path(self, terms):
        """Seconds the engine's server adds to every first token beside the cards (measured
        apart from the eager prefill's dispatch: SGLang's)."""
        return self.server_path_s if "server_overheads" in terms else 0.0
