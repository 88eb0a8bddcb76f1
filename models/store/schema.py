"""The SQLite schema of a ``.storplan`` file and its forward migrations.

Version history (``PRAGMA user_version``):

1. First format: project metadata with the settings as one JSON text column ``meta.settings``; scenarios,
   nodes, links, workloads, custom catalog entries and the catalog snapshot.
2. Settings as typed key/value rows (table ``setting``) instead of one JSON column; calibration tables
   (``calibration_point``: measured (IOPS, latency) points; ``calibration_fit``: fitted results as JSON).
3 to 7: see each ``DDL_V<n>``. 8: replication relationships (table ``replication``). 9: each workload's
FabricPool cold-data and cold-read shares. 10: where the workloads were measured (table ``measured``: one JSON
record per import of a measured environment).

To change the schema: bump :data:`SCHEMA_VERSION`, keep the old DDL as a frozen ``DDL_V<n>`` in :data:`SCHEMAS`
(files of every version must still open, and opening checks a file against the schema of its own version), change
:data:`DDL` to the new shape, and append a function to :data:`MIGRATIONS` that turns a database of the previous
version into the new one (it runs inside the opening transaction, on an in-memory copy: see
:mod:`models.store.files`).

Opening checks, before any query reads a row, that a file's tables and columns are exactly those of
:data:`SCHEMAS` for its ``user_version`` (:func:`schema_problems`): a view or trigger in place of a table (which
could make a read run for ever), an extra or missing table, index or column are refused with a message naming them.
``tests/test_store_schema.py`` checks that every model field has a column, so adding a field to the project model
without a migration fails the tests.
"""

from __future__ import annotations

import functools
import json
import sqlite3
from collections.abc import Callable

from models.store.sniff import SQLITE_HEADER as SQLITE_HEADER  # named here too, as before

APPLICATION_ID = 0x53545054
"""``PRAGMA application_id`` of every StorPlan project file ("STPT")."""

SCHEMA_VERSION = 10
"""The schema version this StorPlan writes, and the newest it reads."""

NODE_KINDS_V1 = ("host", "switch", "controller", "shelf", "hci_cluster", "cloud_vm")
"""The node kinds of schema versions 1 to 6 (frozen: their DDL checks them)."""

NODE_KINDS = (*NODE_KINDS_V1, "managed_service")
"""The node kinds the current schema accepts (version 7 adds managed services)."""

DDL_V1 = f"""
CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, customer TEXT NOT NULL,
    author TEXT NOT NULL, description TEXT NOT NULL, created TEXT NOT NULL, modified TEXT NOT NULL,
    app_version TEXT NOT NULL, catalog_version TEXT NOT NULL, active_scenario TEXT NOT NULL,
    saved_at TEXT NOT NULL, settings TEXT NOT NULL CHECK (json_valid(settings)));
CREATE TABLE scenario (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL UNIQUE);
CREATE TABLE node (scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(repr(k) for k in NODE_KINDS_V1)})),
    catalog_id TEXT NOT NULL, label TEXT NOT NULL, x REAL NOT NULL, y REAL NOT NULL,
    params TEXT NOT NULL CHECK (json_valid(params)), PRIMARY KEY (scenario_id, id));
CREATE TABLE link (scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, id TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL,
    link_type TEXT NOT NULL, ports INTEGER NOT NULL, PRIMARY KEY (scenario_id, id));
CREATE TABLE workload (scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, id TEXT NOT NULL, name TEXT NOT NULL, preset TEXT, target TEXT NOT NULL,
    hosts TEXT NOT NULL CHECK (json_valid(hosts)), enabled INTEGER NOT NULL CHECK (enabled IN (0, 1)),
    block_kib REAL NOT NULL, read_pct REAL NOT NULL, random_pct REAL NOT NULL, target_iops REAL,
    target_mbps REAL, slo_ms REAL NOT NULL, concurrency INTEGER NOT NULL, think_time_ms REAL NOT NULL,
    dataset_bytes INTEGER NOT NULL, working_set_bytes INTEGER, provisioned_bytes INTEGER,
    compression_ratio REAL NOT NULL, compaction_ratio REAL NOT NULL, dedupe_ratio REAL NOT NULL,
    snapshot_interval_h REAL, snapshot_retention_h REAL, snapshot_change_pct_per_h REAL,
    clones INTEGER NOT NULL, growth_pct_per_year REAL NOT NULL, PRIMARY KEY (scenario_id, id),
    CHECK ((snapshot_interval_h IS NULL) = (snapshot_retention_h IS NULL)
           AND (snapshot_interval_h IS NULL) = (snapshot_change_pct_per_h IS NULL)));
CREATE TABLE custom_catalog_kind (kind TEXT PRIMARY KEY, position INTEGER NOT NULL);
CREATE TABLE custom_catalog_entry (kind TEXT NOT NULL REFERENCES custom_catalog_kind(kind) ON DELETE CASCADE,
    position INTEGER NOT NULL, entry_id TEXT, record TEXT NOT NULL, PRIMARY KEY (kind, position));
CREATE TABLE catalog_snapshot (id TEXT PRIMARY KEY, kind TEXT NOT NULL, catalog_version TEXT NOT NULL,
    record TEXT NOT NULL CHECK (json_valid(record)));
"""
"""Schema version 1, as StorPlan 0.1 wrote it (frozen: files of this version exist; see :func:`_v1_to_v2`)."""

DDL_V2 = f"""
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
    kind TEXT NOT NULL CHECK (kind IN ({", ".join(repr(k) for k in NODE_KINDS_V1)})),
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
"""Version 2 (frozen): settings as rows, calibration tables.

JSON text columns that may hold an infinite float (a setting such as ``default_slo_ms = inf``, a catalog or
calibration record) have no ``json_valid`` check: Python writes infinity as ``Infinity``, which SQLite's JSON
functions reject but :func:`json.loads` reads back exactly.
"""


_V3_WORKLOAD_NAS = "    nas TEXT CHECK (nas IS NULL OR json_valid(nas)),\n"
"""Version 3 adds the workload's file-protocol description (NAS protocol and operation mix) as JSON."""

DDL_V3 = DDL_V2.replace("    growth_pct_per_year REAL NOT NULL,\n    PRIMARY KEY (scenario_id, id),",
                        "    growth_pct_per_year REAL NOT NULL,\n" + _V3_WORKLOAD_NAS
                        + "    PRIMARY KEY (scenario_id, id),")
"""Version 3 (frozen): version 2 plus the workload's ``nas`` column."""
assert DDL_V3 != DDL_V2, "the v3 workload column was not added"

_V4_WORKLOAD_IOPS_GROWTH = "    iops_growth_pct_per_year REAL NOT NULL DEFAULT 0,\n"
"""Version 4 adds each workload's IOPS growth (percent per year, applied as (1 + g)^(months / 12)) for the runway."""

DDL_V4 = DDL_V3.replace(_V3_WORKLOAD_NAS, _V3_WORKLOAD_NAS + _V4_WORKLOAD_IOPS_GROWTH)
"""Version 4 (frozen): version 3 plus the workload's ``iops_growth_pct_per_year``."""

_V5_REQUIREMENT = "CREATE TABLE requirement (key TEXT PRIMARY KEY, value TEXT NOT NULL);\n"
"""Version 5 adds the project's sizing requirements, one row per field (JSON value), like ``setting``."""

DDL_V5 = DDL_V4 + _V5_REQUIREMENT
"""Version 5 (frozen): version 4 plus the ``requirement`` table."""

_V6_PRICE = ("CREATE TABLE price (position INTEGER PRIMARY KEY, catalog_id TEXT NOT NULL UNIQUE, "
             "part_number TEXT NOT NULL, unit_price REAL NOT NULL, currency TEXT NOT NULL);\n")
"""Version 6 adds the project's price book: one row per priced catalog record, in the book's order."""

DDL_V6 = DDL_V5 + _V6_PRICE
"""Version 6 (frozen): version 5 plus the ``price`` table."""

_KINDS_CHECK_V1 = f"CHECK (kind IN ({', '.join(repr(k) for k in NODE_KINDS_V1)}))"
_KINDS_CHECK = f"CHECK (kind IN ({', '.join(repr(k) for k in NODE_KINDS)}))"

DDL_V7 = DDL_V6.replace(_KINDS_CHECK_V1, _KINDS_CHECK)
assert DDL_V7 != DDL_V6, "the v7 node kinds were not added"
"""Version 7 (frozen): version 6 with the managed-service node kind."""

_V8_REPLICATION = ("CREATE TABLE replication (scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE, "
                   "position INTEGER NOT NULL, id TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL, "
                   "kind TEXT NOT NULL, params TEXT NOT NULL CHECK (json_valid(params)), "
                   "PRIMARY KEY (scenario_id, id));\n")
"""Version 8 adds the scenarios' replication relationships (``models.project.replication``): ends and kind as
columns, the rest of the record as JSON."""

DDL_V8 = DDL_V7 + _V8_REPLICATION
"""Version 8 (frozen): version 7 plus the ``replication`` table."""

_V9_WORKLOAD_COLD = ("    cold_data_pct REAL NOT NULL DEFAULT 0,\n"
                     "    cold_read_pct REAL NOT NULL DEFAULT 0,\n")
"""Version 9 adds each workload's FabricPool shares: data tiered to the capacity tier and reads that hit it (0: no
tiering)."""

DDL_V9 = DDL_V8.replace(_V4_WORKLOAD_IOPS_GROWTH, _V4_WORKLOAD_IOPS_GROWTH + _V9_WORKLOAD_COLD)
assert DDL_V9 != DDL_V8, "the v9 workload columns were not added"
"""Version 9 (frozen): version 8 plus the workload's FabricPool shares."""

_V10_MEASURED = ("CREATE TABLE measured (position INTEGER PRIMARY KEY, "
                 "record TEXT NOT NULL CHECK (json_valid(record)));\n")
"""Version 10 adds where the workloads were measured (``models.project.model.MeasuredImport``): one row per import
of a measured environment, in import order, the record as JSON."""

DDL = DDL_V9 + _V10_MEASURED
"""The current schema (version :data:`SCHEMA_VERSION`).

JSON text columns that may hold an infinite float (a setting such as ``default_slo_ms = inf``, a catalog or
calibration record) have no ``json_valid`` check: Python writes infinity as ``Infinity``, which SQLite's JSON
functions reject but :func:`json.loads` reads back exactly.
"""
assert DDL_V4 != DDL_V3, "the v4 workload column was not added"


def _v9_to_v10(conn: sqlite3.Connection) -> None:
    """The ``measured`` table appears (empty: no import recorded; an older import's description still says it)."""
    conn.execute(_V10_MEASURED.strip().rstrip(";"))


def _v8_to_v9(conn: sqlite3.Connection) -> None:
    """Workloads gain ``cold_data_pct`` and ``cold_read_pct`` (0: nothing tiered, no cold read)."""
    for line in _V9_WORKLOAD_COLD.splitlines():
        conn.execute("ALTER TABLE workload ADD COLUMN " + line.strip().rstrip(","))


def _v7_to_v8(conn: sqlite3.Connection) -> None:
    """The ``replication`` table appears (empty: no relationship)."""
    conn.execute(_V8_REPLICATION.strip().rstrip(";"))


def _v6_to_v7(conn: sqlite3.Connection) -> None:
    """The node table accepts the managed-service kind: SQLite cannot change a CHECK in place, so the table is
    built again with the new check (same columns, same rows in the same order) and the old one dropped."""
    node_sql = next(stmt for stmt in DDL.split(";") if "CREATE TABLE node (" in stmt)
    conn.execute(node_sql.strip().replace("CREATE TABLE node (", "CREATE TABLE node_v7 (", 1))
    conn.execute("INSERT INTO node_v7 SELECT * FROM node")
    conn.execute("DROP TABLE node")
    conn.execute("ALTER TABLE node_v7 RENAME TO node")


def _v5_to_v6(conn: sqlite3.Connection) -> None:
    """The ``price`` table appears (empty: no price book)."""
    conn.execute(_V6_PRICE.strip().rstrip(";"))


def _v4_to_v5(conn: sqlite3.Connection) -> None:
    """The ``requirement`` table appears (empty: the default requirements)."""
    conn.execute(_V5_REQUIREMENT.strip().rstrip(";"))


def _v3_to_v4(conn: sqlite3.Connection) -> None:
    """Workloads gain ``iops_growth_pct_per_year`` (0: the IOPS target does not grow)."""
    conn.execute("ALTER TABLE workload ADD COLUMN " + _V4_WORKLOAD_IOPS_GROWTH.strip().rstrip(","))


def _v2_to_v3(conn: sqlite3.Connection) -> None:
    """Workloads gain ``nas`` (NULL: a block workload)."""
    conn.execute("ALTER TABLE workload ADD COLUMN " + _V3_WORKLOAD_NAS.strip().rstrip(","))


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


MIGRATIONS: list[Callable[[sqlite3.Connection], None]] = [_v1_to_v2, _v2_to_v3, _v3_to_v4, _v4_to_v5, _v5_to_v6,
                                                          _v6_to_v7, _v7_to_v8, _v8_to_v9,
                                                          _v9_to_v10]
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


SCHEMAS: dict[int, str] = {1: DDL_V1, 2: DDL_V2, 3: DDL_V3, 4: DDL_V4, 5: DDL_V5, 6: DDL_V6, 7: DDL_V7, 8: DDL_V8,
                           9: DDL_V9, 10: DDL}
"""Schema version -> the DDL StorPlan wrote for it. Every version a file can have is here."""

assert sorted(SCHEMAS) == list(range(1, SCHEMA_VERSION + 1)), "keep the DDL of every schema version"

Column = tuple[str, str, int, "str | None", int, int]
"""One column as ``PRAGMA table_xinfo`` lists it: (name, declared type, not null, default, primary key position,
hidden: 0 ordinary, 1 hidden of a virtual table, 2/3 generated)."""


def read_shape(conn: sqlite3.Connection) -> dict[str, tuple[str, str, tuple[Column, ...]]]:
    """The schema of database ``main`` of ``conn``: name -> (type, table it belongs to, columns).

    Reads only ``sqlite_master`` and ``PRAGMA table_xinfo``, never a row of a table or a view: safe on a hostile
    file. Columns are listed for ordinary tables only (not for views, triggers, indexes or virtual tables, whose
    ``table_xinfo`` could run code of a module).
    """
    entries = conn.execute("SELECT type, name, tbl_name, sql FROM main.sqlite_master").fetchall()
    shape: dict[str, tuple[str, str, tuple[Column, ...]]] = {}
    for kind, name, table, sql in entries:
        kind = "virtual table" if kind == "table" and _is_virtual(sql) else kind
        columns: tuple[Column, ...] = ()
        if kind == "table":
            columns = tuple(
                (col_name, (decl or "").upper(), notnull, default, pk, hidden)
                for _cid, col_name, decl, notnull, default, pk, hidden in conn.execute(
                    "SELECT cid, name, type, \"notnull\", dflt_value, pk, hidden FROM pragma_table_xinfo(?, 'main')",
                    (name,),
                )
            )
        shape[str(name)] = (str(kind), str(table), columns)
    return shape


def _is_virtual(sql: object) -> bool:
    return isinstance(sql, str) and sql.upper().split()[:3] == ["CREATE", "VIRTUAL", "TABLE"]


@functools.cache
def expected_shape(version: int) -> dict[str, tuple[str, str, tuple[Column, ...]]]:
    """The shape (:func:`read_shape`) of a file StorPlan wrote with schema ``version``.

    Raises:
        KeyError: an unknown version.
    """
    conn = sqlite3.connect(":memory:")
    try:
        conn.executescript(SCHEMAS[version])
        return read_shape(conn)
    finally:
        conn.close()


def _names(items: list[str]) -> str:
    shown = ", ".join(f"'{name}'" for name in sorted(items)[:5])
    return shown + (f" and {len(items) - 5} more" if len(items) > 5 else "")


def schema_problems(conn: sqlite3.Connection, version: int) -> list[str]:
    """What differs between the schema of ``conn`` and the one StorPlan wrote for ``version``, in words.

    An empty list means the file has exactly the tables, columns and indexes of that version. Only the schema
    is read (see :func:`read_shape`).

    Raises:
        KeyError: ``version`` is not one of :data:`SCHEMAS`.
        sqlite3.Error: the schema itself cannot be read (a damaged file).
    """
    expected = expected_shape(version)
    actual = read_shape(conn)
    problems: list[str] = []
    for kind, word in (("view", "view"), ("trigger", "trigger"), ("virtual table", "virtual table")):
        found = [name for name, (k, _t, _c) in actual.items() if k == kind]
        if found:
            plural = "s" if len(found) > 1 else ""
            problems.append(f"it contains the {word}{plural} {_names(found)}, which StorPlan never writes")
    unknown = [name for name, (k, _t, _c) in actual.items() if k in ("table", "index") and name not in expected]
    unknown = [name for name in unknown if actual[name][1] == name or actual[name][1] not in unknown]
    if unknown:
        problems.append(f"it has tables or indexes StorPlan does not know: {_names(unknown)}")
    missing = [
        name
        for name, (kind, _t, _c) in expected.items()
        if name not in actual or actual[name][0] != kind
    ]
    missing = [name for name in missing if expected[name][1] == name or expected[name][1] not in missing]
    if missing:
        problems.append(f"these tables or indexes are missing or of another kind: {_names(missing)}")
    for name, (kind, table, columns) in expected.items():
        got = actual.get(name)
        if got is None or got[0] != kind:
            continue
        if got[1] != table:
            problems.append(f"index '{name}' belongs to table '{got[1]}' instead of '{table}'")
        elif kind == "table" and got[2] != columns:
            want = {c[0]: c for c in columns}
            have = {c[0]: c for c in got[2]}
            extra = [c for c in have if c not in want]
            lost = [c for c in want if c not in have]
            changed = [c for c in want if c in have and have[c] != want[c]]
            parts = []
            if extra:
                parts.append(f"unknown columns {_names(extra)}")
            if lost:
                parts.append(f"missing columns {_names(lost)}")
            if changed:
                parts.append(f"columns of another type or constraint {_names(changed)}")
            if not parts:
                parts.append("its columns are in another order")
            problems.append(f"table '{name}' has {', '.join(parts)}")
    return problems
