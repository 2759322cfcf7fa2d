"""Who is voting: ballots the server issues and signs, one per browser, or one per class login.

A browser's vote used to be keyed by a random id the browser kept in a cookie, so any 20 hex
characters a script wrote were a new voter. Now the server issues the ballot:

* **Class password off**: a ballot is a random id the server signs (HMAC-SHA256 with the
  deployment's secret, the one that signs session ids) and the page keeps in the
  ``lab_ballot`` cookie; a cookie whose signature is not this server's is ignored and a new
  ballot issued. One ballot per browser, so one vote per browser per round; a new browser
  profile, a second device or cleared cookies get a new ballot (each counted as issued).
* **Class password on**: the ballot is derived from the login's own signed id (the
  ``lab_login`` cookie of labs/server/login.py), so every tab and device of one login
  shares one ballot: one vote per login per round. Logging in again is a new login.

The presenter sees the ballots issued for the poll beside the votes cast, so more ballots
than students in the room shows at a glance.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass

import panel as pn
from tornado.web import decode_signed_value

from labs.page.updates import session_doc
from labs.poll.room import PRESENTER_COOKIE, signature, signed, unsigned

BALLOT_COOKIE = "lab_ballot"
LOGIN_COOKIE = "lab_login"  # the class login's id cookie (labs/server/login.py, a wing above)
ID_BYTES = 10
_HEX = frozenset("0123456789abcdef")


@dataclass(frozen=True)
class Visitor:
    """The session being built, as the poll sees it.

    ``ballot`` keys its votes in the store; ``keep`` is a newly issued signed ballot the page
    must store in its cookie (empty when it had one, or votes by login); ``presenter_cookie``
    is what its browser kept from an earlier unlock.
    """

    ballot: str
    keep: str
    by_login: bool
    address: str
    presenter_cookie: str


def _login_id(cookies: dict, login_secret: str) -> str:
    value = cookies.get(LOGIN_COOKIE, "")
    if not (login_secret and value):
        return ""
    login = decode_signed_value(
        login_secret, LOGIN_COOKIE, value, max_age_days=pn.config.oauth_expiry
    )
    return login.decode("ascii", "replace") if login else ""


def ballot_for(cookies: dict, secret: bytes, login_secret: str = "") -> tuple[str, str, bool]:
    """(ballot, signed cookie value to keep or "", whether it is the login's) for ``cookies``."""
    login = _login_id(cookies, login_secret)
    if login:
        return "login-" + signature(secret, "login ballot", login)[:20], "", True
    kept = unsigned(secret, "ballot", cookies.get(BALLOT_COOKIE, ""))
    if kept and len(kept) == 2 * ID_BYTES and _HEX.issuperset(kept):
        return kept, "", False
    fresh = secrets.token_hex(ID_BYTES)
    return fresh, signed(secret, "ballot", fresh), False


def visitor(secret: bytes, login_secret: str = "") -> Visitor:
    """The session being built (outside a server session: a fresh browser from nowhere)."""
    doc = session_doc()
    request = doc.session_context.request if doc is not None else None
    cookies = getattr(request, "cookies", {}) or {}
    ballot, keep, by_login = ballot_for(cookies, secret, login_secret)
    address = getattr(getattr(request, "_request", None), "remote_ip", None) or "unknown"
    return Visitor(ballot, keep, by_login, address, cookies.get(PRESENTER_COOKIE, ""))


def cookie_js(name: str, value: str, max_age_s: int) -> str:
    """JavaScript that stores ``name=value`` (signed, URL-safe characters only) for the site."""
    return f"document.cookie = '{name}={value}; path=/; max-age={max_age_s}; SameSite=Lax';"
