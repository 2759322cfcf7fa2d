"""Three pieces of Panel's per-event bookkeeping, made cheap for a server that holds a class.

Measured with bench/change_cpu.py: a minimal Panel app (one slider, one HTML pane) costs this
machine about 7.5 ms of server CPU per slider change, before any lab work. Two parts of it do
nothing a class sees:

* **Debug records.** Panel sets its logger to DEBUG and filters in its handler, so each
  widget event makes debug records (which this server also escapes, see
  ``guard.safe_log_records``) only to drop them. Here the logger makes records only at the
  level its handlers write.
* **edit_readonly.** Panel unlocks every parameter of a widget (33 for a slider) to set the
  few that are read-only, then locks them again, once or twice per change: about 0.4 ms a
  call. Here only the parameters that are locked are unlocked and locked again, which leaves
  every parameter as it was, as Panel's own does.
* **Design parameters.** On every change of a widget's parameter (the slider's own value,
  echoed back from the browser, included) Panel works out its design's stylesheets, about
  0.6 ms, and uses them only when the change is to ``stylesheets``. Here they are worked out
  only then.

``configure()`` applies all three to this process (``labs/server/latency.py`` calls it).
"""

from __future__ import annotations

import contextlib
import logging
import sys
from collections.abc import Iterator

import param
from panel.reactive import Reactive
from panel.util import parameters


@contextlib.contextmanager
def edit_readonly(parameterized: param.Parameterized) -> Iterator:
    """Panel's ``edit_readonly``, touching only the parameters that are read-only or constant."""
    locked = [
        (p, p.readonly, p.constant)
        for p in parameterized.param.objects("existing").values()
        if p.readonly or p.constant
    ]
    for p, _readonly, _constant in locked:
        p.readonly = False
        p.constant = False
    try:
        yield
    finally:
        for p, readonly, constant in locked:
            p.readonly = readonly
            p.constant = constant


def _update_properties(self, *events, doc):
    """``Reactive._update_properties`` that reads the design only for a stylesheets change."""
    if any(event.name == "stylesheets" for event in events):
        return _DESIGNED(self, *events, doc=doc)
    return self._process_param_change({event.name: event.new for event in events})


_DESIGNED = Reactive._update_properties


def quiet_panel_debug() -> None:
    """Let Panel's logger make records only at the level its handlers write."""
    panel_log = logging.getLogger("panel")
    levels = [handler.level for handler in panel_log.handlers]
    if levels and panel_log.level < min(levels):
        panel_log.setLevel(min(levels))


def configure() -> None:
    """Apply all three for this process (``edit_readonly`` in every Panel module that has it)."""
    quiet_panel_debug()
    Reactive._update_properties = _update_properties
    original = parameters.edit_readonly
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] == "panel" and getattr(module, "edit_readonly", None) is original:
            module.edit_readonly = edit_readonly
