"""Embeds load like pages: ``/<lab>/autoload.js`` renders from a kept session, not a new lab.

Instructors embed a lab in a course page with Bokeh's autoload script. Bokeh's handler for it
built a whole session per request (two clients looping on it made a live student's change
take 13.7 s). The script needs a document only to know which bundles to list, and a session
token for the browser's websocket; so, as for a page load (labs/server/first_page.py), it is
rendered from one kept session per route and theme, with a fresh token signed for a session
that is built when the embed's websocket connects, within the client's build budget.
"""

from __future__ import annotations

from types import SimpleNamespace

from bokeh.server import urls as bokeh_urls
from bokeh.util.token import generate_jwt_token, generate_session_id, get_token_payload
from panel.io import server as panel_server
from panel.io.state import state
from tornado.web import authenticated

from labs.server import first_page

SUFFIX = "/autoload.js"


class KeptPageAutoload(panel_server.AutoloadJsHandler):
    """Panel's autoload.js handler, rendering from a kept session with a fresh session token."""

    async def get(self, *args, **kwargs) -> None:
        if not self.current_user:  # class password on, not logged in: refused, no traceback
            self.send_error(403, reason="Log in to the lab first")
            return
        await super().get(*args, **kwargs)

    @authenticated
    async def get_session(self):
        route = self.request.path.removesuffix(SUFFIX)
        key = ("embed", *first_page.kept_page_key(self.request, route))
        kept = state._sessions.get(key)
        if kept is None:
            kept = await super().get_session()  # built once per route and theme, then kept
            kept.block_expiration()
            state._sessions[key] = kept
        # Its Location read the script's own path, which made Panel's bundle URLs relative to
        # it ("../static/..."): on a course page those ask the course's server. Without a
        # relative path they are absolute, at this server.
        state._rel_paths.pop(kept.document, None)
        app = self.application
        payload = get_token_payload(kept.token)
        payload.update(panel_server.DocHandler._generate_token_payload(self))
        payload.pop("session_expiry", None)
        # The session this token builds draws on a course page: its stylesheets must name
        # this server (labs/server/first_page.py's local_styles reads this).
        payload[first_page.EMBED_ORIGIN] = f"{self.request.protocol}://{self.request.host}"
        token = generate_jwt_token(
            generate_session_id(secret_key=app.secret_key, signed=app.sign_sessions),
            secret_key=app.secret_key,
            signed=app.sign_sessions,
            expiration=app.session_token_expiration,
            extra_payload=payload,
        )
        return SimpleNamespace(document=kept.document, token=token)


def configure() -> None:
    """Serve every route's autoload.js with :class:`KeptPageAutoload` in this process."""
    bokeh_urls.per_app_patterns[:] = [
        (pattern, KeptPageAutoload if pattern == r"/autoload.js" else handler)
        for pattern, handler in bokeh_urls.per_app_patterns
    ]
