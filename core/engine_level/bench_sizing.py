"""How a benchmark tool sizes the engine it drives when the command line leaves it to the tool.

``trtllm-bench throughput`` without ``--max_batch_size`` computes one from the card's memory
and the dataset's lengths, and a max-load run (every request queued at once) then keeps that
many requests running, not as many as the KV cache would hold.
"""

from __future__ import annotations

import numpy as np

from core.catalog import ENGINE_KV_FRACTION, GB, GIB
from core.catalog.engines import TRTLLM_BENCH_MAX_REQUESTS


def trtllm_bench_batch(params, bytes_per_param, kv_bytes, attention_layers, cache_heads,
                       head_size, cards, card_memory_bytes, prompt, answer, ranks):  # fmt: skip
    r"""The requests ``trtllm-bench`` lets one node run at once, by its own estimate.

    Parameters
    ----------
    params : float or ndarray
        The checkpoint's parameters.
    bytes_per_param : float or ndarray
        What the tool counts per parameter
        (:data:`core.catalog.engines.TRTLLM_BENCH_BYTES_PER_PARAM`); NaN where the tool keeps
        its default batch for the checkpoint's format.
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
    ranks : float or ndarray
        Attention data-parallel ranks (1 without): the limit is each rank's.

    Notes
    -----
    With :math:`M` the node's memory and :math:`W = P\,b` the checkpoint as the tool counts it,

    .. math:: r = \frac{f (M - W)}{2 L\,\max(c, h_{kv})\,d\,q\,(I + O)}, \qquad
              \hat r = \min(r, 4096)

    rounded up to a multiple of 32 (at least 64) below 256, of 128 below 1,024 and of 256
    above, then multiplied by the data-parallel ranks; :math:`f = 0.9`, the tool's default.
    """
    memory = cards * card_memory_bytes / GB * GIB
    checkpoint = np.multiply(params, bytes_per_param)
    per_token = 2.0 * attention_layers * np.maximum(cards, cache_heads) * head_size * kv_bytes
    room = ENGINE_KV_FRACTION * np.maximum(memory - checkpoint, 0.0)
    requests = np.minimum(room / (per_token * (prompt + answer)), TRTLLM_BENCH_MAX_REQUESTS)
    rounded = np.where(
        requests < 256,
        np.maximum(64.0, 32.0 * np.ceil(requests / 32.0)),
        np.where(requests < 1024, 128.0 * np.ceil(requests / 128.0),
                 256.0 * np.ceil(requests / 256.0)),
    )  # fmt: skip
    return np.where(np.isnan(bytes_per_param), np.inf, rounded * ranks)
