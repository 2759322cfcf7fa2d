"""An error nobody expected: a short apology on the page, the traceback in the server's log only.

Panel would show the traceback, with the server's file paths, to whoever opened the page: when
building a session fails, it renders the whole traceback in place of the page. The shell builds
each page through :func:`built`, which logs the failure and serves :func:`apology_page` instead,
and each session's page answers errors in its knob-change callbacks with
:meth:`labs.frame.shell.LabPage.apologise`, installed as that session's
``pn.config.exception_handler``. :func:`log_unexpected` is the handler for the rest of the
server, set once at start.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import panel as pn

LOG = logging.getLogger("labs.unexpected")

APOLOGY = (
    "Sorry: something went wrong on the server that the lab did not expect, so the figures "
    "may be out of date. The error has been logged for the instructor."
)


def log_unexpected(exception: BaseException) -> None:
    """Write ``exception`` and its traceback to the server's log, never to a page."""
    LOG.error(
        "unexpected error in a lab session: %s",
        type(exception).__name__,
        exc_info=(type(exception), exception, exception.__traceback__),
    )


def apology_html(again: str) -> str:
    """The apology, with ``again`` (HTML) saying how to carry on."""
    return (
        '<div class="lab"><div class="notice" data-apology><b>Sorry, something went wrong.</b>'
        f"<p>{APOLOGY} {again}</p></div></div>"
    )


def apology_page() -> pn.pane.HTML:
    """What a page whose build failed shows: the apology and a way back to the lab's defaults."""
    again = '<a href="?">Open this lab with its default settings</a>.'
    return pn.pane.HTML(apology_html(again), sizing_mode="stretch_width", margin=(16, 24))


def built(make: Callable[[], pn.viewable.Viewable]) -> pn.viewable.Viewable:
    """``make()``, or the apology page (the traceback logged) when it fails unexpectedly."""
    try:
        return make()
    except Exception as exception:  # a page must never show a traceback
        log_unexpected(exception)
        return apology_page()
