"""Every page named for a screen reader: its title, and the controls Panel draws unnamed.

Panel's widgets live in shadow roots, where a number box's step buttons, a slider's handle
and a box whose label is a sibling component (an editable slider's title) have no
accessible name (issue 36: axe-core found 71 such violations across the lab routes). The
names are set in the browser by one script, ``assets/a11y.js``, the way
:mod:`labs.server.reconnect` ships its banner: every page loads it in its head, and each
session's document runs the same text once drawn, for a course page that embeds a lab
and did not load it. A widget that needs a name no text beside it gives carries it in its
inline style as ``--aria-name`` (:func:`labs.page.a11y.aria_name`).
"""

from __future__ import annotations

import panel as pn
from bokeh.events import DocumentReady
from bokeh.models import CustomJS

from labs.frame.routes import LABS, PAGES
from labs.page.theme import ASSETS

SCRIPT = ASSETS / "a11y.js"
SCRIPT_URL = "/assets/a11y.js"
NAMES_JS = SCRIPT.read_text(encoding="utf-8")

SITE = "LLM Serving Lab"


def page_titles() -> dict[str, str]:
    """Route -> the browser tab's title: the lab's name first, then the site's."""
    titles = {"/": SITE, "/tour": f"The guided tour \u00b7 {SITE}"}
    titles.update({f"/{key}": f"{label} \u00b7 {SITE}" for key, (label, _view) in LABS.items()})
    titles.update({f"/{key}": f"{what.capitalize()} \u00b7 {SITE}" for key, what in PAGES.items()})
    return titles


def name_controls() -> None:
    """Put ``assets/a11y.js`` in every page's head (served by this server, no CDN)."""
    pn.config.js_files = {**pn.config.js_files, "lab_a11y": SCRIPT_URL}


def attach(doc) -> None:
    """Run the naming script in ``doc``'s page once it is drawn (an embed may lack the head's)."""
    if doc is not None:
        doc.js_on_event(DocumentReady, CustomJS(code=NAMES_JS))
