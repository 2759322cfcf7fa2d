"""How a benchmark tool sizes the engine it drives when the command line leaves it to the tool.

``trtllm-bench throughput`` without ``--max_batch_size`` and ``--max_num_tokens`` computes both
from the card's memory and the dataset's lengths (``tensorrt_llm/bench/build/tuning.py``
``calc_engine_setting`` and ``finetune_setting``). A max-load run (every request queued at
once) then keeps that many requests running, not as many as the KV cache would hold, and the
engine sizes its cache after a step of that many tokens (:mod:`core.engine_level.memory`).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from core.catalog import ENGINE_MAX_NUM_TOKENS
from core.catalog.engines import TRTLLM_BENCH_MAX_REQUESTS, TRTLLM_BENCH_MAX_TOKENS
from core.engine_level.memory import engine_memory_bytes


class BenchSettings(NamedTuple):
    """What ``trtllm-bench`` sizes the engine for (:func:`trtllm_bench_settings`)."""

    batch: object  # requests one node runs at once (inf: the tool leaves the engine's default)
    tokens: object  # tokens one rank's step may carry (max_num_tokens)


def trtllm_bench_settings(params, bytes_per_param, kv_bytes, attention_layers, cache_heads,
                          head_size, cards, card_memory_bytes, prompt, answer, kv_fraction,
                          checkpoint_scale, ranks=1.0, chunked_prefill=False,
                          default_batch=np.inf):  # fmt: skip
    r"""The batch limit and step size ``trtllm-bench`` picks, from one estimate of the KV room.

    Parameters
    ----------
    params : float or ndarray
        The checkpoint's parameters.
    bytes_per_param : float or ndarray
        What the tool counts per parameter
        (:data:`core.catalog.engines.TRTLLM_BENCH_BYTES_PER_PARAM`); NaN where the tool keeps
        the engine's defaults for the checkpoint's format (``default_batch`` a rank, and
        :data:`core.catalog.ENGINE_MAX_NUM_TOKENS` a step).
    kv_bytes : float or ndarray
        Bytes of one cached element.
    attention_layers, cache_heads, head_size : float or ndarray
        As the config.json states them: layers with attention (sliding or not), key/value heads
        (a latent-attention model states its query heads) and the head size (``head_dim``, else
        hidden size over query heads).
    cards, card_memory_bytes : float or ndarray
        Tensor-parallel width and each card's memory.
    prompt, answer : float or ndarray
        The dataset's mean input and output lengths.
    kv_fraction, checkpoint_scale : float or ndarray
        The release's share of the room the estimate counts, and the bytes it counts per byte
        of checkpoint (:class:`core.catalog.engine_versions.EngineVersion`'s ``bench_*``: the
        0.1x build counts 0.95 and a decimal "GB" of checkpoint against a GiB of memory).
    ranks, chunked_prefill : float or ndarray, bool or ndarray
        Attention data-parallel ranks (1 without: the limit is each rank's, the step one
        rank's), and whether the release prefills in chunks.
    default_batch : float or ndarray
        The engine's own limit a rank, kept for a format the tool does not size (inf: none).

    Notes
    -----
    With :math:`M` the node's memory and :math:`W = s\,P\,b` the checkpoint as the tool counts it,

    .. math:: r = \frac{f (M - W)}{2 L\,\max(c, h_{kv})\,d\,q\,(I + O)}, \qquad
              \hat r = \min(r, 4096)

    The batch limit is :math:`\hat r` rounded up to a multiple of 32 (at least 64) below 256,
    of 128 below 1,024 and of 256 above, then multiplied by the data-parallel ranks;
    :math:`f` and :math:`s` are the release's (0.95 and :math:`2^{30}/10^9` for a 0.1x build,
    0.90 and 1 for the PyTorch backend). The step size is

    .. math:: \hat t = \min\left(\hat r \left(1 + \frac{I}{O}\right),\ 32768\right)

    rounded up to a multiple of 256 (at least 2,048) below 4,096, of 512 below 8,192 and of
    1,024 above (``finetune_setting``). Without chunked prefill a step must hold a whole prompt,
    so the tool raises it to at least the longest prompt plus its batch limit
    (``tensorrt_llm/bench/benchmark/utils/general.py`` ``get_settings``: ``max(max_num_tokens,
    max_isl + max_batch_size)``).
    """
    memory = engine_memory_bytes(cards, card_memory_bytes)
    checkpoint = np.multiply(params, bytes_per_param) * checkpoint_scale
    per_token = 2.0 * attention_layers * np.maximum(cards, cache_heads) * head_size * kv_bytes
    room = kv_fraction * np.maximum(memory - checkpoint, 0.0)
    requests = np.minimum(room / (per_token * (prompt + answer)), TRTLLM_BENCH_MAX_REQUESTS)
    rounded = np.where(
        requests < 256,
        np.maximum(64.0, 32.0 * np.ceil(requests / 32.0)),
        np.where(requests < 1024, 128.0 * np.ceil(requests / 128.0),
                 256.0 * np.ceil(requests / 256.0)),
    )  # fmt: skip
    # (a scenario with no answer counts one token: the tool divides by the answer's length)
    raw = np.minimum(requests * (1.0 + np.divide(prompt, np.maximum(answer, 1.0))),
                     TRTLLM_BENCH_MAX_TOKENS)  # fmt: skip
    tokens = np.where(
        raw < 4096,
        np.maximum(2048.0, 256.0 * np.ceil(raw / 256.0)),
        np.where(raw < 8192, 512.0 * np.ceil(raw / 512.0), 1024.0 * np.ceil(raw / 1024.0)),
    )
    tokens = np.maximum(tokens, np.where(chunked_prefill, 0.0, prompt + rounded))
    untuned = np.isnan(bytes_per_param)
    return BenchSettings(
        np.where(untuned, default_batch, rounded) * ranks,
        np.where(untuned, float(ENGINE_MAX_NUM_TOKENS), tokens),
    )
