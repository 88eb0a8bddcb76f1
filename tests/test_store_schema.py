"""The schema matches the project model: a model field without a column (and a migration) fails here."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from models.project import NODE_TYPES, Project, Settings, Workload
from models.project.model import NodeBase
from models.store import APPLICATION_ID, SCHEMA_VERSION, save_project
from models.store.codec import NODE_COLUMNS, WORKLOAD_FIELDS_AS_COLUMNS
from models.store.schema import NODE_KINDS


def test_every_workload_field_has_a_column():
    assert set(Workload.model_fields) == WORKLOAD_FIELDS_AS_COLUMNS, (
        "Workload gained or lost a field: add a column, bump SCHEMA_VERSION and write a migration"
    )


def test_node_kinds_and_common_columns():
    assert set(NODE_KINDS) == set(NODE_TYPES)
    assert set(NODE_COLUMNS) - {"kind"} == set(NodeBase.model_fields)


def test_project_shape_is_what_the_store_knows():
    assert set(Project.model_fields) == {"info", "settings", "requirements", "scenarios", "active_scenario",
                                         "custom_catalog", "price_book", "measured"}
    # settings are key / value rows (table ``setting``): a new setting needs no column and no migration; a file
    # without its row opens with the default
    assert set(Settings.model_fields) == {"capacity_unit", "default_slo_ms", "paper", "curve_points",
                                          "data_reduction_bands"}


def test_file_is_stamped_and_typed(tmp_path: Path):
    path = save_project(Project(), tmp_path / "p.storplan")
    conn = sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True)
    assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "delete"  # one file, no -wal beside it
    tables = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    assert {"meta", "setting", "scenario", "node", "link", "workload", "catalog_snapshot", "custom_catalog_kind",
            "custom_catalog_entry", "calibration_point", "calibration_fit"} <= set(tables)  # fmt: skip
    for table in tables:
        for _cid, name, decl, *_ in conn.execute(f"PRAGMA table_info({table})"):
            assert decl in ("TEXT", "REAL", "INTEGER"), f"{table}.{name} is {decl!r}: no blobs, no pickles"
    foreign = {t: conn.execute(f"PRAGMA foreign_key_list({t})").fetchall() for t in ("node", "link", "workload")}
    assert all(rows and rows[0][2] == "scenario" for rows in foreign.values())
    conn.close()


def test_requirements_survive_save_and_open(tmp_path: Path):
    from models.project.model import Requirements
    from models.store import open_project

    wanted = Requirements(horizon_months=24, meet_slo_in_takeover=True, protocols=["FCP"], rank_on="p90")
    path = save_project(Project(requirements=wanted), tmp_path / "r.storplan")
    assert open_project(path).project.requirements == wanted


def test_price_book_survives_save_and_open_and_a_v5_file_opens_without_one(tmp_path: Path):
    from models.project import PriceRow, dumps, loads
    from models.store import open_project
    from models.store.schema import DDL_V5, migrate

    book = [PriceRow(catalog_id="ns224", part_number="X-NS224", unit_price=12_500.0, currency="USD"),
            PriceRow(catalog_id="aff-a20", unit_price=41_000.5, currency="USD")]
    path = save_project(Project(price_book=book), tmp_path / "p.storplan")
    assert open_project(path).project.price_book == book
    assert loads(dumps(Project(price_book=book))).price_book == book  # the TOML form: [[price]] rows
    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL_V5)
    migrate(conn, 5)
    assert conn.execute("SELECT count(*) FROM price").fetchone() == (0,)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION


def test_a_price_book_with_two_currencies_or_a_repeated_id_is_refused():
    import pytest
    from pydantic import ValidationError

    from models.project import PriceRow

    with pytest.raises(ValidationError, match="one currency per book, found EUR, USD"):
        Project(price_book=[PriceRow(catalog_id="a", unit_price=1, currency="USD"),
                            PriceRow(catalog_id="b", unit_price=1, currency="EUR")])
    with pytest.raises(ValidationError, match="a priced more than once"):
        Project(price_book=[PriceRow(catalog_id="a", unit_price=1, currency="USD"),
                            PriceRow(catalog_id="a", unit_price=2, currency="USD")])
