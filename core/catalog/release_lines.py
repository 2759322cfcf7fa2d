"""A release's line: the key its tables share with the other releases of that line.

A catalog release is a line (``"0.5"``), a variant of one (``"0.4-aiter"``) or a patch release
inside one (``"0.5.6"``: a release where one fact the engine level reads changed). Tables keyed by
release line (chunking, expert kernels, tile shares) hold a patch release under its line's key.
Kept apart from :mod:`core.catalog.release_names` so the catalog's release tables can use it
without importing the releases themselves.
"""

from __future__ import annotations


def release_line(version: str | None) -> str | None:
    """The line a patch release belongs to (``"0.5.6"`` -> ``"0.5"``); a line, a variant
    (``"0.4-aiter"``) or None as it is.

    >>> release_line("0.5.10"), release_line("0.19"), release_line("0.4-aiter")
    ('0.5', '0.19', '0.4-aiter')
    """
    if not version or "-" in version or version.count(".") < 2:
        return version
    return version.rsplit(".", 1)[0]
