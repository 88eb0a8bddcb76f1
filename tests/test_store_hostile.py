"""Hostile and altered .storplan files: the schema is checked before any row is read, reads are bounded in size and
time, and every refusal is a StoreError naming the file and what is wrong, with the file left as it was."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest
from counted_reads import CountedReads
from test_store_faults import SMALL, big_project

from models.project import HostNode, Project, Scenario
from models.store import SCHEMA_VERSION, StoreError, open_project, save_project
from models.store.files import MAX_VALUE_BYTES
from models.store.schema import DDL, SCHEMAS, expected_shape, schema_problems

DATA = Path(__file__).parent / "data"


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def alter(path: Path, script: str) -> None:
    conn = sqlite3.connect(path)
    conn.executescript(script)
    conn.close()


def refused(path: Path, reason: str, *words: str, rows_read: bool = False) -> str:
    """Opening ``path`` is refused for ``reason`` naming the file and ``words``, leaving it unchanged; refused from
    what the file is, never by the read's time budget; and unless ``rows_read`` (a value found while reading the
    rows), refused before any row is read (``codec.read_project`` not called: the schema is checked first)."""
    from models.store import files

    before = sha(path)
    row_reads: list[str] = []
    real_read_project = files.codec.read_project

    def read_project(*args, **kwargs):
        row_reads.append(str(path))
        return real_read_project(*args, **kwargs)

    with pytest.MonkeyPatch.context() as patch, pytest.raises(StoreError) as info:
        patch.setattr(files.codec, "read_project", read_project)
        open_project(path)
    message = str(info.value)
    assert info.value.reason == reason, message
    assert str(path) in message
    for word in words:
        assert word in message, message
    assert "could not be read within" not in message, "refused by the clock, not by what the file holds"
    assert bool(row_reads) == rows_read, f"rows read: {row_reads}"
    assert sha(path) == before, "opening must not change the file"
    return message


@pytest.fixture
def saved(tmp_path: Path) -> Path:
    return save_project(SMALL, tmp_path / "p.storplan")


# --- the schema is exactly the one of the file's version ---------------------------------------------------------


def test_every_schema_version_is_kept():
    assert sorted(SCHEMAS) == list(range(1, SCHEMA_VERSION + 1))
    assert SCHEMAS[SCHEMA_VERSION] == DDL


def test_the_version_1_fixture_has_the_recorded_version_1_schema():
    conn = sqlite3.connect(f"{(DATA / 'project_v1.storplan').as_uri()}?mode=ro", uri=True)
    try:
        assert schema_problems(conn, 1) == []
        assert schema_problems(conn, 2) != []  # and it is not the current one
    finally:
        conn.close()


def test_a_fresh_file_has_exactly_the_current_schema(saved: Path):
    conn = sqlite3.connect(f"{saved.as_uri()}?mode=ro", uri=True)
    try:
        assert schema_problems(conn, SCHEMA_VERSION) == []
    finally:
        conn.close()
    assert "setting" in expected_shape(2) and "setting" not in expected_shape(1)


def test_recursive_view_in_place_of_a_table_is_refused_at_once(saved: Path):
    """The issue's reproducer: this view made StorPlan use unbounded CPU and memory on open."""
    alter(saved, "ALTER TABLE setting RENAME TO s2; CREATE VIEW setting AS WITH RECURSIVE r(i) AS "
                 "(SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT 'k'||i AS key,'1' AS value FROM r;")  # fmt: skip
    message = refused(saved, "corrupt", "view 'setting'", "'s2'", "never writes")
    assert "\n" not in message


def test_cross_join_view_is_refused_at_once(tmp_path: Path):
    path = save_project(big_project(400), tmp_path / "big.storplan")
    alter(path, "ALTER TABLE node RENAME TO n2; CREATE VIEW node AS SELECT a.* FROM n2 a, n2 b, n2 c, n2 d;")
    refused(path, "corrupt", "view 'node'")


def test_trigger_is_refused(saved: Path):
    alter(saved, "CREATE TRIGGER t AFTER INSERT ON node BEGIN DELETE FROM scenario; END;")
    refused(saved, "corrupt", "trigger 't'")


def test_unknown_table_and_index_are_refused_by_name(saved: Path):
    alter(saved, "CREATE TABLE stowaway (x); CREATE INDEX sneaky ON node(label);")
    refused(saved, "corrupt", "'stowaway'", "'sneaky'")


def test_missing_table_is_refused(saved: Path):
    alter(saved, "DROP TABLE calibration_fit;")
    refused(saved, "corrupt", "missing", "'calibration_fit'")


def test_extra_or_retyped_column_is_refused(saved: Path, tmp_path: Path):
    alter(saved, "ALTER TABLE node ADD COLUMN evil TEXT;")
    refused(saved, "corrupt", "table 'node'", "unknown columns 'evil'")
    other = save_project(SMALL, tmp_path / "q.storplan")
    alter(other, "ALTER TABLE setting RENAME TO s2; CREATE TABLE setting (key TEXT PRIMARY KEY, value BLOB);"
                 "INSERT INTO setting SELECT * FROM s2; DROP TABLE s2;")  # fmt: skip
    refused(other, "corrupt", "table 'setting'", "'value'")


def test_virtual_table_in_place_of_a_table_is_refused(saved: Path):
    try:
        alter(saved, "ALTER TABLE setting RENAME TO s2; CREATE VIRTUAL TABLE setting USING fts5(key, value);")
    except sqlite3.OperationalError as exc:
        pytest.skip(f"this SQLite has no fts5: {exc}")
    refused(saved, "corrupt", "virtual table 'setting'")


def test_an_older_version_is_checked_against_its_own_schema(tmp_path: Path):
    path = tmp_path / "old.storplan"
    path.write_bytes((DATA / "project_v1.storplan").read_bytes())
    assert open_project(path).schema_version == 1
    alter(path, "CREATE VIEW calibration_point AS SELECT 1 AS id;")  # a v2 table name, as a view, in a v1 file
    refused(path, "corrupt", "view 'calibration_point'")


def test_a_current_file_claiming_version_1_is_refused(saved: Path):
    alter(saved, "PRAGMA user_version = 1;")
    refused(saved, "corrupt", "tables or indexes StorPlan does not know", "'calibration_fit'",
            "missing columns 'settings'")


def test_newer_version_is_refused_before_the_schema_is_judged(saved: Path):
    from models.store.schema import SCHEMA_VERSION

    newer = SCHEMA_VERSION + 1
    alter(saved, f"PRAGMA user_version = {newer}; CREATE VIEW whatever AS SELECT 1;")
    refused(saved, "newer_version", f"schema version {newer}", "newer StorPlan")


def test_newer_version_with_a_view_as_meta_does_not_read_the_view(saved: Path):
    from models.store.schema import SCHEMA_VERSION

    newer = SCHEMA_VERSION + 1
    alter(saved, f"PRAGMA user_version = {newer}; ALTER TABLE meta RENAME TO m2; CREATE VIEW meta AS WITH RECURSIVE "
                 "r(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM r) SELECT 'x' AS app_version FROM r;")  # fmt: skip
    message = refused(saved, "newer_version", f"schema version {newer}")
    assert "saved by" not in message


# --- header -------------------------------------------------------------------------------------------------------


def test_damaged_header_says_damaged(saved: Path):
    data = bytearray(saved.read_bytes())
    data[0:16] = b"\0" * 16
    saved.write_bytes(bytes(data))
    refused(saved, "corrupt", "damaged", "header")


def test_wrong_application_id_is_refused(saved: Path):
    alter(saved, "PRAGMA application_id = 42;")
    refused(saved, "not_storplan", "application id 0x0000002A")


# --- size and time limits -------------------------------------------------------------------------------------------


def test_a_file_larger_than_any_project_is_refused_unread(saved: Path, monkeypatch):
    """Refused from its size, not after reading (or hashing, or handing SQLite) the 1 GiB: the bytes read from it
    through Python are counted (the 100-byte header only), and neither the hash nor SQLite is reached."""
    import builtins
    import hashlib

    from models.store import files
    from models.store.files import MAX_PROJECT_BYTES

    os.truncate(saved, MAX_PROJECT_BYTES + 4096)  # sparse: nothing is written to disk
    before = saved.stat().st_size, saved.stat().st_mtime_ns
    read_bytes: list[int] = []
    reached: list[str] = []
    real_open, real_sha256, real_connect = builtins.open, hashlib.sha256, files._connect_read_only

    def counting_open(file, *args, **kwargs):
        handle = real_open(file, *args, **kwargs)
        ours = isinstance(file, (str, os.PathLike)) and Path(file) == saved
        return CountedReads(handle, read_bytes.append) if ours else handle

    monkeypatch.setattr(builtins, "open", counting_open)
    monkeypatch.setattr(hashlib, "sha256", lambda *a, **k: reached.append("sha256") or real_sha256(*a, **k))
    monkeypatch.setattr(files, "_connect_read_only", lambda *a, **k: reached.append("sqlite") or real_connect(*a, **k))
    with pytest.raises(StoreError) as info:
        open_project(saved)
    monkeypatch.undo()
    assert 0 < sum(read_bytes) <= 100, f"read {sum(read_bytes):,} bytes of a file refused from its size"
    assert reached == [], "refused from its size, not after hashing or opening it in SQLite"
    assert info.value.reason == "corrupt" and "larger than any project" in str(info.value)
    assert (saved.stat().st_size, saved.stat().st_mtime_ns) == before


def test_overlong_value_is_refused(saved: Path):
    conn = sqlite3.connect(saved)
    conn.execute("UPDATE node SET label = ?", ("x" * (MAX_VALUE_BYTES + 10),))
    conn.commit()
    conn.close()
    refused(saved, "corrupt", "longer than StorPlan ever writes", rows_read=True)


def test_time_budget_stops_a_slow_read(tmp_path: Path):
    path = save_project(big_project(2000), tmp_path / "big.storplan")
    before = sha(path)
    with pytest.raises(StoreError) as info:
        open_project(path, time_budget_s=1e-6)
    assert info.value.reason == "corrupt"
    assert "could not be read within" in str(info.value) and str(path) in str(info.value)
    assert sha(path) == before
    assert len(open_project(path).project.scenario.nodes) == 2000  # the default budget reads it


def test_deeply_nested_json_in_a_row_is_refused(saved: Path):
    conn = sqlite3.connect(saved)  # calibration results are JSON text without a json_valid check
    conn.execute("INSERT INTO calibration_fit VALUES ('c1', ?)", ("[" * 100_000 + "]" * 100_000,))
    conn.commit()
    conn.close()
    refused(saved, "corrupt", "damaged", "nested too deeply", rows_read=True)


@pytest.mark.parametrize("value", ["inf", "-inf"])
def test_infinite_coordinate_in_a_row_is_refused_naming_the_node(saved: Path, value: str):
    conn = sqlite3.connect(saved)
    conn.execute(f"UPDATE node SET x = {'9e999' if value == 'inf' else '-9e999'}")
    conn.commit()
    conn.close()
    refused(saved, "invalid", "node 'h1' > x", "finite", rows_read=True)


def test_nan_cannot_be_stored_but_is_refused_before_saving(tmp_path: Path):
    from pydantic import ValidationError

    with pytest.raises(ValidationError, match="finite"):
        Project(scenarios=[Scenario(name="Base", nodes=[HostNode(id="h", catalog_id="c", x=float("nan"))])])
