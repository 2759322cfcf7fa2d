"""How much longer a step's dense GEMMs multiply than at the card's best rate, by their shapes.

The matmul rate a card reaches (its achieved rate, :mod:`core.catalog.cards`) is a large
GEMM's. Tensor parallelism slices every matrix over the cards, and a slice multiplies slower:
:mod:`core.catalog.gemm_tables` gives the share of the best rate each shape reaches, measured.
A step's non-expert GEMMs are its attention's projections and its MLP's (in a mixture, its
shared experts'; the routed experts are priced by their own kernels, ``expert_reads``):

- query/key/value: :math:`n = (h_q + 2 h_{kv}) d_h / s`, :math:`k = d`;
- output: :math:`n = d`, :math:`k = h_q d_h / s`;
- gate and up: :math:`n = 2 w / s`, :math:`k = d`; down: :math:`n = d`, :math:`k = w / s`,

with :math:`s` the tensor-parallel cards (1 under attention data parallelism, where each card
runs its own requests' tokens whole) and :math:`w` the MLP's width (a mixture's shared experts
times one expert's width). Latent attention's projections are low-rank and not these shapes:
its attention GEMMs are left at the card's rate.

A decode step's GEMMs multiply its batch, or under trtllm-bench TensorRT-LLM's next CUDA-graph
size up (:meth:`GemmShapes._graph_batch`, :func:`core.engine_level.terms.graph_padded_batch`).
"""

from __future__ import annotations

from functools import cached_property, lru_cache
from types import SimpleNamespace

import numpy as np

from core.catalog.gemm_tables import gemm_share, grid_position, token_grid
from core.catalog.layer_kernels import LATENT_QUERY_RANK
from core.engine_level.terms import graph_padded_batch, graph_padded_scalar
from core.foundation.vector import any_true, ndim

_SHAPE_FIELDS = ("gemm_table", "cards", "data_parallel_attention", "query_heads", "kv_heads",
                 "head_dim", "hidden", "latent_attention", "experts", "intermediate",
                 "shared_experts")  # fmt: skip


def penalty_grid(node):
    """:func:`shape_penalty_grid` of ``node``; one node's is remembered by its shapes, which
    every step of every session serving the same model on the same cards shares."""
    values = tuple(getattr(node, name) for name in _SHAPE_FIELDS)
    if all(ndim(value) == 0 for value in values):
        return _remembered_grid(tuple(float(value) for value in values))
    return _grid_of(values)


@lru_cache(maxsize=1024)
def _remembered_grid(values: tuple[float, ...]) -> np.ndarray:
    grid = _grid_of(values)
    grid.setflags(write=False)
    return grid


def _grid_of(values) -> np.ndarray:
    """:func:`shape_penalty_grid` of the node fields named by :data:`_SHAPE_FIELDS`."""
    return shape_penalty_grid(SimpleNamespace(**dict(zip(_SHAPE_FIELDS, values, strict=True))))


def shape_penalty_grid(node):
    """At each token count of the tables' grid: the step's dense GEMM time over its time at
    the card's best rate (1 where no table measures the card and format).

    Notes
    -----
    .. math:: \\pi(m) = \\frac{\\sum_g n_g k_g / \\sigma(m, n_g, k_g)}{\\sum_g n_g k_g}

    over the GEMMs above, :math:`\\sigma` the measured share (:func:`gemm_share`). The last
    axis of the result runs over the grid.
    """
    outputs, inputs, counted = dense_gemm_dims(node)
    flops = outputs * inputs * counted
    tokens = 2.0 ** token_grid()
    table = np.asarray(node.gemm_table)[..., None, None]
    share = gemm_share(table, tokens[:, None], np.maximum(outputs, 1.0)[..., None, :],
                       np.maximum(inputs, 1.0)[..., None, :])  # fmt: skip
    # summed one GEMM at a time: the same order for one scenario as for a sweep
    work, time = 0.0, 0.0
    for gemm in range(flops.shape[-1]):
        work = work + flops[..., None, gemm]
        time = time + flops[..., None, gemm] / share[..., gemm]
    return np.where(work > 0, time / np.maximum(work, 1e-300), 1.0)


def tensor_split(node):
    """The cards each dense GEMM's matrix is sliced over: the node's, 1 under attention data
    parallelism (each card runs its own requests' tokens whole)."""
    return np.where(np.asarray(node.data_parallel_attention) > 0, 1.0, node.cards)


def mlp_width(node):
    """The dense MLP's width: a mixture's shared experts times one expert's width."""
    return np.where(np.asarray(node.experts) > 1, np.multiply(node.intermediate,
                    node.shared_experts), node.intermediate)  # fmt: skip


def shared_expert_inputs(node):
    """Inputs one shared expert's two GEMMs walk: gate-up the hidden state, down its slice of the
    expert's width."""
    return node.hidden + np.divide(node.intermediate, tensor_split(node))


def dense_gemm_dims(node):
    """(outputs, inputs, counted) of a layer's four dense GEMMs on one card, on a last axis
    (counted 0 for latent attention's projections, which are not these shapes)."""
    split = tensor_split(node)
    heads, kv, size, hidden = node.query_heads, node.kv_heads, node.head_dim, node.hidden
    attention = np.where(np.asarray(node.latent_attention) > 0, 0.0, 1.0)
    width = mlp_width(node)
    ones = np.ones_like(attention)
    return tuple(
        np.stack(np.broadcast_arrays(*column), axis=-1)
        for column in zip(
            ((heads + 2 * kv) * size / split, hidden, attention),
            (hidden, heads * size / split, attention),
            (2 * width / split, hidden, ones),
            (hidden, width / split, ones),
            strict=True,
        )
    )


def gemm_inputs(node, layer_kinds):
    r"""(the attention projections' inputs, the MLP GEMMs' inputs) a forward pass's dense GEMMs
    walk, each GEMM counted as :func:`core.engine_level.terms.attention_gemms` and
    :func:`~core.engine_level.terms.mlp_gemms` count its floor; ``layer_kinds`` are (layers,
    expert layers, latent attention, shared experts launched as their own MLP: none where they
    are fused into the routed experts' kernel).

    Notes
    -----
    .. math:: k_{attn} = L\,(d + h_q d_h / s + [MLA]\,r_q), \quad
              k_{mlp} = (L - L_E)(d + w / s) + L_E\,s_e\,(d + i / s)

    QKV (latent attention's fused q_a/kv_a) and gate-up read the hidden state :math:`d`; out
    (o_proj) its slice of the heads; q_b the query's rank :math:`r_q`
    (:data:`core.catalog.layer_kernels.LATENT_QUERY_RANK`); down its slice of the MLP's width
    :math:`w` (:func:`mlp_width`; a shared expert's :math:`i`), with :math:`s` the
    tensor-parallel cards (:func:`tensor_split`).
    """
    layers, expert_layers, latent_attention, launched_shared = layer_kinds
    split, hidden = tensor_split(node), node.hidden
    query = np.where(np.asarray(latent_attention) > 0, LATENT_QUERY_RANK, 0.0)
    heads = np.multiply(node.query_heads, node.head_dim)
    attention = np.multiply(layers, hidden + heads / split + query)
    dense = np.subtract(layers, expert_layers) * (hidden + mlp_width(node) / split)
    shared = np.multiply(expert_layers, launched_shared) * shared_expert_inputs(node)
    return attention, dense + shared


def tile_floor_s(node, tokens, flops, bf16_flops):
    r"""Seconds a step's dense GEMMs multiply at least where their kernel multiplies whole tiles
    of ``node.gemm_tile_rows`` rows (:data:`core.catalog.gemm_tiles.GEMM_TILE_ROWS`), and its
    output head where its bf16 GEMM does (``node.head_tile_rows``).

    Notes
    -----
    .. math:: t \ge 2 L \sum_g n_g k_g \max(m / r, m_{tile}) / F
              + [m_{head} > 0]\; 2\, V d / c \, \max(m / r, m_{head}) / F_{bf16}

    over the four GEMMs of :func:`dense_gemm_dims` on one card, with :math:`m` the step's
    tokens, :math:`r` the ranks they are shared over (the cards under attention data
    parallelism, else 1) and :math:`F` the card's rate; the head (:math:`V` words of :math:`d`
    each, split over :math:`c` cards) runs in bf16 whatever the checkpoint's format, at
    :math:`F_{bf16}`, and counts only where its kernel's tile is known (issue 37's fifty-sixth
    round). The embedding is looked up, not multiplied.
    """
    ranked = np.divide(tokens, node._request_ranks)
    dense = 2.0 * node.dense_gemm_params * np.maximum(ranked, node.gemm_tile_rows) / flops
    if not any_true(node.head_tile_rows):
        return dense
    head_rows = np.where(np.asarray(node.head_tile_rows) > 0,
                         np.maximum(ranked, node.head_tile_rows), 0.0)  # fmt: skip
    return dense + 2.0 * node.head_params * head_rows / bf16_flops


@lru_cache(maxsize=1)
def _grid_points() -> tuple[float, ...]:
    """:func:`token_grid` as plain floats, for one scenario's step (read at every step)."""
    return tuple(token_grid().tolist())


def dense_gemm_penalty(node, grid, tokens):
    """:func:`penalty_grid`'s ``grid`` read at the step's ``tokens`` (each rank's under
    attention data parallelism), interpolated in :math:`\\log_2` of the tokens and held at the
    grid's ends.

    One scenario's step is read in plain floats (it is asked for at every iteration of the
    load's loops), a sweep's in arrays; both take numpy's ``log2`` and the same arithmetic, so
    a scenario gets the same bits alone as in a sweep (``math.log2`` differs in its last bit).
    """
    spread = node.data_parallel_attention
    if grid.ndim == 1 and ndim(tokens) == 0 and ndim(spread) == 0:
        per_rank = float(tokens) / float(node.cards) if spread else float(tokens)
        points = _grid_points()
        at = min(max(float(np.log2(max(per_rank, 1.0))), points[0]), points[-1])
        cell = 0
        while cell < len(points) - 2 and points[cell + 1] <= at:
            cell += 1
        fraction = (at - points[cell]) / (points[cell + 1] - points[cell])
        low, high = grid.item(cell), grid.item(cell + 1)
        return low + fraction * (high - low)
    log_grid = token_grid()
    per_rank = np.where(spread, np.divide(tokens, node.cards), tokens)
    cell, fraction = grid_position(log_grid, per_rank)
    shape = np.broadcast_shapes(np.shape(cell), grid.shape[:-1])
    values = np.broadcast_to(grid, (*shape, grid.shape[-1]))
    cell = np.broadcast_to(cell, shape)[..., None]
    low = np.take_along_axis(values, cell, axis=-1)[..., 0]
    high = np.take_along_axis(values, cell + 1, axis=-1)[..., 0]
    return low + np.broadcast_to(fraction, shape) * (high - low)


class GemmShapes:
    """A :class:`~core.engine_level.node.Node`'s dense GEMM penalty and the batch its decode
    steps multiply (it holds the fields)."""

    @cached_property
    def _gemm_grid(self):
        """:func:`penalty_grid`, None where no table measures the card and format."""
        return penalty_grid(self) if any_true(np.asarray(self.gemm_table) >= 0) else None

    def _gemm_penalty(self, tokens, terms):
        """:func:`dense_gemm_penalty` at ``tokens`` (1 without ``gemm_shapes``)."""
        grid = self._gemm_grid if "gemm_shapes" in terms else None
        return 1.0 if grid is None else dense_gemm_penalty(self, grid, tokens)

    @cached_property
    def dense_gemm_params(self):
        """One card's parameters in a step's dense GEMMs: :func:`dense_gemm_dims` over the layers
        (not the output head or the embedding)."""
        outputs, inputs, counted = dense_gemm_dims(self)
        return self.layers * np.sum(outputs * inputs * counted, axis=-1)

    @cached_property
    def _has_tile_rows(self):
        """Whether any of these nodes' kernels multiplies whole tiles of rows."""
        return bool(any_true(self.gemm_tile_rows) or any_true(self.head_tile_rows))

    def _tile_shortfall(self, tokens, weight_bytes, math_s, rates, terms):
        """Seconds a step's dense GEMMs, streaming ``weight_bytes`` and multiplying for
        ``math_s``, fall short of their tiles' arithmetic (:func:`tile_floor_s`) at ``rates``,
        the step's (bytes/s, FLOP/s, bf16 FLOP/s: :meth:`Node.rates`): a kernel that multiplies
        whole tiles of rows takes at least that (0 without ``gemm_shapes``)."""
        if "gemm_shapes" not in terms or not self._has_tile_rows:
            return 0.0
        bandwidth, flops, bf16_flops = rates
        gemms = np.divide(weight_bytes, self.cards * bandwidth) + math_s
        return np.maximum(tile_floor_s(self, tokens, flops, bf16_flops) - gemms, 0.0)

    def _graph_batch(self, batch):
        """The batch a decode step multiplies: :func:`~core.engine_level.terms.graph_padded_batch`
        of each rank's share where the engine pads to its CUDA graphs, else ``batch``."""
        ranks, limit, _, everywhere = self._graph_plan
        if everywhere and isinstance(ranks, float) and ndim(batch) == 0:  # one node, one step
            return graph_padded_scalar(float(batch) / ranks, limit) * ranks
        padded = graph_padded_batch(np.divide(batch, ranks), limit) * ranks
        return padded if everywhere else np.where(self.graph_padding, padded, batch)

    @cached_property
    def _graph_plan(self):
        """(ranks a step's batch is shared over, each rank's graph limit, whether any node pads,
        whether every node does): the batch limit is the tool's where it sized one, else the
        engine's own."""
        ranks = self._request_ranks
        batch_limit = np.where(np.isfinite(self.bench_batch), self.bench_batch, self.max_running)
        limit = np.minimum(np.divide(batch_limit, ranks), self.profile_tokens)
        if ndim(ranks) == 0 and ndim(limit) == 0:
            ranks, limit = float(ranks), float(limit)
        pads = np.asarray(self.graph_padding)
        return ranks, limit, bool(any_true(pads)), bool(np.all(pads))


def card_gemms(model, attention: bool, split: float) -> tuple[tuple[float, float], ...]:
    """The (outputs, inputs) on one card of a layer's attention projections (``attention``) or
    of its dense MLP's GEMMs, for a catalog ``model`` split over ``split`` cards: the shapes the
    module docstring gives, latent attention's fused q_a/kv_a (its query's and cache's ranks and
    the rotary part), q_b (every head's key width from the query's rank) and o_proj; none for a
    mixture's MLP without shared experts."""
    heads, size, hidden = model.query_heads, model.head_dim, model.hidden
    if attention and model.kv_lora_rank:
        fused = LATENT_QUERY_RANK + model.kv_lora_rank + model.qk_rope_head_dim
        query = heads * (size + model.qk_rope_head_dim) / split
        return (fused, hidden), (query, LATENT_QUERY_RANK), (hidden, heads * size / split)
    if attention:
        return ((heads + 2 * model.kv_heads) * size / split, hidden), (hidden, heads * size / split)
    width = float(mlp_width(model))  # a catalog model has the fields a node's width reads
    return ((2 * width / split, hidden), (hidden, width / split)) if width else ()
