"""Migration: a version-1 file (tests/data/project_v1.storplan, made by tests/data/make_project_v1.py) opens with
today's code, is migrated in memory only, and is upgraded by the next save."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3
from pathlib import Path

import pytest

from models.project import load
from models.store import SCHEMA_VERSION, open_project, save_project
from models.store.schema import DDL, MIGRATIONS, migrate

DATA = Path(__file__).parent / "data"
V1 = DATA / "project_v1.storplan"


@pytest.fixture
def v1_copy(tmp_path: Path) -> Path:
    return Path(shutil.copy2(V1, tmp_path / "old.storplan"))


def test_fixture_is_version_1():
    conn = sqlite3.connect(f"{V1.as_uri()}?mode=ro", uri=True)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "settings" in [row[1] for row in conn.execute("PRAGMA table_info(meta)")]
    conn.close()
    assert SCHEMA_VERSION >= 2 and len(MIGRATIONS) == SCHEMA_VERSION - 1


def test_v1_file_opens_migrated_and_unchanged_on_disk(v1_copy: Path):
    before = hashlib.sha256(v1_copy.read_bytes()).hexdigest(), v1_copy.stat().st_mtime_ns
    opened = open_project(v1_copy)
    assert opened.project == load(DATA / "project_v1.toml")
    assert opened.schema_version == 1 and opened.needs_upgrade
    # settings came through the v1 -> v2 migration (they were one JSON column in v1)
    assert opened.project.settings.capacity_unit.value == "TB"
    assert opened.project.settings.default_slo_ms == 0.5
    assert opened.project.settings.paper == "Letter" and opened.project.settings.curve_points == 123
    assert not opened.calibration
    assert "netapp-aff8080a-ex" in opened.catalog_snapshot
    assert (hashlib.sha256(v1_copy.read_bytes()).hexdigest(), v1_copy.stat().st_mtime_ns) == before
    assert sorted(p.name for p in v1_copy.parent.iterdir()) == ["old.storplan"]


def test_saving_upgrades_the_file(v1_copy: Path):
    opened = open_project(v1_copy)
    save_project(opened.project, v1_copy)
    again = open_project(v1_copy)
    assert again.schema_version == SCHEMA_VERSION and not again.needs_upgrade
    assert again.project == opened.project


def _shape(conn: sqlite3.Connection) -> dict[str, list[tuple]]:
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")]
    return {t: sorted((r[1], r[2], r[3], r[5]) for r in conn.execute(f"PRAGMA table_info({t})")) for t in tables}


def test_migrated_schema_has_the_shape_of_a_fresh_one():
    migrated = sqlite3.connect(":memory:", isolation_level=None)
    sqlite3.connect(f"{V1.as_uri()}?mode=ro", uri=True).backup(migrated)
    migrated.execute("BEGIN")
    migrate(migrated, 1)
    migrated.execute("COMMIT")
    fresh = sqlite3.connect(":memory:")
    fresh.executescript(DDL)
    assert _shape(migrated) == _shape(fresh)
    assert migrated.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert migrated.execute("PRAGMA foreign_key_check").fetchall() == []
    assert migrated.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
