"""A node's attention kernels, looked up for one scenario or a sweep of them.

:func:`attention_fields` gives the :class:`core.engine_level.node.Node` fields that price
attention from measured kernels (:mod:`core.catalog.attention_kernels`): decode attention's
floor and cost per request, latent attention's whole measured block, a prompt's attention
kernel (grouped-query or latent) and decode attention's FLOPs a context token.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from core.catalog.attention_kernels import (
    SINK_PREFILL,
    attention_kernel,
    latent_block,
    prefill_head_size_share,
    release_prefill_attention,
    sink_prefill_in_triton,
)
from core.engine_level.formats import cache_format, dense_format
from core.engine_level.lookups import lookup
from core.foundation.vector import ndim
from core.scenario.resolve import pick


def attention_fields(pool, gpu, weight, shape, engine, shapes, version) -> dict:
    """The Node's attention fields; ``pool`` the resolved knobs, the rest factorized keys
    (``version`` the engine's release)."""
    latent = np.asarray(pool.kv_lora_rank) > 0
    kernels = _kernel_fields(gpu, engine, version, pool.bytes_kv, latent, pool.head_dim)
    return {
        **_sink_prefill(gpu, engine, pick(shape, shapes, "attention_sinks"), kernels),
        **_latent_block_fields(gpu, weight, shape, engine, pool.bytes_kv, shapes),
        "attention_flops_per_token": _attention_flops(pool, pick(shape, shapes, "query_heads")),
        "latent_attention": latent,
    }


def _kernel_fields(gpu, engine, version, bytes_kv, latent, head_size) -> dict:
    """Decode attention's floor and cost per request; the prompt-attention kernel's rate share
    (a grouped-query one's at the model's ``head_size``) and extra keys a token, latent
    attention's where the model has it, the release's own kernel where it runs one."""
    keys = (gpu, engine, cache_format(bytes_kv))
    scalar = ndim(latent) == 0 and ndim(head_size) == 0
    if scalar and all(isinstance(key, str) for key in (*keys, version)):  # one scenario
        decode = attention_kernel(keys[0], keys[2], keys[1])
        prompt = release_prefill_attention(keys[0], keys[2], keys[1], version, latent=bool(latent))
        scale = 1.0 if latent else float(_head_size_scale(gpu, head_size))
        return {
            "attention_floor_s": decode.floor_s,
            "attention_per_request_s": decode.per_request_s,
            "prefill_attention_share": prompt.rate_share * scale,
            "prefill_attention_keys": prompt.extra_keys,
        }

    def field(kernel, attribute):
        return lookup(lambda g, e, c: getattr(kernel(g, c, e), attribute), *keys)

    def prompt(attribute, grouped_scale=1.0):
        def figure(card, name, cache, release, kind):
            return getattr(release_prefill_attention(card, cache, name, release, kind), attribute)

        grouped, own = (
            lookup(partial(figure, kind=kind), *keys, version) for kind in (False, True)
        )
        return np.where(latent, own, grouped * grouped_scale)

    return {
        "attention_floor_s": field(attention_kernel, "floor_s"),
        "attention_per_request_s": field(attention_kernel, "per_request_s"),
        "prefill_attention_share": prompt("rate_share", _head_size_scale(gpu, head_size)),
        "prefill_attention_keys": prompt("extra_keys"),
    }


def _sink_prefill(gpu, engine, sinks, fields: dict) -> dict:
    """``fields`` with the prompt kernel vLLM runs below Hopper where the model's attention has
    sinks: a share :data:`~core.catalog.attention_kernels.SINK_PREFILL` of the card's own and
    its extra keys (:func:`~core.catalog.attention_kernels.sink_prefill_in_triton`)."""
    if not np.any(sinks):  # most models: nothing to look up
        return fields
    triton = (lookup(sink_prefill_in_triton, gpu, engine) > 0) & (np.asarray(sinks) > 0)
    share, keys = fields["prefill_attention_share"], fields["prefill_attention_keys"]
    share = np.where(triton, share * SINK_PREFILL.rate_share, share)
    keys = np.where(triton, SINK_PREFILL.extra_keys, keys)
    scalar = ndim(share) == 0 and ndim(keys) == 0
    return {
        **fields,
        "prefill_attention_share": float(share) if scalar else share,
        "prefill_attention_keys": float(keys) if scalar else keys,
    }


def _head_size_scale(gpu, head_size):
    """A grouped-query prompt kernel's share at ``head_size`` over its share at 128, linear in
    the head size's logarithm between 64, 128 and 256 and held beyond them
    (:data:`core.catalog.attention_kernels.PREFILL_HEAD_SIZE_SHARES`)."""
    at_64, at_256 = (lookup(lambda g, i=i: prefill_head_size_share(g)[i], gpu) for i in (0, 1))
    octaves = np.clip(np.log2(np.maximum(head_size, 1.0)) - 7.0, -1.0, 1.0)
    return np.where(octaves < 0, 1.0 + (1.0 - at_64) * octaves, 1.0 + (at_256 - 1.0) * octaves)


def _latent_block_fields(gpu, weight, shape, engine, bytes_kv, shapes) -> dict:
    """Latent attention's measured block: its floor per layer (NaN where the engine's module was
    not measured on the card's family: the block keeps its counted kernels) and its cost per
    request (:data:`core.catalog.attention_kernels.LATENT_BLOCKS`), its projections in the
    format the checkpoint keeps attention in."""
    keys = (gpu, weight, shape, engine, cache_format(bytes_kv))

    def field(attribute, missing):
        def one(g, w, name, e, c):
            row = latent_block(g, c, dense_format(shapes[name], w, attention=True), e)
            return missing if row is None else getattr(row, attribute)

        return lookup(one, *keys)

    return {
        "latent_block_floor_s": field("floor_s", np.nan),
        "latent_block_per_request_s": field("per_request_s", 0.0),
    }


def _attention_flops(pool, query_heads):
    """Decode attention's FLOPs per context token in one layer that holds a cache.

    Notes
    -----
    .. math:: 2 h (d_{qk} + d_v)

    with :math:`d_{qk} = d_v` the head size, or latent attention's absorbed sizes
    :math:`d_{qk} = r + d_{rope}`, :math:`d_v = r` (its query heads read the latent cache).
    """
    latent = np.asarray(pool.kv_lora_rank) > 0
    qk = np.where(latent, np.add(pool.kv_lora_rank, pool.qk_rope_head_dim), pool.head_dim)
    v = np.where(latent, pool.kv_lora_rank, pool.head_dim)
    return 2.0 * np.multiply(query_heads, qk + v)
