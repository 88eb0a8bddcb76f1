"""Fuzzing the files StorPlan reads: mutated example projects (bytes of a .storplan, its SQLite rows and schema, TOML
values and text) fed to ``storplan evaluate --json``. Every case must end in a clean refusal (exit status 2, one
``storplan: ...`` message) or a sane evaluation (exit 0 or 2 with JSON that has no NaN or infinity), never a
traceback, and the input file must be left byte for byte as it was.

Seeded and bounded: a fixed number of cases per kind from a fixed seed (each case is reproducible from its
number), and a time guard that stops a kind early on a very slow machine; the whole file runs in well under 30 s.
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import random
import sqlite3
import time
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import tomli_w

from app.cli import main
from models.project import load
from models.resources import examples_dir
from models.store import save_project

SEED = 20261124
EXAMPLES = ("aff8080-sqlserver-tpce", "vsan-sqlserver-raid5", "cvo-azure-ds4-ha-oltp", "ef550-sas-analytics")
CASES = {"bytes": 70, "rows": 110, "schema": 40, "toml": 120, "toml_text": 40}
TIME_GUARD_S = 4.0
"""Per kind: stop drawing new cases after this long (the counts above take 1-4 s each on a 2-core machine), so the
file stays well under 30 s on a slow or busy one."""

NASTY_NUMBERS: list[Any] = [0, -1, 1, -0.0, 1e-320, 1e308, -1e308, 2**63 - 1, -(2**63), 2**64, 10**30,
                            float("inf"), float("-inf"), float("nan"), 0.5, 99999999]  # fmt: skip
NASTY_TEXT: list[Any] = ["", "x", "host", "controller", "shelf", "raid_dp", "NaN", "Infinity", "-inf", "1e999",
                         "{", "[]", "{}", '{"a": [1, 2', "null", "'; DROP TABLE node; --", "\x00", "😀" * 50,
                         "A" * 100_000]  # fmt: skip


class NoConstantError(ValueError):
    pass


def _reject_constant(name: str) -> float:
    raise NoConstantError(f"JSON holds {name}")


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def run_case(path: Path, label: str) -> str:
    """Evaluate ``path`` through the command line; assert a clean outcome; return "ok" or "refused"."""
    before = _sha(path)
    out, err = io.StringIO(), io.StringIO()
    start = time.monotonic()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["evaluate", str(path), "--json"])  # an exception escaping here fails the test: a traceback
    elapsed = time.monotonic() - start
    out_text, err_text = out.getvalue(), err.getvalue()
    assert elapsed < 10.0, f"{label}: took {elapsed:.1f} s (a file must not be able to stall StorPlan)"
    assert _sha(path) == before, f"{label}: the input file was changed"
    assert code in (0, 2), f"{label}: exit status {code}: {err_text[:500]}"
    assert "Traceback" not in err_text, f"{label}: {err_text[:2000]}"
    if out_text:
        try:
            data = json.loads(out_text, parse_constant=_reject_constant)
        except NoConstantError as exc:
            pytest.fail(f"{label}: {exc}")  # a bare NaN / Infinity token (names may say "Infinity": fine)
        crashed = [p["message"] for p in data["problems"] if "engine failed" in p["message"]]
        assert not crashed, f"{label}: an engine raised instead of naming the problem: {crashed}"
        _saves_and_reopens(path, label)
        return "ok"
    assert code == 2, label
    assert err_text.startswith("storplan: ") and err_text.strip(), f"{label}: {err_text[:500]}"
    return "refused"


def _saves_and_reopens(path: Path, label: str) -> None:
    """A project that evaluates can be saved (and autosaved) and opens back equal."""
    from app.cli import load_project
    from models.store import open_project

    project = load_project(str(path))
    copy = path.with_name("resaved.storplan")
    save_project(project, copy)  # a StoreError here (e.g. "NOT NULL constraint failed") fails the case
    assert open_project(copy).project == project, f"{label}: the saved copy opens as another project"
    copy.unlink()


@pytest.fixture(scope="module")
def originals(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, Path]]:
    """Example name -> (TOML file, .storplan file), the unmutated inputs."""
    folder = tmp_path_factory.mktemp("fuzz-originals")
    out = {}
    for name in EXAMPLES:
        toml_path = examples_dir() / f"{name}.toml"
        out[name] = (toml_path, save_project(load(toml_path), folder / f"{name}.storplan"))
    return out


def _run_kind(kind: str, tmp_path: Path, make: Callable[[random.Random, Path], Path]) -> dict[str, int]:
    outcomes = {"ok": 0, "refused": 0}
    start = time.monotonic()
    for case in range(CASES[kind]):
        if time.monotonic() - start > TIME_GUARD_S and case >= 10:
            break
        rng = random.Random(f"{SEED}-{kind}-{case}")
        case_dir = tmp_path / f"{kind}-{case}"
        case_dir.mkdir()
        path = make(rng, case_dir)
        outcomes[run_case(path, f"{kind} case {case} (seed {SEED})")] += 1
    print(f"{kind}: {outcomes} in {time.monotonic() - start:.1f} s")
    return outcomes


# --- bytes of a .storplan ------------------------------------------------------------------------------------------


def test_fuzz_storplan_bytes(originals, tmp_path: Path):
    def make(rng: random.Random, folder: Path) -> Path:
        data = bytearray(originals[rng.choice(EXAMPLES)][1].read_bytes())
        how = rng.choice(["flip", "flip", "zero-block", "truncate", "header", "swap-pages"])
        if how == "flip":
            for _ in range(rng.randint(1, 40)):
                data[rng.randrange(len(data))] = rng.randrange(256)
        elif how == "zero-block":
            start = rng.randrange(len(data))
            data[start : start + rng.choice([16, 512, 4096])] = bytes(min(4096, len(data) - start))
        elif how == "truncate":
            del data[rng.randrange(1, len(data)) :]
        elif how == "header":
            for _ in range(rng.randint(1, 6)):
                data[rng.randrange(100)] = rng.randrange(256)
        else:
            page = 4096
            pages = len(data) // page
            a, b = rng.randrange(1, pages), rng.randrange(1, pages)
            data[a * page : (a + 1) * page], data[b * page : (b + 1) * page] = (
                data[b * page : (b + 1) * page], data[a * page : (a + 1) * page])  # fmt: skip
        path = folder / "mutated.storplan"
        path.write_bytes(bytes(data))
        return path

    outcomes = _run_kind("bytes", tmp_path, make)
    assert outcomes["refused"] > 0


# --- SQLite rows -----------------------------------------------------------------------------------------------------

TABLES = ("meta", "setting", "scenario", "node", "link", "workload", "catalog_snapshot", "custom_catalog_kind",
          "custom_catalog_entry", "calibration_point", "calibration_fit")  # fmt: skip


def _copy(src: Path, folder: Path) -> Path:
    path = folder / "mutated.storplan"
    path.write_bytes(src.read_bytes())
    return path


def _nasty_value(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.45:
        return rng.choice(NASTY_NUMBERS)
    if pick < 0.9:
        return rng.choice(NASTY_TEXT)
    return rng.choice([None, b"\x00\xff\xfe", bytes(64)])


def test_fuzz_sqlite_rows(originals, tmp_path: Path):
    def make(rng: random.Random, folder: Path) -> Path:
        path = _copy(originals[rng.choice(EXAMPLES)][1], folder)
        conn = sqlite3.connect(path, isolation_level=None)
        if rng.random() < 0.5:
            conn.execute("PRAGMA ignore_check_constraints = ON")
        for _ in range(rng.randint(1, 3)):
            table = rng.choice(TABLES)
            columns = [row[1] for row in conn.execute(f"PRAGMA table_info({table})")]
            rowids = [r[0] for r in conn.execute(f"SELECT rowid FROM {table}")]
            action = rng.random()
            try:
                if rowids and action < 0.75:
                    value = _nasty_value(rng)
                    if isinstance(value, float) and value != value:
                        value = None  # SQLite stores NaN as NULL
                    if isinstance(value, int) and not -(2**63) <= value < 2**63:
                        value = float(value)  # SQLite integers are 64-bit
                    conn.execute(f"UPDATE {table} SET {rng.choice(columns)} = ? WHERE rowid = ?",
                                 (value, rng.choice(rowids)))  # fmt: skip
                elif rowids and action < 0.9:
                    conn.execute(f"DELETE FROM {table} WHERE rowid = ?", (rng.choice(rowids),))
                elif rowids:
                    conn.execute(f"INSERT INTO {table} SELECT * FROM {table} WHERE rowid = ?", (rng.choice(rowids),))
            except sqlite3.Error:
                pass  # a constraint refused this change: the file stays valid, still a case
        conn.close()
        return path

    outcomes = _run_kind("rows", tmp_path, make)
    assert outcomes["ok"] > 0 and outcomes["refused"] > 0


# --- SQLite schema ---------------------------------------------------------------------------------------------------


def test_fuzz_sqlite_schema(originals, tmp_path: Path):
    def make(rng: random.Random, folder: Path) -> Path:
        path = _copy(originals[rng.choice(EXAMPLES)][1], folder)
        conn = sqlite3.connect(path, isolation_level=None)
        table = rng.choice(TABLES)
        other = rng.choice(TABLES)
        statements = [
            f"DROP TABLE {table}",
            f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS SELECT * FROM t_old",
            f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS SELECT a.* FROM t_old a, {other} b, "
            f"{other} c",
            f"ALTER TABLE {table} RENAME TO t_old; CREATE VIEW {table} AS WITH RECURSIVE r(i) AS (SELECT 1 UNION "
            f"ALL SELECT i + 1 FROM r) SELECT t_old.* FROM t_old, r",
            f"ALTER TABLE {table} ADD COLUMN extra TEXT",
            f"ALTER TABLE {table} ADD COLUMN g INTEGER AS (1) VIRTUAL",
            f"CREATE TRIGGER t AFTER INSERT ON {table} BEGIN SELECT 1; END",
            f"CREATE INDEX i_fuzz ON {table} ({rng.choice(['rowid', '1'])})",
            "CREATE TABLE stowaway (x)",
            f"PRAGMA user_version = {rng.choice([-1, 0, 1, 3, 2**31 - 1])}",
            f"PRAGMA application_id = {rng.choice([0, 1, -1])}",
        ]
        try:
            conn.executescript(rng.choice(statements))
        except sqlite3.Error:
            pass
        conn.close()
        return path

    outcomes = _run_kind("schema", tmp_path, make)
    assert outcomes["refused"] > 0


# --- TOML values and text --------------------------------------------------------------------------------------------


def _places(value: Any, path: tuple = ()) -> list[tuple]:
    out = [path] if path else []
    if isinstance(value, dict):
        for key, child in value.items():
            out += _places(child, (*path, key))
    elif isinstance(value, list):
        for i, child in enumerate(value):
            out += _places(child, (*path, i))
    return out


def _at(data: Any, place: tuple) -> Any:
    for key in place:
        data = data[key]
    return data


def _toml_value(rng: random.Random) -> Any:
    pick = rng.random()
    if pick < 0.5:
        return rng.choice(NASTY_NUMBERS)
    if pick < 0.8:
        return rng.choice(NASTY_TEXT[:-1] + ["A" * 5000])
    nested: Any = 1
    for _ in range(rng.choice([2, 10, 40])):
        nested = [nested]
    return rng.choice([True, [], {}, [1, "a"], {"k": float("inf")}, nested])


def test_fuzz_toml_values(originals, tmp_path: Path):
    def make(rng: random.Random, folder: Path) -> Path:
        data = tomllib.loads(originals[rng.choice(EXAMPLES)][0].read_text(encoding="utf-8"))
        for _ in range(rng.randint(1, 3)):
            places = _places(data)
            numeric = rng.random() < 0.5
            if numeric:  # half the time a number of the project gets a nasty number (nan, inf, 1e308, -1, ...)
                places = [p for p in places if type(_at(data, p)) in (int, float)]  # not bool
            place = rng.choice(places)
            parent = _at(data, place[:-1])
            action = rng.random()
            if numeric:
                parent[place[-1]] = rng.choice(NASTY_NUMBERS)
            elif action < 0.8:
                parent[place[-1]] = _toml_value(rng)
            elif action < 0.9 and isinstance(parent, dict):
                del parent[place[-1]]
            elif isinstance(parent, list):
                parent.append(parent[place[-1]])  # a duplicate (same id)
        path = folder / "mutated.toml"
        try:
            path.write_text(tomli_w.dumps(data), encoding="utf-8")
        except (TypeError, ValueError):
            path.write_text("format = 'storplan-project'\n", encoding="utf-8")
        return path

    outcomes = _run_kind("toml", tmp_path, make)
    assert outcomes["ok"] > 0 and outcomes["refused"] > 0


def test_fuzz_toml_text(originals, tmp_path: Path):
    def make(rng: random.Random, folder: Path) -> Path:
        data = bytearray(originals[rng.choice(EXAMPLES)][0].read_bytes())
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(data))
            choice = rng.random()
            if choice < 0.5:
                data[i] = rng.choice(b"[]{}=\"'#\n.,0123456789-+einfa \x00\xff")
            elif choice < 0.8:
                del data[i : i + rng.randint(1, 30)]
            else:
                data[i:i] = rng.choice([b"[" * 500, b"\xff\xfe", b"inf", b"nan", b"\n[[node]]\n", b"1e400"])
        path = folder / ("mutated.storplan" if rng.random() < 0.25 else "mutated.toml")  # text given as a .storplan
        path.write_bytes(bytes(data))
        return path

    _run_kind("toml_text", tmp_path, make)
