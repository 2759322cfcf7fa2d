"""What a step pays whatever its size: kernel floors by layer kind, measured floors, host time.

:class:`FixedCosts` is a part of :class:`core.engine_level.node.Node`: the costs that do not
stream weights or cache or multiply, namely each kernel's floor, the floors the dense GEMMs and the
decode attention were measured at (:mod:`core.catalog.dense_gemms`,
:mod:`core.catalog.attention_kernels`), decode attention's cost per request, and the engine's
host time per step and per running request.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from core.catalog.eager_dispatch import ROUTED_EXPERT_EAGER_LAUNCHES
from core.catalog.layer_kernels import (
    BLOCK_FP8_LATENT_ATTENTION_INPUTS,
    BLOCK_FP8_MLP_INPUTS,
    LATENT_ATTENTION_GEMMS,
    LATENT_ATTENTION_KERNELS,
    SHARED_EXPERT_KERNELS,
)
from core.engine_level import terms as physical
from core.engine_level.gemm_shapes import gemm_inputs, shared_expert_inputs
from core.foundation.vector import any_true, ndim


class FixedCosts:
    """The fixed costs of a :class:`~core.engine_level.node.Node`'s step (it holds the fields)."""

    def fixed_seconds(self, terms, busy=0.0):
        r"""Kernel floors of every layer by its kind, plus the engine's host time per step.

        ``busy`` is the GPU's other work in the step, which an overlapping scheduler's host
        time runs beside.

        Notes
        -----
        .. math:: t_{fixed} = t_{kernels} + \begin{cases} \max(0,\ t_{host} - t_{kernels}
                  - t_{busy}) & \text{overlap scheduler} \\ t_{host} & \text{otherwise}
                  \end{cases}
        """
        # Every decode step is priced as a CUDA-graph replay, even past the release's largest
        # captured batch (EngineVersion.graph_max_batch). Explored in issue 37's thirty-third
        # round, not landed: such a step paying the engine's eager dispatch as its prefill pass
        # does (Engine.request_overhead_per_layer_s, added) moves SC '25's 256-user runs, past
        # SGLang 0.4's 160, from medians x1.87 and x2.09 to x1.15 and x1.20, in line with 64-128
        # users (the set 55.6 % -> 50.2 %), but both sets went 18.9 % -> 19.5 % (173 -> 170
        # within: SGLang 0.3's saturated NVIDIA rows S3-S4 x0.78/0.72 -> x0.71/0.59, vLLM 0.9.1's
        # MI300X runs past V1's 512 -> x0.70-1.05; 19.2 % with load.finite_run's lockstep wave).
        # On S3-S4 the dispatch seems to hide under the GPU's work; no source says on which cards.
        layered = "expert_reads" in terms
        one_node = self._one_node_fixed
        if one_node is not None and isinstance(busy, float | int):  # a step's hot path
            host, overlapped, floors = one_node[0], one_node[1], one_node[2 if layered else 3]
            return floors + (max(host - (floors + busy), 0.0) if overlapped else host)
        host = self._host_step
        floors = self._layered_floors if layered else self._plain_floors
        hidden = np.maximum(np.subtract(host, floors + busy), 0.0)
        return floors + np.where(self.host_overlapped, hidden, host)

    @cached_property
    def _layered_floors(self):
        """A step's kernel floors counted layer kind by layer kind (``expert_reads``), measured
        GEMM and attention floors included."""
        return self._kernel_seconds + self._latent_block_extra + self._gemm_floor_extra

    @cached_property
    def _plain_floors(self):
        """A step's kernel floors counted as a dense layer's, measured floors included."""
        return physical.fixed_step_seconds(self.layers, 0.0) + self._gemm_floor_extra

    @cached_property
    def _host_step(self):
        """The release's host seconds a step (:data:`core.engine_level.terms.HOST_STEP_S` where
        it sets none)."""
        return physical.HOST_STEP_S if self.host_step_s is None else self.host_step_s

    @cached_property
    def _one_node_fixed(self):
        """:meth:`fixed_seconds`' parts as plain floats for one node's hot path: (host seconds a
        step, whether the scheduler overlaps them, floors with the layers' own kernels, floors
        without); None for a sweep."""
        parts = (self._host_step, self.host_overlapped, self._layered_floors, self._plain_floors)
        if any(ndim(part) for part in parts):
            return None
        return float(parts[0]), bool(parts[1]), float(parts[2]), float(parts[3])

    @cached_property
    def _layer_kinds(self):
        """(layers, expert layers, latent attention, shared experts run as their own MLP)."""
        launched = np.where(self.shared_expert_fused, 0.0, self.shared_experts)
        return (self.layers, self.expert_geometry[1], self.latent_attention, launched)

    @cached_property
    def eager_dispatch_s(self):
        r"""Seconds an eager forward pass's launches cost the engine's host beyond the GPU's
        work, where its engine's cost per launch is measured (SGLang's), else 0.

        Notes
        -----
        .. math:: t = d\,(n + 5 L_E)

        with :math:`d` the engine's seconds per launch
        (:data:`core.catalog.eager_dispatch.SGLANG_EAGER_LAUNCH_S`), :math:`n` the pass's kernels
        counted layer kind by layer kind (:func:`core.engine_level.terms.layer_kernels`) and 5 more
        an expert layer, its fused experts' own launches (in a graph, the expert kernel's floor).
        """
        if not any_true(self.eager_launch_s):  # no engine here measured apart: skip the arithmetic
            return 0.0
        expert_layers = self._layer_kinds[1]
        launches = self._kernels + np.multiply(expert_layers, ROUTED_EXPERT_EAGER_LAUNCHES)
        dispatch = np.multiply(self.eager_launch_s, launches)
        return float(dispatch) if ndim(dispatch) == 0 else dispatch

    @cached_property
    def _kernels(self):
        """Kernels one forward pass launches, counted by the kind of each layer."""
        return physical.layer_kernels(*self._layer_kinds, self.block_fp8)

    @cached_property
    def _kernel_seconds(self):
        """Kernel floors of one forward pass, by the kind of each layer."""
        return self._kernels * physical.KERNEL_FLOOR_S

    @cached_property
    def _gemm_floor_extra(self):
        """What measured floors add over the kernel floors the dense GEMMs and attention are
        counted at (latent attention: _latent_block_extra); the attention projections take their
        own floor where the checkpoint keeps them in another format."""
        layers, _, latent, _ = self._layer_kinds
        projections = physical.attention_gemms(layers, latent)
        attention = np.subtract(self.attention_floor_s, physical.ATTENTION_KERNEL_FLOORS_S)
        attention = np.where(self.latent_attention, 0.0, attention) * self._attention_layers
        floors = self._mlp_gemms * self._gemm_floor_excess
        floors = floors + projections * self._projection_floor_extra + attention
        return floors + self._gemm_inputs_seconds - self._fused_quant_seconds

    @cached_property
    def _fused_quant_seconds(self):
        r"""What the GEMMs whose input's quantiser the release fuses into the kernel before them
        do not pay of their measured floors: every MLP GEMM (after the norm, after the
        activation) and the QKV projection of each layer without latent attention.

        Notes
        -----
        .. math:: t = g_{mlp} \min(q, t_0 - t_k) + L\,(1 - [MLA]) \min(q_a, t_{0,a} - t_k)

        with :math:`q` the quantiser's seconds in the floor :math:`t_0`
        (:func:`core.catalog.dense_gemms.static_quant_s`) and :math:`t_k` the kernel floor.
        """
        if not (any_true(self.fused_quant_s) or any_true(self.attention_fused_quant_s)):
            return 0.0
        layers, _, latent, _ = self._layer_kinds
        extra = np.maximum(self._gemm_floor_excess, 0.0)
        qkv = np.where(latent, 0.0, layers)
        projection = np.maximum(self._projection_floor_extra, 0.0)
        return self._mlp_gemms * np.minimum(self.fused_quant_s, extra) + qkv * np.minimum(
            self.attention_fused_quant_s, projection
        )

    @cached_property
    def _mlp_gemms(self):
        """The MLP GEMMs one forward pass launches (:func:`core.engine_level.terms.mlp_gemms`)."""
        layers, expert_layers, _, shared = self._layer_kinds
        return physical.mlp_gemms(layers, expert_layers, shared)

    @cached_property
    def _gemm_floor_excess(self):
        """What one dense GEMM's measured floor adds over the kernel floor it is counted at."""
        return np.subtract(self.gemm_floor_s, physical.KERNEL_FLOOR_S)

    @cached_property
    def _gemm_inputs_seconds(self):
        """What the dense GEMMs' kernels pay for the inputs they walk, over a forward pass
        (:class:`core.catalog.dense_gemms.GemmFloor`; 0 where no table prices it)."""
        if not (any_true(self.gemm_input_cost_s) or any_true(self._projection_input_cost)):
            return 0.0
        attention, mlps = self._gemm_inputs
        return mlps * self.gemm_input_cost_s + attention * self._projection_input_cost

    @cached_property
    def _gemm_inputs(self):
        """:func:`core.engine_level.gemm_shapes.gemm_inputs` of this node's layers."""
        return gemm_inputs(self, self._layer_kinds)

    @cached_property
    def _projection_input_cost(self):
        """Seconds an attention projection pays an input: its own where the checkpoint keeps
        attention in another format, else the dense GEMMs'."""
        own = self.attention_gemm_input_cost_s
        return self.gemm_input_cost_s if own is None else own

    @cached_property
    def _projection_floor_extra(self):
        """What one attention projection's measured GEMM floor adds over the kernel floor (its
        own where the checkpoint keeps attention in another format, else the dense GEMMs')."""
        own = self.attention_gemm_floor_s
        return np.subtract(self.gemm_floor_s if own is None else own, physical.KERNEL_FLOOR_S)

    @cached_property
    def _latent_block_extra(self):
        r"""What latent attention's measured block adds over the kernel and GEMM floors it is
        counted at, over the layers (0 where its engine's module was not measured).

        Notes
        -----
        .. math:: t = L\,[MLA] \left(t_{block} - (10 + 3\,[fp8_{block}])\,t_k
                  - 3\,(t_g - t_k) - c\,k_{attn} / L\right)

        with :math:`t_{block}` the block's measured floor
        (:data:`core.catalog.attention_kernels.LATENT_BLOCKS`), :math:`t_k` the kernel floor,
        :math:`t_g` the attention projections' GEMM floor and :math:`c\,k_{attn}` what they pay
        for their inputs (:func:`core.engine_level.gemm_shapes.gemm_inputs`); the block's weights,
        cache and FLOPs stay priced where every layer's are.
        """
        measured = np.isfinite(self.latent_block_floor_s) & np.asarray(self.latent_attention)
        if not any_true(measured):  # no block here was measured: skip the arithmetic
            return 0.0
        quantise = np.asarray(self.block_fp8, dtype=float) * BLOCK_FP8_LATENT_ATTENTION_INPUTS
        kernels = (LATENT_ATTENTION_KERNELS + quantise) * physical.KERNEL_FLOOR_S
        counted = kernels + LATENT_ATTENTION_GEMMS * self._projection_floor_extra
        if any_true(self._projection_input_cost):  # the block's measured floor holds them too
            attention, _ = self._gemm_inputs
            counted = counted + attention / np.maximum(self.layers, 1.0) * (
                self._projection_input_cost
            )
        extra = np.where(measured, np.subtract(self.latent_block_floor_s, counted), 0.0)
        return extra * self._attention_layers

    def shared_stream_s(self, tokens, routed_s):
        r"""Seconds a decode step of ``tokens`` hides by running its shared experts' kernels on a
        second stream beside the routed experts, which take ``routed_s`` over the step.

        Where the release does (:attr:`shared_stream_tokens`, a DeepSeek-V3-shaped layer whose
        shared expert is not fused), each expert layer's shared expert launches its kernels
        while the routed experts run, so their floors pass within the routed experts' time; its
        weights still stream. The limit is each rank's: under DEP a rank's step holds its share.

        Notes
        -----
        .. math:: t_{hidden} = L_E \min\left(s\,(k_s + q_s)\,t_k + 2 s\,(t_g - t_k)
                  + s\,c\,(d + i / p),\ t_{routed} / L_E\right) \quad [n / r \le n_{stream},\ MLA]

        with :math:`k_s` a shared expert's kernels, :math:`q_s` its quantise kernels in block
        fp8, :math:`t_g` the dense GEMM floor and :math:`c` its cost per input (gate-up reads
        the hidden state :math:`d`, down its slice of the expert's width :math:`i` over the
        tensor-parallel cards :math:`p`), :math:`t_k` the kernel floor and :math:`r` the ranks
        the step's requests are shared over (the cards under DEP, else one).
        """
        floors, layers = self._shared_floors
        if floors is None:  # no layer here streams: skip the arithmetic
            return 0.0
        ranks = self._request_ranks  # each rank's step is its own graph (DEP: its share)
        if isinstance(floors, float) and ndim(tokens) == 0 and ndim(routed_s) == 0:
            # one scenario: the same figure in Python floats (a hot path, called every step)
            streams = tokens / float(ranks) <= self.shared_stream_tokens
            return layers * min(floors, float(routed_s) / max(layers, 1.0)) if streams else 0.0
        per_layer = np.minimum(floors, np.divide(routed_s, np.maximum(layers, 1.0)))
        streams = np.less_equal(np.divide(tokens, ranks), self.shared_stream_tokens)
        return np.where(streams, layers * per_layer, 0.0)

    @cached_property
    def _shared_floors(self):
        """(one expert layer's shared-expert floors, the expert layers) for a layer whose release
        streams them: latent attention (DeepSeek-V3's shape), the shared expert not fused; floors
        None where no layer streams."""
        _, layers, latent, launched = self._layer_kinds
        launched = np.where(latent, launched, 0.0)
        if not (any_true(self.shared_stream_tokens) and any_true(launched)):
            return None, 0.0
        quantise = np.asarray(self.block_fp8, dtype=float) * BLOCK_FP8_MLP_INPUTS
        floors = (SHARED_EXPERT_KERNELS + quantise) * physical.KERNEL_FLOOR_S + 2.0 * (
            np.subtract(self.gemm_floor_s, physical.KERNEL_FLOOR_S)
        )
        floors = floors + np.multiply(self.gemm_input_cost_s, shared_expert_inputs(self))
        floors = launched * floors
        if ndim(floors) == 0 and ndim(layers) == 0:
            return float(floors), float(layers)
        return floors, layers

    @cached_property
    def _attention_layers(self):
        return self.layers if self.attention_layers is None else self.attention_layers

    @cached_property
    def _prefill_width(self):
        """A prompt's attention width per head (``prefill_head_width``; the head size if unset)."""
        return self.head_dim if self.prefill_head_width is None else self.prefill_head_width

    @cached_property
    def _request_ranks(self):
        """Ranks the running requests are shared over: the cards under data-parallel attention
        (each holds its own, its step's share and the prompts it prefills), else one (every
        card's attention and host see all of them)."""
        return np.where(self.data_parallel_attention, self.cards, 1.0)

    def _attention_requests_s(self, batch):
        """Decode attention's cost per request over the layers (a card's own, under DEP): latent
        attention's measured block's, where there is one, else nothing beyond its FLOPs."""
        one_node = self._one_node_attention
        if one_node is not None and isinstance(batch, float | int):  # a step's hot path
            ranks, per_request, layers = one_node
            return batch / ranks * per_request * layers
        on_card = np.divide(batch, self._request_ranks)
        return on_card * self._attention_per_request * self._attention_layers

    @cached_property
    def _attention_per_request(self):
        """Decode attention's seconds per request a layer: latent attention's measured block's
        where there is one, else the engine's attention kernel's."""
        return np.where(
            self.latent_attention, self.latent_block_per_request_s, self.attention_per_request_s
        )

    @cached_property
    def _one_node_attention(self):
        """(ranks, attention's seconds per request a layer, attention layers) as plain floats
        for one node's hot path; None for a sweep."""
        parts = (self._request_ranks, self._attention_per_request, self._attention_layers)
        return None if any(ndim(part) for part in parts) else tuple(map(float, parts))

    def host_requests_s(self, requests, busy):
        r"""Seconds the host's work for ``requests`` running requests adds to a step of ``busy``.

        Each rank's host handles its own requests (all of them under tensor parallelism, its
        share under data-parallel attention); an overlapping scheduler runs that work beside
        the GPU's step, so only what outlasts the step is added.

        Notes
        -----
        .. math:: t_{req} = \begin{cases} \max(0,\ h\,n_{rank} - t_{busy}) & \text{overlap
                  scheduler} \\ h\,n_{rank} & \text{otherwise} \end{cases}

        with :math:`h` the release's host seconds per running request
        (:mod:`core.catalog.engine_versions`).
        """
        per_request, overlapped = self._host_per_request
        if per_request is None:  # no release here prices it: skip the arithmetic in hot loops
            return 0.0
        plain = isinstance(requests, float | int) and isinstance(busy, float | int)
        if plain and isinstance(per_request, float):  # a step's hot path
            host = requests * per_request
            return max(host - busy, 0.0) if overlapped else host
        host = np.multiply(requests, per_request)
        return np.where(overlapped, np.maximum(host - busy, 0.0), host)

    @cached_property
    def _host_per_request(self):
        """(host seconds per running request, on its rank's share; None where none is priced),
        and whether the release overlaps it with the GPU's step."""
        if not any_true(self.host_request_s):
            return None, False
        per_request = np.divide(self.host_request_s, self._request_ranks)
        if ndim(per_request) == 0 and ndim(self.schedules_ahead) == 0:  # one node
            return float(per_request), bool(self.schedules_ahead)
        return per_request, self.schedules_ahead
