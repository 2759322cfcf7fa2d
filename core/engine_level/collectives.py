"""What a step's collectives take: tensor parallelism's all-reduces and DEP's gathers.

:class:`Collectives` is a part of :class:`core.engine_level.node.Node`. Where the catalog
measured the engine's collective on the node's cards (:mod:`core.catalog.collective_tables`:
each engine's all-reduce, and NCCL's all-gather and reduce-scatter under TensorRT-LLM's DEP, on
NVLink nodes of 2, 4 and 8 cards) a step pays the table at its size; elsewhere the line of
:mod:`core.engine_level.terms`, one latency and the link's bandwidth at NCCL's share.
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from core.catalog import ACTIVATION_BYTES
from core.catalog import collective_tables as tables
from core.engine_level import terms as physical
from core.engine_level.joining import riding_excess_s
from core.foundation.vector import any_true, ndim


class Collectives:
    """The collectives of a :class:`~core.engine_level.node.Node`'s step (it holds the fields)."""

    def collective_line(self, tokens, terms):
        """Seconds the line prices for ``tokens`` tokens' all-reduces (or DEP's gathers), left
        out where a measured table times them (:meth:`tabled_collectives`)."""
        if "tensor_parallel" not in terms or not self.spans_cards:  # one card reduces nothing
            return 0.0
        share = self._link_share
        reduce = physical.allreduce_seconds(
            tokens, self.hidden, self.layers, self.cards, self.link_bytes_per_s, share,
            self.allreduce_latency_s,
        )  # fmt: skip
        if self._measured_allreduces is not None:  # timed from the engine's table instead
            reduce = np.where(self._measured_allreduces, 0.0, reduce)
        if not self.any_data_parallel:
            return reduce
        _, expert_layers = self.expert_geometry
        exchange = physical.gather_scatter_seconds(
            tokens, self.hidden, expert_layers, self.cards, self.link_bytes_per_s,
            self.gathered_bytes, share, self.allreduce_latency_s,
        )  # fmt: skip
        if self._measured_gathers is not None:  # timed from NCCL's tables instead
            exchange = np.where(self._measured_gathers, 0.0, exchange)
        return np.where(self.data_parallel_attention, exchange, reduce)

    def tabled_collectives(self, tokens, terms, latency):
        r"""Seconds the step's collectives take where measured tables time them.

        Notes
        -----
        Under tensor parallelism each of :math:`L` layers all-reduces its :math:`T` tokens'
        hidden states twice, :math:`2 T d` bytes each time; under DEP each of :math:`L_E`
        expert layers all-gathers :math:`T d g` bytes and reduce-scatters :math:`2 T d` (as
        :mod:`core.engine_level.terms` moves them). Each collective is read from its table at
        its size (:mod:`core.catalog.collective_tables`; one node's step in plain floats, the
        same bits). Tokens riding in a step whose collectives are already paid (``latency``
        False) add at the rate of the tables' largest messages.
        """
        if "tensor_parallel" not in terms:
            return 0.0
        seconds = 0.0
        if self._measured_allreduces is not None:
            seconds = seconds + self._tabled_allreduces(tokens, latency)
        if self._measured_gathers is not None:
            seconds = seconds + self._tabled_gathers(tokens, latency)
        return seconds

    def riding_collectives_s(self, beside, tokens, terms):
        r"""Seconds a prompt of ``tokens`` tokens riding beside ``beside`` decoding requests adds
        to their steps' measured collectives beyond the rate of the tables' largest messages
        (:meth:`tabled_collectives` with ``latency`` False).

        A step's collectives carry every token of the step, whichever request it belongs to, so
        a step of :math:`d + c` tokens reads the tables at its size: at a few MB the collectives
        reach a third to a half of their largest messages' bandwidth (issue 37, fifty-second
        round). Where no table times them, the line is straight and nothing is added.

        Notes
        -----
        Over the prompt's :math:`n` passes (:meth:`prompt_passes`) of :math:`c = T / n` tokens,
        with :math:`C` a step's tabled collectives and :math:`C_r` a riding prompt's
        (:func:`core.engine_level.joining.riding_excess_s`):

        .. math:: t = n \max\big(0,\ C(d + c) - C(d) - C_r(c)\big)
        """
        if self._measured_allreduces is None and self._measured_gathers is None:
            return 0.0
        return riding_excess_s(
            self, beside, tokens, lambda size: self.tabled_collectives(size, terms, True),
            lambda chunk: self.tabled_collectives(chunk, terms, False),
        )  # fmt: skip

    @cached_property
    def _measured_allreduces(self):
        """Where this node's all-reduces are timed from its engine's measured table (not under
        DEP), or None where none is."""
        if not self.spans_cards or np.all(np.asarray(self.data_parallel_attention, dtype=bool)):
            return None
        if ndim(self.data_parallel_attention) == 0 and self._one_node_allreduces is not None:
            return True  # one node, measured: skip the vectorised lookup
        measured = self._allreduce_reader.measured
        measured = measured & ~np.asarray(self.data_parallel_attention, dtype=bool)
        return measured if any_true(measured) else None

    @cached_property
    def _measured_gathers(self):
        """Where this node's DEP gathers are timed from NCCL's measured tables, or None."""
        if not self.spans_cards or not any_true(self.data_parallel_attention):
            return None
        if ndim(self.data_parallel_attention) == 0 and self._one_node_gathers is not None:
            return True
        measured = self._gather_reader.measured
        measured = measured & np.asarray(self.data_parallel_attention, dtype=bool)
        return measured if any_true(measured) else None

    def _tabled_allreduces(self, tokens, latency):
        one_node = self._one_node_allreduces
        if one_node is not None and isinstance(tokens, float | int):  # a step's hot path
            first, (times, rate), pair_layers, per_token = one_node
            if not latency:
                return pair_layers * (tokens * (rate * per_token))
            return pair_layers * tables.read_times(first, times, tokens * per_token)
        pair_layers = 2.0 * np.asarray(self.layers, dtype=float)
        per_token = np.multiply(self.hidden, ACTIVATION_BYTES)
        if not latency:
            riding = tables.allreduce_largest_rate(
                self.allreduce_table, self.cards, per_token, self._allreduce_reader
            )
            seconds = pair_layers * np.multiply(tokens, riding)
        else:
            moved = np.multiply(tokens, per_token)
            seconds = pair_layers * tables.allreduce_seconds(
                self.allreduce_table, self.cards, moved, self._allreduce_reader
            )
        return np.where(self._measured_allreduces, seconds, 0.0)

    def _tabled_gathers(self, tokens, latency):
        one_node = self._one_node_gathers
        if one_node is not None and isinstance(tokens, float | int):  # a step's hot path
            first, (gather_times, _), (scatter_times, _), layers, gathered, scattered, riding = (
                one_node
            )
            if not latency:
                return layers * (tokens * riding)
            seconds = tables.read_times(first, gather_times, tokens * gathered)
            return layers * (seconds + tables.read_times(first, scatter_times, tokens * scattered))
        _, expert_layers = self.expert_geometry
        gathered = np.multiply(self.hidden, self.gathered_bytes)
        scattered = np.multiply(self.hidden, ACTIVATION_BYTES)
        if not latency:
            rate = tables.largest_rate(
                self.gather_table, self.cards, gathered, scattered, self._gather_reader
            )
            return np.where(self._measured_gathers, expert_layers * np.multiply(tokens, rate), 0.0)
        moved = np.multiply(tokens, gathered), np.multiply(tokens, scattered)
        seconds = tables.gather_seconds(self.gather_table, self.cards, *moved, self._gather_reader)
        return np.where(self._measured_gathers, expert_layers * seconds, 0.0)

    @cached_property
    def _allreduce_reader(self):
        """Where this node's (or sweep's) cards are in the all-reduce tables, found once."""
        return tables.allreduce_reader(self.allreduce_table, self.cards)

    @cached_property
    def _gather_reader(self):
        """Where this node's (or sweep's) cards are in the gather tables, found once."""
        return tables.gather_reader(self.gather_table, self.cards)

    def _one_node(self, *fields) -> bool:
        """Whether ``fields`` and the node's card count are plain numbers (one node, not a
        sweep: a sweep's arrays take the vectorised reads)."""
        return not any(ndim(field) for field in (*fields, self.cards, self.hidden))

    @cached_property
    def _one_node_allreduces(self):
        """One node's all-reduce table, its layers' all-reduces and its bytes a token, as plain
        floats for a step's hot path; None for a sweep or a node without a table."""
        if not self._one_node(self.allreduce_table, self.layers):
            return None
        measured = tables.allreduce_node_times(int(self.allreduce_table), float(self.cards))
        if measured is None:
            return None
        first, times_and_rate = measured
        pair_layers = 2.0 * float(self.layers)
        return first, times_and_rate, pair_layers, float(self.hidden) * ACTIVATION_BYTES

    @cached_property
    def _one_node_gathers(self):
        """One node's gather tables, its bytes a token and a riding token's seconds a layer, as
        plain floats for a step's hot path; None for a sweep or a node without a table."""
        if not self._one_node(self.gather_table, self.gathered_bytes, self.expert_geometry[1]):
            return None
        measured = tables.node_times(int(self.gather_table), float(self.cards))
        if measured is None:
            return None
        first, gather, scatter = measured  # each (times by size, seconds a byte at the largest)
        gathered = float(self.hidden) * float(self.gathered_bytes)
        scattered = float(self.hidden) * ACTIVATION_BYTES
        riding = gather[1] * gathered + scatter[1] * scattered
        layers = float(self.expert_geometry[1])
        return first, gather, scatter, layers, gathered, scattered, riding
