"""Plain records the store hands out: errors, opened projects, calibration data, snapshot entries."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from models.project.model import Project

Reason = Literal[
    "not_storplan", "corrupt", "newer_version", "locked", "read_only", "disk_full", "invalid", "io", "not_found"
]


class StoreError(ValueError):
    """A project file cannot be opened or saved. ``str(error)`` is a sentence for the user that names the file.

    Attributes:
        path: the file concerned.
        reason: what kind of failure, for callers that react differently (``"not_storplan"``, ``"corrupt"``,
            ``"newer_version"``, ``"locked"``, ``"read_only"``, ``"disk_full"``, ``"invalid"``, ``"io"``,
            ``"not_found"``).
    """

    def __init__(self, message: str, path: Path | str | None = None, reason: Reason = "io") -> None:
        super().__init__(message)
        self.path = Path(path) if path is not None else None
        self.reason = reason


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

    ``record`` is the record's ``model_dump(mode="json")``; it is kept as a plain dict (not a validated
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

    @property
    def needs_upgrade(self) -> bool:
        """True when the file on disk is of an older schema version (the next save rewrites it)."""
        from .schema import SCHEMA_VERSION

        return self.schema_version < SCHEMA_VERSION
