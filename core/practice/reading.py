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
from dataclasses import dataclass

from core.foundation.units import KINDS, Kind, Unit, kind_of, normalise

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
    if kind == "bytes" and stated == "GB":  # a bare 1500 would be read as 1,500 GB
        samples["bytes"] = "12.5, 12.5 GB or 11.6 GiB"
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
    number, match, message = _read_number(typed.strip().rstrip(".").strip(), kind, stated.label)
    if message:
        return Reading(typed, None, message=message)
    return _read_unit(typed, number, match, spec, stated)


def _read_number(clean: str, kind: str, stated: str) -> tuple[float, re.Match | None, str]:
    """The number ``clean`` starts with and its match, or a message saying why there is none."""
    if not clean:
        return 0.0, None, f"Type an answer first, e.g. {examples(kind, stated)}."
    if _DECIMAL_COMMA.match(clean):
        return (
            0.0,
            None,
            "Commas separate thousands here (131,072). Write a decimal with a point: 0.13.",
        )
    match = _NUMBER.match(clean)
    if match is None:
        return 0.0, None, f"“{clean}” doesn't start with a number. Try {examples(kind, stated)}."
    number = _number(match)
    if number is None or not math.isfinite(number):
        return 0.0, None, "That number is too large to check."
    if match["sign"] and match["sign"] != "+" and number != 0:
        return 0.0, None, "Every answer here is positive; drop the minus sign."
    if _ARITHMETIC.match(match["unit"]):
        return 0.0, None, f"Type one number: work out “{clean}” first, then enter the result."
    return number, match, ""


def _read_unit(typed: str, number: float, match: re.Match, spec: Kind, stated: Unit) -> Reading:
    """The reading of ``number`` in the unit typed after it, or why that unit can't be used."""
    key = normalise(match["unit"])
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
        if other is not spec and _lookup(normalise(shown), other) is not None:
            return Reading(typed, None, message=_wrong_kind(shown, other, spec))
    return Reading(
        typed,
        None,
        message=f"“{shown}” isn't a unit I know for {spec.what}. "
        f"Try {examples(spec.name, stated.label)}.",
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
    key = normalise(unit_text)
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
