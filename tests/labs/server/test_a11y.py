"""The accessibility script and page titles every route is served with (issue 36)."""

from __future__ import annotations

import panel as pn

from labs.frame.routes import LABS
from labs.server import a11y
from labs.server.serve import routes


def test_every_route_has_a_title_naming_its_lab():
    """Each served route has a browser-tab title, and an embedded lab's names the lab first."""
    titles = a11y.page_titles()
    assert set(routes()) == set(titles)
    for key, (label, _view) in LABS.items():
        assert titles[f"/{key}"].startswith(label)


def test_the_naming_script_is_served_from_the_app():
    """The script that names controls is the assets/ file, put in every page's head by path."""
    a11y.name_controls()
    assert pn.config.js_files["lab_a11y"] == a11y.SCRIPT_URL == "/assets/a11y.js"
    assert "window.labA11y" in a11y.NAMES_JS
