"""The store's faster write path (issue 27: save of 10,000 nodes): node parameters as the same JSON text the json
module writes, and rows inserted several per statement exactly as one per statement."""

from __future__ import annotations

import json
import sqlite3

import pytest

from models.project.model import ControllerNode, HostNode, NodeLayout, Scenario, ShelfNode
from models.store import codec
from models.store.schema import DDL


def _scenario(plain: bool = False) -> Scenario:
    """Nodes whose parameters hold what JSON writers differ on: floats of every kind, big integers, non-ASCII text,
    quotes, backslashes, line breaks and U+2028, None, nested records (``plain``: ASCII text without an escape)."""
    software = "9.15.1" if plain else "9.15.1 «café» \"q\" \\ \u2028 \t\n"
    return Scenario(name="S", nodes=[
        ControllerNode(id="c1", catalog_id="netapp-aff-a70", software=software,
                       wafl_reserve_pct=0.1 + 0.2, snapshot_reserve_pct=5e-324, site_distance_km=1e-7,
                       root_partition_bytes=2**63 - 1, optimization_capacity_pct=99.99999999999999,
                       cold_read_latency_us=10_000_000.0, capacity_tier_name="grid" if plain else "grid ☃",
                       node_layouts=[NodeLayout(drives=12, spares=None), NodeLayout(data_partitions=7)]),
        HostNode(id="h1", catalog_id="generic-host", adapter=None, count=10_000),
        ShelfNode(id="s1", catalog_id="netapp-ns224", drive="x", drive_count=0, label="日本語"),
    ])  # fmt: skip


def _same(a: object, b: object) -> bool:
    """The same JSON value: equal types all the way down, floats bit for bit (repr tells -0.0 from 0.0), keys in the
    same order."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_same(a[k], b[k]) for k in a)  # type: ignore[index]
    if isinstance(a, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))  # type: ignore[arg-type]
    return repr(a) == repr(b)


def test_node_parameters_read_back_as_the_json_modules_text_does():
    scenario = _scenario()
    rows = codec._node_rows(7, scenario)
    expected = [codec._node_row(7, i, node) for i, node in enumerate(scenario.nodes)]
    assert [row[:-1] for row in rows] == [row[:-1] for row in expected]
    assert all(type(row[-1]) is str for row in rows)  # TEXT, never a BLOB
    for ours, theirs in zip(rows, expected):
        assert _same(codec.from_json(ours[-1]), codec.from_json(theirs[-1]))
        assert _same(json.loads(ours[-1]), json.loads(theirs[-1]))
    assert sum(ours[-1] == theirs[-1] for ours, theirs in zip(rows, expected)) == 2  # the floats of c1 spelt otherwise
    assert not _same(json.loads(rows[0][-1]), json.loads(rows[0][-1].replace("5e-324", "0.0")))  # the check can fail


def _columns(width: int) -> str:
    return ", ".join(f"c{i}" for i in range(width))


@pytest.mark.parametrize("count", [0, 1, 499, 500, 501, 1234])
def test_insert_rows_writes_what_executemany_writes(count):
    rows = [(i, f"id{i}", i / 3, None if i % 7 else b"\x00blob", 2**63 - 1 - i) for i in range(count)]
    ours, theirs = sqlite3.connect(":memory:"), sqlite3.connect(":memory:")
    for conn in (ours, theirs):
        conn.execute(f"CREATE TABLE t ({_columns(5)})")
    codec.insert_rows(ours, "t", 5, rows)
    theirs.executemany("INSERT INTO t VALUES (?, ?, ?, ?, ?)", rows)
    query = "SELECT rowid, *, typeof(c2), typeof(c3) FROM t ORDER BY rowid"
    assert ours.execute(query).fetchall() == theirs.execute(query).fetchall()
    assert len(ours.execute(query).fetchall()) == count


def test_insert_rows_keeps_under_the_connections_limit_of_parameters():
    conn = sqlite3.connect(":memory:")
    conn.setlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER, 20)  # 2 rows of 9 per statement
    conn.execute(f"CREATE TABLE t ({_columns(9)})")
    rows = [tuple(range(i, i + 9)) for i in range(5)]
    codec.insert_rows(conn, "t", 9, rows)
    assert conn.execute("SELECT * FROM t ORDER BY rowid").fetchall() == rows


def test_insert_rows_refuses_a_row_of_another_width():
    conn = sqlite3.connect(":memory:")
    conn.execute(f"CREATE TABLE t ({_columns(3)})")
    with pytest.raises(sqlite3.ProgrammingError):
        codec.insert_rows(conn, "t", 3, [(1, 2, 3), (4, 5), (6, 7, 8, 9)])


def test_insert_rows_breaks_the_node_tables_constraints_as_executemany_does():
    conn = sqlite3.connect(":memory:", isolation_level=None)
    conn.execute("PRAGMA foreign_keys = ON")
    for statement in DDL.split(";"):
        if statement.strip():
            conn.execute(statement)
    conn.execute("INSERT INTO scenario VALUES (1, 0, 'S')")
    good = (1, 0, "n1", "host", "h", "", 0.0, 0.0, "{}")
    for bad in [(1, 1, "n2", "tape", "h", "", 0.0, 0.0, "{}"),  # kind IN (...)
                (1, 1, "n2", "host", "h", "", 0.0, 0.0, "{no json"),  # json_valid(params)
                (1, 1, "n1", "host", "h", "", 0.0, 0.0, "{}"),  # primary key
                (2, 1, "n2", "host", "h", "", 0.0, 0.0, "{}")]:  # foreign key
        with pytest.raises(sqlite3.IntegrityError):
            codec.insert_rows(conn, "node", 9, [good, bad])
        assert conn.execute("SELECT count(*) FROM node").fetchone()[0] == 0  # the statement is undone as a whole
    with pytest.raises(OverflowError):
        codec.insert_rows(conn, "node", 9, [(1, 2**63, "n3", "host", "h", "", 0.0, 0.0, "{}")])


@pytest.mark.parametrize(
    ("texts", "plain"),
    [
        (['{"a":1}', "[1,2]", '"x"'], True),
        ([], False),
        (['{"a":1}', b'{"a":1}'], False),  # a BLOB
        (['{"a":1}', '{"a":"caf\u00e9"}'], False),  # non-ASCII
        (['{"a":1}', '\ufeff{"a":1}'], False),  # a byte-order mark
        (['{"a":1}', '{"a":"\\u0065"}'], False),  # an escape
        (['{"a":1}', '{"d":{"$storplan_toml_date":"date","value":"2026-11-29"}}'], False),  # a tagged date
        (['{"a":"$storplan_', 'toml_date"}'], False),  # the tag across two texts: the careful path, still right
    ],
)
def test_plain_json_texts_is_true_only_when_every_text_takes_the_fast_path(texts, plain):
    assert codec._plain_json_texts(texts) is plain


@pytest.mark.parametrize("spelling", ["spaced", "escaped", "duplicate key"])
def test_node_parameters_spelt_otherwise_open_as_the_same_project(tmp_path, spelling):
    from models.catalog import Catalog
    from models.project.model import Project
    from models.store import open_project, save_project

    project = Project(info={"name": "p"}, scenarios=[_scenario(plain=spelling != "escaped")], active_scenario="S")
    path = tmp_path / "p.storplan"
    save_project(project, path, catalog=Catalog([], ""))
    conn = sqlite3.connect(path)
    for rowid, params in conn.execute("SELECT rowid, params FROM node").fetchall():
        value = json.loads(params)
        if spelling == "spaced":  # ASCII, no backslash: the fast path, with whitespace around everything
            text = json.dumps(value, indent=2, separators=(" , ", " : "))
        elif spelling == "escaped":  # every text through the json module
            text = json.dumps(value, ensure_ascii=True)
        else:  # the last of two values wins, as in the json module
            text = '{"drive_count":"seven",' + params[1:] if "drive_count" in value else params
        conn.execute("UPDATE node SET params = ? WHERE rowid = ?", (text, rowid))
    texts = [text for (text,) in conn.execute("SELECT params FROM node")]
    assert codec._plain_json_texts(texts) is (spelling != "escaped")
    conn.commit()
    conn.close()
    assert open_project(path).project == project
