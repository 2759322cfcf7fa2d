"""The lab's one number vocabulary: how every quantity is written, on a page or in a derivation.

Each writer has one name and one meaning. Two precisions, one rounding rule
(:func:`core.foundation.units.significant`):

- a *headline* figure, the default, as the walkthrough's seed writes it: 27 ms, 1.4k tokens,
  60.8 GB, 52%, $2,913 (three significant figures at most, a unit a person would say);
- a *working* figure in a derivation, asked for with ``figures=``: 27.12 ms, 3.352 TB/s, so a
  student can carry it to the next step (:func:`core.foundation.units.number_text`).

Labs reach these through ``labs.page.format``; practice derivations call them directly.
"""

from __future__ import annotations

import math

from core.foundation.units import express, giga, number_text, significant, tera

MINUS = "\u2212"  # a real minus sign lines up with the plus

# Past this a dollar figure stops being a figure a student can read: it is written as a bound.
HUMANE_DOLLARS = 1e9

_SUPERSCRIPT = str.maketrans(
    "-0123456789", "\u207b\u2070\u00b9\u00b2\u00b3\u2074\u2075\u2076\u2077\u2078\u2079"
)


def finite(value: float, fallback: float = 0.0) -> float:
    """A last guard before a number is written: NaN and infinities become ``fallback``."""
    value = float(value)
    return value if math.isfinite(value) else fallback


def count(value: float) -> str:
    """A whole number with thousands separators: 1,024."""
    return f"{max(0.0, float(value)):,.0f}"


def figure(value: float, figures: int = 4) -> str:
    """A plain working number: whole ones in full, others to ``figures`` significant figures;
    past a million, a power of ten: 1.344 × 10¹³."""
    value = float(value)
    if abs(value) >= 1e6:
        mantissa, power = f"{value:.{figures - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa} \u00d7 10{str(int(power)).translate(_SUPERSCRIPT)}"
    return number_text(value, figures)


def plural(number: float, word: str, words: str | None = None, figures: int | None = None) -> str:
    """A count and its noun, agreeing with the number as written: 1 seat, 7 seats, 1,024
    requests; with ``figures``, a working count such as 840.5 tokens."""
    text = count(number) if figures is None else number_text(number, figures)
    return f"{text} {word if text == '1' else words or word + 's'}"


def tokens(count: float) -> str:
    """Token counts the way people say them: 840, 1.4k, 22k, 464k, 1.2M."""
    count = max(0.0, float(count))
    if count < 1000:
        return f"{count:,.0f}"
    if count < 10_000:
        return f"{count / 1000:.1f}k".replace(".0k", "k")
    if count < 999_500:
        return f"{count / 1000:,.0f}k"
    return f"{count / 1e6:.1f}M".replace(".0M", "M")


def billions(count: float) -> str:
    """A parameter count in billions, three significant figures: 70B, 13B, 1.5B."""
    return f"{significant(giga(finite(count)))}B"


def gigabytes(size: float, digits: int | None = None) -> str:
    """Bytes as decimal GB, to three significant figures (or ``digits`` decimals): 0.52 GB, 60.8 GB."""
    gb = giga(max(0.0, float(size)))
    text = f"{gb:,.{digits}f}" if digits is not None else significant(gb)
    return f"{text} GB"


def memory(size: float) -> str:
    """A size for a headline card: 17 MB, 0.52 GB, 8.39 GB, 140 GB, 1.31 TB (three figures)."""
    size = max(0.0, float(size))
    if size < 1e8:
        return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size / 1e3:,.0f} kB"
    if size < 1e12:
        return gigabytes(size)
    return f"{significant(tera(size))} TB"


def size(amount: float) -> str:
    """A working size in the unit a person would say, four figures: bytes in full below 10 kB,
    with KiB up to a megabyte, then MB or GB: 131,072 B (128 KiB), 0.5243 GB."""
    if amount < 10_000:
        return express(amount, "B", "bytes")
    if amount < 1e6:
        return f"{express(amount, 'B', 'bytes')} ({express(amount, 'KiB', 'bytes', 4)})"
    if amount < 1e9:
        return express(amount, "MB", "bytes")
    return express(amount, "GB", "bytes")


def first_token(seconds: float, unbounded: bool = False, seats: float = 1.0) -> str:
    """A first token's time as every page writes it: 'none' where no seat fits (no request
    ever starts), 'unbounded' where the queue never drains, else :func:`duration`.

    >>> first_token(0.027), first_token(9.0, True), first_token(9.0, True, seats=0)
    ('27 ms', 'unbounded', 'none')
    """
    if seats < 1:
        return "none"
    return duration(seconds, unbounded)


def duration(seconds: float, unbounded: bool = False, figures: int | None = None) -> str:
    """Latency: 27 ms, 1.24 s, 12 s, 3.4 min; 'unbounded' for a queue that never drains.
    With ``figures``, a working time: ms below one second, s above (27.12 ms, 1.354 s)."""
    if unbounded:
        return "unbounded"
    if figures is not None:
        return express(seconds, "ms" if seconds < 1 else "s", "seconds", figures)
    seconds = max(0.0, float(seconds))
    if seconds < 0.001:
        return f"{seconds * 1000:.2f} ms"
    if seconds < 0.01:
        return f"{seconds * 1000:.1f} ms"
    if seconds < 1:
        return f"{seconds * 1000:.0f} ms"
    if seconds < 10:
        return f"{seconds:.2f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    return f"{seconds / 60:.1f} min"


def rate(tokens_per_s: float) -> str:
    """Throughput in tokens per second: 1,698 tok/s, 2.5 tok/s."""
    value = max(0.0, float(tokens_per_s))
    return f"{value:,.1f} tok/s" if 0 < value < 10 else f"{value:,.0f} tok/s"


def percent(fraction: float, digits: int = 0, figures: int | None = None) -> str:
    """A fraction as a percentage, to ``digits`` decimals (52%, 12.5%), or to ``figures``
    significant figures in a derivation's working."""
    share = max(0.0, float(fraction)) * 100
    text = number_text(share, figures) if figures is not None else f"{share:.{digits}f}"
    return f"{text}%"


def fraction(value: float) -> str:
    """A number between 0 and a few, to two decimals: 0.70, 2.77."""
    return f"{finite(value):.2f}"


def ratio(value: float) -> str:
    """A ratio of two figures, two significant figures: 4.8×, 23×, 150×."""
    return f"{significant(finite(value), 2, 1)}\u00d7"


def times(ratio: float) -> str:
    """A prediction over a measurement: ×0.90, ×3.6."""
    return f"\u00d7{ratio:.2f}" if ratio < 10 else f"\u00d7{ratio:.0f}"


def _in_figures(value: float, figures: int | None) -> str:
    """A headline figure (three significant, two decimals at most), or a working one."""
    return significant(finite(value)) if figures is None else number_text(value, figures)


def bandwidth(bytes_per_s: float, figures: int | None = None) -> str:
    """Memory bandwidth in TB/s: 3.35 TB/s, 2 TB/s (2.039 TB/s at four working figures)."""
    return f"{_in_figures(tera(bytes_per_s), figures)} TB/s"


def teraflops(value: float, figures: int | None = None) -> str:
    """FLOP/s in TFLOP/s: 989 TFLOP/s (989.4 TFLOP/s at four working figures)."""
    return f"{_in_figures(tera(value), figures)} TFLOP/s"


def flops(value: float) -> str:
    """Floating-point operations with an SI prefix, three figures: 13.4 TFLOP."""
    value = max(0.0, float(value))
    for scale, prefix in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}FLOP"
    return f"{value:.3g} FLOP"


def intensity(value: float) -> str:
    """Arithmetic intensity in FLOPs per byte, three significant figures: 7.62 FLOP/B."""
    return f"{significant(finite(value))} FLOP/B"


def _beyond(amount: float) -> str | None:
    """'more than $1 billion' for an amount past :data:`HUMANE_DOLLARS`, else None."""
    return "more than $1 billion" if not float(amount) <= HUMANE_DOLLARS else None


def dollars(amount: float) -> str:
    """Money, whole dollars: $2,913; past $1 billion, 'more than $1 billion'."""
    return _beyond(amount) or f"${max(0.0, float(amount)):,.0f}"


def price(usd: float) -> str:
    """A price in dollars and cents: $3.99; past $1 billion, 'more than $1 billion'."""
    return _beyond(usd) or f"${max(0.0, float(usd)):,.2f}"


def token_price(usd: float) -> str:
    """Dollars per million tokens: $0.068, $0.65, $1.39, $12.40; past $1 billion, a bound."""
    if _beyond(usd):
        return _beyond(usd)
    value = max(0.0, float(usd))
    return f"${value:,.3f}" if value < 0.1 else f"${value:,.2f}"


def signed(value: float, unit: str = "", digits: int = 0) -> str:
    """A difference with its sign: +0 seats, +12 ms, −340 tok/s."""
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0  # no "-0"
    sign = "+" if rounded >= 0 else MINUS
    body = f"{abs(rounded):,.{digits}f}"
    return f"{sign}{body}{' ' + unit if unit else ''}"


def signed_dollars(value: float) -> str:
    """A difference in money: $0, +$2,913, −$1,200."""
    rounded = round(float(value))
    if rounded == 0:
        return "$0"
    return f"{'+' if rounded > 0 else MINUS}${abs(rounded):,.0f}"


def signed_duration(seconds: float) -> str:
    """A difference in time: +0 ms, +12 ms, −340 ms, +25.5 s, +4.2 min."""
    value = float(seconds)
    if abs(value) < 1:
        return signed(value * 1000, "ms")
    sign = "+" if value > 0 else MINUS
    return sign + duration(abs(value))
