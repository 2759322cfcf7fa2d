"""How practice givens name models, nodes, storage types and seats.

Every number in them, and in the derivations, is written by core's one vocabulary,
:mod:`core.foundation.numbers` (working figures, ``figures=``), the same writers the labs use.
"""

from __future__ import annotations

from core.catalog import BYTES_PER_NUMBER, GPUS
from core.foundation.units import number_text
from core.practice import draws


def model(name: str) -> str:
    """A model's name and the shape its KV cache depends on."""
    shape = draws.SHAPES[name][1]
    return f"{name}: {shape.layers} layers, {shape.kv_heads} KV heads, head dim {shape.head_dim}"


def params(name: str) -> str:
    """A model's parameter count in billions (and its active share, for a mixture of experts)."""
    shape = draws.SHAPES[name][1]
    text = f"{number_text(shape.params / 1e9, 4)} billion"
    if shape.active_params != shape.params:
        text += f" ({number_text(shape.active_params / 1e9, 4)} billion active per token)"
    return text


def dtype(name: str, what: str) -> str:
    """A storage type and its bytes per ``what``: bf16, 2 bytes per number."""
    width = BYTES_PER_NUMBER[name]
    return f"{name}, {width} byte{'s' if width != 1 else ''} per {what}"


def node(cards: int, gpu: str) -> str:
    """A node as cards x card, with each card's memory."""
    return f"{cards} \u00d7 {gpu}, {number_text(GPUS[gpu].memory_bytes / 1e9)} GB each"


def seat(prompt: int, answer: int) -> str:
    """What one seat holds: a prompt, and its answer when there is one."""
    if not answer:
        return f"{number_text(prompt)} tokens (a prompt, no answer yet)"
    return f"{number_text(prompt)} prompt + {number_text(answer)} answer tokens"
