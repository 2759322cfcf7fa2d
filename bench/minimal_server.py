"""The lab's server with every route serving one slider and one HTML pane instead of a lab.

``python -m bench.minimal_server [serve's arguments]``: the same server settings a class
gets (labs/server/serve.py), so that bench/classroom.py ``--minimal`` measures the floor of
this stack under a class's load: what any Panel page costs per knob change here.
"""

from __future__ import annotations

import sys

import panel as pn
import param

from bench.browser import PROBED_SLIDER
from labs.server import allocator, serve


def minimal_page():
    """One slider and one HTML pane, the pane rewritten on each change."""

    class Knob(param.Parameterized):
        seats = param.Integer(default=16, bounds=(1, 4096))

    knob = Knob()
    slider = pn.widgets.IntSlider.from_param(
        knob.param.seats, start=1, end=256, name=PROBED_SLIDER["/pool"][0]
    )
    text = pn.pane.HTML("")

    def show(*_events) -> None:
        with pn.io.hold():
            text.object = f'<div class="cards">{knob.seats}</div>'

    knob.param.watch(show, "seats")
    show()
    return pn.Column(slider, text)


def serve_minimal_pages() -> None:
    """Make ``serve.main`` serve :func:`minimal_page` at every probed route (bench/change_cpu.py too)."""
    serve.routes = lambda poll=None, freezer=None: dict.fromkeys(PROBED_SLIDER, minimal_page)


def main() -> None:
    allocator.relaunch_on_system_malloc()  # as the lab's server runs: the floor's allocator too
    serve_minimal_pages()
    serve.main(sys.argv[1:])


if __name__ == "__main__":
    main()
