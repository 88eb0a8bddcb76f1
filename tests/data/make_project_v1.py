"""Write ``project_v1.storplan``: ``project_v1.toml`` saved with the version-1 schema (kept here, frozen).

Run from the repository root: ``uv run python tests/data/make_project_v1.py``. The output is committed; the
migration test opens it with the current code. Version 1 kept the settings as one JSON column ``meta.settings``
and had no calibration tables.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from models.catalog import bundled_catalog
from models.project import load
from models.store import codec
from models.store.schema import APPLICATION_ID
from models.store.snapshot import snapshot_catalog

HERE = Path(__file__).resolve().parent

SCHEMA_V1 = """
CREATE TABLE meta (id INTEGER PRIMARY KEY CHECK (id = 1), name TEXT NOT NULL, customer TEXT NOT NULL,
    author TEXT NOT NULL, description TEXT NOT NULL, created TEXT NOT NULL, modified TEXT NOT NULL,
    app_version TEXT NOT NULL, catalog_version TEXT NOT NULL, active_scenario TEXT NOT NULL,
    saved_at TEXT NOT NULL, settings TEXT NOT NULL CHECK (json_valid(settings)));
CREATE TABLE scenario (id INTEGER PRIMARY KEY, position INTEGER NOT NULL, name TEXT NOT NULL UNIQUE);
CREATE TABLE node (scenario_id INTEGER NOT NULL REFERENCES scenario(id) ON DELETE CASCADE,
    position INTEGER NOT NULL, id TEXT NOT NULL,
    kind TEXT NOT NULL CHECK (kind IN ('host', 'switch', 'controller', 'shelf', 'hci_cluster', 'cloud_vm')),
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


def write_v1(project, path: Path, catalog) -> None:
    path.unlink(missing_ok=True)
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA page_size = 512")  # keeps the committed fixture small
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    conn.execute("PRAGMA user_version = 1")
    conn.executescript(SCHEMA_V1)
    conn.execute("BEGIN")
    info = project.info
    conn.execute(
        "INSERT INTO meta VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (info.name, info.customer, info.author, info.description, info.created, info.modified, "0.1.0",
         catalog.version, project.active_scenario, "2026-11-02T11:30:01.000+00:00",
         json.dumps(project.settings.model_dump(mode="json"))),
    )  # fmt: skip
    for s_pos, scenario in enumerate(project.scenarios):
        sid = s_pos + 1
        conn.execute("INSERT INTO scenario VALUES (?, ?, ?)", (sid, s_pos, scenario.name))
        codec.write_nodes(conn, [codec._node_row(sid, i, n) for i, n in enumerate(scenario.nodes)])
        conn.executemany(
            "INSERT INTO link VALUES (?, ?, ?, ?, ?, ?, ?)",
            [(sid, i, link.id, link.source, link.target, link.link_type, link.ports)
             for i, link in enumerate(scenario.links)],
        )
        conn.executemany(
            f"INSERT INTO workload VALUES ({', '.join('?' * 27)})",
            [codec._workload_row(sid, i, w) for i, w in enumerate(scenario.workloads)],
        )
    for k_pos, (kind, items) in enumerate(project.custom_catalog.items()):
        conn.execute("INSERT INTO custom_catalog_kind VALUES (?, ?)", (kind, k_pos))
        conn.executemany(
            "INSERT INTO custom_catalog_entry VALUES (?, ?, ?, ?)",
            [(kind, i, item.get("id"), json.dumps(item)) for i, item in enumerate(items)],
        )
    snapshot = snapshot_catalog(project, catalog)
    conn.executemany(
        "INSERT INTO catalog_snapshot VALUES (?, ?, ?, ?)",
        [(e.id, e.kind, e.catalog_version, json.dumps(e.record)) for e in snapshot.values()],
    )
    conn.execute("COMMIT")
    conn.execute("VACUUM")
    conn.close()


if __name__ == "__main__":
    write_v1(load(HERE / "project_v1.toml"), HERE / "project_v1.storplan", bundled_catalog())
    print("wrote", HERE / "project_v1.storplan")
