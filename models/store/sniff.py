"""Whether a file is a SQLite database, told from its first bytes, without importing ``sqlite3`` or the rest of the
store: every command asks it of the project file it is given (a ``.storplan`` file under another name is still
opened as one), and a TOML project then needs nothing else from :mod:`models.store.files`."""

from __future__ import annotations

import os
from pathlib import Path

SQLITE_HEADER = b"SQLite format 3\x00"
"""The first 16 bytes of every SQLite 3 database file ("Database File Format", sqlite.org/fileformat.html, 1.3)."""


def is_sqlite_file(path: Path | str) -> bool:
    """True when the file starts with the SQLite header (``"SQLite format 3\\0"``)."""
    try:
        if not os.path.isfile(path):  # never open a pipe or a device: it could block for ever
            return False
        with open(path, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:
        return False
