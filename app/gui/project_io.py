"""Reading and writing project files for the window: the disk work of Open and Save, as plain functions.

Everything here runs on the file runner's thread (or before the window shows) and touches no widget:

* :func:`read_project_file` reads a ``.storplan`` or TOML file completely and takes its lock, returning a
  :class:`LoadedFile`; nothing in the window changes until the caller installs it.
* :func:`save_project_file` writes the project (``models.store.save_project_tracked`` or ``save_toml_tracked``) and
  returns the lock the window holds afterwards with the written file's fingerprint; it refuses to overwrite a file
  that changed on disk since this window opened or last saved it (``models.store.FileChangedOnDiskError``).
* :func:`read_project` loads a bundled example or a start-up path, laid out when its items overlap.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.gui.locks import same_path
from models.catalog import Catalog
from models.project import edits
from models.project.model import Project

SAVE_FILTER_STORPLAN = "StorPlan project (*.storplan)"
SAVE_FILTER_TOML = "TOML text (*.toml)"
SAVE_FILTERS = f"{SAVE_FILTER_STORPLAN};;{SAVE_FILTER_TOML}"
OPEN_FILTERS = "StorPlan projects (*.storplan *.toml);;StorPlan project (*.storplan);;TOML text (*.toml);;All files (*)"
DEFAULT_EXAMPLE = "aff-a70-ns224-oracle-nvmetcp.toml"
"""The bundled example a first start opens."""


def default_base_catalog() -> Catalog:
    """The catalog a project evaluates against when it has no pinned records: bundled plus the user's own
    (``models.store.default_catalog``, the rule every front door uses)."""
    from models.store import default_catalog

    return default_catalog()


def _laid_out(project: Project) -> Project:
    if edits.needs_layout(project.scenario):
        project = edits.replace_scenario(project, edits.lay_out(project.scenario))
    return project


def read_project(path: Path) -> Project:
    """Load a project file (.storplan or the TOML text form) for an example or a start-up path; a topology
    whose items overlap is laid out left to right.

    Raises:
        Exception with a readable message (ProjectFormatError, StoreError, OSError).
    """
    from models.store import load_any

    return _laid_out(load_any(path))


def read_toml(path: Path) -> Project:
    """A TOML project, laid out when it has no positions (raises ProjectFormatError / OSError)."""
    from models.project import load

    return _laid_out(load(path))


@dataclass
class LoadedFile:
    """A project file read completely (nothing in the window has changed yet).

    Attributes:
        project: the project as read.
        path: the file (None for a project with no file behind it).
        read_only: opened read-only (asked for, locked elsewhere, or the folder cannot be written).
        base_catalog: the catalog it evaluates against (its pinned records over the default catalog).
        snapshot: the pinned catalog records, id -> record.
        calibration: the file's calibration data (``models.store``), or None.
        lock: the :class:`~models.store.ProjectLock` taken for it, or None.
        locked_by: who holds the lock when it is another StorPlan.
        updates: bundled records newer than the pinned ones: ``models.store.catalog_updates`` rows.
        fingerprint: the file as it was read (``models.store.FileFingerprint``; None without a file): the next
            save refuses to overwrite it if its content changed meanwhile.
        schema_version: a ``.storplan`` file's format version on disk (``models.store.schema``; None for TOML
            or no file): below the current one, the first save over it says it upgrades the file.
    """

    project: Project
    path: Path | None
    read_only: bool = False
    base_catalog: Catalog | None = None
    snapshot: dict = field(default_factory=dict)
    calibration: Any = None
    lock: Any = None
    locked_by: str | None = None
    updates: list = field(default_factory=list)
    fingerprint: Any = None
    schema_version: int | None = None


def read_project_file(path: Path, *, read_only: bool = False, held_lock: Any = None) -> LoadedFile:
    """Read a project file completely and take its lock (unless read-only).

    Args:
        path: a ``.storplan`` file (or any SQLite file), else the TOML text form.
        read_only: open without taking the lock.
        held_lock: the lock the window holds now; reused when it is this file's (reopening it: Revert).

    Raises:
        StoreError: a .storplan file that cannot be opened (``reason`` says why; ``"locked"`` when another
            StorPlan has it and ``read_only`` was not asked for).
        Exception: a TOML file that cannot be read (ProjectFormatError, OSError).
    """
    from models.store import (
        FileFingerprint,
        ProjectLock,
        StoreError,
        catalog_updates,
        is_sqlite_file,
        open_project,
        pinned_catalog,
    )

    path = Path(path)
    if path.suffix.lower() != ".storplan" and not is_sqlite_file(path):
        fingerprint = FileFingerprint.of(path)  # before reading: a change while we read counts as a change
        project = read_toml(path)
        writable = os.access(path, os.W_OK) and os.access(path.parent, os.W_OK)
        return LoadedFile(project, path, read_only=read_only or not writable, fingerprint=fingerprint)
    opened = open_project(path, read_only_if_locked=read_only)
    base = default_base_catalog()
    # laid out as a TOML file is (read_toml), so Save As .toml and reopening shows the same picture
    loaded = LoadedFile(_laid_out(opened.project), path, read_only=opened.read_only or read_only,
                        base_catalog=pinned_catalog(opened.catalog_snapshot, base),  # = models.store.base_catalog
                        snapshot=dict(opened.catalog_snapshot), calibration=opened.calibration,
                        locked_by=opened.locked_by, fingerprint=opened.fingerprint,
                        schema_version=opened.schema_version)
    if not loaded.read_only:
        if held_lock is not None and same_path(held_lock.path, path):
            loaded.lock = held_lock  # reopening (Revert) the file this window already holds
        else:
            lock = ProjectLock(path)
            try:
                lock.acquire()
                loaded.lock = lock
            except StoreError as exc:
                if exc.reason == "locked":
                    raise
                loaded.read_only = True  # the folder cannot be written: open read-only
    loaded.updates = catalog_updates(opened.catalog_snapshot, base)
    return loaded


@dataclass(frozen=True)
class SavedFile:
    """What a save leaves the window holding.

    Attributes:
        lock: the :class:`~models.store.ProjectLock` the window holds afterwards (None for TOML without a lock).
        fingerprint: the written file's :class:`~models.store.FileFingerprint` (the next save's expectation).
    """

    lock: Any
    fingerprint: Any


def save_project_file(project: Project, path: Path, *, catalog: Catalog, calibration: Any = None,
                      keep_lock: Any = None, expected_fingerprint: Any = None, force: bool = False) -> SavedFile:
    """Write ``project`` to ``path`` (.storplan through ``models.store``, else TOML) and return what to hold.

    Args:
        keep_lock: the window's lock when it is this file's; otherwise a new lock is taken for a .storplan file
            (and released again if the write fails).
        expected_fingerprint: the file as this window opened or last saved it (None: a new file, or Save As,
            where the file dialog asked about replacing it). A file whose content differs now is not overwritten.
        force: overwrite even so (the user chose "Overwrite" after being told).

    Raises:
        FileChangedOnDiskError: the file changed on disk since ``expected_fingerprint`` (nothing was written).
        StoreError, OSError: the file could not be written (or is locked by another StorPlan).
    """
    from models.store import ProjectLock, StoreError, save_project_tracked, save_toml_tracked
    from models.store.files import read_only_folder_error

    storplan = path.suffix.lower() == ".storplan"
    lock = keep_lock
    if storplan and lock is None:
        lock = ProjectLock(path)
        try:
            lock.acquire()
        except StoreError as exc:
            if exc.reason == "read_only":  # a save: "choose another folder", never "open it read-only"
                cause = exc.__cause__ if isinstance(exc.__cause__, OSError) else None
                raise read_only_folder_error(path, cause) from exc
            raise
    try:
        if storplan:
            fingerprint = save_project_tracked(project, path, catalog=catalog, calibration=calibration,
                                               expected_fingerprint=expected_fingerprint, force=force).fingerprint
        else:  # checked again at the rename, under the folder's lock: of two savers exactly one succeeds
            fingerprint = save_toml_tracked(project, path, expected_fingerprint=expected_fingerprint,
                                            force=force).fingerprint
    except BaseException:
        if lock is not None and lock is not keep_lock:
            lock.release()
        raise
    return SavedFile(lock, fingerprint)
