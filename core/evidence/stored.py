"""The published cases' predictions kept on disk between server starts, keyed by the code.

Pricing every published case once per step of its waterfall, and the check sets at both
levels, takes about ten seconds: a lab server paid them before it listened, every time it
started. A server names a folder in ``LAB_CACHE_DIR`` (``labs/server/serve.py`` does, by
default ``~/.cache/llm-serving-lab``); each table is then kept there as a ``.npy`` file whose
name carries a digest of every file under ``core/`` and of Python's and numpy's versions, so a
change to the model, a case or a kernel table is a new name and the table is computed again.

Without the variable (the tests, the benches, a notebook) nothing is read or written. A file
that cannot be read, or holds anything but a finite float table of the expected shape, is
ignored and computed again: a damaged or planted file costs the start-up, never a figure.
"""

from __future__ import annotations

import hashlib
import os
import platform
import tempfile
from collections.abc import Callable
from functools import cache
from pathlib import Path

import numpy as np

CACHE_DIR_ENV = "LAB_CACHE_DIR"
CORE = Path(__file__).resolve().parents[1]
_NPY_HEADER_BYTES = 4096  # an .npy header is padded to a multiple of 64 bytes, far below this


@cache
def source_key() -> str:
    """A digest of every file under ``core/`` (path and bytes), Python's and numpy's versions."""
    digest = hashlib.sha256(f"{platform.python_version()} numpy {np.__version__}".encode())
    for path in sorted(CORE.rglob("*")):
        if path.is_file() and "__pycache__" not in path.parts:
            digest.update(path.relative_to(CORE).as_posix().encode() + b"\0")
            digest.update(path.read_bytes())
    return digest.hexdigest()[:20]


def _path(folder: Path, name: str) -> Path:
    """Where table ``name`` of this code is kept in ``folder``."""
    return folder / f"{name}-{source_key()}.npy"


def _read(path: Path, shape: tuple[int, ...]) -> np.ndarray | None:
    """The table at ``path`` if it is a finite float table of ``shape``, else None.

    Only a regular file no larger than such a table is opened: a planted pipe or device would
    block the read, a planted huge file would hold the start-up while it loads.
    """
    most = _NPY_HEADER_BYTES + 8 * int(np.prod(shape))
    try:
        if not path.is_file() or path.stat().st_size > most:
            return None
        table = np.load(path, allow_pickle=False)
    except (OSError, ValueError, EOFError):
        return None
    if table.dtype != np.float64 or table.shape != shape or not np.all(np.isfinite(table)):
        return None
    table.setflags(write=False)
    return table


def _write(folder: Path, name: str, table: np.ndarray) -> None:
    """``table`` as ``name`` in ``folder``, whole or not at all (a temporary file renamed into
    place), and the same table as earlier versions of the code made it removed."""
    path = _path(folder, name)
    temporary = None
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=folder, suffix=".tmp", delete=False) as handle:
            temporary = Path(handle.name)
            np.save(handle, table, allow_pickle=False)
        os.replace(temporary, path)
        for older in folder.glob(f"{name}-*.npy"):
            if older != path:
                older.unlink(missing_ok=True)
    except OSError:
        if temporary is not None:  # a read-only or full disk: computed again next time
            temporary.unlink(missing_ok=True)


def stored(name: str, shape: tuple[int, ...], compute: Callable[[], np.ndarray]) -> np.ndarray:
    """``compute()``, read from ``LAB_CACHE_DIR`` where an earlier start of this code kept it.

    ``name`` says which table it is (one name per table, without a hyphen); ``shape`` is what
    ``compute`` returns. A table with a non-finite entry is returned but never kept.
    """
    folder = os.environ.get(CACHE_DIR_ENV)
    if not folder:
        return compute()
    kept = _read(_path(Path(folder), name), shape)
    if kept is not None:
        return kept
    table = np.asarray(compute(), dtype=float)
    if table.shape == shape and np.all(np.isfinite(table)):
        _write(Path(folder), name, table)
    return table
