"""Cheap first page loads: a GET must not build a whole lab on the event loop students share.

By default a server builds the whole lab (every widget, chart and model) for each page
request, before the browser has even connected; a plain HTTP loop fetching ``/batching``
made a live session's knob change take 17.7 s at the median. Panel can instead render
the first page (only its frame: scripts, styles and the session token) from one kept
session per route, and build the lab when the browser's websocket connects
(``reuse_sessions``). Two details make that work for this lab:

* Panel re-walks every model of the kept document on each render to point its stylesheets
  at this server (``patch_model_css``); that walk was nine tenths of a reused page's cost
  (about 130 of 145 ms for ``/batching``). The kept document never changes, so one walk per
  root is enough.
* A session built on connection has not been through that render, so its document is never
  told that Panel's stylesheets come from this server and would ask Panel's CDN for them;
  :func:`local_styles` tells it, from the page function.
"""

from __future__ import annotations

import weakref

import panel as pn
from panel.io import server as panel_server
from panel.io.resources import LOCAL_DIST


def configure() -> None:
    """Serve first pages from one kept session per route, in this process."""
    pn.config.reuse_sessions = True
    patch = panel_server.patch_model_css
    if getattr(patch, "lab_once", False):
        return
    patched: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()

    def patch_once(root, dist_url: str) -> None:
        if patched.get(root) != dist_url:
            patch(root, dist_url=dist_url)
            patched[root] = dist_url

    patch_once.lab_once = True
    panel_server.patch_model_css = patch_once


def local_styles() -> None:
    """Point this session's Panel stylesheets at this server (call from a page function)."""
    doc = pn.state.curdoc
    if doc is not None:
        doc.template_variables.setdefault("dist_url", LOCAL_DIST)
