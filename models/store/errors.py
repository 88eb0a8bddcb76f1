"""The store's error, in a module of its own: every command catches it around loading a project, and a TOML project
loads nothing else of the store's records (:mod:`models.store.records` re-exports it)."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

Reason = Literal[
    "not_storplan", "corrupt", "newer_version", "locked", "read_only", "disk_full", "invalid", "io", "not_found",
    "changed_on_disk",
]


class StoreError(ValueError):
    """A project file cannot be opened or saved. ``str(error)`` is a sentence for the user that names the file.

    Attributes:
        path: the file concerned.
        reason: what kind of failure, for callers that react differently (``"not_storplan"``, ``"corrupt"``,
            ``"newer_version"``, ``"locked"``, ``"read_only"``, ``"disk_full"``, ``"invalid"``, ``"io"``,
            ``"not_found"``, ``"changed_on_disk"``).
    """

    def __init__(self, message: str, path: Path | str | None = None, reason: Reason = "io") -> None:
        super().__init__(message)
        self.path = Path(path) if path is not None else None
        self.reason = reason
