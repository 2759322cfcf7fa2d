"""A prompt's causal attention, at the rate the engine's own prompt-attention kernel reaches.

Attention over a prompt multiplies every query token with the keys before it: its FLOPs grow
with the prompt squared (:func:`core.engine_level.terms.attention_prefill_flops`). A measured
kernel reaches a share of the card's bf16 matmul rate on them, and each query token pays some
keys' worth of work more (the tiles on the diagonal, computed whole, and the softmax and output
epilogue of its row), so a short prompt's attention runs well below the kernel's best rate
(:data:`core.catalog.attention_kernels.PREFILL_ATTENTION`, by card family, cache and engine).
"""

from __future__ import annotations

import numpy as np

from core.engine_level import terms as physical


class PromptAttention:
    """The prompt-attention part of a :class:`~core.engine_level.node.Node` (it holds the
    fields ``prefill_attention_share`` and ``prefill_attention_keys``)."""

    def prompt_attention_s(self, miss_tokens, hit_tokens, attention_flops):
        r"""Seconds the node's cards take over the attention of ``miss_tokens`` prompt tokens
        after ``hit_tokens`` found in the prefix cache, ``attention_flops`` a card's bf16 rate.

        Notes
        -----
        .. math:: t = \frac{F_{attn} + 4 L H_q d\,k\,(T - T_{hit})}{c\,s\,F}

        with :math:`F_{attn}` the causal pairs' FLOPs, :math:`k` the kernel's extra keys a query
        token and :math:`s` its share of the rate :math:`F` (``prefill_attention_keys``,
        ``prefill_attention_share``).
        """
        layers, heads, width = self._attention_layers, self.query_heads, self._prefill_width
        prompt = np.add(miss_tokens, hit_tokens)
        pairs = physical.attention_prefill_flops(layers, heads, width, prompt, hit_tokens)
        extra = 4.0 * np.multiply(layers, heads) * width * self.prefill_attention_keys
        work = pairs + extra * miss_tokens
        return work / (self.cards * attention_flops * self.prefill_attention_share)
