"""A widget's accessible name, carried in its inline style for assets/a11y.js."""

from __future__ import annotations

import json

import panel as pn

from labs.page.a11y import aria_name, aria_names


def test_a_name_joins_the_widgets_own_styles():
    """aria_name adds --aria-name (a JSON string the script parses) and keeps other styles."""
    widget = aria_name(pn.widgets.Select(options=["a"], styles={"color": "red"}), 'Poll "code"')
    assert widget.styles["color"] == "red"
    assert json.loads(widget.styles["--aria-name"]) == 'Poll "code"'


def test_many_names_at_once():
    """aria_names names each widget by its own words."""
    box, group = pn.widgets.TextInput(), pn.widgets.RadioButtonGroup(options=["A", "B"])
    aria_names({"Poll code": box, "Your answer": group})
    assert json.loads(box.styles["--aria-name"]) == "Poll code"
    assert json.loads(group.styles["--aria-name"]) == "Your answer"
