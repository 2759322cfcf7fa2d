"""How numbers read on the page: every lab writes them the same way, rounding with
:func:`core.foundation.units.significant` (the vocabulary derivations and answer checking share)."""

from __future__ import annotations

import math

from core.catalog.custom import scenario_shape
from core.foundation import units
from core.foundation.units import giga, tera
from core.scenario.knobs import Scenario

MINUS = "\u2212"  # a real minus sign lines up with the plus


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


def count(value: float) -> str:
    """A whole number with thousands separators."""
    return f"{max(0.0, float(value)):,.0f}"


def gigabytes(size: float, digits: int | None = None) -> str:
    """Bytes as decimal GB, to three significant figures (or ``digits`` decimals): 0.52 GB, 60.8 GB."""
    gb = giga(max(0.0, float(size)))
    text = f"{gb:,.{digits}f}" if digits is not None else units.significant(gb)
    return f"{text} GB"


def memory(size: float) -> str:
    """A size for a headline card: 17 MB, 0.52 GB, 8.39 GB, 140 GB, 1.31 TB (three figures)."""
    size = max(0.0, float(size))
    if size < 1e8:
        return f"{size / 1e6:,.0f} MB" if size >= 1e6 else f"{size / 1e3:,.0f} kB"
    if size < 1e12:
        return gigabytes(size)
    return f"{units.significant(tera(size))} TB"


def duration(seconds: float, unbounded: bool = False) -> str:
    """Latency: 27 ms, 1.24 s, 12 s, 3.4 min; 'unbounded' for a queue that never drains."""
    if unbounded:
        return "unbounded"
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
    """Throughput in tokens per second."""
    value = max(0.0, float(tokens_per_s))
    return f"{value:,.1f} tok/s" if 0 < value < 10 else f"{value:,.0f} tok/s"


# Past this a dollar figure stops being a figure a student can read: it is written as a bound.
HUMANE_DOLLARS = 1e9


def _beyond(amount: float) -> str | None:
    """'more than $1 billion' for an amount past :data:`HUMANE_DOLLARS`, else None."""
    return "more than $1 billion" if not float(amount) <= HUMANE_DOLLARS else None


def dollars(amount: float) -> str:
    """Money, whole dollars; past $1 billion, 'more than $1 billion'."""
    return _beyond(amount) or f"${max(0.0, float(amount)):,.0f}"


def price(usd: float) -> str:
    """A price in dollars and cents: $3.99; past $1 billion, 'more than $1 billion'."""
    return _beyond(usd) or f"${max(0.0, float(usd)):,.2f}"


def percent(fraction: float, digits: int = 0) -> str:
    """A fraction as a percentage."""
    return f"{max(0.0, float(fraction)) * 100:.{digits}f}%"


def flops(value: float) -> str:
    """Floating-point operations with an SI prefix: 13.4 TFLOP."""
    value = max(0.0, float(value))
    for scale, prefix in ((1e18, "E"), (1e15, "P"), (1e12, "T"), (1e9, "G"), (1e6, "M")):
        if value >= scale:
            return f"{value / scale:.3g} {prefix}FLOP"
    return f"{value:.3g} FLOP"


def fraction(value: float) -> str:
    """A number between 0 and a few, to two decimals: 0.70, 2.77."""
    return f"{finite(value):.2f}"


def bandwidth(bytes_per_s: float) -> str:
    """Memory bandwidth in TB/s, three significant figures: 3.35 TB/s, 2 TB/s."""
    return f"{units.significant(tera(finite(bytes_per_s)))} TB/s"


def billions(count: float) -> str:
    """A parameter count in billions, three significant figures: 70B, 13B, 1.5B."""
    return f"{units.significant(giga(finite(count)))}B"


def bar_widths(values) -> list[str]:
    """CSS widths of bars drawn to one scale, the largest full width: ['100.0%', '50.0%']."""
    widest = max(values)
    return [f"{100 * value / widest:.1f}%" if widest > 0 else "0%" for value in values]


def ratio(value: float) -> str:
    """A ratio of two figures, two significant figures: 4.8x, 23x, 150x."""
    return f"{units.significant(finite(value), 2, 1)}\u00d7"


def intensity(value: float) -> str:
    """Arithmetic intensity in FLOPs per byte, three significant figures: 7.62 FLOP/B, 295 FLOP/B."""
    return f"{units.significant(finite(value))} FLOP/B"


def teraflops(value: float) -> str:
    """FLOP/s in TFLOP/s, three significant figures: 989 TFLOP/s."""
    return f"{units.significant(tera(finite(value)))} TFLOP/s"


def signed(value: float, unit: str = "", digits: int = 0) -> str:
    """A difference with its sign: +0 seats, +12 ms, -340 tok/s."""
    rounded = round(float(value), digits)
    if rounded == 0:
        rounded = 0.0  # no "-0"
    sign = "+" if rounded >= 0 else MINUS
    body = f"{abs(rounded):,.{digits}f}"
    return f"{sign}{body}{' ' + unit if unit else ''}"


def signed_dollars(value: float) -> str:
    """A difference in money: $0, +$2,913, -$1,200."""
    rounded = round(float(value))
    if rounded == 0:
        return "$0"
    return f"{'+' if rounded > 0 else MINUS}${abs(rounded):,.0f}"


def token_price(usd: float) -> str:
    """Dollars per million tokens: $0.068, $0.65, $1.39, $12.40; past $1 billion, a bound."""
    if _beyond(usd):
        return _beyond(usd)
    value = max(0.0, float(usd))
    return f"${value:,.3f}" if value < 0.1 else f"${value:,.2f}"


def finite(value: float, fallback: float = 0.0) -> float:
    """A last guard before a number is written on the page."""
    value = float(value)
    return value if math.isfinite(value) else fallback


def split_unit(text: str) -> tuple[str, str]:
    """'27 ms' -> ('27', 'ms'); a word without a unit stays whole."""
    number, _, unit = text.rpartition(" ")
    return (number, unit) if number else (text, "")


def signed_duration(seconds: float) -> str:
    """A difference in time: +0 ms, +12 ms, -340 ms, +25.5 s, +4.2 min."""
    value = float(seconds)
    if abs(value) < 1:
        return signed(value * 1000, "ms")
    sign = "+" if value > 0 else MINUS
    return sign + duration(abs(value))


def plural(number: float, word: str, words: str | None = None) -> str:
    """A count and its noun, agreeing: 1 seat, 7 seats, 1,024 requests."""
    return f"{count(number)} {word if round(float(number)) == 1 else words or word + 's'}"


def article(text: str) -> str:
    """'a' or 'an' for a phrase that opens with a figure or a word: an 8,000-token, a 1,200-token."""
    leading = text.lstrip().split(",")[0].split(" ")[0].split("-")[0]
    if leading[:1].isdigit():
        # Said aloud: eight..., eleven, eighteen (and their thousands) open with a vowel.
        vowel = leading.startswith("8") or (len(leading) in (2, 5) and leading[:2] in ("11", "18"))
    else:
        vowel = leading[:1].lower() in "aeio"
    return f"{'an' if vowel else 'a'} {text}"


def times(ratio: float) -> str:
    """A prediction over a measurement: x0.90, x3.6."""
    return f"\u00d7{ratio:.2f}" if ratio < 10 else f"\u00d7{ratio:.0f}"


def axis_text(measure: str, value: float) -> str:
    """One figure of a chart axis as the page writes it."""
    if measure == "ttft":
        return duration(value)
    if measure == "cost":
        return token_price(value)
    return rate(value)


def model_name(scenario: Scenario) -> str:
    """The model the scenario runs, as the page names it."""
    return scenario_shape(scenario).name
