"""A mixture's expert layers in a step: the experts its tokens touch, streamed or multiplied in
the engine's grouped-GEMM kernels at their measured rates.

:class:`ExpertLayers` is a part of :class:`core.engine_level.node.Node` (it holds the fields):
the routed experts' geometry, their seconds in a step from the kernel tables
(:data:`core.catalog.kernels.EXPERT_KERNELS`) and what the node streams outside them.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from core.catalog.kernels import PERMUTE_BYTES
from core.engine_level import terms as physical
from core.engine_level.joining import riding_excess_s
from core.foundation.vector import any_true, ndim
from core.whiteboard.experts import distinct_experts


class ExpertLayers:
    """The expert layers of a :class:`~core.engine_level.node.Node`'s step."""

    @cached_property
    def expert_geometry(self):
        """(parameters per expert across its layers, layers with experts) of a mixture."""
        experts = np.asarray(self.experts, dtype=float)
        spare = np.where(experts > 1, experts - self.experts_per_token, 1.0)
        per_expert = np.where(
            experts > 1, np.subtract(self.params, self.active_params) / spare, 0.0
        )
        per_layer = 3.0 * np.multiply(self.hidden, self.intermediate)
        layers = np.minimum(self.layers, np.maximum(np.round(per_expert / per_layer), 1.0))
        return per_expert, np.where(experts > 1, layers, 0.0)

    def expert_seconds(self, tokens, terms, alone=True):
        """Seconds the expert layers of one step of ``tokens`` tokens take, from kernel tables.

        ``alone`` False: the tokens ride in a step whose decodes already launch the kernels,
        stream the experts and fill their tiles, so only their arithmetic and permutation are
        added.

        Notes
        -----
        Each of the :math:`L_E` expert layers touches :math:`E_T = E (1 - (1 - k/E)^T)` experts
        of :math:`p_e` parameters (``q`` bytes each) and multiplies
        :math:`2 (T k + \\min(h E_T, T k)) p_e` FLOPs, each touched expert costing :math:`h`
        rows beyond its tokens (a part-filled tile), never more than the rows routed:

        .. math:: t_E = L_E \\left(t_0 + \\max\\left(\\frac{E_T p_e q}{c\\,s_B B},
                  \\frac{2 (T k + \\min(h E_T, T k)) p_e}{c\\,s_F F}\\right) + \\frac{8 T k d}{c B}\\right)

        with the kernel's floor :math:`t_0`, padding rows :math:`h` and shares :math:`s_B, s_F`
        of the card's measured rates (:data:`core.catalog.kernels.EXPERT_KERNELS`, measured from
        one token to 16,384); the last term scatters each of the :math:`T k` routed copies of a
        token's hidden state to its expert and gathers it back, in bf16. A kernel that loops
        over the card's experts adds its launches' floors (:meth:`_launch_seconds`).
        """
        math_rate, permute_rate, stream_rate = self._expert_rates(frozenset(terms))
        one_node = self._one_node_experts
        if one_node is not None and alone and isinstance(tokens, float | int):  # a step's hot path
            return self._expert_seconds_scalar(tokens, math_rate, permute_rate, stream_rate)
        _, layers = self.expert_geometry
        math = np.multiply(tokens, math_rate)
        # every token's hidden state goes to k experts and comes back: written and read, in bf16
        permute = np.multiply(tokens, permute_rate)
        if not alone:
            return layers * (math + permute + self._launch_seconds(tokens, alone=False))
        touched = distinct_experts(self.experts, self.experts_per_token, tokens)
        stream = touched * stream_rate
        # padding rows are priced as routed rows are, never more than the rows routed (kernels
        # choose smaller tiles for fewer tokens)
        routed = np.multiply(tokens, self.experts_per_token)
        rows = np.minimum(touched * self.expert_padding_rows, routed)
        padding = rows * math_rate / np.maximum(self.experts_per_token, 1)
        launches = self._launch_seconds(tokens)
        return layers * (
            self.expert_fixed_s + np.maximum(stream, math + padding) + permute + launches
        )

    @cached_property
    def _one_node_experts(self):
        """(expert layers, experts, experts a token, padding rows, a layer's fixed seconds) as
        plain floats for one node's hot path; None for a sweep."""
        parts = (
            self.expert_geometry[1], self.experts, self.experts_per_token,
            self.expert_padding_rows, self.expert_fixed_s,
        )  # fmt: skip
        return None if any(ndim(part) for part in parts) else tuple(map(float, parts))

    def _expert_seconds_scalar(self, tokens, math_rate, permute_rate, stream_rate):
        """:meth:`expert_seconds` of one node's step in plain floats: the same operations in the
        same order, each correctly rounded, so the same bits."""
        layers, experts, per_token, padding_rows, fixed = self._one_node_experts
        math = tokens * math_rate
        permute = tokens * permute_rate
        touched = distinct_experts(experts, per_token, tokens)
        stream = touched * stream_rate
        rows = min(touched * padding_rows, tokens * per_token)
        padding = rows * math_rate / max(per_token, 1.0)
        launches = self._launch_seconds(tokens)
        return layers * (fixed + max(stream, math + padding) + permute + launches)

    @cached_property
    def _loops_experts(self):
        """Whether any scenario's expert kernel loops over the card's experts."""
        return bool(any_true(np.asarray(self.expert_launch_tokens) > 0))

    def _launch_seconds(self, tokens, alone=True):
        r"""Floors of the launches beyond one per GEMM where the release's expert kernel loops
        over the card's experts (:data:`core.catalog.release_kernels.EXPERT_LAUNCH_LOOPS`), per
        expert layer; 0 where one launch covers every expert.

        Notes
        -----
        Each of the layer's two GEMMs launches once per expert on the card (:math:`E_c`) and per
        :math:`n` tokens of the step, every launch at least the kernel floor :math:`t_k`:

        .. math:: t_L = 2 t_k \left(E_c \lceil T / n \rceil - 1\right)

        A token riding in a step whose launches are paid adds :math:`2 t_k E_c / n`.
        """
        if not self._loops_experts:
            return 0.0
        per_launch = np.where(self.expert_launch_tokens > 0, self.expert_launch_tokens, 1.0)
        on_card = np.divide(self.experts, self.expert_ranks)
        if alone:
            launches = on_card * np.ceil(np.divide(tokens, per_launch)) - 1.0
        else:
            launches = on_card * np.divide(tokens, per_launch)
        # a dense model's expert layers are none (expert_seconds multiplies by their count)
        launched = 2.0 * physical.KERNEL_FLOOR_S * np.maximum(launches, 0.0)
        return np.where(self.expert_launch_tokens > 0, launched, 0.0)

    def pass_expert_seconds(self, tokens, passes, terms, alone=True):
        r""":meth:`expert_seconds` of a prompt of ``tokens`` tokens run in ``passes`` forward
        passes: each pass runs its chunk's expert layers, their floors, streams and part-filled
        tiles (issue 37, fifty-fourth round), :math:`n\,t_E(T / n)`."""
        return passes * self.expert_seconds(np.divide(tokens, passes), terms, alone)

    def riding_stream_s(self, beside, tokens, terms):
        r"""Seconds a prompt of ``tokens`` tokens riding beside ``beside`` decoding requests adds
        to their steps' expert layers beyond its own arithmetic (:meth:`expert_seconds` with
        ``alone`` False): chiefly the experts its tokens route to that the decodes' do not.

        A step's grouped GEMMs read every expert any of its tokens routes to and fill each one's
        tiles with those tokens, whichever request they belong to: a step of :math:`d + c`
        tokens is priced as one (:meth:`expert_seconds`). A few decodes touch a few experts and
        fill few tiles; a prompt of hundreds of tokens touches nearly all, so the step it rides
        in streams what a step of its own would (issue 37, fifty-first round). Where the
        decodes' step already streams and tiles what the prompt needs, the prompt keeps paying
        its arithmetic.

        Notes
        -----
        Over the prompt's :math:`n` passes (:meth:`prompt_passes`) of :math:`c = T / n` tokens,
        with :math:`t_E` a step's expert layers and :math:`t_r` a riding prompt's arithmetic
        (:func:`core.engine_level.joining.riding_excess_s`):

        .. math:: t = n \max\big(0,\ t_E(d + c) - t_E(d) - t_r(c)\big)

        for :math:`d` decodes beside; nothing for a dense model or without ``expert_reads``.
        """
        if "expert_reads" not in terms or not self.has_experts:
            return 0.0
        return riding_excess_s(
            self, beside, tokens, lambda size: self.expert_seconds(size, terms),
            lambda chunk: self.expert_seconds(chunk, terms, alone=False),
        )  # fmt: skip

    def _riding_expert_s(self, terms):
        """:meth:`expert_seconds` per token riding in a step (``alone`` False), remembered."""
        terms = frozenset(terms)
        return self._remember(
            ("riding", terms), lambda: self.expert_seconds(1.0, terms, alone=False)
        )

    def _expert_rates(self, terms):
        """Seconds per token multiplied, per token permuted and per expert streamed, per layer."""

        def rates():
            bandwidth, flops, _ = self.rates(terms)
            per_expert, layers = self.expert_geometry
            per_layer = per_expert / np.maximum(layers, 1.0)
            math = (
                2.0 * self.experts_per_token * per_layer
                / (self.cards * self.expert_compute_share * flops)
            )  # fmt: skip
            if "routing_imbalance" in terms:
                math = math * self._imbalance
            permute = (
                PERMUTE_BYTES * self.experts_per_token * self.hidden / (self.cards * bandwidth)
            )
            bytes_per_weight = self.weight_bytes / self.params
            stream = (
                per_layer * bytes_per_weight
                / (self.cards * self.expert_bandwidth_share * bandwidth)
            )  # fmt: skip
            return math, permute, stream

        return self._remember(("experts", terms), rates)

    @cached_property
    def _imbalance(self):
        """:func:`core.engine_level.terms.routing_imbalance` of this node's experts and ranks."""
        return physical.routing_imbalance(self.experts, self.expert_ranks)

    def _shared_part(self, terms):
        """(weight bytes the node streams, active parameters) outside the routed experts,
        remembered for each set of terms."""
        terms = frozenset(terms)
        return self._remember(("shared part", terms), lambda: self._shared_part_of(terms))

    def _shared_part_of(self, terms):
        per_expert, _ = self.expert_geometry
        shared_bytes = self.streamed_weight_bytes(terms) - self._routed_bytes
        shared_active = self.active_params - np.multiply(self.experts_per_token, per_expert)
        # never below nothing: a pasted shape whose counts disagree would take negative time
        return np.maximum(shared_bytes, 0.0), np.maximum(shared_active, 0.0)
