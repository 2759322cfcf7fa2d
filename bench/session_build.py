"""What one session's first page costs the server: its Bokeh models and the CPU to build them.

Builds a page in-process the way a served session does (a fresh Document as the current one,
the app's Viewer, its Bokeh root), before any serialisation or websocket, and prints the
number of Bokeh models the root references and the process CPU the build took (median of
``--repeats``, after one warm-up build that pays the imports and the shared memo).

Prints figures; asserts nothing (speed is measured here, never in a timed test). Target from
issue 35, item 2: a /pool session at most half of the models and build CPU it cost before
(276 models and about 0.3 s on the machine the issue was filed from).

Usage::

    python bench/session_build.py                       # /pool (the lab alone), / (whole lab)
    python bench/session_build.py --path "/pool?realism=engine" --repeats 9
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path
from urllib.parse import urlsplit

if __package__ in (None, ""):
    # Run as a file, this folder would come first on sys.path and shadow the `core` package.
    sys.path[0] = str(Path(__file__).resolve().parents[1])

import panel as pn
from bokeh.document import Document
from panel.io.state import set_curdoc

from labs.frame.routes import LABS
from labs.frame.shell import LabPage, create_app, create_embedded
from labs.page.links import restore
from labs.server import panel_overhead

PATHS = ("/pool", "/", "/pool?realism=engine", "/pool?replicas=3&router=prefix-affinity")


def page_for(path: str):
    """The page a session opening ``path`` gets: a lab alone at /<lab>, the whole lab at /."""
    route, _, query = path.partition("?")
    key = route.strip("/")
    page = create_embedded(key) if key in LABS else create_app()
    if query and isinstance(page, LabPage):  # a served session restores its link on attach
        restore(page.page_bindings(), "?" + query)
    return page


def build(path: str) -> tuple[int, float, Counter]:
    """(Bokeh models, CPU seconds, models by type) of one fresh session's page at ``path``."""
    doc = Document()
    with set_curdoc(doc):
        started = time.process_time()
        root = pn.panel(page_for(path)).get_root(doc)
        cpu = time.process_time() - started
    models = root.references()
    return len(models), cpu, Counter(type(model).__name__ for model in models)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--path", action="append", help="page to build (repeatable)")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--types", action="store_true", help="list the models by type")
    args = parser.parse_args(argv)
    panel_overhead.configure()  # the server's own settings (labs/server/latency.py)
    for path in args.path or PATHS:
        assert urlsplit(path).path.startswith("/"), path
        build(path)  # warm: imports, the shared memo of core's answers
        runs = [build(path) for _ in range(args.repeats)]
        models, _cpu, types = runs[-1]
        cpu_ms = statistics.median(cpu for _models, cpu, _types in runs) * 1e3
        print(f"{path:<45} {models:4d} Bokeh models   build CPU {cpu_ms:6.0f} ms (median)")
        if args.types:
            print("    " + ", ".join(f"{name} {n}" for name, n in types.most_common()))


if __name__ == "__main__":
    main()
