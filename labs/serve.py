"""`python -m labs.serve`: the whole lab at /, each lab alone at its own route for embedding."""

from __future__ import annotations

import argparse

import panel as pn

from core.fidelity import report
from labs import collector, latency, theme
from labs.shell import LABS, create_app, create_embedded, lab_class


def routes() -> dict:
    """URL route -> a function that builds that page for one new session."""
    pages = {"/": create_app}
    for key in LABS:
        pages[f"/{key}"] = _embedded_page(key)
    return pages


def _embedded_page(key: str):
    # Panel serves plain functions per session; a functools.partial would be served as an object.
    def page():
        return create_embedded(key)

    page.__name__ = f"embedded_{key}"
    return page


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="Serve LLM Serving Lab.")
    parser.add_argument("--port", type=int, default=5006)
    parser.add_argument("--address", default="127.0.0.1", help="0.0.0.0 to let a classroom connect")
    parser.add_argument(
        "--allow-websocket-origin",
        action="append",
        default=[],
        help="host[:port] browsers reach the lab by, or of a page embedding it by script (repeatable)",
    )
    parser.add_argument(
        "--check-unused-sessions", type=int, default=10_000, help="ms between sweeps"
    )
    parser.add_argument(
        "--unused-session-lifetime", type=int, default=30_000, help="ms a closed session is kept"
    )
    parser.add_argument(
        "--session-history",
        type=int,
        default=None,
        help="serve /rest/session_info with this many past sessions (for bench/classroom.py)",
    )
    parser.add_argument(
        "--default-latency",
        action="store_true",
        help="keep Panel's 50 ms change debounce and Nagle's algorithm (to compare in bench/)",
    )
    args = parser.parse_args(argv)
    if not args.default_latency:
        latency.configure()
        for key in LABS:  # import every lab now, so the collector freezes their modules too
            lab_class(key)
        report()  # the published cases' predictions: computed once, before the first student
        collector.configure()
    origins = [f"localhost:{args.port}", f"127.0.0.1:{args.port}", *args.allow_websocket_origin]
    pn.serve(
        routes(),
        port=args.port,
        address=args.address,
        websocket_origin=origins,
        show=False,
        title="LLM Serving Lab",
        static_dirs={"assets": str(theme.ASSETS)},
        check_unused_sessions_milliseconds=args.check_unused_sessions,
        unused_session_lifetime_milliseconds=args.unused_session_lifetime,
        session_history=args.session_history,
    )


if __name__ == "__main__":
    main()
