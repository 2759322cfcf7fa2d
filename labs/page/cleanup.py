"""Letting go of a closed session: what Panel would otherwise keep alive after it.

Panel records every JavaScript callback (``jscallback``, ``jslink``, ``js_on_click``) in one
class-wide ``Callback.registry``, a ``WeakKeyDictionary`` keyed by the widget. Its values hold
the callback's ``args``, and when those refer back to the widget, directly or through its
watchers, the weak key never dies: the widget, the lab around it and the session's
``Scenario`` outlive the session. ``EditableIntSlider`` does this on its own (its text box
links to its slider). Measured before this module: about 1.25 MB of server memory kept per
closed session, growing without bound over a term of classes.
"""

from __future__ import annotations

from collections.abc import Iterable

import panel as pn
from panel.links import Callback


def panel_objects(*roots) -> list:
    """Every Panel object under ``roots`` (Viewers are unwrapped), composites' insides included.

    A Viewer with ``folded_parts()`` names what a closed fold keeps out of its layout (a
    built fold's rows, widgets made for a fold never opened): they are walked too.
    """
    found = []
    for root in roots:
        viewable = root.__panel__() if isinstance(root, pn.viewable.Viewer) else root
        if isinstance(viewable, pn.viewable.Viewable):
            found.extend(viewable.select())
        if hasattr(root, "folded_parts"):
            found.extend(panel_objects(*root.folded_parts()))
    return found


def release_js_callbacks(objects: Iterable) -> int:
    """Drop ``objects``' entries from Panel's callback registry; returns how many were dropped."""
    dropped = 0
    for obj in objects:
        if Callback.registry.pop(obj, None) is not None:
            dropped += 1
    return dropped
