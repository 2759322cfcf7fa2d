"""No silently dead page: when its server goes away, a page says so and reloads itself.

A lab session lives in one server process. When that process is killed or restarted (a
worker of ``--workers N`` dies and is replaced, the host reboots), the browser's websocket
closes and the page froze with no word (issue 28, item 21: 3 of 6 tabs dead after one
worker was killed). Bokeh announces a lost connection to the page's document
(``connection_lost``); this script, attached to every session's document, shows a banner
saying the connection was lost and asks for the page's own address every few seconds. Once
the server answers, the page reloads from its link (the link follows the knobs, so the
student gets back the lab they were at). Nothing is fetched from anywhere else.
"""

from __future__ import annotations

import panel as pn
from bokeh.models import CustomJS

MESSAGE = (
    "The connection to the lab server was lost. This page reloads itself from its link "
    "as soon as the server answers again."
)

# Milliseconds between tries of the page's address.
RETRY_MS = 2_000

RELOAD_JS = """
const page = window.document;
if (window.labReconnecting) { return; }
window.labReconnecting = true;
const banner = page.createElement("div");
banner.className = "lab-connection-lost";
banner.setAttribute("role", "alert");
banner.textContent = message;
Object.assign(banner.style, {
  position: "fixed", top: "0", left: "0", right: "0", zIndex: "100000",
  padding: "12px 16px", background: "#b3261e", color: "#ffffff",
  font: "600 15px/1.4 system-ui, sans-serif", textAlign: "center",
});
page.body.appendChild(banner);
const address = window.location.href;
const retry = async () => {
  try {
    const answer = await fetch(address, {cache: "no-store", credentials: "same-origin"});
    if (answer.ok) { window.location.reload(); return; }
  } catch (error) { /* the server is still away */ }
  window.setTimeout(retry, retry_ms);
};
window.setTimeout(retry, retry_ms);
"""


# A websocket refused before its first message never makes Bokeh's connection, so its
# "connection lost" never fires: this script, in every page's head, watches for that.
REFUSED_SCRIPT = "/assets/refused.js"


def watch_refusals() -> None:
    """Put the refused-connection watch (``assets/refused.js``) in the head of every page."""
    pn.config.js_files = {**pn.config.js_files, "lab_refused": REFUSED_SCRIPT}


def attach(doc) -> None:
    """Make ``doc``'s page show the banner and reload itself when its connection is lost."""
    if doc is None:
        return
    doc.js_on_event(
        "connection_lost", CustomJS(args={"message": MESSAGE, "retry_ms": RETRY_MS}, code=RELOAD_JS)
    )
