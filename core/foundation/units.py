"""Units and the one rounding rule: unit scales, the kinds an answer comes in, significant figures.

:func:`significant` is the lab's one way to round a figure; :func:`number_text` is the same rule
for working figures, and :func:`express` writes a value in a unit of its kind. How each quantity
reads (27 ms, 1.4k tokens, 52%) is :mod:`core.foundation.numbers`, built on these.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

import numpy as np

from core.foundation.validation import knob_error

GIGA = 1e9
TERA = 1e12
KIB = 2**10


def significant(amount: float, figures: int = 3, most_decimals: int = 2) -> str:
    """A number to ``figures`` significant figures, at most ``most_decimals`` decimals from 0.01
    up, trailing zeros dropped, thousands separated: the page's one way to round a figure.

    Examples: 0.5243 -> "0.52", 1.312 -> "1.31", 8.39 -> "8.39", 60.8 -> "60.8", 140.2 -> "140",
    1234.5 -> "1,235", 0.00451 -> "0.00451".
    """
    amount = float(amount)
    if not math.isfinite(amount):
        return str(amount)
    if amount == 0:
        return "0"
    magnitude = math.floor(math.log10(abs(amount)))
    decimals = max(0, figures - 1 - magnitude)
    if abs(amount) >= 0.01:
        decimals = min(decimals, most_decimals)
    text = f"{amount:,.{decimals}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def rounded(values, figures: int = 4):
    r"""Numbers to ``figures`` significant figures, never coarser than a whole number.

    Vectorised over arrays; NaN and infinities pass through. The download's rounding: a CSV
    carries 1698 tok/s and 0.02712 s, not 1698.4726489 and 0.027118339.

    Notes
    -----
    With :math:`m = \lfloor \log_{10} |x| \rfloor`, :math:`x` is rounded to
    :math:`\max(0, f - 1 - m)` decimals.
    """
    array = np.asarray(values, dtype=float)
    finite = np.isfinite(array) & (array != 0)
    magnitude = np.floor(np.log10(np.abs(np.where(finite, array, 1.0))))
    decimals = np.maximum(0, figures - 1 - magnitude)
    finite &= decimals < 300  # below 1e-296 the scale overflows: such a figure is left as it is
    scale = 10.0 ** np.where(finite, decimals, 0.0)
    return np.where(finite, np.round(array * scale) / scale, array)


def giga(value):
    """A quantity in units of 10^9 (bytes to GB, FLOP/s to GFLOP/s)."""
    return value / GIGA


def kib(value):
    """Bytes in KiB (2^10 bytes)."""
    return value / KIB


def tera(value):
    """A quantity in units of 10^12 (bytes/s to TB/s, FLOP/s to TFLOP/s)."""
    return value / TERA


@dataclass(frozen=True)
class Unit:
    """One unit a quantity can be written in.

    Attributes
    ----------
    label : str
        How the page writes it, e.g. ``"KiB"``.
    factor : float
        How many base units one of it is, e.g. 1,024 bytes.
    """

    label: str
    factor: float


@dataclass(frozen=True)
class Kind:
    """A quantity an answer can be: its base unit, the other units, and their spellings.

    Attributes
    ----------
    name : str
        Key of the kind, e.g. ``"bytes"``.
    what : str
        The quantity in words, e.g. ``"a size in bytes"``.
    units : tuple of Unit
        Every unit, the base unit (factor 1) first.
    aliases : dict
        Lower-case spelling without spaces -> :class:`Unit`.
    scaled : bool
        Whether a bare scale word may stand before the unit ("2.9k $", "13.4 trillion FLOP").
    whole : bool
        Whether the quantity comes in whole numbers only (seats, nodes).
    """

    name: str
    what: str
    units: tuple[Unit, ...]
    aliases: dict[str, Unit] = field(repr=False)
    scaled: bool = False
    whole: bool = False

    @property
    def base(self) -> Unit:
        """The unit the value is kept in."""
        return self.units[0]

    def unit(self, label: str) -> Unit:
        """The unit written ``label`` (any accepted spelling).

        Raises
        ------
        ValueError
            When ``label`` is not a unit of this kind, naming the units that are.
        """
        found = self.aliases.get(normalise(label))
        if found is None:
            allowed = ", ".join(unit.label for unit in self.units)
            raise knob_error("unit", label, f"a unit of {self.what}: one of {allowed}")
        return found


def _kind(name, what, spellings, scaled=False, whole=False) -> Kind:
    """A :class:`Kind` from ``(label, factor, (other spellings...))`` rows, base first."""
    units, aliases = [], {}
    for label, factor, others in spellings:
        unit = Unit(label, float(factor))
        units.append(unit)
        for spelling in (label, *others):
            aliases[normalise(spelling)] = unit
    return Kind(name, what, tuple(units), aliases, scaled, whole)


def normalise(text: str) -> str:
    """A unit as typed, without spaces, in lower case, with one micro sign."""
    return re.sub(r"\s+", "", text).replace("\u03bc", "\u00b5").lower()


_SI = (("k", 1e3, "kilo"), ("M", 1e6, "mega"), ("G", 1e9, "giga"), ("T", 1e12, "tera"))
_FLOP_PREFIXES = (*_SI, ("P", 1e15, "peta"), ("E", 1e18, "exa"))

_TOKEN_RATE_SPELLINGS = (
    "tokens/s", "token/s", "toks/s", "t/s", "tps", "tok/sec", "tokens/sec", "tokens per second",
    "tokens a second", "tok per s", "/s", "per second",
)  # fmt: skip

KINDS: dict[str, Kind] = {
    kind.name: kind
    for kind in (
        _kind(
            "bytes",
            "a size in bytes",
            [
                ("B", 1, ("byte", "bytes")),
                ("kB", 1e3, ("KB", "kilobyte", "kilobytes")),
                ("MB", 1e6, ("megabyte", "megabytes")),
                ("GB", 1e9, ("gigabyte", "gigabytes")),
                ("TB", 1e12, ("terabyte", "terabytes")),
                ("KiB", 2**10, ("kibibyte", "kibibytes")),
                ("MiB", 2**20, ("mebibyte", "mebibytes")),
                ("GiB", 2**30, ("gibibyte", "gibibytes")),
                ("TiB", 2**40, ("tebibyte", "tebibytes")),
            ],
        ),
        _kind(
            "seconds",
            "a time",
            [
                ("s", 1, ("sec", "secs", "second", "seconds")),
                ("ms", 1e-3, ("msec", "millisecond", "milliseconds")),
                ("\u00b5s", 1e-6, ("us", "microsecond", "microseconds")),
                ("min", 60, ("mins", "minute", "minutes")),
                ("h", 3600, ("hr", "hrs", "hour", "hours")),
            ],
        ),
        _kind(
            "tokens_per_s",
            "a rate in tokens per second",
            [
                ("tok/s", 1, _TOKEN_RATE_SPELLINGS),
            ],
            scaled=True,
        ),
        _kind(
            "flops",
            "a count of floating-point operations",
            [
                ("FLOP", 1, ("FLOPs", "flop")),
                *(
                    (f"{short}FLOP", factor, (f"{short}FLOPs", f"{word}flop", f"{word}flops"))
                    for short, factor, word in _FLOP_PREFIXES
                ),
            ],
            scaled=True,
        ),
        _kind(
            "dollars",
            "an amount of money",
            [("$", 1, ("usd", "us$", "dollar", "dollars"))],
            scaled=True,
        ),
        _kind(
            "seats",
            "a number of seats",
            [("seats", 1, ("seat", "request", "requests", "sequence", "sequences", "slots"))],
            scaled=True,
            whole=True,
        ),
        _kind("nodes", "a number of nodes", [("nodes", 1, ("node",))], scaled=True, whole=True),
    )
}


def kind_of(name: str) -> Kind:
    """The :class:`Kind` called ``name``.

    Raises
    ------
    ValueError
        For a name that is not a kind, naming the kinds that are.
    """
    if name not in KINDS:
        raise knob_error("kind", name, f"one of {', '.join(KINDS)}")
    return KINDS[name]


def express(value: float, unit: str, kind: str, digits: int = 4) -> str:
    """``value`` (base unit of ``kind``) written in ``unit`` with ``digits`` significant figures.

    Whole numbers keep every digit and a thousands separator: ``express(131072, "B",
    "bytes")`` is ``"131,072 B"``; ``express(131072, "MB", "bytes")`` is ``"0.1311 MB"``.
    Money is written with the sign first: ``"$2,913"``.
    """
    spec = kind_of(kind)
    target = spec.unit(unit)
    amount = float(value) / target.factor
    text = number_text(amount, digits)
    if target.label == "$":
        return f"${text}"
    return f"{text} {target.label}"


def number_text(amount: float, digits: int = 4) -> str:
    """A number for the page: whole ones in full with separators, others to ``digits`` figures."""
    amount = float(amount)
    if not math.isfinite(amount):
        return str(amount)
    if amount == round(amount) and abs(amount) < 1e15:
        return f"{amount:,.0f}"
    if amount != 0 and (abs(amount) >= 1e15 or abs(amount) < 1e-4):
        mantissa, power = f"{amount:.{digits - 1}e}".split("e")
        mantissa = mantissa.rstrip("0").rstrip(".")
        return f"{mantissa}e{int(power)}"
    # The one rounding rule, with every decimal the figures need (no two-decimal cap).
    return significant(amount, digits, most_decimals=digits + 1)
