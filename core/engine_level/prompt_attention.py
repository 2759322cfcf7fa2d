"""A prompt's causal attention, at the rate the engine's own prompt-attention kernel reaches.

Attention over a prompt multiplies every query token with the keys before it: a full layer's
FLOPs grow with the prompt squared, a sliding-window or chunked layer's with the prompt times its
window (:func:`core.whiteboard.attention.causal_pairs`, the long-context lab's count too). A
measured kernel reaches a share of the card's bf16 matmul rate on them, and each query token pays
some keys' worth of work more (the tiles on the diagonal, computed whole, and the softmax and
output epilogue of its row), so a short prompt's attention runs well below the kernel's best rate
(:data:`core.catalog.attention_kernels.PREFILL_ATTENTION`, by card family, cache and engine).
"""

from __future__ import annotations

from functools import cached_property

import numpy as np

from core.foundation.vector import any_true
from core.whiteboard.attention import causal_pairs


class PromptAttention:
    """The prompt-attention part of a :class:`~core.engine_level.node.Node` (it holds the
    fields: the kernel's ``prefill_attention_share`` and ``prefill_attention_keys``, the
    ``window_layers`` and their ``attention_window``, chunked where ``window_chunked``)."""

    def prompt_attention_s(self, miss_tokens, hit_tokens, attention_flops):
        r"""Seconds the node's cards take over the attention of ``miss_tokens`` prompt tokens
        after ``hit_tokens`` found in the prefix cache, ``attention_flops`` a card's bf16 rate.

        Notes
        -----
        .. math:: t = \frac{4 H_q d \left(L_f \Delta p + L_w \Delta p_w
                  + (L_f + L_w)\,k\,(T - T_{hit})\right)}{c\,s\,F}

        with :math:`\Delta p = p(T) - p(T_{hit})` the new tokens' causal pairs in a full layer
        and :math:`\Delta p_w` in a window layer (:func:`~core.whiteboard.attention.causal_pairs`),
        :math:`4 H_q d` FLOPs a pair (:math:`d` the prompt's head width), :math:`k` the kernel's
        extra keys a query token and :math:`s` its share of the rate :math:`F`.
        """
        per_pair, keys, full = self._prompt_attention_parts
        prompt = np.add(miss_tokens, hit_tokens)
        pairs = full * (causal_pairs(prompt) - causal_pairs(hit_tokens))
        if self._has_windows:
            window = (self.attention_window, self.window_chunked)
            windowed = causal_pairs(prompt, *window) - causal_pairs(hit_tokens, *window)
            pairs = pairs + self.window_layers * windowed
        return per_pair * (pairs + keys * miss_tokens) / attention_flops

    @cached_property
    def _has_windows(self) -> bool:
        """Whether any layer here attends a window (else only full layers' pairs are counted)."""
        return bool(any_true(np.asarray(self.window_layers) > 0))

    @cached_property
    def _prompt_attention_parts(self):
        """(FLOPs a pair over the cards' kernel share, extra keys a token over the layers, full
        layers), fixed for the node."""
        layers = self._attention_layers
        per_pair = 4.0 * np.multiply(self.query_heads, self._prefill_width)
        per_pair = per_pair / np.multiply(self.cards, self.prefill_attention_share)
        keys = np.multiply(layers, self.prefill_attention_keys)
        return per_pair, keys, np.subtract(layers, self.window_layers)
