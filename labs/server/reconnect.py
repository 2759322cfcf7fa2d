"""No silently dead page: when its server goes away, a page says so and reloads itself.

A lab session lives in one server process. When that process is killed or restarted (a
worker of ``--workers N`` dies and is replaced, the host reboots), the browser's websocket
closes and the page froze with no word (issue 28, item 21: 3 of 6 tabs dead after one
worker was killed). Bokeh announces a lost connection to the page's document
(``connection_lost``); a callback attached to every session's document then shows a banner
saying the connection was lost and asks for the page's own address every few seconds. Once
the server answers, the page reloads from its link (the link follows the knobs, so the
student gets back the lab they were at). Nothing is fetched from anywhere else.

The banner and the retries are one script, ``assets/reconnect.js``: every page loads it in
its head (it also watches for a websocket refused before its first message, which Bokeh
never reports), and the callback runs the same text, for a page that did not load it.
"""

from __future__ import annotations

import panel as pn
from bokeh.models import CustomJS

from labs.page.theme import ASSETS

MESSAGE = (
    "The connection to the lab server was lost. This page reloads itself from its link "
    "as soon as the server answers again."
)

# The page's address is tried every 2 s (the script's retryMs).
SCRIPT = ASSETS / "reconnect.js"
SCRIPT_URL = "/assets/reconnect.js"

# Run on Bokeh's "connection_lost": the script (defining the banner where the page's head
# did not load it), then the banner.
RELOAD_JS = SCRIPT.read_text(encoding="utf-8") + "\nwindow.labConnectionLost();\n"


def watch_refusals() -> None:
    """Put the script (``assets/reconnect.js``), with its refused-connection watch, in every page's head.

    A websocket refused before its first message never makes Bokeh's connection, so its
    "connection lost" never fires: the script in the head watches for that.
    """
    pn.config.js_files = {**pn.config.js_files, "lab_reconnect": SCRIPT_URL}


def attach(doc) -> None:
    """Make ``doc``'s page show the banner and reload itself when its connection is lost."""
    if doc is None:
        return
    doc.js_on_event("connection_lost", CustomJS(code=RELOAD_JS))
