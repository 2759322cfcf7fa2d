"""The number vocabulary of the whole lab: unit scales, and how every quantity is written.

Labs, derivations and answer checking all word numbers here, so a figure reads the same on a
card, in a derivation and in a practice answer.
"""

from __future__ import annotations

GIGA = 1e9
TERA = 1e12


def giga(value):
    """A quantity in units of 10^9 (bytes to GB, FLOP/s to GFLOP/s)."""
    return value / GIGA


def tera(value):
    """A quantity in units of 10^12 (bytes/s to TB/s, FLOP/s to TFLOP/s)."""
    return value / TERA
