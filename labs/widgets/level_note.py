"""The line under a lab's headline: what a real engine would see where it differs by over 25 %."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from html import escape

import panel as pn

from labs.page.format import times
from labs.page.text import LiveHTML

FAMILY_NAMES = {"hopper": "Hopper", "blackwell": "Blackwell", "ampere": "Ampere", "ada": "Ada",
                "cdna3": "CDNA 3", "cdna4": "CDNA 4"}  # fmt: skip


def borrowed_text(provenance) -> str:
    """A sentence saying which of the card's engine-level rates are borrowed, or nothing."""
    borrowed = []
    if provenance.rates_borrowed:
        rates = provenance.borrowed_rates or "bandwidth and matmul"
        borrowed.append(f"its {rates} rates are the H100's measured shares of its peaks")
    if provenance.bandwidth_note:
        borrowed.append(provenance.bandwidth_note)
    if provenance.kernels_borrowed:
        family = FAMILY_NAMES.get(provenance.kernels_from, provenance.kernels_from)
        borrowed.append(f"its expert kernels are priced from {family} cards' tables")
    if not borrowed:
        return ""
    return (
        f' <span class="muted" data-borrowed-rates>Not measured on the {escape(provenance.card)}: '
        f"{escape('; '.join(borrowed))}.</span>"
    )


def landed_within(band) -> str:
    """How far the engine level held on ``band``'s cases (a
    :class:`core.evidence.level_gap.TrustBand`), as every page that shows a band words it."""
    return (
        f"the engine level landed within {escape(times(band.low))}\u2013"
        f"{escape(times(band.high))} of the measurement 8 times in 10"
    )


def first_tokens_held(band) -> str:
    """How far the engine level held on every published first token (``band``:
    :func:`core.evidence.level_gap.first_token_band`), as the pool lab's engine note and the
    Reality check both word it."""
    return (
        f"on all {band.cases} published first tokens (from {band.publishers} publishers, the "
        f"shown-only rows included) {landed_within(band)}"
    )


class EngineNote(pn.viewable.Viewer):
    """'A real engine would see ...' for the figures whose two levels part, updated in place."""

    def __init__(self, names: Mapping[str, str], formats: Mapping[str, Callable[[float], str]]):
        super().__init__()
        self._names = names
        self._formats = formats
        self._pane = LiveHTML("", sizing_mode="stretch_width", margin=(6, 0, 0, 0))

    def update(self, found, engine_on_screen: bool = False, band=None, provenance=None,
               first_token=None) -> None:  # fmt: skip
        """Show the gaps ``found`` (:func:`core.evidence.level_gap.gaps`); the screen shows one level.

        ``band`` (:class:`core.evidence.level_gap.TrustBand`) says how far the engine level held
        up on published cases of the scenario's family, cross-validated by publisher; ``provenance``
        (:class:`core.evidence.level_gap.RateProvenance`) whether the card's rates are borrowed;
        ``first_token`` (:func:`core.evidence.level_gap.first_token_band`), where the page shows
        a first token, how far it held up on every published one.
        """
        if engine_on_screen:
            lead, other = "On the whiteboard these would read", "whiteboard"
        else:
            lead, other = "A real engine would see", "engine level"
        if not found:
            text = f"{lead} about the same: every figure above is within \u00b125 % at the {other}."
        else:
            parts = []
            for gap in found:
                shown = gap.whiteboard if engine_on_screen else gap.engine
                ratio = 1 / gap.ratio if engine_on_screen and gap.ratio else gap.ratio
                note = f" ({times(ratio)})" if ratio not in (0.0, float("inf")) else ""
                parts.append(
                    f"{escape(self._names[gap.field])} <b>{escape(self._formats[gap.field](shown))}</b>{note}"
                )
            text = f"{lead}: " + "; ".join(parts) + ". The Reality check tab shows why."
        if band is not None:
            text += (
                f' <span class="muted" data-trust-band>On published cases of {escape(band.family)} '
                f"({band.cases}, from {band.publishers} publishers, each held out in turn and "
                f"counted once), {landed_within(band)}.</span>"
            )
        if first_token is not None:
            text += (
                f' <span class="muted" data-first-token-band>The first token holds up least: '
                f"{first_tokens_held(first_token)}.</span>"
            )
        if provenance is not None:
            text += borrowed_text(provenance)
        self._pane.object = (
            f'<div class="lab"><div class="engine-note" data-engine-note>{text}</div></div>'
        )

    def say(self, text: str) -> None:
        """Show ``text`` instead, where the two levels cannot be compared."""
        self._pane.object = (
            f'<div class="lab"><div class="engine-note" data-engine-note>{escape(text)}</div></div>'
        )

    def __panel__(self):
        return self._pane
