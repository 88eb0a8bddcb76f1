"""The SQLite schema of a ``.storplan`` file and its forward migrations.

Version history (``PRAGMA user_version``):

1. First format: project metadata with the settings as one JSON text column ``meta.settings``; scenarios,
   nodes, links, workloads, custom catalog entries and the catalog snapshot.
2. Settings as typed key/value rows (table ``setting``) instead of one JSON column; calibration tables
   (``calibration_point``: measured (IOPS, latency) points; ``calibration_fit``: fitted results as JSON).

To change the schema: bump :data:`SCHEMA_VERSION`, change :data:`DDL` to the new shape, and append a function to
:data:`MIGRATIONS` that turns a database of the previous version into the new one (it runs inside the opening
transaction, on an in-memory copy: see :mod:`models.store.files`). ``tests/test_store_schema.py`` checks that
every model field has a column, so adding a field to the project model without a migration fails the tests.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable

APPLICATION_ID = 0x53545054
"""``PRAGMA application_id`` of every StorPlan project file ("STPT")."""

SCHEMA_VERSION = 2
"""The schema version this StorPlan writes, and the newest it reads."""

SQLITE_HEADER = b"SQLite format 3\x00"

NODE_KINDS = ("host", "switch", "controller", "shelf", "hci_cluster", "cloud_vm")

DDL = f"""
CREATE TABLE meta (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    customer TEXT NOT NULL,
    author TEXT NOT NULL,
    description TEXT NOT NULL,
    created TEXT NOT NULL,
    modified TEXT NOT NULL,
    app_version TEXT NOT NULL,
    catalog_version TEXT NOT NULL,
    active_scenario TEXT NOT NULL,
    saved_at TEXT NOT NULL
);
CREATE TABLE setting (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE scenario (
    id INTEGER PRIMARY KEY,
    position INTEGER NOT NULL,
    name TEXT NOT NULL UNIQUE
);
CREATE TABLE node (
    scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(repr(k) for k in NODE_KINDS)})),
    catalog_id TEXT NOT NULL,
    label TEXT NOT NULL,
    x REAL NOT NULL,
    y REAL NOT NULL,
    params TEXT NOT NULL CHECK (json_valid(params)),
    PRIMARY KEY (scenario_id, id)
);
CREATE TABLE link (
    scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    link_type TEXT NOT NULL,
    ports INTEGER NOT NULL,
    PRIMARY KEY (scenario_id, id)
);
CREATE TABLE workload (
    scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    id TEXT NOT NULL,
    name TEXT NOT NULL,
    preset TEXT,
    target TEXT NOT NULL,
    hosts TEXT NOT NULL CHECK (json_valid(hosts)),
    enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    block_kib REAL NOT NULL,
    read_pct REAL NOT NULL,
    random_pct REAL NOT NULL,
    target_iops REAL,
    target_mbps REAL,
    slo_ms REAL NOT NULL,
    concurrency INTEGER NOT NULL,
    think_time_ms REAL NOT NULL,
    dataset_bytes INTEGER NOT NULL,
    working_set_bytes INTEGER,
    provisioned_bytes INTEGER,
    compression_ratio REAL NOT NULL,
    compaction_ratio REAL NOT NULL,
    dedupe_ratio REAL NOT NULL,
    snapshot_interval_h REAL,
    snapshot_retention_h REAL,
    snapshot_change_pct_per_h REAL,
    clones INTEGER NOT NULL,
    growth_pct_per_year REAL NOT NULL,
    PRIMARY KEY (scenario_id, id),
    CHECK ((snapshot_interval_h IS NULL) = (snapshot_retention_h IS NULL)
           AND (snapshot_interval_h IS NULL) = (snapshot_change_pct_per_h IS NULL))
);
CREATE TABLE custom_catalog_kind (
    kind TEXT PRIMARY KEY,
    position INTEGER NOT NULL
);
CREATE TABLE custom_catalog_entry (
    kind TEXT NOT NULL REFERENCES custom_catalog_kind(kind) ON DELETE CASCADE,
    position INTEGER NOT NULL,
    entry_id TEXT,
    record TEXT NOT NULL,
    PRIMARY KEY (kind, position)
);
CREATE TABLE catalog_snapshot (
    id TEXT PRIMARY KEY,
    kind TEXT NOT NULL,
    catalog_version TEXT NOT NULL,
    record TEXT NOT NULL
);
CREATE TABLE calibration_point (
    id INTEGER PRIMARY KEY,
    controller_id TEXT NOT NULL,
    label TEXT NOT NULL,
    iops REAL NOT NULL,
    latency_ms REAL NOT NULL
);
CREATE TABLE calibration_fit (
    controller_id TEXT PRIMARY KEY,
    result TEXT NOT NULL
);
"""
"""The current schema (version :data:`SCHEMA_VERSION`).

JSON text columns that may hold an infinite float (a setting such as ``default_slo_ms = inf``, a catalog or
calibration record) have no ``json_valid`` check: Python writes infinity as ``Infinity``, which SQLite's JSON
functions reject but :func:`json.loads` reads back exactly.
"""


def _v1_to_v2(conn: sqlite3.Connection) -> None:
    """Settings move from the JSON column ``meta.settings`` to ``setting`` rows; calibration tables appear."""
    conn.execute("CREATE TABLE setting (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
    (settings_json,) = conn.execute("SELECT settings FROM meta").fetchone()
    settings = json.loads(settings_json)
    if not isinstance(settings, dict):
        raise ValueError("meta.settings is not a JSON object")
    conn.executemany(
        "INSERT INTO setting (key, value) VALUES (?, ?)",
        [(key, json.dumps(value, ensure_ascii=False)) for key, value in settings.items()],
    )
    conn.execute("ALTER TABLE meta DROP COLUMN settings")
    conn.execute(
        "CREATE TABLE calibration_point (id INTEGER PRIMARY KEY, controller_id TEXT NOT NULL, "
        "label TEXT NOT NULL, iops REAL NOT NULL, latency_ms REAL NOT NULL)"
    )
    conn.execute("CREATE TABLE calibration_fit (controller_id TEXT PRIMARY KEY, result TEXT NOT NULL)")


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1_to_v2]
"""``MIGRATIONS[i]`` upgrades a database from version ``i + 1`` to ``i + 2``, in place, without committing."""

assert len(MIGRATIONS) == SCHEMA_VERSION - 1, "every schema version needs a migration from the one before"


def migrate(conn: sqlite3.Connection, from_version: int) -> None:
    """Run the migrations from ``from_version`` up to :data:`SCHEMA_VERSION` and set ``user_version``.

    The caller owns the transaction (migrations do not commit).

    Raises:
        ValueError: ``from_version`` is below 1 or above :data:`SCHEMA_VERSION`.
    """
    if not 1 <= from_version <= SCHEMA_VERSION:
        raise ValueError(f"cannot migrate from schema version {from_version}")
    for step in MIGRATIONS[from_version - 1 :]:
        step(conn)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
