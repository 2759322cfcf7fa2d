"""A name for a screen reader where no text beside a widget gives one (read by assets/a11y.js)."""

from __future__ import annotations

import json


def aria_name(widget, name: str):
    """``widget`` with ``name`` as its accessible name, in its inline style's ``--aria-name``.

    The browser script reads the host element's own inline style only, so the name never
    reaches the widgets inside a layout that carries it.
    """
    widget.styles = {**widget.styles, "--aria-name": json.dumps(name)}
    return widget


def aria_names(names: dict) -> None:
    """Each widget in ``names`` (words -> widget) named by its words, as :func:`aria_name`."""
    for name, widget in names.items():
        aria_name(widget, name)
