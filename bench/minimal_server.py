"""The lab's server with every route serving one slider and one HTML pane instead of a lab.

``python -m bench.minimal_server [serve's arguments]``: the same server settings a class
gets (labs/server/serve.py), so that bench/classroom.py ``--minimal`` measures the floor of
this stack under a class's load: what any Panel page costs per knob change here.
"""

from __future__ import annotations

import sys

from bench.browser import PROBED_SLIDER
from bench.change_cpu import minimal_page
from labs.server import serve


def main() -> None:
    serve.routes = lambda poll=None, freezer=None: dict.fromkeys(PROBED_SLIDER, minimal_page)
    serve.main(sys.argv[1:])


if __name__ == "__main__":
    main()
