"""Kernel and engine figures of a node, looked up for one scenario or a sweep of them.

:func:`kernel_fields` turns the scenario's card, weight format, model and engine into the
:class:`core.engine_level.node.Node` fields that price expert layers from measured kernel
tables, launch each kind of layer's kernels and charge the engine's per-request costs.
"""

from __future__ import annotations

import numpy as np

from core.catalog import BYTES_PER_WEIGHT
from core.catalog.kernels import ENGINES, expert_kernel


def _lookup(function, *keys):
    """``function`` of the names in ``keys``, each a name or a factorized (unique, index) pair."""
    if all(isinstance(key, str) for key in keys):
        return np.float64(function(*keys))
    columns = [np.asarray(key, dtype=object) if isinstance(key, str) else
               np.asarray(key[0], dtype=object)[key[1]] for key in keys]  # fmt: skip
    columns = np.broadcast_arrays(*columns)
    cache: dict = {}
    flat = [
        cache.setdefault(names, function(*names))
        for names in zip(*(c.ravel() for c in columns), strict=True)
    ]
    return np.asarray(flat, dtype=float).reshape(columns[0].shape)


def kernel_fields(gpu, weight, engine, shape, shapes) -> dict:
    """The Node fields for expert kernels, layer kinds, checkpoint formats and the engine."""

    def kernel(attribute):
        return lambda g, w: getattr(expert_kernel(g, w)[0], attribute)

    def of_shape(attribute):
        return lambda name: getattr(shapes[name], attribute)

    bf16 = _lookup(of_shape("bf16_params"), shape)
    extra = bf16 * np.maximum(0.0, BYTES_PER_WEIGHT["bf16"] - _lookup(BYTES_PER_WEIGHT.get, weight))
    layers = _lookup(of_shape("layers"), shape)
    per_layer = _lookup(lambda e: ENGINES[e].request_overhead_per_layer_s, engine)
    return {
        "expert_fixed_s": _lookup(kernel("fixed_s"), gpu, weight),
        "expert_bandwidth_share": _lookup(kernel("bandwidth_share"), gpu, weight),
        "expert_compute_share": _lookup(kernel("compute_share"), gpu, weight),
        "latent_attention": _lookup(lambda name: shapes[name].kv_lora_rank > 0, shape),
        "shared_experts": _lookup(of_shape("shared_experts"), shape),
        "bf16_extra_bytes": extra,
        "request_overhead_s": per_layer * layers,
    }
