"""`python -m labs.server.serve`: the whole lab at /, each lab alone at its own route for embedding."""

from __future__ import annotations

import argparse
import hashlib
import os
import secrets
import socket
from pathlib import Path

import panel as pn

from core.evidence.fidelity import report
from core.evidence.stored import CACHE_DIR_ENV
from labs.frame.apology import log_unexpected
from labs.frame.routes import PAGES
from labs.frame.shell import LABS, create_app, create_embedded, lab_class
from labs.page import theme
from labs.poll.room import PresenterGate
from labs.poll.service import PollService
from labs.poll.store import default_location, prepare
from labs.server import (
    a11y,
    allocator,
    build_budget,
    collector,
    embeds,
    first_page,
    guard,
    latency,
    login,
    odd_links,
    reconnect,
    workers,
)
from labs.server.login_limit import (
    JOIN_MISSES_EVERY_ADDRESS,
    JOIN_MISSES_PER_ADDRESS,
    POLL_JOINS,
    PRESENTER,
    LoginLimiter,
)
from labs.teach import create_teach
from labs.tour import create_tour

PASSWORD_ENV = "LAB_PASSWORD"
COOKIE_SECRET_ENV = "LAB_COOKIE_SECRET"
SESSION_SECRET_ENV = "LAB_SESSION_SECRET"
LOGIN_TEMPLATE = theme.ASSETS / "login.html"
# What builds each page beside the labs that labs/frame/routes.py's PAGES names.
PAGE_BUILDERS = {"teach": create_teach}


def routes(
    poll: PollService | None = None, freezer: collector.SessionFreezer | None = None
) -> dict:
    """URL route -> a function that builds that page for one new session.

    ``poll`` gives the whole lab's page the class poll's bar (every route but the embeds);
    ``freezer`` learns when each session is built and closed.
    """

    def whole_lab():
        _new_page(freezer)
        return create_app(poll)

    def tour():
        _new_page(freezer)
        return create_tour()

    pages = {"/": whole_lab}
    for key in LABS:
        pages[f"/{key}"] = _embedded_page(key, freezer)
    pages["/tour"] = tour
    for key in PAGES:  # pages beside the labs: no knobs, no link state
        pages[f"/{key}"] = _plain_page(key, PAGE_BUILDERS[key], freezer)
    return pages


def _new_page(freezer: collector.SessionFreezer | None = None) -> None:
    """What every page's session needs before its lab is built."""
    first_page.local_styles()
    doc = pn.state.curdoc
    reconnect.attach(doc)
    a11y.attach(doc)
    if freezer is not None and doc is not None and doc.session_context is not None:
        doc.add_next_tick_callback(freezer.built)  # the lab is built by then

        def closed(session_context) -> None:  # Bokeh checks the argument's name
            freezer.closed()

        pn.state.on_session_destroyed(closed)


def _embedded_page(key: str, freezer: collector.SessionFreezer | None = None):
    # Panel serves plain functions per session; a functools.partial would be served as an object.
    def page():
        _new_page(freezer)
        return create_embedded(key)

    page.__name__ = f"embedded_{key}"
    return page


def _plain_page(key: str, create, freezer: collector.SessionFreezer | None = None):
    def page():
        _new_page(freezer)
        return create()

    page.__name__ = f"page_{key}"
    return page


def route_lines(address: str, port: int) -> list[str]:
    """The address of every page, one line each, as printed when the server starts."""
    host = socket.gethostname() if address in ("0.0.0.0", "::", "") else address
    base = f"http://{host}:{port}"
    lines = [f"  {base}/  the whole lab, with its tabs", f"  {base}/tour  the guided tour"]
    lines += [f"  {base}/{key}  {label}" for key, label in PAGES.items()]
    for key, (label, _view) in LABS.items():
        lines.append(f"  {base}/{key}  {label} alone (for an iframe)")
    return lines


def cookie_secret(password: str) -> str:
    """The secret that signs login cookies: LAB_COOKIE_SECRET, else one derived from the password.

    Every worker and every machine behind one proxy must sign with the same secret, or a
    student logged in on one would be sent back to the login page by another; deriving it from
    the class password gives them the same one without another setting to copy around.
    """
    if os.environ.get(COOKIE_SECRET_ENV):
        return os.environ[COOKIE_SECRET_ENV]
    salt = b"llm-serving-lab login cookies"
    return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 200_000).hex()


def session_secret(password: str | None) -> bytes:
    """The key that signs session ids: LAB_SESSION_SECRET, else one derived from the password,
    else a random one made at start.

    Signed ids mean a websocket builds a session only for a token a lab process handed out
    with a page. The parent makes the key before it forks, so all its workers share it. A
    page and its websocket may reach different hosts behind nginx (an iframe that drops the
    sticky cookie), so hosts behind one proxy need one key: the same LAB_SESSION_SECRET, or
    the same class password.
    """
    given = os.environ.get(SESSION_SECRET_ENV, "")
    if given:
        if len(given) < 32:
            raise SystemExit(f"{SESSION_SECRET_ENV} must be at least 32 characters long")
        return given.encode()
    if password:
        salt = b"llm-serving-lab session ids"
        return hashlib.pbkdf2_hmac("sha256", password.encode(), salt, 200_000).hex().encode()
    return secrets.token_urlsafe(48).encode()


def poll_service(args: argparse.Namespace, signing: bytes, login_secret: str) -> PollService:
    """The class poll: SQLite beside the server, or Redis when LAB_REDIS_URL is set.

    The presenter's password guesses have their own limit and log line; the presenter key,
    printed here, unlocks even an address those guesses locked (labs/poll/room.py). Joins
    of codes with no poll are limited per address. Ballots are signed with ``signing``, and
    are one per login when a class password is on (``login_secret``).
    """
    state_dir = args.state_dir or login.default_state_dir()
    key = secrets.token_urlsafe(16)
    limiter = LoginLimiter(wording=PRESENTER)
    gate = PresenterGate.from_env(limiter, key=key, secret=signing)
    joins = LoginLimiter(JOIN_MISSES_PER_ADDRESS, JOIN_MISSES_EVERY_ADDRESS, wording=POLL_JOINS)
    poll = PollService(default_location(state_dir), gate, joins=joins, login_secret=login_secret)
    trouble = prepare(poll.location)
    if trouble:
        print(trouble, flush=True)
    if gate.password:
        print(
            f"Presenter key, for this run only (type it in the presenter password box; it works "
            f"even when wrong guesses have locked the password): {key}",
            flush=True,
        )
    return poll


def parser() -> argparse.ArgumentParser:
    """The command line of ``python -m labs.server.serve`` (and of ``make serve SERVE_ARGS=...``)."""
    parse = argparse.ArgumentParser(description="Serve LLM Serving Lab.")
    parse.add_argument("--port", type=int, default=5006)
    parse.add_argument("--address", default="127.0.0.1", help="0.0.0.0 to let a classroom connect")
    parse.add_argument(
        "--allow-websocket-origin",
        action="append",
        default=[],
        help="host[:port] browsers reach the lab by, or of a page embedding it by script (repeatable)",
    )
    parse.add_argument(
        "--workers", type=int, default=1, help="server processes sharing the port (Panel num_procs)"
    )
    parse.add_argument(
        "--password",
        default=os.environ.get(PASSWORD_ENV) or None,
        help=f"class password asked on a login page (default: the {PASSWORD_ENV} variable)",
    )
    parse.add_argument(
        "--state-dir",
        type=Path,
        default=None,
        help=f"folder for the logged-out logins file and the class poll's SQLite file "
        f"(default: ${login.STATE_DIR_ENV}, else ~/.local/state/llm-serving-lab)",
    )
    parse.add_argument(
        "--use-xheaders",
        action="store_true",
        help="behind a proxy: trust its X-Forwarded-For/-Proto headers for client address and scheme",
    )
    parse.add_argument("--check-unused-sessions", type=int, default=2_000, help="ms between sweeps")
    parse.add_argument(
        "--unused-session-lifetime",
        type=int,
        default=10_000,
        help="ms a session without a browser connected is kept",
    )
    parse.add_argument(
        "--session-builds-per-client",
        type=int,
        default=build_budget.PER_CLIENT_PER_MINUTE,
        help="new lab sessions a minute one client address may have built (all at once at most)",
    )
    parse.add_argument(
        "--session-builds-overall",
        type=int,
        default=build_budget.OVERALL_PER_MINUTE,
        help="new lab sessions a minute one server process builds at most",
    )
    parse.add_argument(
        "--session-build-share",
        type=float,
        default=build_budget.CLIENT_CORE_SHARE,
        help="share of one core the session builds of a client address that drops pages may "
        "take, at their measured cost, growing with its pages still open "
        "(0: only --session-builds-per-client)",
    )
    parse.add_argument(
        "--session-build-wait",
        type=float,
        default=build_budget.MAX_WAIT_S,
        help="seconds a session build over its budget waits for its turn before it is refused "
        f"(0 to {build_budget.LONGEST_WAIT_S:g})",
    )
    parse.add_argument(
        "--session-history",
        type=int,
        default=None,
        help="serve /rest/session_info with this many past sessions (for bench/classroom.py)",
    )
    parse.add_argument(
        "--default-latency",
        action="store_true",
        help="keep Panel's 50 ms change debounce and Nagle's algorithm (to compare in bench/)",
    )
    return parse


def default_cache_dir() -> Path:
    """Where the published cases' predictions are kept: ``$XDG_CACHE_HOME/llm-serving-lab``,
    else ``~/.cache/llm-serving-lab`` (``LAB_CACHE_DIR`` names another; empty keeps none)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "llm-serving-lab"


def warm_up() -> None:
    """Everything a first student would otherwise wait for, done before the server listens."""
    latency.configure()
    for key in LABS:  # import every lab now, so the collector freezes their modules too
        lab_class(key)
    # The published cases' predictions: computed once, before the first student, and kept
    # between starts (core/evidence/stored.py), so a restarted server opens in seconds.
    os.environ.setdefault(CACHE_DIR_ENV, str(default_cache_dir()))
    report()
    collector.configure()


def main(argv: list[str] | None = None) -> None:
    args = parser().parse_args(argv)
    if args.workers < 1:
        raise SystemExit("--workers must be at least 1")
    try:  # a bad budget is refused before the warm-up's seconds, not after
        budget = build_budget.BuildBudget(
            args.session_builds_per_client,
            args.session_builds_overall,
            share=args.session_build_share,
            max_wait=args.session_build_wait,
        )
    except ValueError as error:
        raise SystemExit(str(error)) from None
    guard.safe_log_records()
    guard.quiet_refusals()
    guard.close_component_imports()
    guard.readable_query_values()
    # Errors outside any session's own handler go to the log, never to a page.
    pn.config.exception_handler = log_unexpected
    first_page.configure()
    embeds.configure()
    odd_links.configure()
    reconnect.watch_refusals()
    a11y.name_controls()
    if not args.default_latency:
        warm_up()
    # Each worker gets its own copy when it forks, and counts its own sessions.
    freezer = None if args.default_latency else collector.SessionFreezer()
    build_budget.configure(budget)
    origins = [f"localhost:{args.port}", f"127.0.0.1:{args.port}", *args.allow_websocket_origin]
    auth = {}
    signing = session_secret(args.password)  # made before the workers fork: they share it
    if args.password:
        secret = cookie_secret(args.password)
        logouts = login.Logouts(args.state_dir or login.default_state_dir(), secret)
        logouts.forget_expired()  # before the workers fork: they append, none rewrites
        provider = login.ClassLogin(args.password, LOGIN_TEMPLATE, LoginLimiter(), logouts)
        auth = {"auth_provider": provider, "cookie_secret": secret}
    print(
        f"LLM Serving Lab: {args.workers} server process{'es' if args.workers > 1 else ''}"
        + (", class password required" if args.password else ""),
        *route_lines(args.address, args.port),
        "This terminal now runs the lab server; press Ctrl+C here to stop it.",
        sep="\n",
        flush=True,
    )
    if args.workers > 1:
        workers.stop_workers_with_parent()
    poll = poll_service(args, signing, auth.get("cookie_secret", ""))
    server = pn.serve(
        routes(poll, freezer),
        port=args.port,
        address=args.address,
        websocket_origin=origins,
        show=False,
        start=False,
        verbose=False,
        title=a11y.page_titles(),
        static_dirs={
            "assets": str(theme.ASSETS),
            first_page.EMBED_DIST: str(first_page.PANEL_DIST),
        },
        check_unused_sessions_milliseconds=args.check_unused_sessions,
        unused_session_lifetime_milliseconds=args.unused_session_lifetime,
        session_history=args.session_history,
        num_procs=args.workers,
        use_xheaders=args.use_xheaders,
        sign_sessions=True,
        secret_key=signing,
        **auth,
    )
    # From here on, this is one worker (the parent of several only waits for them).
    workers.worker_started()
    server.start()
    server.io_loop.start()


if __name__ == "__main__":
    allocator.relaunch_on_system_malloc()  # a class's memory comes back (labs/server/allocator.py)
    main()
