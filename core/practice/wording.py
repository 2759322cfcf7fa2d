"""How practice derivations and givens write their numbers, models, nodes and storage types."""

from __future__ import annotations

from core.catalog import BYTES_PER_NUMBER, GPUS
from core.foundation.units import express, number_text
from core.practice import draws

_SUPERSCRIPT = str.maketrans(
    "-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def figure(value: float, digits: int = 4) -> str:
    """A plain number: whole ones in full, others to ``digits`` figures; powers of ten past 1e6."""
    value = float(value)
    if abs(value) >= 1e6:
        mantissa, power = f"{value:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa} \u00d7 10{str(int(power)).translate(_SUPERSCRIPT)}"
    return number_text(value, digits)


def size(amount: float) -> str:
    """Bytes in the unit a person would say: B below 10 kB, then MB or GB."""
    if amount < 10_000:
        return express(amount, "B", "bytes")
    if amount < 1e6:
        return f"{express(amount, 'B', 'bytes')} ({express(amount, 'KiB', 'bytes', 4)})"
    if amount < 1e9:
        return express(amount, "MB", "bytes")
    return express(amount, "GB", "bytes")


def flops(value: float) -> str:
    """FLOPs in full and in TFLOP: 1.344 × 10¹³ FLOP (13.44 TFLOP)."""
    return f"{figure(value)} FLOP ({express(value, 'TFLOP', 'flops')})"


def per_s(value: float) -> str:
    """A FLOP rate in TFLOP/s."""
    return f"{express(value, 'TFLOP', 'flops')}/s"


def bandwidth(value: float) -> str:
    """Bytes per second in TB/s, four figures."""
    return f"{number_text(value / 1e12, 4)} TB/s"


def percent(fraction: float) -> str:
    """A fraction as a percentage, three figures: 30 %, 12.5 %."""
    return f"{number_text(fraction * 100, 3)} %"


def tokens(count: float) -> str:
    """A token count with its word: 1 token, 840 tokens."""
    return f"{number_text(count, 5)} token{'s' if count != 1 else ''}"


def plural(count: float, word: str) -> str:
    """A count and its word, plural unless it is one: 1 seat, 12 seats."""
    return f"{number_text(count)} {word}{'' if count == 1 else 's'}"


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


def duration(seconds: float) -> str:
    """Seconds in ms below one second, in s above."""
    if seconds < 1:
        return express(seconds, "ms", "seconds")
    return express(seconds, "s", "seconds")
