"""Project files: SQLite ``.storplan`` projects that never lose work.

The application-file-format way (one SQLite file, typed tables, no pickles): schema version in
``PRAGMA user_version``, ``PRAGMA application_id`` = :data:`APPLICATION_ID`, forward migrations on open (in memory:
opening never writes), atomic saves (temporary file, fsync, ``os.replace``), the hardware catalog records a
project uses stored with it, a lock file against two StorPlans editing one file, and autosave copies for crash
recovery. Only the standard library's ``sqlite3``; no Qt.

Typical use by the app::

    opened = open_project(path)                  # StoreError with a message for the user on any problem
    lock = ProjectLock(path); lock.acquire()     # unless opened.read_only
    catalog = base_catalog(opened.catalog_snapshot)   # pinned, then the user's records, then bundled
    # (or, for a command: loaded = load_project_file(path); loaded.project, loaded.catalog)
    ...
    saved = save_project_tracked(project, path, catalog=catalog, calibration=opened.calibration,
                                 expected_fingerprint=opened.fingerprint)   # FileChangedOnDiskError: offer
    # Save As, or overwrite with force=True; keep saved.fingerprint for the next save
    recovery.clear_for(path)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from models.lazy import lazy_exports

if TYPE_CHECKING:  # the names this package offers, for the type checker; at run time each loads on first use
    from models.store.files import (
        SavedProject,
        installed_app_version,
        is_sqlite_file,
        open_project,
        save_project,
        save_project_tracked,
    )
    from models.store.lock import LockInfo, ProjectLock, read_lock
    from models.store.records import (
        Calibration,
        CalibrationPoint,
        FileChangedOnDiskError,
        FileFingerprint,
        OpenedProject,
        SnapshotEntry,
        StoreError,
    )
    from models.store.recovery import RecoveryItem, RecoveryStore
    from models.store.schema import APPLICATION_ID, SCHEMA_VERSION
    from models.store.snapshot import (
        PinnedCatalog,
        base_catalog,
        catalog_updates,
        default_catalog,
        pinned_catalog,
        snapshot_catalog,
        unusable_snapshot_entries,
    )
    from models.store.textio import (
        ProjectFile,
        export_toml,
        import_toml,
        is_storplan_path,
        load_any,
        load_project_file,
        save_toml_tracked,
    )

_EXPORTS: dict[str, str] = {
    "SavedProject": "files",
    "installed_app_version": "files",
    "is_sqlite_file": "sniff",
    "open_project": "files",
    "save_project": "files",
    "save_project_tracked": "files",
    "LockInfo": "lock",
    "ProjectLock": "lock",
    "read_lock": "lock",
    "Calibration": "records",
    "CalibrationPoint": "records",
    "FileChangedOnDiskError": "records",
    "FileFingerprint": "records",
    "OpenedProject": "records",
    "SnapshotEntry": "records",
    "StoreError": "errors",
    "RecoveryItem": "recovery",
    "RecoveryStore": "recovery",
    "APPLICATION_ID": "schema",
    "SCHEMA_VERSION": "schema",
    "PinnedCatalog": "snapshot",
    "base_catalog": "snapshot",
    "catalog_updates": "snapshot",
    "default_catalog": "snapshot",
    "pinned_catalog": "snapshot",
    "snapshot_catalog": "snapshot",
    "unusable_snapshot_entries": "snapshot",
    "ProjectFile": "textio",
    "export_toml": "textio",
    "import_toml": "textio",
    "is_storplan_path": "textio",
    "load_any": "textio",
    "load_project_file": "textio",
    "save_toml_tracked": "textio",
}
"""Each name this package offers -> the module of this package it comes from. Importing the package (as importing any
of its modules does) loads none of them; ``from models.store import X`` loads X's module when first asked
(:func:`__getattr__`): reading a TOML project (:func:`load_project_file`) loads no ``sqlite3``, codec or lock."""


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS)


__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Calibration",
    "CalibrationPoint",
    "FileChangedOnDiskError",
    "FileFingerprint",
    "LockInfo",
    "OpenedProject",
    "PinnedCatalog",
    "ProjectLock",
    "RecoveryItem",
    "RecoveryStore",
    "ProjectFile",
    "SavedProject",
    "SnapshotEntry",
    "StoreError",
    "base_catalog",
    "catalog_updates",
    "default_catalog",
    "export_toml",
    "import_toml",
    "installed_app_version",
    "is_sqlite_file",
    "is_storplan_path",
    "load_any",
    "load_project_file",
    "open_project",
    "pinned_catalog",
    "read_lock",
    "save_project",
    "save_project_tracked",
    "save_toml_tracked",
    "snapshot_catalog",
    "unusable_snapshot_entries",
]
