"""The class-password login: where it may send a browser, how often it may be tried, logging out.

Panel's basic-auth pages are kept for what they do well (a signed ``user`` cookie, the
redirect of every page, asset and websocket to ``/login``) and replaced where a class
server needs more:

* **Where a login leads.** ``next`` is kept in the form, so a wrong password followed by the
  right one still lands on the link the student opened (``/pool?seats=4``), and it must be
  a path on this site (:func:`same_site_path`); anything else leads to ``/``.
* **Guessing.** Wrong passwords are counted per client address and overall
  (:class:`labs.server.login_limit.LoginLimiter`, one per server process); a locked
  address gets 429 with ``Retry-After`` and the page says how long to wait.
* **Logging out.** Each login carries a random login id in a second signed cookie; logging
  out appends that id to a file named after the cookie secret (:class:`Logouts`), which
  every worker and every lab process on this machine signing with that secret reads, so the
  old cookie is refused everywhere at once and after a restart. Only that browser is logged
  out, not the class (a shared generation counter would log out everyone each time one
  student, or anyone at all, opened ``/logout``).
"""

from __future__ import annotations

import hashlib
import hmac
import math
import os
import secrets
import time
from pathlib import Path
from urllib.parse import unquote, urlencode, urlsplit

import jinja2
from panel.auth import BasicAuthProvider, BasicLoginHandler, LogoutHandler
from panel.config import config

from labs.server.login_limit import LoginLimiter, log

LOGIN_COOKIE = "lab_login"
STATE_DIR_ENV = "LAB_STATE_DIR"
STUDENT = "student"
DAY_S = 86_400.0

# Characters a browser drops from or reads as a separator in a URL before resolving it.
_CONTROL = {chr(code) for code in range(0x20)} | {"\x7f", "\\"}


def same_site_path(value: str | None) -> str:
    """``value`` if it is a path on this site (``/pool?seats=4``), else ``"/"``.

    A path starts with exactly one ``/`` and has no scheme and no authority in any form it
    takes once percent-decoded (repeatedly) and stripped of what browsers ignore (tabs,
    newlines, NULs) or read as ``/`` (a backslash): ``//evil.com``, ``/\\evil.com``,
    ``/%2F/evil.com``, ``/%09/evil.com`` and ``https://evil.com`` all lead to ``/``.
    """
    if not value:
        return "/"
    form = value
    for _ in range(4):  # a few rounds of decoding: enough for any double-encoded probe
        if _CONTROL.intersection(form) or not form.startswith("/") or form.startswith("//"):
            return "/"
        parts = urlsplit(form)
        if parts.scheme or parts.netloc:
            return "/"
        decoded = unquote(form)
        if decoded == form:
            return value
        form = decoded
    return "/"


class Logouts:
    """Login ids that have logged out, in a file shared by every process signing with one secret.

    One line per logout: ``<login id> <unix time after which its cookie has expired anyway>``,
    appended with ``O_APPEND`` (one small write, whole, however many workers append). Each
    process reads only what was added since it last looked, when the file has grown.
    """

    def __init__(self, folder: Path, secret: str) -> None:
        tag = hashlib.sha256(b"logouts " + secret.encode()).hexdigest()[:16]
        self.path = Path(folder) / f"logouts-{tag}.txt"
        self.ids: dict[str, float] = {}
        self.read_to = 0

    def forget_expired(self, now: float | None = None) -> None:
        """Rewrite the file without ids whose cookies have expired (at start-up, before workers)."""
        self._read()
        now = time.time() if now is None else now
        self.ids = {login: until for login, until in self.ids.items() if until > now}
        if not self.path.exists():
            return
        fresh = self.path.with_suffix(".new")
        fresh.write_text("".join(f"{login} {until:.0f}\n" for login, until in self.ids.items()))
        os.replace(fresh, self.path)
        self.read_to = self.path.stat().st_size

    def revoke(self, login: str) -> None:
        """Record that ``login`` has logged out, for every process reading this file."""
        until = time.time() + config.oauth_expiry * DAY_S
        self.path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, f"{login} {until:.0f}\n".encode())
        finally:
            os.close(fd)
        self.ids[login] = until

    def revoked(self, login: str) -> bool:
        """Whether ``login`` has logged out (in any process reading this file)."""
        self._read()
        return login in self.ids

    def _read(self) -> None:
        try:
            size = self.path.stat().st_size
        except FileNotFoundError:
            return
        if size < self.read_to:  # rewritten by forget_expired: read it whole again
            self.read_to = 0
        if size == self.read_to:
            return
        with self.path.open("rb") as file:
            file.seek(self.read_to)
            added = file.read(size - self.read_to)
        whole = added[: added.rfind(b"\n") + 1]  # a line still being written waits
        self.read_to += len(whole)
        for line in whole.decode("ascii", "replace").splitlines():
            login, _, until = line.partition(" ")
            self.ids[login] = float(until) if until.replace(".", "", 1).isdigit() else math.inf


def default_state_dir() -> Path:
    """Where the logout file lives: ``LAB_STATE_DIR``, else ``~/.local/state/llm-serving-lab``."""
    if os.environ.get(STATE_DIR_ENV):
        return Path(os.environ[STATE_DIR_ENV])
    return Path.home() / ".local" / "state" / "llm-serving-lab"


class ClassLoginHandler(BasicLoginHandler):
    """``/login``: the class-password form, its deep link, the guessing limit."""

    provider: ClassLogin  # set on the subclass made per server (ClassLogin.login_handler)

    def get(self) -> None:
        notice = ""
        if self.get_query_argument("error", ""):
            notice = "wrong"
        elif self.get_query_argument("logged_out", ""):
            notice = "logged_out"
        self._page(notice, self._next(self.request.query_arguments))

    def post(self) -> None:
        address = self.request.remote_ip or "unknown"
        next_url = self._next(self.request.body_arguments)
        limiter = self.provider.limiter
        wait = limiter.wait_s(address)
        if wait > 0:  # refused unchecked: see labs/server/login_limit.py
            self.set_status(429)
            self.set_header("Retry-After", str(math.ceil(wait)))
            self._page("locked", next_url, wait_s=math.ceil(wait))
            return
        given = self.request.body_arguments.get("password", [b""])[-1]
        if hmac.compare_digest(given, self.provider.password.encode()):
            self.set_current_user(STUDENT)
            self.set_secure_cookie(
                LOGIN_COOKIE,
                secrets.token_hex(16),
                expires_days=config.oauth_expiry,
                httponly=True,
                path=config.cookie_path,
            )
            self.redirect(next_url)
            return
        limiter.wrong(address)
        self.redirect(f"{self.provider.login_url}?{urlencode({'error': 1, 'next': next_url})}")

    def _next(self, arguments: dict[str, list[bytes]]) -> str:
        raw = arguments.get("next", [b""])[-1]
        return same_site_path(raw.decode("utf-8", "replace"))

    def _page(self, notice: str, next_url: str, wait_s: int = 0) -> None:
        self.write(
            self.provider.template.render(
                login_endpoint=self.provider.login_url,
                next_url=next_url,
                notice=notice,
                wait_s=wait_s,
            )
        )


class ClassLogoutHandler(LogoutHandler):
    """``/logout``: this browser's login id is revoked everywhere, then back to the login page."""

    provider: ClassLogin

    def get(self) -> None:
        login = self.get_secure_cookie(LOGIN_COOKIE, max_age_days=config.oauth_expiry)
        if login:
            try:
                self.provider.logouts.revoke(login.decode("ascii", "replace"))
            except OSError as error:  # the browser still forgets it; say why others may not
                log.error(
                    "logout: could not record it in %s: %s", self.provider.logouts.path, error
                )
        for name in ("user", "id_token", LOGIN_COOKIE):
            self.clear_cookie(name, path=config.cookie_path)
        self.redirect(f"{self.provider.login_url}?logged_out=1")


class ClassLogin(BasicAuthProvider):
    """Panel's basic-auth provider with the lab's login and logout handlers (module notes).

    Parameters
    ----------
    password : str
        The class password.
    template : Path
        The login page (Jinja, autoescaped).
    limiter : LoginLimiter
        This server process's wrong-password counts.
    logouts : Logouts
        The logged-out login ids shared by this machine's lab processes.
    """

    def __init__(
        self, password: str, template: Path, limiter: LoginLimiter, logouts: Logouts
    ) -> None:
        super().__init__(login_template=str(template))
        self.password = password
        self.template = jinja2.Environment(autoescape=True).from_string(template.read_text())
        self.limiter = limiter
        self.logouts = logouts

    @property
    def get_user(self):
        panel_user = super().get_user

        def get_user(handler):
            login = handler.get_secure_cookie(LOGIN_COOKIE, max_age_days=config.oauth_expiry)
            if not login or self.logouts.revoked(login.decode("ascii", "replace")):
                return None
            return panel_user(handler)

        return get_user

    @property
    def login_handler(self):
        return type("LabLogin", (ClassLoginHandler,), {"provider": self})

    @property
    def logout_handler(self):
        return type("LabLogout", (ClassLogoutHandler,), {"provider": self})
