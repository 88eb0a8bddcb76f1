"""Project <-> rows of the current schema. No file handling here (see :mod:`models.store.files`).

Read path in the style of orange's ``scheme/readwrite.py``: rows -> plain dicts shaped like
``Project.model_dump(mode="json")`` -> one ``Project.model_validate`` call, so the pydantic model stays the
only judge of what a valid project is. Node-kind-specific fields travel in ``node.params`` (JSON text); every
other field has a typed column.
"""

from __future__ import annotations

import datetime as dt
import json
import sqlite3
from collections.abc import Sequence
from itertools import chain, groupby
from operator import itemgetter
from typing import Any

from pydantic import ValidationError
from pydantic_core import from_json as _fast_json
from pydantic_core import to_json as _to_json

from models.project.model import TEXT_CHECKED, NodeBase, Project, Scenario, Workload
from models.project.textformat import describe_validation_error
from models.store.records import Calibration, CalibrationPoint, SnapshotEntry, StoreError
from models.store.schema import APPLICATION_ID, DDL, SCHEMA_VERSION

NODE_COLUMNS = ("id", "kind", "catalog_id", "label", "x", "y")
"""Node fields kept in typed columns; the others go to ``params``."""
_NODE_COLUMN_SET = set(NODE_COLUMNS)

WORKLOAD_COLUMNS = (
    "id", "name", "preset", "target", "hosts", "enabled", "block_kib", "read_pct", "random_pct", "target_iops",
    "target_mbps", "slo_ms", "concurrency", "think_time_ms", "dataset_bytes", "working_set_bytes",
    "provisioned_bytes", "compression_ratio", "compaction_ratio", "dedupe_ratio", "snapshot_interval_h",
    "snapshot_retention_h", "snapshot_change_pct_per_h", "clones", "growth_pct_per_year", "nas",
    "iops_growth_pct_per_year", "cold_data_pct", "cold_read_pct",
)  # fmt: skip
WORKLOAD_FIELDS_AS_COLUMNS = {name for name in WORKLOAD_COLUMNS if not name.startswith("snapshot_")} | {"snapshots"}
"""The :class:`Workload` fields the schema stores (checked against the model by the tests)."""


# --- JSON: exact for floats and big ints; TOML dates (possible in custom catalog records) are tagged ------------

_DATE_TAG = "$storplan_toml_date"


def _json_default(value: Any) -> Any:
    if isinstance(value, (dt.datetime, dt.date, dt.time)):
        return {_DATE_TAG: type(value).__name__, "value": value.isoformat()}
    raise TypeError(f"a {type(value).__name__} value cannot be stored")


def _json_hook(obj: dict[str, Any]) -> Any:
    if _DATE_TAG in obj and len(obj) == 2:
        cls: type[dt.date | dt.time] = {"datetime": dt.datetime, "date": dt.date, "time": dt.time}[obj[_DATE_TAG]]
        return cls.fromisoformat(obj["value"])
    return obj


_ENCODER = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"), default=_json_default)
"""`to_json`'s encoder, built once: ``json.dumps`` with these arguments builds a new one per call (a project of
10,000 nodes encodes 10,000 parameter objects)."""
_DECODER = json.JSONDecoder(object_hook=_json_hook)
"""`from_json`'s decoder, built once (as `_ENCODER`)."""


def to_json(value: Any) -> str:
    """Compact JSON text of ``value`` (non-ASCII kept); datetime, date and time values are tagged for `from_json`.

    Raises TypeError naming the type of any other value JSON cannot hold.
    """
    return _ENCODER.encode(value)


def from_json(text: str) -> Any:
    """The value of JSON text written by `to_json`, with tagged datetime, date and time values restored.

    Raises json.JSONDecodeError (a ValueError) for text that is not JSON.
    """
    if type(text) is str and not text.startswith("\ufeff"):
        if text.isascii() and "\\" not in text and _DATE_TAG not in text:
            # No escape, no tagged date: pydantic-core's parser gives the same values as the json module (the same
            # floats and big ints, NaN and Infinity too, the last of duplicate keys) about 4x faster (a file of
            # 10,000 nodes decodes 10,000 parameter objects). Whatever it refuses (a nesting depth the json module
            # takes, or any malformed text) goes to the json module, which answers as it always did.
            try:
                return _fast_json(text)
            except ValueError:
                pass
        return _DECODER.decode(text)  # the one decoder built once (json.loads with a hook builds one per call)
    return json.loads(text, object_hook=_json_hook)  # bytes, or a BOM json.loads reports: its own checks


def _plain_json_texts(texts: list[Any]) -> bool:
    """True when every one of ``texts`` takes :func:`from_json`'s fast path: each is a ``str``, ASCII (so without a
    byte-order mark), without a backslash and without a tagged date, found in one pass over them all (the checks per
    text cost a third of decoding 10,000 node parameters). Then ``from_json(text)`` is pydantic-core's parse of it,
    or the json module's when that one refuses it. False for no text."""
    if not texts or set(map(type, texts)) != {str}:
        return False
    joined = "".join(texts)
    return joined.isascii() and "\\" not in joined and _DATE_TAG not in joined


# --- write ---------------------------------------------------------------------------------------------------------


def create_schema(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database and stamp its application id and version."""
    conn.execute(f"PRAGMA application_id = {APPLICATION_ID}")
    for statement in DDL.split(";"):  # not executescript: it would commit the caller's transaction
        if statement.strip():
            conn.execute(statement)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _node_row(scenario_id: int, position: int, node: NodeBase) -> tuple:
    params = node.model_dump(mode="json", exclude=_NODE_COLUMN_SET)
    return (scenario_id, position, node.id, node.kind, node.catalog_id, node.label, node.x, node.y, to_json(params))


def _node_rows(scenario_id: int, scenario: Scenario) -> list[tuple]:
    """The ``node`` rows of a scenario, as :func:`_node_row` of each node: the parameters of all its nodes dumped by
    one pydantic call (a call per node costs three times as much at 10,000 nodes).

    Each node's parameters are JSON text by pydantic-core's encoder, about 6x faster than :func:`to_json` and read
    back as the same values (floats bit for bit, big integers exactly; compact, non-ASCII kept, ``Infinity`` and
    ``NaN`` as the json module writes them; only a few floats are spelt otherwise: ``1e-7`` for ``1e-07``): a
    ``mode="json"`` dump holds only JSON values (no date for ``to_json`` to tag), and anything else is refused
    (``serialize_unknown`` off), not written in another form. ``tests/test_store_encode_fast.py`` compares them."""
    nodes = scenario.nodes
    dumped = scenario.model_dump(mode="json", include={"nodes"}, exclude={"nodes": {"__all__": _NODE_COLUMN_SET}})
    return [(scenario_id, i, node.id, node.kind, node.catalog_id, node.label, node.x, node.y, _to_json(params).decode())
            for i, (node, params) in enumerate(zip(nodes, dumped["nodes"], strict=True))]


def _workload_row(scenario_id: int, position: int, w: Workload) -> tuple:
    snap = w.snapshots
    return (
        scenario_id, position, w.id, w.name, w.preset, w.target, to_json(list(w.hosts)), int(w.enabled),
        w.block_kib, w.read_pct, w.random_pct, w.target_iops, w.target_mbps, w.slo_ms, w.concurrency,
        w.think_time_ms, w.dataset_bytes, w.working_set_bytes, w.provisioned_bytes, w.compression_ratio,
        w.compaction_ratio, w.dedupe_ratio, snap.interval_h if snap else None, snap.retention_h if snap else None,
        snap.change_pct_per_h if snap else None, w.clones, w.growth_pct_per_year,
        to_json(w.nas.model_dump(mode="json")) if w.nas is not None else None, w.iops_growth_pct_per_year,
        w.cold_data_pct, w.cold_read_pct,
    )  # fmt: skip


ROWS_PER_INSERT = 500
"""Rows one ``INSERT`` statement of :func:`insert_rows` writes at most (fewer when the connection's limit on bound
parameters asks for it)."""


def insert_rows(conn: sqlite3.Connection, table: str, width: int, rows: Sequence[Sequence[Any]]) -> None:
    """Insert ``rows`` (each of ``width`` values, in the table's column order) into ``table``, in order, several rows
    per ``INSERT ... VALUES (...), (...)`` statement: the rows, their values and the table's constraints are those of
    ``executemany`` with one row per statement, at half the cost for 10,000 nodes. A statement's set-up runs once per
    statement, not once per row: the node table's ``kind IN (...)`` check builds its list of kinds every time (an
    ``executemany`` of 10,000 rows built it 10,000 times).

    Raises what ``executemany`` raises for the same rows (sqlite3.IntegrityError for a broken constraint,
    OverflowError for an integer of more than 64 bits, sqlite3.ProgrammingError for a row of another width).
    """
    if not rows:
        return
    one = "(" + ", ".join("?" * width) + ")"
    limit = conn.getlimit(sqlite3.SQLITE_LIMIT_VARIABLE_NUMBER)
    per_statement = max(1, min(ROWS_PER_INSERT, limit // width))
    for start in range(0, len(rows), per_statement):
        part = rows[start : start + per_statement]
        if any(len(row) != width for row in part):
            raise sqlite3.ProgrammingError(f"a row for table {table} does not have {width} values")
        conn.execute(f"INSERT INTO {table} VALUES {', '.join([one] * len(part))}", list(chain.from_iterable(part)))


def write_nodes(conn: sqlite3.Connection, rows: list[tuple]) -> None:
    """Insert ``node`` table rows: (scenario id, position, id, kind, catalog id, label, x, y, JSON params) each."""
    insert_rows(conn, "node", 9, rows)


def write_project(
    conn: sqlite3.Connection,
    project: Project,
    *,
    snapshot: dict[str, SnapshotEntry],
    calibration: Calibration,
    app_version: str,
    catalog_version: str,
    saved_at: str,
) -> None:
    """Insert a whole project into a database that has the current, empty schema (the caller commits)."""
    info = project.info
    conn.execute(
        "INSERT INTO meta VALUES (1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        (info.name, info.customer, info.author, info.description, info.created, info.modified, app_version,
         catalog_version, project.active_scenario, saved_at),
    )  # fmt: skip
    conn.executemany(
        "INSERT INTO setting VALUES (?, ?)",
        [(key, to_json(value)) for key, value in project.settings.model_dump(mode="json").items()],
    )
    conn.executemany(
        "INSERT INTO requirement VALUES (?, ?)",
        [(key, to_json(value)) for key, value in project.requirements.model_dump(mode="json").items()],
    )
    conn.executemany(
        "INSERT INTO price VALUES (?, ?, ?, ?, ?)",
        [(i, row.catalog_id, row.part_number, row.unit_price, row.currency)
         for i, row in enumerate(project.price_book)],
    )
    conn.executemany("INSERT INTO measured VALUES (?, ?)",
                     [(i, to_json(m.model_dump(mode="json"))) for i, m in enumerate(project.measured)])
    node_rows: list[tuple] = []
    link_rows: list[tuple] = []
    workload_rows: list[tuple] = []
    replication_rows: list[tuple] = []
    for s_pos, scenario in enumerate(project.scenarios):
        scenario_id = s_pos + 1
        conn.execute("INSERT INTO scenario VALUES (?, ?, ?)", (scenario_id, s_pos, scenario.name))
        node_rows.extend(_node_rows(scenario_id, scenario))
        link_rows.extend(
            (scenario_id, i, link.id, link.source, link.target, link.link_type, link.ports)
            for i, link in enumerate(scenario.links)
        )
        workload_rows.extend(_workload_row(scenario_id, i, w) for i, w in enumerate(scenario.workloads))
        replication_rows.extend(
            (scenario_id, i, r.id, r.source, r.target, r.kind,
             to_json(r.model_dump(mode="json", exclude={"id", "source", "target", "kind"})))
            for i, r in enumerate(scenario.replications))
    write_nodes(conn, node_rows)
    insert_rows(conn, "link", 7, link_rows)
    conn.executemany("INSERT INTO replication VALUES (?, ?, ?, ?, ?, ?, ?)", replication_rows)
    conn.executemany(f"INSERT INTO workload VALUES ({', '.join('?' * (len(WORKLOAD_COLUMNS) + 2))})", workload_rows)
    for k_pos, (kind, items) in enumerate(project.custom_catalog.items()):
        conn.execute("INSERT INTO custom_catalog_kind VALUES (?, ?)", (kind, k_pos))
        conn.executemany(
            "INSERT INTO custom_catalog_entry VALUES (?, ?, ?, ?)",
            [
                (kind, i, item.get("id") if isinstance(item, dict) and isinstance(item.get("id"), str) else None,
                 to_json(item))
                for i, item in enumerate(items)
            ],
        )  # fmt: skip
    conn.executemany(
        "INSERT INTO catalog_snapshot VALUES (?, ?, ?, ?)",
        [(e.id, e.kind, e.catalog_version, to_json(e.record)) for e in snapshot.values()],
    )
    conn.executemany(
        "INSERT INTO calibration_point (controller_id, label, iops, latency_ms) VALUES (?, ?, ?, ?)",
        [(p.controller_id, p.label, p.iops, p.latency_ms) for p in calibration.points],
    )
    conn.executemany(
        "INSERT INTO calibration_fit VALUES (?, ?)",
        [(controller_id, to_json(result)) for controller_id, result in calibration.fits.items()],
    )


# --- read ----------------------------------------------------------------------------------------------------------


def read_meta(conn: sqlite3.Connection) -> dict[str, Any]:
    """The single ``meta`` row (project info, app and catalog versions, active scenario, saved_at) as a dict.

    Raises LookupError when the row is missing.
    """
    conn.row_factory = sqlite3.Row
    try:
        row = conn.execute("SELECT * FROM meta WHERE id = 1").fetchone()
    finally:
        conn.row_factory = None
    if row is None:
        raise LookupError("the project metadata row is missing")
    return dict(row)


def _no_control_character(data: Any) -> bool:
    """True when no text anywhere in ``data`` (values and keys, at any depth) can hold a control character
    (``models.project.model.CONTROL_CHARACTER``), found in one pass over its JSON (pydantic-core's serializer): JSON
    writes every character below U+0020 as a backslash escape and U+007F as itself, so text without a backslash and
    without U+007F holds none. False (each record then searches its own text, naming the field) when there is a
    backslash at all (a tab or line feed, allowed, is written as one too), U+007F, or ``data`` is not plain JSON."""
    try:
        text = _to_json(data)
    except Exception:  # noqa: BLE001 - anything unusual: the records' own search decides
        return False
    return b"\\" not in text and b"\x7f" not in text


def read_project(conn: sqlite3.Connection, origin: str) -> tuple[Project, dict[str, SnapshotEntry], Calibration, dict]:
    """Read a database of the current schema.

    Returns:
        (project, catalog snapshot, calibration, metadata row as a dict).

    Raises:
        StoreError: (reason ``"invalid"``) the rows do not make a valid project; the message names ``origin``
            and each problem's place.
        sqlite3.Error, LookupError, ValueError: the tables are not what the schema says (the caller reports these
            as a damaged file).
    """
    meta = read_meta(conn)
    settings = {key: from_json(value) for key, value in conn.execute("SELECT key, value FROM setting")}
    requirements = {key: from_json(value) for key, value in conn.execute("SELECT key, value FROM requirement")}
    price_book = [dict(zip(("catalog_id", "part_number", "unit_price", "currency"), row)) for row in conn.execute(
        "SELECT catalog_id, part_number, unit_price, currency FROM price ORDER BY position")]
    measured = [from_json(record) for (record,) in conn.execute("SELECT record FROM measured ORDER BY position")]
    scenarios: dict[int, dict[str, Any]] = {}
    for scenario_id, name in conn.execute("SELECT id, name FROM scenario ORDER BY position"):
        scenarios[scenario_id] = {"name": name, "nodes": [], "links": [], "workloads": [], "replications": []}
    node_rows = conn.execute(
        "SELECT scenario_id, id, kind, catalog_id, label, x, y, params FROM node ORDER BY scenario_id, position"
    ).fetchall()
    plain = _plain_json_texts([row[7] for row in node_rows])
    for scenario_id, node_id, kind, catalog_id, label, x, y, params in node_rows:
        if plain:  # from_json(params) without its per-text checks, which every text passes (_plain_json_texts)
            try:
                node = _fast_json(params)
            except ValueError:
                node = _DECODER.decode(params)
        else:
            node = from_json(params)
        # the same dict as {**params, "id": ...} (keys in that order), without a copy
        if type(node) is not dict:
            node = {**node}  # not an object: the same TypeError as before
        node["id"] = node_id
        node["kind"] = kind
        node["catalog_id"] = catalog_id
        node["label"] = label
        node["x"] = x
        node["y"] = y
        scenarios[scenario_id]["nodes"].append(node)
    link_query = "SELECT scenario_id, id, source, target, link_type, ports FROM link ORDER BY scenario_id, position"
    for scenario_id, links in groupby(conn.execute(link_query), key=itemgetter(0)):  # rows of a scenario adjacent
        scenarios[scenario_id]["links"].extend(
            [{"id": i, "source": s, "target": t, "link_type": lt, "ports": n} for _, i, s, t, lt, n in links]
        )
    for scenario_id, *values in conn.execute(
        f"SELECT scenario_id, {', '.join(WORKLOAD_COLUMNS)} FROM workload ORDER BY scenario_id, position"
    ):
        w = dict(zip(WORKLOAD_COLUMNS, values))
        w["hosts"] = from_json(w["hosts"])
        w["enabled"] = bool(w["enabled"])
        w["nas"] = from_json(w["nas"]) if w["nas"] is not None else None
        interval, retention, change = (w.pop(k) for k in WORKLOAD_COLUMNS if k.startswith("snapshot_"))
        w["snapshots"] = (
            None
            if interval is None
            else {"interval_h": interval, "retention_h": retention, "change_pct_per_h": change}
        )
        scenarios[scenario_id]["workloads"].append(w)
    for scenario_id, rep_id, source, target, kind, params in conn.execute(
        "SELECT scenario_id, id, source, target, kind, params FROM replication ORDER BY scenario_id, position"
    ):
        scenarios[scenario_id]["replications"].append(
            {**from_json(params), "id": rep_id, "source": source, "target": target, "kind": kind})
    custom: dict[str, list[Any]] = {
        kind: [] for (kind,) in conn.execute("SELECT kind FROM custom_catalog_kind ORDER BY position")
    }
    for kind, record in conn.execute("SELECT kind, record FROM custom_catalog_entry ORDER BY kind, position"):
        custom[kind].append(from_json(record))
    data = {
        "info": {k: meta[k] for k in ("name", "customer", "author", "description", "created", "modified")},
        "settings": settings,
        "requirements": requirements,
        "price_book": price_book,
        "measured": measured,
        "scenarios": list(scenarios.values()),
        "active_scenario": meta["active_scenario"],
        "custom_catalog": custom,
    }
    try:
        project = Project.model_validate(data, context={TEXT_CHECKED: True} if _no_control_character(data) else None)
    except ValidationError as exc:
        problems = describe_validation_error(exc, data)
        joiner = "\n" if "\n" in problems else " "
        message = f"{origin}: the project in this file is not valid:{joiner}{problems}"
        raise StoreError(message, origin, "invalid") from exc
    snapshot = {
        entry_id: SnapshotEntry(entry_id, kind, version, from_json(record))
        for entry_id, kind, version, record in conn.execute(
            "SELECT id, kind, catalog_version, record FROM catalog_snapshot ORDER BY id"
        )
    }
    calibration = Calibration(
        points=tuple(
            CalibrationPoint(*row)
            for row in conn.execute("SELECT controller_id, label, iops, latency_ms FROM calibration_point ORDER BY id")
        ),
        fits={cid: from_json(result)
              for cid, result in conn.execute("SELECT controller_id, result FROM calibration_fit")},
    )
    return project, snapshot, calibration, meta

