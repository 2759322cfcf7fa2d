"""Every link opens a lab, and an odd asset path is a plain 404 (issue 28, item 20).

* Panel reads a page's address by splitting it at ``?`` and expecting two parts, so
  ``/pool??seats=4`` or ``/pool?seats=64?x=1`` raised while the session was built: the first
  page answered 500 and later ones stayed a blank grey page, their session never built.
  Here the address is split at its first ``?`` only: the marks right after it are dropped
  (``/pool??seats=4`` is ``seats=4``), a later ``?`` separates knobs as ``&`` does
  (``seats=64?x=1`` is ``seats=64&x=1``), and a ``#`` (which no browser sends) is kept in the
  query as ``%23``, so the lab opens and its link reader names what it could not use.
* Tornado's static file handler (behind /assets/ and Bokeh's /static/) lets the file
  system's ValueError for a path holding a NUL escape (``/assets/lab.css%00.txt`` answered
  500 with a traceback in the log). No such file can exist, so such a path is a 404.
"""

from __future__ import annotations

from panel.io import location as panel_location
from tornado.web import HTTPError, StaticFileHandler


def plain_uri(uri: str) -> str:
    """``uri`` with one ``?`` at most and no ``#``: later ``?`` separate knobs, ``#`` is encoded."""
    if uri.startswith(("http", "https,")):
        return uri  # an absolute form: Panel parses it with urllib, which copes
    path, mark, query = uri.partition("?")
    path = path.replace("#", "%23")
    return path + mark + query.lstrip("?").replace("?", "&").replace("#", "%23")


def configure() -> None:
    """Read odd addresses and asset paths as described above, in this process."""
    read = getattr(panel_location._get_location_params, "lab_original", None)
    read = read or panel_location._get_location_params

    def location_params(protocol, host, uri):
        return read(protocol, host, plain_uri(uri))

    location_params.lab_original = read
    panel_location._get_location_params = location_params

    validate = getattr(StaticFileHandler.validate_absolute_path, "lab_original", None)
    validate = validate or StaticFileHandler.validate_absolute_path

    def validate_absolute_path(handler, root: str, absolute_path: str):
        if "\x00" in absolute_path:
            raise HTTPError(404)
        return validate(handler, root, absolute_path)

    validate_absolute_path.lab_original = validate
    StaticFileHandler.validate_absolute_path = validate_absolute_path
