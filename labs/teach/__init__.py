"""/teach: three ready lessons for the instructor, each a sequence of links into the lab."""

from __future__ import annotations

import panel as pn

from labs.frame.apology import built
from labs.page import theme


def create_teach() -> pn.viewable.Viewable:
    """The lessons page for one browser session (an apology if building it fails)."""
    from labs.teach.page import TeachPage

    theme.extension()
    return built(TeachPage)
