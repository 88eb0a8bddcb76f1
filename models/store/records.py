"""Plain records the store hands out: errors, opened projects, calibration data, snapshot entries."""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field
from datetime import UTC
from pathlib import Path
from typing import Any

from models.project.model import Project
from models.store.errors import StoreError  # defined there (a light module), offered here as ever


@dataclass(frozen=True)
class FileFingerprint:
    """A file's identity as StorPlan last read or wrote it, to notice another program (or StorPlan) changing it.

    Two fingerprints are the same file content when ``size_bytes`` and ``sha256`` agree; ``mtime_ns`` is kept to
    say when the file changed (a ``touch`` alone is not a change).

    Attributes:
        size_bytes: the file's size.
        mtime_ns: its modification time (ns since the epoch).
        sha256: hex SHA-256 of its whole content.
    """

    size_bytes: int
    mtime_ns: int
    sha256: str

    @classmethod
    def of(cls, path: Path | str) -> FileFingerprint | None:
        """The fingerprint of the file at ``path`` now (symlinks followed), or None when there is no file.

        Raises:
            OSError: the file exists but cannot be read.
        """
        digest = hashlib.sha256()
        try:
            with open(path, "rb") as fh:
                stat = os.fstat(fh.fileno())
                while chunk := fh.read(1 << 20):
                    digest.update(chunk)
        except FileNotFoundError:
            return None
        return cls(stat.st_size, stat.st_mtime_ns, digest.hexdigest())

    def same_content(self, other: FileFingerprint | None) -> bool:
        """Whether ``other`` has the same size (bytes) and SHA-256; the modification time does not count, so a
        touch alone is no change. ``None`` (the file is gone) is never the same content."""
        return other is not None and (self.size_bytes, self.sha256) == (other.size_bytes, other.sha256)


class FileChangedOnDiskError(StoreError):
    """Save refused: the file on disk is no longer the one this StorPlan opened or last saved.

    Another program (or another StorPlan) wrote it meanwhile; saving would silently throw its work away. The app
    offers Save As, or saving anyway (:func:`models.store.save_project` with ``force=True``).

    Attributes:
        expected: the fingerprint recorded when the file was opened or last saved.
        current: the file's fingerprint now.
    """

    def __init__(self, path: Path | str, expected: FileFingerprint, current: FileFingerprint) -> None:
        from datetime import datetime

        when = datetime.fromtimestamp(current.mtime_ns / 1e9, UTC).isoformat(timespec="seconds")
        size = (
            f", and is now {current.size_bytes:,} bytes instead of {expected.size_bytes:,}"
            if current.size_bytes != expected.size_bytes
            else ""
        )
        super().__init__(
            f"Cannot save {path}: the file was changed on disk by another program or another StorPlan since you "
            f"opened it (it was modified at {when} UTC{size}). Saving would overwrite those changes; the file is "
            "unchanged. Use Save As to keep both, or overwrite it.",
            path,
            "changed_on_disk",
        )
        self.expected = expected
        self.current = current


@dataclass(frozen=True)
class CalibrationPoint:
    """One measured operating point of a controller (from a lab test or a published benchmark)."""

    controller_id: str
    label: str
    iops: float
    latency_ms: float


@dataclass(frozen=True)
class Calibration:
    """A project's calibration data: measured points and, per controller id, the fitted result.

    ``fits`` maps a controller id to a JSON-compatible dict (e.g. the fitted ``PerfProfile`` fields and the
    residual); the store keeps it as JSON text and does not interpret it.
    """

    points: tuple[CalibrationPoint, ...] = ()
    fits: dict[str, Any] = field(default_factory=dict)

    def __bool__(self) -> bool:
        return bool(self.points or self.fits)


@dataclass(frozen=True)
class SnapshotEntry:
    """A catalog record as the project was saved with it.

    ``record`` is the record's stated fields (``snapshot.record_data``); it is kept as a plain dict (not a validated
    catalog record) so that a file stays readable when the catalog schema changes later.
    """

    id: str
    kind: str
    catalog_version: str
    record: dict[str, Any]


@dataclass(frozen=True)
class OpenedProject:
    """What :func:`models.store.open_project` read.

    Attributes:
        path: the file.
        project: the validated project.
        read_only: the file or its folder cannot be written (read-only medium, permissions), or it is open in
            another StorPlan and was opened read-only on request; saving back to ``path`` would fail.
        catalog_snapshot: catalog id -> :class:`SnapshotEntry`, the hardware records the project used when saved.
        app_version: the StorPlan version that saved the file.
        catalog_version: the bundled catalog version when it was saved.
        schema_version: the schema version of the file on disk (older versions were migrated in memory; the
            file is upgraded on the next save).
        calibration: measured points and fitted results (empty :class:`Calibration` when none).
        saved_at: when the file was written (ISO 8601, UTC).
        locked_by: who holds the project's lock when it was opened read-only because of it, else None.
        fingerprint: the file as it was read (taken before reading); pass it to
            :func:`models.store.save_project` as ``expected_fingerprint`` to refuse overwriting later changes.
    """

    path: Path
    project: Project
    read_only: bool
    catalog_snapshot: dict[str, SnapshotEntry]
    app_version: str
    catalog_version: str
    schema_version: int
    calibration: Calibration
    saved_at: str = ""
    locked_by: str | None = None
    fingerprint: FileFingerprint | None = None

    @property
    def needs_upgrade(self) -> bool:
        """True when the file on disk is of an older schema version (the next save rewrites it)."""
        from models.store.schema import SCHEMA_VERSION

        return self.schema_version < SCHEMA_VERSION
