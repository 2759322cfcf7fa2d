"""The guided walkthrough at /tour: the seed's sequence as steps over the pool lab."""

from __future__ import annotations

import panel as pn

from labs.frame.apology import built
from labs.page import theme


def create_tour() -> pn.viewable.Viewable:
    """A fresh tour and Scenario for one browser session (an apology if building it fails)."""
    # the page (and the shell it extends) loads here: the report reads labs.tour.record,
    # so this package must import without the shell
    from labs.frame.shell import _attach_link
    from labs.tour.page import TourPage

    theme.extension()
    return built(lambda: _attach_link(TourPage()))
