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

What a query can make the server keep is bounded (issue 28, item 12). Panel keys the kept
session by route and by the raw ``?theme=`` value, so a loop over made-up themes built and
kept a whole lab per request (87 GETs: 141 MB to 1,213 MB). Here only Panel's own themes key
a kept page (any other value gets the default theme's), trailing slashes share their route's
page, and :class:`KeptSessions` holds at most ``MAX_KEPT`` of them, the oldest let go first.
"""

from __future__ import annotations

import weakref
from collections import OrderedDict
from pathlib import Path

import panel as pn
from bokeh.util.token import get_token_payload
from panel.io import server as panel_server
from panel.io.resources import LOCAL_DIST
from panel.io.state import state

# Kept first pages at most: every route in each of Panel's themes, with room for embeds.
MAX_KEPT = 40

DEFAULT_THEME = "default"
# Panel's own files, served a second time for embeds under a path Panel does not rewrite
# (see local_styles), and the token key that marks a session asked for by an embed.
EMBED_DIST = "lab-panel-dist"
EMBED_ORIGIN = "lab_embed_origin"
PANEL_DIST = Path(pn.__file__).resolve().parent / "dist"


def themes() -> tuple[str, ...]:
    """The ``?theme=`` values Panel applies; any other value gets the default theme."""
    return tuple(pn.config.param._theme.objects)


def kept_page_key(request, path: str | None = None) -> tuple[str, str]:
    """The kept session a page request (at ``path``, else its own) renders from: route and known theme."""
    raw = request.arguments.get("theme", [DEFAULT_THEME.encode()])[0]
    name = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else str(raw)
    route = (request.path if path is None else path).rstrip("/") or "/"
    return route, name if name in themes() else DEFAULT_THEME


class KeptSessions(OrderedDict):
    """Panel's kept first-page sessions, at most ``limit``: storing one more lets the oldest go.

    A session let go is no longer kept from expiring, so the server's sweep for unused
    sessions discards it like any other.
    """

    def __init__(self, limit: int = MAX_KEPT) -> None:
        super().__init__()
        self.limit = limit

    def __setitem__(self, key, session) -> None:
        super().__setitem__(key, session)
        self.move_to_end(key)
        while len(self) > self.limit:
            _key, oldest = self.popitem(last=False)
            oldest.unblock_expiration()


def configure() -> None:
    """Serve first pages from one kept session per route, in this process."""
    embed_loading_styles()
    pn.config.reuse_sessions = True
    pn.config.session_key_func = kept_page_key
    if not isinstance(state._sessions, KeptSessions):
        kept = KeptSessions()
        kept.update(state._sessions)
        state._sessions = kept
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
    """Point this session's Panel stylesheets at this server (call from a page function).

    A page names them relative to itself. An embed (a course page's autoload.js) names them
    at this server's own address, under :data:`EMBED_DIST`: Panel rewrites any address
    holding ``static/extensions/panel/`` relative to the page it believes it is on, which for
    an embed is the course page, whose server has no such files (they answered 404).
    """
    doc = pn.state.curdoc
    if doc is not None:
        origin = embed_origin(doc)
        dist = f"{origin}/{EMBED_DIST}/" if origin else LOCAL_DIST
        doc.template_variables.setdefault("dist_url", dist)


def embed_loading_styles() -> None:
    """An embed's loading spinner stylesheet comes from this server too.

    Panel names it by a bare path (``get_dist_path``), not through the document's
    ``dist_url``; for a session whose ``dist_url`` is an embed's, it is that address.
    """
    from panel import reactive

    read = getattr(reactive.get_dist_path, "lab_original", reactive.get_dist_path)

    def dist_path(cdn="auto") -> str:
        doc = state.curdoc
        dist = doc.template_variables.get("dist_url", "") if doc is not None else ""
        return dist if EMBED_DIST in dist else read(cdn)

    dist_path.lab_original = read
    reactive.get_dist_path = dist_path


def embed_origin(doc) -> str:
    """This server's address when ``doc``'s session was asked for by an embed, else ''."""
    context = getattr(doc, "session_context", None)
    token = getattr(context, "_token", None)
    if not token:
        return ""
    origin = str(get_token_payload(token).get(EMBED_ORIGIN, ""))
    return origin if origin.startswith(("http://", "https://")) else ""
