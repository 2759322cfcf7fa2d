"""Reading a typed answer: a number, an optional unit, and a clear word when it can't be read.

A student answers "131072", "128 KiB", "0.13 MB", "27 ms", "24 tok/s" or "$2,913"; this
module turns such text into one value in the base unit of the quantity the question asks
for (bytes, seconds, tokens per second, FLOPs, dollars, seats or nodes). Binary prefixes
(KiB, MiB, GiB) count in powers of 1,024, decimal ones (kB, MB, GB) in powers of 1,000. A
bare number is read in the unit the question states. Text that can't be read, or a unit of
the wrong kind ("27 ms" when the question asks for bytes), gives a :class:`Reading` with a
message, never an exception.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from core.validation import knob_error


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
        found = self.aliases.get(_normalise(label))
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
            aliases[_normalise(spelling)] = unit
    return Kind(name, what, tuple(units), aliases, scaled, whole)


def _normalise(text: str) -> str:
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

# Scale words that may precede a unit (or stand alone) for kinds that allow them.
_SCALES = {
    "thousand": 1e3, "k": 1e3, "million": 1e6, "m": 1e6, "billion": 1e9, "bn": 1e9, "b": 1e9,
    "trillion": 1e12, "t": 1e12,
}  # fmt: skip
# "a month" and friends after an amount of money say nothing about its size.
_PER_MONTH = re.compile(r"(/|per|a|each)?(mo|mon|month)$|monthly$")

_NUMBER = re.compile(
    r"""^(?P<approx>~|\u2248|about|approx\.?|approximately|around|roughly)?\s*
        (?P<currency>\$|us\$|usd)?\s*
        (?P<sign>[-+\u2212])?\s*
        (?P<digits>\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:\.\d*)?|\d+(?:\.\d*)?|\.\d+)
        (?P<exponent>\s*(?:e[-+\u2212]?\d+|[x\u00d7*]\s*10\s*(?:\^|\*\*)\s*[-+\u2212]?\d+))?
        \s*(?P<unit>.*?)\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_ARITHMETIC = re.compile(r"^[*/+\-\u2212\u00d7\u00f7x^(]\s*[\d(.]", re.IGNORECASE)
_DECIMAL_COMMA = re.compile(r"^\D*\d+,(\d{1,2}|\d{4,})(\D|$)")


@dataclass(frozen=True)
class Reading:
    """What a typed answer says, or why it says nothing.

    Attributes
    ----------
    text : str
        The answer as typed.
    value : float or None
        The amount in the kind's base unit; None when the text could not be read.
    unit : str
        Label of the unit it was read in (the stated unit for a bare number).
    bare : bool
        True when no unit was typed and the stated unit was assumed.
    message : str
        Why the text could not be read; empty when it could.
    """

    text: str
    value: float | None
    unit: str = ""
    bare: bool = False
    message: str = ""

    @property
    def ok(self) -> bool:
        """True when the text gave a value."""
        return self.value is not None


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


def examples(kind: str, unit: str) -> str:
    """A few ways to write an answer of ``kind`` whose stated unit is ``unit``."""
    # Neutral figures: none is the answer to a classic problem.
    samples = {
        "bytes": "1500, 1.5 kB or 2.5 KiB",
        "seconds": "12.5 ms or 0.0125 s",
        "tokens_per_s": "30 tok/s or 1.5k tok/s",
        "flops": "2.5 TFLOP or 2.5e12",
        "dollars": "$1,250 or 1.25k $",
        "seats": "12 or 12 seats",
        "nodes": "3 or 3 nodes",
    }
    stated = kind_of(kind).unit(unit).label
    return f"{samples[kind]}; a bare number is read in {stated}"


def read_answer(text: str, kind: str, unit: str | None = None) -> Reading:
    """Read a typed answer as an amount of ``kind``, in that kind's base unit.

    Parameters
    ----------
    text : str
        What the student typed: a number with or without a unit, thousands separated by
        commas, in decimal or e-notation ("1.3e5 B", "1.3 x 10^5 B").
    kind : str
        The quantity asked for, a key of :data:`KINDS`.
    unit : str, optional
        The unit the question states; a bare number is read in it. The kind's base unit
        when omitted.

    Returns
    -------
    Reading
        With ``value`` set, or with ``value`` None and a ``message`` saying what to fix.

    Raises
    ------
    ValueError
        Only for an unknown ``kind`` or a ``unit`` not of that kind (a caller's mistake,
        never the student's).

    Examples
    --------
    >>> read_answer("128 KiB", "bytes").value
    131072.0
    >>> read_answer("27", "seconds", "ms").value
    0.027
    >>> read_answer("27 ms", "bytes").message
    '“ms” is a unit of a time, but this question asks for a size in bytes.'
    """
    spec = kind_of(kind)
    stated = spec.base if unit is None else spec.unit(unit)
    typed = text if isinstance(text, str) else str(text)
    clean = typed.strip().rstrip(".").strip()
    if not clean:
        return Reading(
            typed, None, message=f"Type an answer first, e.g. {examples(kind, stated.label)}."
        )
    if _DECIMAL_COMMA.match(clean):
        return Reading(
            typed,
            None,
            message="Commas separate thousands here (131,072). Write a decimal with a point: 0.13.",
        )
    match = _NUMBER.match(clean)
    if match is None:
        return Reading(
            typed,
            None,
            message=f"“{clean}” doesn't start with a number. Try {examples(kind, stated.label)}.",
        )
    number = _number(match)
    if number is None or not math.isfinite(number):
        return Reading(typed, None, message="That number is too large to check.")
    if match["sign"] and match["sign"] != "+" and number != 0:
        return Reading(typed, None, message="Every answer here is positive; drop the minus sign.")
    if _ARITHMETIC.match(match["unit"]):
        return Reading(
            typed,
            None,
            message=f"Type one number: work out “{clean}” first, then enter the result.",
        )
    key = _normalise(match["unit"])
    if spec.name == "dollars":
        key = _PER_MONTH.sub("", key)
    if match["currency"]:
        if spec.name != "dollars":
            return Reading(typed, None, message=_wrong_kind("$", KINDS["dollars"], spec))
        key = key or "$"
    if not key:
        return Reading(typed, number * stated.factor, stated.label, bare=True)
    found = _lookup(key, spec)
    if found is not None:
        scale, found_unit = found
        return Reading(typed, number * scale * found_unit.factor, found_unit.label)
    shown = match["unit"]
    for other in KINDS.values():
        if other is not spec and _lookup(_normalise(shown), other) is not None:
            return Reading(typed, None, message=_wrong_kind(shown, other, spec))
    return Reading(
        typed,
        None,
        message=f"“{shown}” isn't a unit I know for {spec.what}. "
        f"Try {examples(kind, stated.label)}.",
    )


def _number(match: re.Match) -> float | None:
    digits = re.sub(r"[, \u00a0\u202f]", "", match["digits"])
    exponent = match["exponent"]
    power = 0
    if exponent:
        power = int(re.search(r"[-+\u2212]?\d+\s*$", exponent).group().replace("\u2212", "-"))
    try:
        return float(f"{digits}e{power}")
    except (OverflowError, ValueError):
        return None


def _lookup(unit_text: str, spec: Kind) -> tuple[float, Unit] | None:
    """(scale, unit) for ``unit_text`` in ``spec``, with a leading scale word if allowed."""
    key = _normalise(unit_text)
    if key in spec.aliases:
        return 1.0, spec.aliases[key]
    if not spec.scaled:
        return None
    for word in sorted(_SCALES, key=len, reverse=True):
        if key.startswith(word):
            rest = key[len(word) :]
            if not rest:
                return _SCALES[word], spec.base
            if rest in spec.aliases:
                return _SCALES[word], spec.aliases[rest]
    return None


def _wrong_kind(unit_text: str, found: Kind, asked: Kind) -> str:
    return f"“{unit_text}” is a unit of {found.what}, but this question asks for {asked.what}."


@dataclass(frozen=True)
class Tolerance:
    """How close an answer must come to the exact value to count as right.

    Attributes
    ----------
    relative : float
        Largest accepted ``|answer - exact| / exact``; 0 asks for the exact value.
    whole : bool
        True when the answer is a count that must be a whole number.
    """

    relative: float = 0.02
    whole: bool = False

    def __post_init__(self):
        if not 0.0 <= self.relative < 1.0:
            raise knob_error("relative", self.relative, "from 0 up to (not including) 1")

    def accepts(self, value: float, exact: float) -> bool:
        """True when ``value`` counts as ``exact``."""
        if self.whole and value != round(value):
            return False
        if self.relative == 0.0:
            return value == exact
        return abs(value - exact) <= self.relative * abs(exact) * (1 + 1e-12)

    def describe(self) -> str:
        """The rule in one sentence, as the page states it."""
        if self.relative == 0.0:
            return (
                "The check wants the exact whole number, rounded the way the question needs: "
                "seats round down, since a part-seat can't run."
                if self.whole
                else "The check wants the exact value."
            )
        pct = f"{self.relative * 100:g} %"
        return (
            f"Right means within {pct} of the exact value: if it were 4.567, then 4.57 and 4.5 "
            "would count and 5 would not (9 % off). Keep four or more figures in the working "
            "and round only the answer."
        )


def off_by(value: float, exact: float) -> float:
    """Relative difference ``(value - exact) / exact`` (infinite when ``exact`` is 0)."""
    if exact == 0:
        return 0.0 if value == 0 else math.inf
    return (value - exact) / abs(exact)


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
    if abs(amount) >= 10 ** (digits - 1):
        return f"{amount:,.0f}"
    places = max(0, digits - 1 - math.floor(math.log10(abs(amount)))) if amount else 0
    text = f"{amount:,.{places}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text
