"""The prefix cache at block granularity: what survives an edit to a shared preamble.

Every function takes scalars or numpy arrays and broadcasts.
"""

from __future__ import annotations

import math

import numpy as np

from core.catalog import KV_BLOCK_TOKENS


def cached_prefix_tokens(preamble_tokens, edit_position=None, block_tokens=KV_BLOCK_TOKENS):
    """Prompt tokens a new arrival finds in the prefix cache.

    Parameters
    ----------
    preamble_tokens : int or array
        Length of the preamble every request shares.
    edit_position : int or array, optional
        Index of the first token that changed (a timestamp, a request id). ``None`` means
        the preamble is unchanged.
    block_tokens : int
        Tokens per cache block.

    Notes
    -----
    The cache matches whole blocks from the start of the prompt, and a block's identity
    includes every token before it, so the first changed block and every block after it
    miss:

    .. math:: T_{hit} = b \\cdot \\lfloor \\min(e, T_{pre}) / b \\rfloor

    An unchanged preamble keeps its full blocks (:math:`e = T_{pre}`); a partial last block
    is never shared.
    """
    preamble = np.asarray(preamble_tokens, dtype=float)
    edit = (
        preamble
        if edit_position is None
        else np.minimum(np.asarray(edit_position, dtype=float), preamble)
    )
    return block_tokens * np.floor(np.maximum(edit, 0.0) / block_tokens)


def block_states(
    preamble_tokens: int, edit_position: int | None, block_tokens=KV_BLOCK_TOKENS
) -> np.ndarray:
    """Per block of the preamble: 0 cached, 1 the block the edit lands in, 2 invalidated after it, 3 partial (never shared)."""
    blocks = int(np.ceil(preamble_tokens / block_tokens))
    index = np.arange(blocks)
    full = (index + 1) * block_tokens <= preamble_tokens
    states = np.where(full, 0, 3)
    if edit_position is not None:
        edited_block = int(min(edit_position, preamble_tokens) // block_tokens)
        states = np.where(index == edited_block, 1, np.where(index > edited_block, 2, states))
    return states


def prefill_card_hours_per_hour(arrivals_per_min, prefill_s, cards):
    """Card-hours of tensor time spent prefilling per hour of peak traffic.

    Notes
    -----
    .. math:: h = 60\\,\\lambda_{min} \\cdot t_{prefill} \\cdot c / 3600
    """
    return np.asarray(arrivals_per_min, dtype=float) * 60.0 * prefill_s * cards / 3600.0


def prefill_spend_per_hour(result, index: int) -> tuple[float, float]:
    """Card-hours and dollars of prefill per hour of peak traffic for row ``index`` of ``result``.

    Notes
    -----
    Card-hours as :func:`prefill_card_hours_per_hour`; dollars are those hours at the price
    the model billed (``result.usd_per_gpu_hour``, $0 when the price knob is 0).
    """
    hours = float(
        prefill_card_hours_per_hour(
            result.arrivals_per_min[index], result.prefill_s[index], result.cards[index]
        )
    )
    return hours, hours * float(result.usd_per_gpu_hour[index])


def work_ratio(result) -> float:
    """Prefill FLOPs of row 1 (edited) over row 0 (cached); infinite when row 0 does none."""
    flops = result.prefill_flops
    return float(flops[1] / flops[0]) if flops[0] > 0 else math.inf


def prompt_blocks(preamble_tokens: int, question_tokens: int, edit_position: int | None):
    """States of every block of the prompt: the preamble's (:func:`block_states`), then 4 for
    each block of the question, always computed fresh."""
    states = block_states(preamble_tokens, edit_position)
    question = math.ceil(question_tokens / KV_BLOCK_TOKENS)
    return np.concatenate([states, np.full(question, 4)])


def square_tokens(squares: int, blocks_per_square: int) -> tuple[np.ndarray, np.ndarray]:
    """First and last token of each square of ``blocks_per_square`` blocks."""
    first = np.arange(squares) * blocks_per_square * KV_BLOCK_TOKENS
    return first, first + blocks_per_square * KV_BLOCK_TOKENS - 1


def blocks_of(tokens) -> int:
    """Whole cache blocks ``tokens`` fill."""
    return int(tokens // KV_BLOCK_TOKENS)


BLOCK_TOKENS = KV_BLOCK_TOKENS  # tokens one cache block holds, as the prefix lab words it
