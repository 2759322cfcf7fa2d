"""How a benchmark tool sizes the engine it drives when the command line leaves it to the tool.

``trtllm-bench throughput`` without ``--max_batch_size`` computes one from the card's memory
and the dataset's lengths, and a max-load run (every request queued at once) then keeps that
many requests running, not as many as the KV cache would hold.
"""

from __future__ import annotations

import numpy as np

from core.catalog import GB, GIB
from core.catalog.engines import TRTLLM_BENCH_MAX_REQUESTS


def trtllm_bench_batch(params, bytes_per_param, kv_bytes, attention_layers, cache_heads,
                       head_size, cards, card_memory_bytes, prompt, answer, ranks,
                       kv_fraction, checkpoint_scale):  # fmt: skip
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
    kv_fraction, checkpoint_scale : float or ndarray
        The release's share of the room the estimate counts, and the bytes it counts per byte
        of checkpoint (:class:`core.catalog.engine_versions.EngineVersion`'s ``bench_*``: the
        0.1x build counts 0.95 and a decimal "GB" of checkpoint against a GiB of memory).

    Notes
    -----
    With :math:`M` the node's memory and :math:`W = s\,P\,b` the checkpoint as the tool counts it,

    .. math:: r = \frac{f (M - W)}{2 L\,\max(c, h_{kv})\,d\,q\,(I + O)}, \qquad
              \hat r = \min(r, 4096)

    rounded up to a multiple of 32 (at least 64) below 256, of 128 below 1,024 and of 256
    above, then multiplied by the data-parallel ranks; :math:`f` and :math:`s` are the release's
    (0.95 and :math:`2^{30}/10^9` for a 0.1x build, 0.90 and 1 for the PyTorch backend).
    """
    memory = cards * card_memory_bytes / GB * GIB
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
    return np.where(np.isnan(bytes_per_param), np.inf, rounded * ranks)
