"""Which format each of a node's kernels runs in: its experts', its dense GEMMs', its cache's."""

from __future__ import annotations

import numpy as np

from core.catalog.checkpoints import kept_bf16_params
from core.scenario.resolve import factorize


def expert_format(weight: str, shape) -> str:
    """The expert kernel's format: fp8 is block-scaled where the model's own checkpoint is fp8."""
    return "fp8_block" if weight == "fp8" and shape.checkpoint_dtype == "fp8" else weight


def dense_format(shape, weight, attention=False) -> str:
    """The format a model's dense GEMMs run in: the weights', bf16 where the checkpoint keeps
    them so (gpt-oss); ``attention``: the attention projections', bf16 also where the weights'
    own checkpoint keeps attention so (NVIDIA's NVFP4 DeepSeek:
    :func:`~core.catalog.checkpoints.kept_bf16_params`)."""
    kept = kept_bf16_params(shape, weight) if attention else shape.bf16_params
    return "bf16" if kept > 0 else expert_format(weight, shape)


def cache_format(bytes_kv):
    """The cache's format as attention's tables key it, a name or factorized names (lookup)."""
    if isinstance(bytes_kv, (float, int)):  # one scenario: no 0-d string array to print
        return "bf16" if bytes_kv >= 2 else "fp8"
    cache = np.where(np.asarray(bytes_kv, dtype=float) >= 2, "bf16", "fp8")
    return factorize(cache) if cache.ndim else str(cache)
