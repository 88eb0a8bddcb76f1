"""Project files: SQLite ``.storplan`` projects that never lose work.

The application-file-format way (one SQLite file, typed tables, no pickles): schema version in
``PRAGMA user_version``, ``PRAGMA application_id`` = :data:`APPLICATION_ID`, forward migrations on open (in memory:
opening never writes), atomic saves (temporary file, fsync, ``os.replace``), the hardware catalog records a
project uses stored with it, a lock file against two StorPlans editing one file, and autosave copies for crash
recovery. Only the standard library's ``sqlite3``; no Qt.

Typical use by the app::

    opened = open_project(path)                  # StoreError with a message for the user on any problem
    lock = ProjectLock(path); lock.acquire()     # unless opened.read_only
    catalog = pinned_catalog(opened.catalog_snapshot, bundled_catalog())
    ...
    save_project(project, path, catalog=catalog, calibration=opened.calibration)
    recovery.clear_for(path)
"""

from .files import installed_app_version, is_sqlite_file, open_project, save_project
from .lock import LockInfo, ProjectLock, read_lock
from .records import Calibration, CalibrationPoint, OpenedProject, SnapshotEntry, StoreError
from .recovery import RecoveryItem, RecoveryStore
from .schema import APPLICATION_ID, SCHEMA_VERSION
from .snapshot import PinnedCatalog, catalog_updates, pinned_catalog, snapshot_catalog, unusable_snapshot_entries
from .textio import export_toml, import_toml, load_any

__all__ = [
    "APPLICATION_ID",
    "SCHEMA_VERSION",
    "Calibration",
    "CalibrationPoint",
    "LockInfo",
    "OpenedProject",
    "PinnedCatalog",
    "ProjectLock",
    "RecoveryItem",
    "RecoveryStore",
    "SnapshotEntry",
    "StoreError",
    "catalog_updates",
    "export_toml",
    "import_toml",
    "installed_app_version",
    "is_sqlite_file",
    "load_any",
    "open_project",
    "pinned_catalog",
    "read_lock",
    "save_project",
    "snapshot_catalog",
    "unusable_snapshot_entries",
]
